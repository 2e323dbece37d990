"""The split into tables and sit-outs: no repeat a fair draw could avoid.

The draw's own search (scorekeeper/rules/events/grouping.py) is checked against a
brute force written here apart from it: every fair set of sit-outs with every split
of the others into tables, pruned only by the cost reached so far.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.events.draw import Round, Table, draw_round
from scorekeeper.rules.events.grouping import Bench, Meetings, split_pool
from tests.common import examples

NAMES = [f"P{i:02d}" for i in range(64)]
Met = dict[frozenset[str], int]


def history_of(players: Sequence[str], orders: Sequence[Sequence[int]]) -> list[Round]:
    """Past rounds in any order: each a permutation of the players, seated four by four,
    the last ``n % 4`` sitting out."""
    rounds = []
    for number, order in enumerate(orders, 1):
        names = [players[i] for i in order]
        seated = len(names) - len(names) % 4
        tables = tuple(
            Table(t + 1, (names[4 * t], names[4 * t + 1], names[4 * t + 2], names[4 * t + 3]))
            for t in range(seated // 4)
        )
        rounds.append(Round(number, "s", tables, tuple(names[seated:])))
    return rounds


def meetings_of(history: Sequence[Round]) -> Met:
    met: Met = {}
    for played in history:
        for table in played.tables:
            for pair in itertools.combinations(table.seats, 2):
                key = frozenset(pair)
                met[key] = met.get(key, 0) + 1
    return met


def sat_out(history: Sequence[Round], name: str) -> int:
    return sum(name not in played.seated for played in history)


def repeats(groups: Sequence[Sequence[str]], met: Met) -> int:
    return sum(met.get(frozenset(pair), 0) for g in groups for pair in itertools.combinations(g, 2))


def fewest_repeats(present: Sequence[str], history: Sequence[Round], below: int) -> int:
    """The fewest repeats of any fair draw (sit-outs have sat out no more than anyone
    seated), if fewer than ``below``; else ``below``."""
    met = meetings_of(history)
    times = {name: sat_out(history, name) for name in present}
    out = len(present) % 4

    def fair(bench: Sequence[str], seated: Sequence[str]) -> bool:
        return max((times[b] for b in bench), default=0) <= min(times[s] for s in seated)

    def search(free: list[str], bench: list[str], cost: int, best: int) -> int:
        if not free:
            return cost if cost < best else best
        first, rest = free[0], free[1:]
        if len(bench) < out:
            best = search(rest, [*bench, first], cost, best)
        if len(rest) < 3 + out - len(bench):
            return best
        for others in itertools.combinations(rest, 3):
            added = repeats([(first, *others)], met)
            if cost + added < best:
                remaining = [name for name in rest if name not in others]
                best = search(remaining, bench, cost + added, best)
        return best

    best = below
    for bench in itertools.combinations(present, out):
        seated = [name for name in present if name not in bench]
        if fair(bench, seated):
            best = min(best, search(seated, [], 0, best))
    return best


def check_fair(drawn: Round, present: Sequence[str], history: Sequence[Round]) -> None:
    times = {name: sat_out(history, name) for name in present}
    if drawn.sitting_out:
        assert max(times[n] for n in drawn.sitting_out) <= min(times[n] for n in drawn.seated)


@settings(max_examples=examples(150), deadline=None)
@given(
    n=st.integers(4, 16),
    data=st.data(),
    seed=st.integers(0, 10**6),
)
def test_a_round_repeats_no_more_tablemates_than_the_best_fair_draw_by_brute_force(
    n: int, data: st.DataObject, seed: int
) -> None:
    """Up to 16 players, whatever the rounds before: the draw's repeats are the fewest of
    every fair choice of sit-outs with every split into tables."""
    present = NAMES[:n]
    orders = data.draw(st.lists(st.permutations(range(n)), max_size=5))
    history = history_of(present, orders)
    drawn = draw_round(present, history, seed)
    check_fair(drawn, present, history)
    added = repeats([t.seats for t in drawn.tables], meetings_of(history))
    assert fewest_repeats(present, history, added) == added


@pytest.mark.parametrize("seed", range(20))
def test_a_15_player_night_of_3_rounds_repeats_no_tablemate(seed: int) -> None:
    """Three sit out each round: in round 2 the three who sat out play, and which three of
    the twelve others sit out decides whether the tables can avoid every repeat (one of
    each round-1 table sits out). Drawn by lot before the tables, the sit-outs made 1 to 4
    repeats over these 20 seeds; chosen with the tables, none."""
    present = NAMES[:15]
    history: list[Round] = []
    for _ in range(3):
        drawn = draw_round(present, history, seed)
        check_fair(drawn, present, history)
        history.append(drawn)
    assert not any(count > 1 for count in meetings_of(history).values())
    # Nobody sat out twice: nine different players over the three rounds.
    assert len({n for r in history for n in r.sitting_out}) == 9


def test_the_bench_takes_only_players_entitled_to_sit_out() -> None:
    """Two of P00-P03 met all four; only P04 and P05 may sit out: the search keeps the bench
    to them even though benching P00 would avoid every repeat."""
    meetings = Meetings.of([Round(1, "s", (Table(1, ("P00", "P01", "P02", "P03")),), ())])
    pool = NAMES[:6]
    split = split_pool(pool, Bench(2, frozenset({"P04", "P05"})), meetings, random.Random(1), False)
    assert sorted(split.bench) == ["P04", "P05"]
    assert sorted(split.groups[0]) == ["P00", "P01", "P02", "P03"]


@settings(max_examples=examples(40), deadline=None)
@given(n=st.integers(17, 64), rounds=st.integers(1, 3), seed=st.integers(0, 10**6))
def test_a_large_night_meets_no_one_twice_in_its_first_three_rounds(
    n: int, rounds: int, seed: int
) -> None:
    """Above 16 players (the heuristic's sizes, a night of up to 60 and more) the first
    three rounds repeat no tablemate, sit-outs included."""
    present = NAMES[:n]
    history: list[Round] = []
    for _ in range(rounds):
        drawn = draw_round(present, history, seed)
        check_fair(drawn, present, history)
        history.append(drawn)
    assert not any(count > 1 for count in meetings_of(history).values())
