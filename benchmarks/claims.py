"""How long a claim takes to adjudicate (the dispute desk): exact searches, timed.

Run: ``python benchmarks/claims.py [--positions N] [--full N] [--limit SECONDS] [--quick]``,
or ``python benchmarks/claims.py --whole N [--limit SECONDS]`` for whole deals only.
Positions come from seeded random legal deals (every trick contract and the
four-contract combination, plain and with R9.4 penalty discards, some cut in
the middle of a trick); the claimant is a random seat claiming 0 ("no more
penalties"); Trix positions lay out a random layout and deal 6 cards to each
player, and a random seat claims 200 ("I go out first"). Every figure is the
whole :func:`solve_claim` / :func:`solve_trix_claim` call: the claim decided,
the exact value, and the defeating line when it fails.

Targets (median wall time): trick contracts with 6 cards per hand ≤ 0.1 s,
with 8 cards per hand ≤ 1 s; Trix with 6 cards per hand ≤ 0.5 s. Full
13-card deals are reported as the median time and the share decided within
the time limit (``--limit``, default 5 s). Wall and CPU time are both shown:
on a busy machine the CPU time is the steadier figure.

``--whole N`` times N seeded whole 13-card deals (deal ``n`` is the same
whatever N, so a small N is a subset of a large one): every trick contract
and several combinations (R9.6), plain and with R9.4 penalty discards. Per
deal it times the verdict on "no more penalties" (claim 0), the exact value,
and the verdict on a claim of exactly that value; each search alone, with
its own time limit (``--limit``, default 10 s). Targets: verdicts ≤ 1 s at
the median and within 10 s for every deal; the exact value ≤ 2 s at the
median.

``--zero`` (with ``--whole``) times only the verdicts on claim 0; ``--deals 7,14``
(with ``--whole``) runs only the deals so numbered.
``--budget NODES`` (with ``--whole``) also stops each search after that many
nodes, a limit that a busy machine does not move (about 190,000 nodes make a
second of CPU time on the test machine); the banded games' positions are
counted apart and not limited by it (``--off banded`` for searches that are).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from scorekeeper.rules.cards import FULL_DECK, KING_OF_HEARTS, QUEENS, indices_of
from scorekeeper.rules.claims.core import ALL_ON, ClaimResult, SearchOptions, SearchTimeout, mtd
from scorekeeper.rules.claims.search import TrickSearch, solve_claim, trick_search
from scorekeeper.rules.claims.trix import solve_trix_claim
from scorekeeper.rules.contracts import TRICK_CONTRACTS, Contract
from scorekeeper.rules.deals import random_cut_deal
from scorekeeper.rules.ruleset import Combination, RuleSet
from scorekeeper.rules.trix import Layout, frontier

Claim = Callable[[float], ClaimResult]
"""A prepared claim: give it a deadline, it answers."""


def trick_claim(rng: random.Random, n: int, cards: int) -> Claim:
    """The ``n``-th trick-contract claim with ``cards`` cards per hand still to play."""
    contracts = (TRICK_CONTRACTS[n % 4],) if n % 5 != 4 else TRICK_CONTRACTS
    rules = RuleSet(combination=Combination.ANY, penalty_discard=n % 2 == 1)
    king, _, hands, current, leader, broken = random_cut_deal(
        rng, rules, contracts, cards, mid=n % 3 == 0 and cards < 13
    )
    doubled = sum(1 << c.index for c in (KING_OF_HEARTS, *QUEENS) if rng.random() < 0.3)
    seat = rng.randrange(4)

    def run(deadline: float) -> ClaimResult:
        return solve_claim(
            rules, contracts, king, hands, current, leader, doubled, seat, 0, broken, deadline
        )

    return run


def trix_claim(rng: random.Random, per_hand: int) -> Claim:
    """A random layout, ``per_hand`` cards dealt to each player; a random seat claims 200."""
    played = 0
    while played.bit_count() < 52 - 4 * per_hand:
        played |= 1 << rng.choice(list(indices_of(frontier(played))))
    rest = list(indices_of(FULL_DECK ^ played))
    rng.shuffle(rest)
    hands = [sum(1 << c for c in rest[s * per_hand : (s + 1) * per_hand]) for s in range(4)]
    to_play, seat = rng.randrange(4), rng.randrange(4)

    def run(deadline: float) -> ClaimResult:
        return solve_trix_claim(RuleSet(), Layout(played), hands, to_play, [], seat, 200, deadline)

    return run


def measure(claims: list[Claim], limit: float) -> tuple[list[float], list[float], int]:
    """Wall times, CPU times, and how many claims were decided within ``limit``."""
    walls, cpus, decided = [], [], 0
    for claim in claims:
        wall, cpu = time.perf_counter(), time.process_time()
        result = claim(time.monotonic() + limit)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
        decided += result.decided
    return walls, cpus, decided


def report(name: str, claims: list[Claim], limit: float, target: float | None) -> None:
    walls, cpus, decided = measure(claims, limit)
    median = statistics.median(walls)
    verdict = (
        ""
        if target is None
        else f"  target ≤ {target:g} s: {'met' if median <= target else 'MISSED'}"
    )
    cpu = statistics.median(cpus)
    print(
        f"{name:<34} n={len(claims):<3} median {median:7.3f} s (cpu {cpu:.3f} s)"
        f"  max {max(walls):6.2f} s  decided {decided}/{len(claims)}{verdict}"
    )


K, Q, D, C = Contract.KING, Contract.QUEENS, Contract.DIAMONDS, Contract.COLLECTIONS
WHOLE_CONTRACTS = [(K,), (Q,), (D,), (C,), TRICK_CONTRACTS, (Q, D), (K, C)]


@dataclass
class Timing:
    """One search of one deal: seconds, nodes, and whether it finished in time."""

    seconds: float
    cpu: float
    nodes: int
    done: bool
    banded: int = 0
    """Positions the banded games searched (not in ``nodes``: each costs about ten nodes)."""
    holds: bool | None = None
    """A verdict's answer (None: not a verdict, or not decided)."""


