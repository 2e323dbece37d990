"""The seat draw: everyone seated once or sitting out, fair sit-outs, few repeats."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.errors import IllegalError, MalformedError
from scorekeeper.rules.events.draw import (
    Meetings,
    Round,
    Table,
    draw_round,
    partitions,
    repeated_tablemates,
    repeats_lower_bound,
    replace_player,
    table_cost,
)
from tests.common import examples

NAMES = [f"P{i:02d}" for i in range(40)]


def run(players: list[str], rounds: int, seed: int, partnership: bool = False) -> list[Round]:
    history: list[Round] = []
    for _ in range(rounds):
        history.append(draw_round(players, history, seed, partnership=partnership))
    return history


@settings(max_examples=examples(60), deadline=None)
@given(n=st.integers(4, 40), rounds=st.integers(1, 6), seed=st.integers(0, 10**6))
def test_every_present_player_is_seated_once_or_sits_out(n: int, rounds: int, seed: int) -> None:
    players = NAMES[:n]
    for drawn in run(players, rounds, seed):
        seated = list(drawn.seated)
        assert len(seated) == len(set(seated)) == 4 * (n // 4)
        assert sorted(seated + list(drawn.sitting_out)) == sorted(players)
        assert len(drawn.sitting_out) == n % 4
        assert [t.number for t in drawn.tables] == list(range(1, n // 4 + 1))


@settings(max_examples=examples(60), deadline=None)
@given(n=st.integers(5, 23), rounds=st.integers(1, 12), seed=st.integers(0, 10**6))
def test_nobody_sits_out_twice_before_everyone_has_once(n: int, rounds: int, seed: int) -> None:
    counts = dict.fromkeys(NAMES[:n], 0)
    for drawn in run(NAMES[:n], rounds, seed):
        for name in drawn.sitting_out:
            counts[name] += 1
        assert max(counts.values()) - min(counts.values()) <= 1


@settings(max_examples=examples(30), deadline=None)
@given(n=st.sampled_from([8, 9, 10, 11, 12]), rounds=st.integers(1, 4), seed=st.integers(0, 10**6))
def test_each_round_adds_the_fewest_repeats_possible_small_cases_by_brute_force(
    n: int, rounds: int, seed: int
) -> None:
    history = run(NAMES[:n], rounds - 1, seed)
    drawn = draw_round(NAMES[:n], history, seed)
    meetings = Meetings.of(history)
    added = sum(table_cost(t.seats, meetings, False) for t in drawn.tables)
    best = min(
        sum(table_cost(group, meetings, False) for group in groups)
        for groups in partitions(list(drawn.seated))
    )
    assert added == best


@settings(max_examples=examples(20), deadline=None)
@given(n=st.sampled_from([8, 12]), seed=st.integers(0, 10**6))
def test_partners_never_repeat_while_the_numbers_allow(n: int, seed: int) -> None:
    history = run(NAMES[:n], n // 2, seed, partnership=True)
    pairs = [frozenset(p) for r in history for t in r.tables for p in t.partners()]
    assert len(pairs) == len(set(pairs))


def test_partners_sit_opposite_each_other() -> None:
    drawn = draw_round(NAMES[:8], [], 1, partnership=True)
    for table in drawn.tables:
        assert table.partners() == (
            (table.seats[0], table.seats[2]),
            (table.seats[1], table.seats[3]),
        )


def test_the_same_seed_draws_the_same_round_and_another_seed_another() -> None:
    assert run(NAMES[:20], 3, 42) == run(NAMES[:20], 3, 42)
    assert run(NAMES[:20], 3, 42) != run(NAMES[:20], 3, 43)
    assert run(NAMES[:20], 2, 42)[1].seed == "42-2"


def test_a_late_arrival_joins_from_the_next_round() -> None:
    first = draw_round(NAMES[:8], [], 5)
    second = draw_round(NAMES[:9], [first], 5)
    assert "P08" not in first.seated
    # He missed round 1, which counts as a sit-out: someone else sits out now.
    assert second.sitting_out != ("P08",)


def test_a_leaving_player_is_replaced_in_his_seat_by_the_one_sitting_out() -> None:
    drawn = draw_round(NAMES[:9], [], 3)
    leaving = drawn.tables[1].seats[2]
    substitute = drawn.sitting_out[0]
    changed = replace_player(drawn, leaving, substitute)
    assert changed.tables[1].seats[2] == substitute
    assert changed.sitting_out == ()
    assert changed.tables[0] == drawn.tables[0]


def test_replacing_someone_without_a_seat_or_by_someone_seated_is_refused() -> None:
    drawn = draw_round(NAMES[:9], [], 3)
    with pytest.raises(IllegalError, match="has no seat in round 1"):
        replace_player(drawn, drawn.sitting_out[0], "New")
    with pytest.raises(IllegalError, match="already has a seat"):
        replace_player(drawn, drawn.tables[0].seats[0], drawn.tables[1].seats[0])


def test_too_few_players_or_a_name_twice_is_refused() -> None:
    with pytest.raises(IllegalError, match="at least 4 players present; there are 3"):
        draw_round(NAMES[:3], [], 1)
    with pytest.raises(MalformedError, match="rana is listed twice among the players"):
        draw_round(["Rana", "Sami", "Omar", "rana"], [], 1)


def test_repeats_are_counted_against_what_no_draw_could_avoid() -> None:
    table = Table(1, ("a", "b", "c", "d"))
    rounds = [Round(1, "s", (table,), ()), Round(2, "s", (table,), ())]
    assert repeated_tablemates(rounds) == repeats_lower_bound(rounds) == 6
    history = run(NAMES[:16], 5, 9)
    assert repeated_tablemates(history) >= repeats_lower_bound(history) == 0


def test_800_players_over_8_rounds_meet_no_one_twice() -> None:
    players = [f"Player {i}" for i in range(800)]
    history = run(players, 8, 2024)  # how fast: benchmarks/events_draw.py
    assert repeated_tablemates(history) == repeats_lower_bound(history) == 0


def test_partitions_lists_every_split_once() -> None:
    splits = list(partitions(NAMES[:8]))
    assert len(splits) == 35
    assert len({frozenset(frozenset(g) for g in s) for s in splits}) == 35
    assert all(sorted(itertools.chain(*s)) == NAMES[:8] for s in splits)


@settings(max_examples=examples(60), deadline=None)
@given(
    n=st.integers(5, 30),
    rounds=st.integers(2, 6),
    seed=st.integers(0, 10**6),
    data=st.data(),
)
def test_players_who_leave_replaced_are_never_drawn_again_and_the_rest_still_are(
    n: int, rounds: int, seed: int, data: st.DataObject
) -> None:
    """Players leave mid-round (someone sitting out takes the seat) and the later draws run
    on those present: each seated once or sitting out, the leavers never."""
    present = NAMES[:n]
    left: list[str] = []
    history: list[Round] = []
    for _ in range(rounds):
        drawn = draw_round(present, history, seed)
        assert sorted([*drawn.seated, *drawn.sitting_out]) == sorted(present)
        assert not set(left) & {*drawn.seated, *drawn.sitting_out}
        if drawn.sitting_out and len(present) > 5 and data.draw(st.booleans()):
            leaving = data.draw(st.sampled_from(sorted(drawn.seated)))
            substitute = data.draw(st.sampled_from(sorted(drawn.sitting_out)))
            drawn = replace_player(drawn, leaving, substitute)
            assert leaving not in drawn.seated and substitute in drawn.seated
            assert len(set(drawn.seated)) == len(drawn.seated)
            present = [p for p in present if p != leaving]
            left.append(leaving)
        history.append(drawn)
