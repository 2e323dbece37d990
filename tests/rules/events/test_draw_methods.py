"""The night's draw methods: avoid repeats, Swiss, fixed rotation."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.events.draw import DrawMethod, Round, draw_round
from scorekeeper.rules.events.grouping import Meetings, table_cost
from tests.common import examples

NAMES = [f"P{i:02d}" for i in range(64)]


def run(
    players: Sequence[str], rounds: int, seed: int, method: DrawMethod, standings: list[str]
) -> list[Round]:
    history: list[Round] = []
    for _ in range(rounds):
        history.append(draw_round(players, history, seed, method=method, standings=standings))
    return history


@settings(max_examples=examples(90), deadline=None)
@given(
    n=st.integers(4, 40),
    rounds=st.integers(1, 8),
    seed=st.integers(0, 10**6),
    method=st.sampled_from(DrawMethod),
    data=st.data(),
)
def test_every_method_seats_each_player_at_most_once_and_sits_out_the_least_sat_out(
    n: int, rounds: int, seed: int, method: DrawMethod, data: st.DataObject
) -> None:
    players = NAMES[:n]
    standings = data.draw(st.permutations(players))
    times = dict.fromkeys(players, 0)
    for drawn in run(players, rounds, seed, method, standings):
        seated = list(drawn.seated)
        assert len(seated) == len(set(seated)) == 4 * (n // 4)
        assert all(len(set(t.seats)) == 4 for t in drawn.tables)
        assert sorted(seated + list(drawn.sitting_out)) == sorted(players)
        if drawn.sitting_out:
            assert max(times[p] for p in drawn.sitting_out) <= min(times[p] for p in seated)
        for name in drawn.sitting_out:
            times[name] += 1
        assert max(times.values()) - min(times.values()) <= 1


def chunks(names: Sequence[str]) -> list[list[str]]:
    return [list(names[i : i + 4]) for i in range(0, len(names), 4)]


@settings(max_examples=examples(90), deadline=None)
@given(n=st.integers(8, 40), seed=st.integers(0, 10**6), data=st.data())
def test_a_swiss_round_seats_the_standings_four_by_four_swapping_only_to_avoid_repeats(
    n: int, seed: int, data: st.DataObject
) -> None:
    players = NAMES[:n]
    first = draw_round(players, [], seed)
    standings = data.draw(st.permutations(players))
    drawn = draw_round(players, [first], seed, method=DrawMethod.SWISS, standings=standings)
    meetings = Meetings.of([first])
    # Those who played round 1 are the ones to sit out; of them, the lowest placed.
    entitled = [p for p in standings if p not in first.sitting_out]
    out = set(drawn.sitting_out)
    assert out == set(entitled[len(entitled) - len(out) :])
    ranked = [p for p in standings if p not in out]
    plain = chunks(ranked)
    tables = [list(t.seats) for t in drawn.tables]
    cost = sum(table_cost(t, meetings, False) for t in tables)
    assert cost <= sum(table_cost(t, meetings, False) for t in plain)
    if all(table_cost(t, meetings, False) == 0 for t in plain):
        assert [set(t) for t in tables] == [set(t) for t in plain]


def test_a_swiss_night_seats_its_top_four_together_from_round_2() -> None:
    players = NAMES[:16]
    first = draw_round(players, [], 3)
    # The leaders come from four different tables of round 1: nobody has met.
    leaders = [t.seats[0] for t in first.tables]
    standings = leaders + [p for p in players if p not in leaders]
    second = draw_round(players, [first], 3, method=DrawMethod.SWISS, standings=standings)
    assert set(second.tables[0].seats) == set(leaders)
    # Round 1 of a Swiss night has no standings to follow: drawn to avoid repeats.
    assert draw_round(players, [], 3, method=DrawMethod.SWISS) == first


def test_a_swiss_table_that_would_repeat_swaps_with_the_next_table() -> None:
    players = NAMES[:8]
    first = draw_round(players, [], 1)
    standings = list(first.tables[0].seats) + list(first.tables[1].seats)
    second = draw_round(players, [first], 1, method=DrawMethod.SWISS, standings=standings)
    meetings = Meetings.of([first])
    # Eight players from two tables: two repeats per table at best (2 + 2 from each).
    assert [table_cost(t.seats, meetings, False) for t in second.tables] == [2, 2]


def test_a_rotation_night_of_16_meets_every_pair_exactly_once_in_5_rounds() -> None:
    history = run(NAMES[:16], 5, 11, DrawMethod.ROTATION, [])
    counts: dict[frozenset[str], int] = {}
    for drawn in history:
        for table in drawn.tables:
            for pair in itertools.combinations(table.seats, 2):
                counts[frozenset(pair)] = counts.get(frozenset(pair), 0) + 1
    assert len(counts) == 120 and set(counts.values()) == {1}


def test_a_rotation_round_with_another_count_present_avoids_repeats_instead() -> None:
    """A late arrival makes 13: that round is drawn as an avoid-repeats round."""
    history = run(NAMES[:12], 2, 5, DrawMethod.ROTATION, [])
    third = draw_round(NAMES[:13], history, 5, method=DrawMethod.ROTATION)
    assert third == draw_round(NAMES[:13], history, 5)
    assert len(third.sitting_out) == 1