def whole_deal(
    n: int, options: SearchOptions = ALL_ON, cards: int = 13, budget: int = 0
) -> Callable[[float], TrickSearch]:
    """Whole deal ``n`` (seeded by ``n`` alone), ``cards`` tricks to go: a fresh search of it
    for each deadline (and at most ``budget`` nodes, if given)."""
    rng = random.Random(f"whole deal {n}")
    contracts = WHOLE_CONTRACTS[n % len(WHOLE_CONTRACTS)]
    rules = RuleSet(combination=Combination.ANY, penalty_discard=n // len(WHOLE_CONTRACTS) % 2 == 1)
    king, _, hands, current, leader, broken = random_cut_deal(
        rng, rules, contracts, cards, mid=False
    )
    del king
    doubled = sum(1 << c.index for c in (KING_OF_HEARTS, *QUEENS) if rng.random() < 0.3)
    seat = rng.randrange(4)

    def fresh(deadline: float) -> TrickSearch:
        search = trick_search(
            rules,
            contracts,
            hands,
            current,
            leader,
            doubled,
            seat,
            broken,
            deadline,
            options=options,
        )
        if budget:
            limit_nodes(search, budget)
        return search

    return fresh


def limit_nodes(search: TrickSearch, budget: int) -> None:
    """Stop ``search`` after ``budget`` nodes: a limit that the machine's load does not move."""
    check_clock = search._check_clock

    def check() -> None:
        if search.nodes > budget:
            raise SearchTimeout
        check_clock()

    search._check_clock = check  # type: ignore[method-assign]


def timed(run: Callable[[], int | None], search: TrickSearch) -> tuple[Timing, int | None]:
    start, cpu = time.perf_counter(), time.process_time()
    try:
        answer = run()
    except SearchTimeout:
        answer = None
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    done = answer is not None
    return Timing(wall, cpu, search.nodes, done, search.banded_nodes), answer


def verdict(fresh: Callable[[float], TrickSearch], claim: int, limit: float) -> Timing:
    """The null-window search that decides a claim of ``claim``."""
    search = fresh(time.monotonic() + limit)
    timing, value = timed(lambda: search.value(claim - 1, claim), search)
    timing.holds = None if value is None else value >= claim
    return timing


def exact(fresh: Callable[[float], TrickSearch], limit: float) -> tuple[Timing, int | None]:
    """The exact value, as :func:`solve_claim` finds it without a claim."""
    search = fresh(time.monotonic() + limit)
    low, high = search.bounds()
    return timed(lambda: mtd(search, low, high, high), search)


def distribution(name: str, timings: list[Timing], target: float | None) -> None:
    seconds = sorted(t.seconds for t in timings)
    nodes = sorted(t.nodes for t in timings)
    cpu = statistics.median(t.cpu for t in timings)
    median, p90 = statistics.median(seconds), seconds[min(len(seconds) - 1, len(seconds) * 9 // 10)]
    done = sum(t.done for t in timings)
    met = "" if target is None else f"  ≤ {target:g} s: {'met' if median <= target else 'MISSED'}"
    print(
        f"{name:<20} n={len(timings):<3} median {median:6.3f} s (cpu {cpu:6.3f})  p90 {p90:6.3f} s"
        f"  max {seconds[-1]:6.3f} s  nodes median {statistics.median(nodes):>9,.0f}"
        f"  max {nodes[-1]:>10,}  sum {sum(nodes):>11,}  decided {done}/{len(timings)}{met}"
        f"  banded sum {sum(t.banded for t in timings):,}"
    )


def _timing(timing: Timing) -> str:
    done = "" if timing.done else " (not decided)"
    banded = f" + {timing.banded:,} banded" if timing.banded else ""
    answer = {None: "", True: " holds", False: " fails"}[timing.holds]
    return f"{timing.seconds:6.3f} s {timing.nodes:>9,} nodes{banded}{done}{answer}"


def whole(
    count: int,
    limit: float,
    verbose: bool,
    options: SearchOptions,
    cards: int,
    budget: int = 0,
    zero_only: bool = False,
    deals: list[int] | None = None,
) -> None:
    """Verdicts (claim 0, claim = exact value) and exact values of ``count`` whole deals
    (or of the deals numbered in ``deals``)."""
    zero, at_value, values = [], [], []
    for n in range(count) if deals is None else deals:
        fresh = whole_deal(n, options, cards, budget)
        zero.append(verdict(fresh, 0, limit))
        if zero_only:
            if verbose:
                print(f"deal {n:>2}: claim 0 {_timing(zero[-1])}", flush=True)
            continue
        value_timing, value = exact(fresh, limit)
        values.append(value_timing)
        at_value.append(verdict(fresh, value, limit) if value is not None else value_timing)
        if verbose:
            print(
                f"deal {n:>2}: value {value}  claim 0 {_timing(zero[-1])}"
                f"  exact {_timing(values[-1])}  claim value {_timing(at_value[-1])}",
                flush=True,
            )
    off = [name for name, on in vars(options).items() if not on]
    nodes = f" and {budget:,} nodes" if budget else ""
    print(
        f"{'whole deals' if cards == 13 else f'deals cut at {cards} cards'},"
        f" limit {limit:g} s{nodes} per search, off: {', '.join(off) or 'nothing'}"
    )
    distribution("verdict, claim 0", zero, 1.0)
    if zero_only:
        return
    distribution("verdict, claim value", at_value, 1.0)
    distribution("exact value", values, 2.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=30, help="claims per small set")
    parser.add_argument("--full", type=int, default=10, help="full 13-card deals")
    parser.add_argument(
        "--limit", type=float, help="time limit of a 13-card claim (5 s; --whole: 10 s a search)"
    )
    parser.add_argument("--quick", action="store_true", help="a few positions of each kind")
    parser.add_argument("--whole", type=int, default=0, help="only N seeded whole deals")
    parser.add_argument("--verbose", action="store_true", help="one line per whole deal")
    parser.add_argument("--cards", type=int, default=13, help="with --whole: cards per hand")
    parser.add_argument(
        "--budget", type=int, default=0, help="with --whole: also stop a search after N nodes"
    )
    parser.add_argument(
        "--zero", action="store_true", help="with --whole: only the verdicts on claim 0"
    )
    parser.add_argument("--deals", help="with --whole: only these deals, by number (e.g. 7,14,28)")
    parser.add_argument(
        "--off", action="append", default=[], choices=list(vars(ALL_ON)), help="a speed-up off"
    )
    args = parser.parse_args()
    if args.whole:
        options = replace(ALL_ON, **dict.fromkeys(args.off, False))
        limit = args.limit or 10.0
        deals = [int(n) for n in args.deals.split(",")] if args.deals else None
        whole(args.whole, limit, args.verbose, options, args.cards, args.budget, args.zero, deals)
        return
    count, full = (5, 3) if args.quick else (args.positions, args.full)
    rng = random.Random(2024)
    report("tricks, 6 cards per hand", [trick_claim(rng, n, 6) for n in range(count)], 60, 0.1)
    report("tricks, 8 cards per hand", [trick_claim(rng, n, 8) for n in range(count)], 60, 1.0)
    report("trix, 6 cards per hand", [trix_claim(rng, 6) for _ in range(count)], 60, 0.5)
    report("trix, 13 cards per hand", [trix_claim(rng, 13) for _ in range(full)], 60, None)
    deals, limit = [trick_claim(rng, n, 13) for n in range(full)], args.limit or 5.0
    report(f"tricks, full deals (limit {limit:g} s)", deals, limit, None)


if __name__ == "__main__":
    main()
