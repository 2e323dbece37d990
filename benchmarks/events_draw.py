"""Seat draws for club nights: 800 players over 8 rounds, denser small events, the
nights with sit-outs, and each draw method.

Prints, for each night, the time of all its draws and of its slowest round, the states
the exact search visited over the night and in its costliest round (``nodes``, ``max``:
counts that a busy machine does not inflate), its repeated tablemates against the lower
bound no draw can beat, how often the pair met most met (``most``), and repeated
partnerships in partnership events. Targets: 800 players x 8 rounds under 1 s with no
repeat (bound 0); no round slower than 0.5 s on a quiet machine (the exact search's
nights, up to 16 players at tables, over as many as 25 rounds). A Swiss night is drawn
here by a fixed order of the players, standings that never change: its repeats are the
most a Swiss draw can make.

    .venv/bin/python benchmarks/events_draw.py            # every table below
    .venv/bin/python benchmarks/events_draw.py --quick    # without the 25-round nights
    .venv/bin/python benchmarks/events_draw.py --dense    # only the 25-round nights
"""

from __future__ import annotations

import argparse
import itertools
import time
from dataclasses import dataclass, field

from scorekeeper.rules.events import grouping
from scorekeeper.rules.events.draw import (
    DrawMethod,
    Round,
    draw_round,
    repeated_tablemates,
    repeats_lower_bound,
)

CASES = [(800, 8), (802, 8), (100, 12), (63, 6), (61, 6), (32, 10), (24, 8), (20, 7), (16, 5)]
CASES += [(15, 3), (15, 6), (13, 6), (19, 6)]
DENSE = [(12, 25), (15, 25), (16, 25), (19, 25)]
"""Nights far denser than a real one: the exact search's worst rounds."""
METHODS = [(16, 5), (12, 11), (8, 7), (15, 6)]
TARGET_SECONDS = 1.0
ROUND_TARGET = 0.5


NODES: list[int] = []
"""The states of each exact search run so far."""
_exact_run = grouping.ExactSearch.run


def _counted_run(self: grouping.ExactSearch, start: grouping.Split, cost: int) -> grouping.Split:
    try:
        return _exact_run(self, start, cost)
    finally:
        NODES.append(self.nodes)


grouping.ExactSearch.run = _counted_run  # type: ignore[method-assign]


def partner_repeats(rounds: list[Round]) -> int:
    counts: dict[frozenset[str], int] = {}
    for played in rounds:
        for table in played.tables:
            for pair in table.partners():
                key = frozenset(pair)
                counts[key] = counts.get(key, 0) + 1
    return sum(count - 1 for count in counts.values())


@dataclass
class Night:
    total: float = 0.0
    slowest: float = 0.0
    nodes: int = 0
    most_nodes: int = 0
    history: list[Round] = field(default_factory=list)


def run(
    players: int, rounds: int, partnership: bool, method: DrawMethod = DrawMethod.AVOID_REPEATS
) -> Night:
    """The night's total time, its slowest round's, the exact search's states, its rounds."""
    names = [f"Player {i}" for i in range(players)]
    night = Night()
    history = night.history
    for _ in range(rounds):
        NODES.clear()
        # Swiss by a fixed order (the standings' ranks do not change the draw's cost).
        started = time.perf_counter()
        drawn = draw_round(
            names, history, 2024, partnership=partnership, method=method, standings=names
        )
        spent = time.perf_counter() - started
        night.total, night.slowest = night.total + spent, max(night.slowest, spent)
        night.nodes += sum(NODES)
        night.most_nodes = max(night.most_nodes, sum(NODES))
        history.append(drawn)
    return night


def most_met(rounds: list[Round]) -> int:
    """How often the pair that met most met (a rotation's evenness)."""
    counts: dict[frozenset[str], int] = {}
    for played in rounds:
        for t in played.tables:
            for pair in itertools.combinations(t.seats, 2):
                counts[frozenset(pair)] = counts.get(frozenset(pair), 0) + 1
    return max(counts.values(), default=0)


def line(label: str, night: Night, again: str) -> None:
    history = night.history
    print(
        f"{label:<34}{night.total:>9.3f}{night.slowest:>9.3f}{night.nodes:>9}"
        f"{night.most_nodes:>7}{repeated_tablemates(history):>9}"
        f"{repeats_lower_bound(history):>7}{most_met(history):>6}{again:>16}"
    )


def table(cases: list[tuple[int, int]]) -> float:
    """Every case, individual and partnership; the slowest round of all."""
    worst = 0.0
    for players, rounds in cases:
        for partnership in (False, True):
            night = run(players, rounds, partnership)
            label = f"{players} x {rounds} {'partnership' if partnership else 'individual'}"
            again = str(partner_repeats(night.history)) if partnership else "-"
            line(label, night, again)
            worst = max(worst, night.slowest)
    return worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="leave out the 25-round nights")
    parser.add_argument("--dense", action="store_true", help="only the 25-round nights")
    args = parser.parse_args()
    print(
        f"{'night':<34}{'seconds':>9}{'slowest':>9}{'nodes':>9}{'max':>7}{'repeats':>9}"
        f"{'bound':>7}{'most':>6}{'partners again':>16}"
    )
    if args.dense:
        worst = table(DENSE)
        verdict = "ok" if worst < ROUND_TARGET else "TOO SLOW (or a busy machine)"
        print(f"slowest round: {worst:.3f} s (target < {ROUND_TARGET} s): {verdict}")
        return
    worst = table(CASES + ([] if args.quick else DENSE))
    for players, rounds in METHODS:
        for method in DrawMethod:
            line(f"{players} x {rounds} {method.value}", run(players, rounds, False, method), "-")
    total = run(800, 8, False).total
    verdict = "ok" if total < TARGET_SECONDS else "TOO SLOW"
    print(f"800 players x 8 rounds: {total:.3f} s (target < {TARGET_SECONDS} s): {verdict}")
    verdict = "ok" if worst < ROUND_TARGET else "TOO SLOW (or a busy machine)"
    print(f"slowest round: {worst:.3f} s (target < {ROUND_TARGET} s): {verdict}")


if __name__ == "__main__":
    main()
