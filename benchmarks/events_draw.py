"""Seat draws for club nights: 800 players over 8 rounds, and denser small events.

Prints the time of each whole event's draws and its repeated tablemates against
the lower bound no draw can beat (repeated partnerships too, in partnership
events). Target: 800 players x 8 rounds under 1 s, with no repeat (bound 0).

    .venv/bin/python benchmarks/events_draw.py
"""

from __future__ import annotations

import time

from scorekeeper.rules.events.draw import (
    Round,
    draw_round,
    repeated_tablemates,
    repeats_lower_bound,
)

CASES = [(800, 8), (802, 8), (100, 12), (32, 10), (24, 8), (20, 7), (16, 5), (13, 6)]
TARGET_SECONDS = 1.0


def partner_repeats(rounds: list[Round]) -> int:
    counts: dict[frozenset[str], int] = {}
    for played in rounds:
        for table in played.tables:
            for pair in table.partners():
                key = frozenset(pair)
                counts[key] = counts.get(key, 0) + 1
    return sum(count - 1 for count in counts.values())


def run(players: int, rounds: int, partnership: bool) -> tuple[float, list[Round]]:
    names = [f"Player {i}" for i in range(players)]
    history: list[Round] = []
    started = time.perf_counter()
    for _ in range(rounds):
        history.append(draw_round(names, history, 2024, partnership=partnership))
    return time.perf_counter() - started, history


def main() -> None:
    print(f"{'event':<24}{'seconds':>9}{'repeats':>9}{'bound':>7}{'partners again':>16}")
    for players, rounds in CASES:
        for partnership in (False, True):
            seconds, history = run(players, rounds, partnership)
            label = f"{players} x {rounds} {'partnership' if partnership else 'individual'}"
            again = str(partner_repeats(history)) if partnership else "-"
            print(
                f"{label:<24}{seconds:>9.3f}{repeated_tablemates(history):>9}"
                f"{repeats_lower_bound(history):>7}{again:>16}"
            )
    seconds, history = run(800, 8, False)
    verdict = "ok" if seconds < TARGET_SECONDS else "TOO SLOW"
    print(f"800 players x 8 rounds: {seconds:.3f} s (target < {TARGET_SECONDS} s): {verdict}")


if __name__ == "__main__":
    main()
