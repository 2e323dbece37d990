"""Fixed rotations: every round seats everyone once, and pairs meet as evenly as can be."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import pytest

from scorekeeper.rules.events.rotations import SIZES, player_order, rotation_round, schedule

NAMES = [f"P{i:02d}" for i in range(16)]


def pair_counts(players: int, rounds: int) -> Counter[frozenset[int]]:
    counts: Counter[frozenset[int]] = Counter(
        {frozenset(pair): 0 for pair in itertools.combinations(range(players), 2)}
    )
    cycle = schedule(players)
    for number in range(rounds):
        for table in cycle[number % len(cycle)]:
            counts.update(frozenset(pair) for pair in itertools.combinations(table, 2))
    return counts


@pytest.mark.parametrize("players", SIZES)
def test_every_round_of_a_rotation_seats_every_player_once_at_tables_of_four(
    players: int,
) -> None:
    for tables in schedule(players):
        assert all(len(table) == 4 for table in tables)
        assert sorted(i for table in tables for i in table) == list(range(players))


@pytest.mark.parametrize(("players", "rounds", "times"), [(16, 5, 1), (12, 11, 3), (8, 7, 3)])
def test_over_a_whole_cycle_every_pair_meets_the_same_number_of_times(
    players: int, rounds: int, times: int
) -> None:
    assert len(schedule(players)) == rounds
    assert set(pair_counts(players, rounds).values()) == {times}
    # The cycle starts again: two cycles, twice as many meetings, still even.
    assert set(pair_counts(players, 2 * rounds).values()) == {2 * times}


def forced_most(players: int, rounds: int) -> int:
    """The fewest meetings of the most met pair after ``rounds`` rounds: each player meets
    3 a round among ``players - 1``; from round 2 some pair meets twice whenever round 1's
    tables are fewer than four (a table of round 2 takes two of one table of round 1)."""
    even = math.ceil(3 * rounds / (players - 1))
    return max(even, 2) if rounds >= 2 and players // 4 < 4 else even


@pytest.mark.parametrize(
    ("players", "rounds"),
    [(16, r) for r in range(1, 6)]
    + [(8, r) for r in range(1, 8)]
    + [(12, r) for r in (1, 2, 3, 4)],
)
def test_no_pair_meets_more_often_than_the_count_forces_round_after_round(
    players: int, rounds: int
) -> None:
    assert max(pair_counts(players, rounds).values()) == forced_most(players, rounds)


def test_twelve_players_meet_at_most_three_times_in_any_part_of_the_cycle() -> None:
    """From round 5 the twelve-player design lets a pair meet a third time (one more than
    an even spread, for the sake of every pair meeting exactly three times by round 11)."""
    for rounds in range(5, 12):
        assert max(pair_counts(12, rounds).values()) == 3


def test_a_rotation_round_names_the_players_in_an_order_drawn_once_for_the_night() -> None:
    first = rotation_round(NAMES, 7, 1)
    assert rotation_round(NAMES, 7, 1) == first
    assert rotation_round(list(reversed(NAMES)), 7, 1) == first
    assert rotation_round(NAMES, 8, 1) != first
    assert rotation_round(NAMES, 7, 6) == first  # 16 players: a cycle of 5 rounds
    assert sorted(player_order(NAMES, 7)) == NAMES


def test_no_rotation_exists_for_other_counts() -> None:
    assert [n for n in range(4, 40) if schedule(n)] == [8, 12, 16]
