"""Fixed rotations: schedules known in advance for 8, 12 and 16 players.

Each schedule is a cycle of rounds; a round is its tables, a table four player
indices. Over a whole cycle every pair of players meets the same number of
times, and every prefix stays as even as these designs let it:

- 16 players, 5 rounds: the lines of the affine plane of order 4 (points
  ``4x + y`` over GF(4), a round per direction): every pair meets exactly once.
- 12 players, 11 rounds: a resolvable design of blocks of four with every pair
  in three (the base round ``{11, 0, 1, 3}``, ``{2, 6, 7, 9}``, ``{4, 5, 8, 10}``
  turned by +1 mod 11, 11 standing still), its rounds ordered so that no pair
  meets a third time before round 5 (a second meeting is forced in round 2:
  three tables of round 1 cannot give a table of four who never met).
- 8 players, 7 rounds: every pair meets exactly three times, never a second time
  in round 1, never a third before round 5 (a second meeting is forced in round
  2, as for 12).

The draw plays round ``(n - 1) mod len(cycle)`` of the cycle, the players taken
in an order drawn once for the night (:func:`player_order`).

>>> len(schedule(16)), len(schedule(12)), len(schedule(8)), schedule(9)
(5, 11, 7, ())
"""

from __future__ import annotations

import random
from collections.abc import Sequence

Schedule = tuple[tuple[tuple[int, int, int, int], ...], ...]

SIXTEEN: Schedule = (
    ((0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11), (12, 13, 14, 15)),
    ((0, 4, 8, 12), (1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15)),
    ((0, 5, 10, 15), (1, 4, 11, 14), (2, 7, 8, 13), (3, 6, 9, 12)),
    ((0, 6, 11, 13), (1, 7, 10, 12), (2, 4, 9, 15), (3, 5, 8, 14)),
    ((0, 7, 9, 14), (1, 6, 8, 15), (2, 5, 11, 12), (3, 4, 10, 13)),
)
TWELVE: Schedule = (
    ((0, 1, 3, 11), (2, 6, 7, 9), (4, 5, 8, 10)),
    ((1, 2, 4, 11), (3, 7, 8, 10), (0, 5, 6, 9)),
    ((2, 3, 5, 11), (0, 4, 8, 9), (1, 6, 7, 10)),
    ((4, 5, 7, 11), (0, 2, 6, 10), (1, 3, 8, 9)),
    ((3, 4, 6, 11), (1, 5, 9, 10), (0, 2, 7, 8)),
    ((5, 6, 8, 11), (0, 1, 3, 7), (2, 4, 9, 10)),
    ((6, 7, 9, 11), (1, 2, 4, 8), (0, 3, 5, 10)),
    ((7, 8, 10, 11), (2, 3, 5, 9), (0, 1, 4, 6)),
    ((0, 8, 9, 11), (3, 4, 6, 10), (1, 2, 5, 7)),
    ((1, 9, 10, 11), (0, 4, 5, 7), (2, 3, 6, 8)),
    ((0, 2, 10, 11), (1, 5, 6, 8), (3, 4, 7, 9)),
)
EIGHT: Schedule = (
    ((0, 1, 3, 6), (2, 4, 5, 7)),
    ((0, 3, 4, 5), (1, 2, 6, 7)),
    ((0, 1, 2, 5), (3, 4, 6, 7)),
    ((0, 2, 4, 6), (1, 3, 5, 7)),
    ((0, 1, 4, 7), (2, 3, 5, 6)),
    ((0, 5, 6, 7), (1, 2, 3, 4)),
    ((0, 2, 3, 7), (1, 4, 5, 6)),
)
SCHEDULES: dict[int, Schedule] = {8: EIGHT, 12: TWELVE, 16: SIXTEEN}
SIZES = tuple(sorted(SCHEDULES))
"""The player counts a fixed rotation exists for."""


def schedule(players: int) -> Schedule:
    """The cycle for this many players, or ``()`` when there is none."""
    return SCHEDULES.get(players, ())


def player_order(present: Sequence[str], seed: int) -> list[str]:
    """The players in the order the schedule numbers them: drawn once for the night (the
    same in every round while the same players are present), so that friends listed side
    by side do not all share the first round's table.

    >>> player_order(["A", "B", "C"], 7) == player_order(["A", "B", "C"], 7)
    True
    """
    order = sorted(present)
    random.Random(f"{seed}-rotation").shuffle(order)
    return order


def rotation_round(present: Sequence[str], seed: int, number: int) -> list[list[str]]:
    """Round ``number``'s tables for ``present`` (a count :data:`SIZES` holds)."""
    cycle = SCHEDULES[len(present)]
    order = player_order(present, seed)
    return [[order[i] for i in table] for table in cycle[(number - 1) % len(cycle)]]
