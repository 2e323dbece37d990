"""How long a claim takes to adjudicate (the dispute desk): exact searches, timed.

Run: ``python benchmarks/claims.py [--positions N] [--full N] [--limit SECONDS] [--quick]``.
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
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from scorekeeper.rules.cards import FULL_DECK, KING_OF_HEARTS, QUEENS, indices_of
from scorekeeper.rules.claims.core import ClaimResult
from scorekeeper.rules.claims.search import solve_claim
from scorekeeper.rules.claims.trix import solve_trix_claim
from scorekeeper.rules.contracts import TRICK_CONTRACTS
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=30, help="claims per small set")
    parser.add_argument("--full", type=int, default=10, help="full 13-card deals")
    parser.add_argument("--limit", type=float, default=5.0, help="time limit of a 13-card claim")
    parser.add_argument("--quick", action="store_true", help="a few positions of each kind")
    args = parser.parse_args()
    count, full = (5, 3) if args.quick else (args.positions, args.full)
    rng = random.Random(2024)
    report("tricks, 6 cards per hand", [trick_claim(rng, n, 6) for n in range(count)], 60, 0.1)
    report("tricks, 8 cards per hand", [trick_claim(rng, n, 8) for n in range(count)], 60, 1.0)
    report("trix, 6 cards per hand", [trix_claim(rng, 6) for _ in range(count)], 60, 0.5)
    report("trix, 13 cards per hand", [trix_claim(rng, 13) for _ in range(full)], 60, None)
    deals = [trick_claim(rng, n, 13) for n in range(full)]
    report(f"tricks, full deals (limit {args.limit:g} s)", deals, args.limit, None)


if __name__ == "__main__":
    main()
