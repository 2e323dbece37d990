"""How many complete Trix deals (R7) can be replayed per second on one core.

Run from the repository root: ``python benchmarks/replay_trix.py [games] [runs]``.
The games are generated and parsed first; only :func:`replay_trix` is timed, once
with the hands given and once with the hands derived from the record.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.timing import best_seconds  # noqa: E402
from scorekeeper.rules.deals import random_trix  # noqa: E402
from scorekeeper.rules.ruleset import RuleSet  # noqa: E402
from scorekeeper.rules.trix import replay_trix  # noqa: E402


def best_rate(replay_all: Callable[[], None], games: int, runs: int) -> float:
    """Games per second of the fastest of ``runs`` runs."""
    return games / best_seconds(replay_all, runs)


def main(games: int = 1000, runs: int = 7) -> None:
    rules = RuleSet()
    rng = random.Random(2024)
    deals = [(king, *random_trix(rng, rules, king)) for king in (i % 4 for i in range(games))]
    turns = sum(len(plays) for _, _, plays in deals)

    def with_hands() -> None:
        for king, hands, plays in deals:
            replay_trix(rules, king, plays, hands)

    def without_hands() -> None:
        for king, _, plays in deals:
            replay_trix(rules, king, plays)

    print(f"{games} random complete Trix deals, {turns / games:.1f} turns each, best of {runs}")
    print(f"  with hands:    {best_rate(with_hands, games, runs):9,.0f} games/s")
    print(f"  without hands: {best_rate(without_hands, games, runs):9,.0f} games/s")


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:3]))
