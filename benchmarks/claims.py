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

``--api`` (with ``--whole``) asks the same claims through the real API,
``POST /api/v1/check/claim`` on the app's test client (its claim pool and
solver process, as served), with ``time_limit`` ``--limit`` and
``exact_time_limit`` ``--exact`` (default: the server's, 2 s), and prints the
API's wall time beside the search's own (the verdict's null-window search
alone). The claim is ``--claim`` (default 0: "no more penalties"). Targets:
the verdict's median ≤ 1 s and at least 45 of 50 whole deals answered within
10 s; from 9 cards per hand (``--cards 9 --exact 10``) the exact value within
200,000 nodes at the median.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from scorekeeper.rules.cards import ALL_CARDS, FULL_DECK, KING_OF_HEARTS, QUEENS, indices_of
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


@dataclass(frozen=True)
class Position:
    """A claim's position: a seeded deal cut at some number of cards per hand."""

    rules: RuleSet
    contracts: tuple[Contract, ...]
    hands: list[int]
    current: list[int]
    leader: int
    broken: bool
    doubled: int
    seat: int

    def body(self, claim: int, limit: float, exact: float | None) -> dict[str, Any]:
        """The claim as ``POST /api/v1/check/claim`` takes it."""
        hand = [[str(ALL_CARDS[c]) for c in indices_of(h)] for h in self.hands]
        body: dict[str, Any] = {
            "rules": self.rules.to_dict(),
            "contracts": [c.value for c in self.contracts],
            "hands": {str(s): cards for s, cards in enumerate(hand)},
            "current_trick": [str(ALL_CARDS[c]) for c in self.current],
            "leader": self.leader,
            "hearts_broken": self.broken,
            "doubled": [str(ALL_CARDS[c]) for c in indices_of(self.doubled & self._doubleable())],
            "claim": {"seat": self.seat, "min_score": claim},
            "time_limit": limit,
        }
        return body if exact is None else body | {"exact_time_limit": exact}

    def _doubleable(self) -> int:
        """The doubled cards that count here (the searches ignore the others; the API
        refuses them): the K♥ in King of Hearts, the queens in Queens."""
        king = KING_OF_HEARTS.bit if Contract.KING in self.contracts else 0
        return king | (sum(q.bit for q in QUEENS) if Contract.QUEENS in self.contracts else 0)


def whole_position(n: int, cards: int = 13) -> Position:
    """Whole deal ``n`` (seeded by ``n`` alone), ``cards`` tricks to go."""
    rng = random.Random(f"whole deal {n}")
    contracts = WHOLE_CONTRACTS[n % len(WHOLE_CONTRACTS)]
    rules = RuleSet(combination=Combination.ANY, penalty_discard=n // len(WHOLE_CONTRACTS) % 2 == 1)
    king, _, hands, current, leader, broken = random_cut_deal(
        rng, rules, contracts, cards, mid=False
    )
    del king
    doubled = sum(1 << c.index for c in (KING_OF_HEARTS, *QUEENS) if rng.random() < 0.3)
    seat = rng.randrange(4)
    return Position(rules, tuple(contracts), hands, current, leader, broken, doubled, seat)


def whole_deal(
    n: int, options: SearchOptions = ALL_ON, cards: int = 13, budget: int = 0
) -> Callable[[float], TrickSearch]:
    """Whole deal ``n`` (seeded by ``n`` alone), ``cards`` tricks to go: a fresh search of it
    for each deadline (and at most ``budget`` nodes, if given)."""
    p = whole_position(n, cards)

    def fresh(deadline: float) -> TrickSearch:
        search = trick_search(
            p.rules,
            p.contracts,
            p.hands,
            p.current,
            p.leader,
            p.doubled,
            p.seat,
            p.broken,
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


@dataclass
class Asked:
    """One claim through the API: its wall time, and the search's own verdict beside it."""

    seconds: float
    answer: dict[str, Any]
    search: Timing


def through_api(
    count: int,
    limit: float,
    exact: float | None,
    cards: int,
    claim: int,
    verbose: bool,
    deals: list[int] | None = None,
) -> None:
    """Each deal's claim through ``POST /api/v1/check/claim`` (the app's test client, its
    claim pool and solver process), timed beside the verdict's search alone."""
    from scorekeeper import create_app
    from scorekeeper.web.disputes import pool

    with tempfile.TemporaryDirectory() as folder:
        config = {"TESTING": True, "SECRET_KEY": "benchmark", "CLAIM_FOLDER": folder}
        client = create_app({**config, "SQLALCHEMY_DATABASE_URI": "sqlite://"}).test_client()
        client.post("/api/v1/check/claim", json=whole_position(0, 1).body(0, limit, exact))
        asked = []  # the solver process is up and warm: its start-up is not counted above
        try:
            for n in range(count) if deals is None else deals:
                search = verdict(whole_deal(n, ALL_ON, cards), claim, limit)
                body = whole_position(n, cards).body(claim, limit, exact)
                start = time.perf_counter()
                answer = client.post("/api/v1/check/claim", json=body).get_json()
                assert answer["ok"], answer
                asked.append(Asked(time.perf_counter() - start, answer, search))
                if verbose:
                    print(f"deal {n:>2}: {_asked(asked[-1])}", flush=True)
        finally:
            pool.SOLVERS.close()
    budget = "the server's (2 s)" if exact is None else f"{exact:g} s"
    print(
        f"{'whole deals' if cards == 13 else f'deals cut at {cards} cards'}, claim {claim},"
        f" time_limit {limit:g} s, exact_time_limit {budget}"
    )
    distribution("search: verdict", [a.search for a in asked], 1.0)
    api = [
        Timing(a.seconds, 0.0, a.answer["nodes"], bool(a.answer["decided"]), holds=None)
        for a in asked
    ]
    distribution("API: whole answer", api, 1.0)
    within = sum(a.answer["decided"] and a.seconds <= 10 for a in asked)
    known = [a for a in asked if a.answer["guaranteed_known"]]
    nodes = statistics.median(a.answer["nodes"] for a in asked)
    print(
        f"API: ruled within 10 s {within}/{len(asked)} (target ≥ {len(asked) * 9 // 10})"
        f"  exact value known {len(known)}/{len(asked)}"
        f"  nodes median {nodes:,.0f} (exact value target ≤ 200,000 from 9 cards per hand)"
    )


def _asked(asked: Asked) -> str:
    answer = asked.answer
    ruling = {None: "not decided", True: "holds", False: "fails"}[answer["holds"]]
    value = answer["guaranteed"] if answer["guaranteed_known"] else "unknown"
    return (
        f"API {asked.seconds:6.3f} s {answer['nodes']:>9,} nodes {ruling}, exact {value},"
        f" line {len(answer['line'])}   search {_timing(asked.search)}"
    )


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
        "--api", action="store_true", help="with --whole: through POST /api/v1/check/claim"
    )
    parser.add_argument(
        "--exact", type=float, help="with --api: the claims' exact_time_limit (server's: 2 s)"
    )
    parser.add_argument("--claim", type=int, default=0, help="with --api: the score claimed")
    parser.add_argument(
        "--off", action="append", default=[], choices=list(vars(ALL_ON)), help="a speed-up off"
    )
    args = parser.parse_args()
    if args.whole:
        options = replace(ALL_ON, **dict.fromkeys(args.off, False))
        limit = args.limit or 10.0
        deals = [int(n) for n in args.deals.split(",")] if args.deals else None
        if args.api:
            api = (args.whole, limit, args.exact, args.cards, args.claim, args.verbose, deals)
            through_api(*api)
            return
        whole(args.whole, limit, args.verbose, options, args.cards, args.budget, args.zero, deals)
        return
    count, full = (5, 3) if args.quick else (args.positions, args.full)
    rng = random.Random(2024)
    report("tricks, 6 cards per hand", [trick_claim(rng, n, 6) for n in range(count)], 60, 0.1)
    report("tricks, 8 cards per hand", [trick_claim(rng, n, 8) for n in range(count)], 60, 1.0)
    report("trix, 6 cards per hand", [trix_claim(rng, 6) for _ in range(count)], 60, 0.5)
    report("trix, 13 cards per hand", [trix_claim(rng, 13) for _ in range(full)], 60, None)
    full_deals, limit = [trick_claim(rng, n, 13) for n in range(full)], args.limit or 5.0
    report(f"tricks, full deals (limit {limit:g} s)", full_deals, limit, None)


if __name__ == "__main__":
    main()
