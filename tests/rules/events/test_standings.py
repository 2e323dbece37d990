"""Standings of a club night against hand-computed events."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.errors import MalformedError
from scorekeeper.rules.events.standings import (
    ByeRule,
    Byes,
    Ranking,
    Scoring,
    TableResult,
    Tally,
    TieGroup,
    check_places,
    place_points,
    points_value,
    tie_groups,
)
from tests.common import examples

R1T1 = TableResult(1, 1, ("A", "B", "C", "D"), (150, 50, -80, -120), (2, 0, 1, 0))
R1T2 = TableResult(1, 2, ("E", "F", "G", "H"), (40, 40, -30, -50), (1, 1, 0, 0))
R2T1 = TableResult(2, 1, ("A", "E", "C", "G"), (-60, 100, 20, -60), (0, 1, 1, 0))
R2T2 = TableResult(2, 2, ("B", "F", "D", "H"), (10, -10, 30, -30), (0, 0, 3, 0))
EVENT = [R1T1, R1T2, R2T1, R2T2]


def lines(tally: Tally) -> list[tuple[str, str, int]]:
    return [(s.player, str(s.points), s.rank) for s in tally.standings()]


def test_totals_add_up_each_players_game_totals() -> None:
    # A 150-60=90, E 40+100=140, B 50+10=60, F 40-10=30, C -80+20=-60, D -120+30=-90,
    # G -30-60=-90, H -50-30=-80.  D and G tie on -90: they never shared a table, so
    # head-to-head is even, and G has no Trix first against D's 3.
    assert lines(Tally.of(EVENT, Scoring.TOTALS)) == [
        ("E", "140", 1),
        ("A", "90", 2),
        ("B", "60", 3),
        ("F", "30", 4),
        ("C", "-60", 5),
        ("H", "-80", 6),
        ("D", "-90", 7),
        ("G", "-90", 8),
    ]


def test_places_give_match_points_and_tied_players_share_them() -> None:
    # Round 1: A3 B2 C1 D0; E,F tied first 2.5 each, G1 H0.
    # Round 2 table 1: E3 C2, A and G tied third 0.5 each; table 2: D3 B2 F1 H0.
    # A 3.5, B 4, C 3, D 3, E 5.5, F 3.5, G 1.5, H 0.
    # A and F tie (never met: even), Trix firsts A 2 > F 1.  C and D tie: they shared
    # round 1's table, C finished above D there: C first.
    assert lines(Tally.of(EVENT, Scoring.PLACES, (3, 2, 1, 0))) == [
        ("E", "11/2", 1),
        ("B", "4", 2),
        ("A", "7/2", 3),
        ("F", "7/2", 4),
        ("C", "3", 5),
        ("D", "3", 6),
        ("G", "3/2", 7),
        ("H", "0", 8),
    ]


def test_head_to_head_comes_before_trix_firsts() -> None:
    tally = Tally.of(EVENT, Scoring.PLACES)
    c, d = (s for s in tally.standings() if s.player in "CD")
    assert (c.head_to_head, d.head_to_head) == (1, -1)
    assert (c.tie_break, d.tie_break) == (None, "head_to_head")
    assert d.trix_firsts > c.trix_firsts


def test_players_who_never_met_are_ordered_by_total_score() -> None:
    # A and F tie on 7/2 and never met: A's total 150-60=90 beats F's 40-10=30.
    a, f = (s for s in Tally.of(EVENT, Scoring.PLACES).standings() if s.player in "AF")
    assert (a.score, f.score, f.tie_break) == (90, 30, "score")


# The five-way tie of a club night (match points 3/2/1/0; letters are other players):
#   R1 T1  Sami 120 > Rami 40 > Salma -60 > Joud -100     Sami 3, Rami 2, Salma 1, Joud 0
#   R1 T2  Maya 90 > A 30 > B -50 > C -70                 Maya 3
#   R2 T1  Salma 150 > Joud 10 > Maya -60 > D -100        Salma 3, Joud 2, Maya 1
#   R2 T2  B 80 > Rami 20 > Sami -30 > A -70              Rami 2, Sami 1
#   R3 T1  Joud 100 > E 20 > Sami -40 > F -80             Joud 3, Sami 1
#   R3 T2  G 70 > H 30 > Rami -40 > Salma -60             Rami 1, Salma 0
#   R3 T3  I 60 > J 20 > Maya -20 > K -60                 Maya 1
#   R4 T1  L 50 > M 30 > Salma -20 > N -60                Salma 1
# Joud, Salma, Rami, Sami and Maya all have 5 points; nobody else has more than 4 (B).
# Salma finished below Sami and Rami at every table they shared.
FIVE_WAY = [
    TableResult(1, 1, ("Sami", "Rami", "Salma", "Joud"), (120, 40, -60, -100)),
    TableResult(1, 2, ("Maya", "A", "B", "C"), (90, 30, -50, -70), (2, 0, 0, 0)),
    TableResult(2, 1, ("Salma", "Joud", "Maya", "D"), (150, 10, -60, -100), (0, 1, 0, 0)),
    TableResult(2, 2, ("B", "Rami", "Sami", "A"), (80, 20, -30, -70)),
    TableResult(3, 1, ("Joud", "E", "Sami", "F"), (100, 20, -40, -80)),
    TableResult(3, 2, ("G", "H", "Rami", "Salma"), (70, 30, -40, -60)),
    TableResult(3, 3, ("I", "J", "Maya", "K"), (60, 20, -20, -60)),
    TableResult(4, 1, ("L", "M", "Salma", "N"), (50, 30, -20, -60)),
]


def test_a_five_way_tie_is_broken_by_the_mini_league_then_score_then_trix_firsts() -> None:
    # The mini-league, pair by pair at each shared table (+1 above, -1 below):
    #   R1 T1  Sami over Rami, Salma, Joud: +3; Rami over Salma, Joud, under Sami: +1;
    #          Salma over Joud, under Sami, Rami: -1; Joud under all three: -3
    #   R2 T1  Salma over Joud, Maya: +2; Joud over Maya, under Salma: 0; Maya: -2
    #   R2 T2  Rami over Sami: Rami +1, Sami -1
    #   R3 T1  Joud over Sami: Joud +1, Sami -1
    #   R3 T2  Rami over Salma: Rami +1, Salma -1
    # Rami 1+1+1 = 3, Sami 3-1-1 = 1, Salma -1+2-1 = 0, Joud -3+0+1 = -2, Maya -2.
    # Joud and Maya are level there and on total score (Joud -100+10+100 = 10,
    # Maya 90-60-20 = 10): Maya's two Trix firsts beat Joud's one.
    top = Tally.of(FIVE_WAY, Scoring.PLACES).standings()[:5]
    assert [(s.rank, s.player, s.points) for s in top] == [
        (1, "Rami", 5),
        (2, "Sami", 5),
        (3, "Salma", 5),
        (4, "Maya", 5),
        (5, "Joud", 5),
    ]
    assert [s.head_to_head for s in top] == [3, 1, 0, -2, -2]
    assert [(s.score, s.trix_firsts) for s in top[3:]] == [(10, 2), (10, 1)]
    assert [s.tie_break for s in top] == [
        None,
        "head_to_head",
        "head_to_head",
        "head_to_head",
        "trix_firsts",
    ]
    assert tie_groups(top) == [
        TieGroup(5, ("Rami", "Sami", "Salma", "Maya", "Joud"), ("head_to_head", "trix_firsts"))
    ]


def test_players_tied_on_everything_share_the_rank() -> None:
    table = TableResult(1, 1, ("A", "B", "C", "D"), (0, 0, 0, 0))
    lines = Tally.of([table], Scoring.PLACES).standings()
    assert [s.rank for s in lines] == [1, 1, 1, 1]
    assert [s.tie_break for s in lines] == [None, "shared", "shared", "shared"]
    assert tie_groups(lines) == [TieGroup(Fraction(3, 2), ("A", "B", "C", "D"), ("shared",))]


def test_a_corrected_table_replaces_its_previous_result() -> None:
    tally = Tally.of(EVENT, Scoring.TOTALS)
    tally.apply(TableResult(1, 1, ("A", "B", "C", "D"), (0, 0, 0, 0)))
    assert tally.points["A"] == -60 and tally.trix_firsts["A"] == 0
    assert tally.tables_of["A"] == {(1, 1), (2, 1)}


@settings(max_examples=examples(50), deadline=None)
@given(
    totals=st.lists(st.tuples(*[st.integers(-300, 300)] * 4), min_size=1, max_size=12),
    order=st.randoms(use_true_random=False),
)
def test_incremental_updates_equal_a_tally_built_from_the_final_results(
    totals: list[tuple[int, int, int, int]], order: object
) -> None:
    # Updates to the same tables in any order end where the final results alone end.
    names = ("A", "B", "C", "D", "E", "F", "G", "H")
    results = [
        TableResult(1 + i % 3, 1, tuple(names[(i + k) % 8] for k in range(4)), t)  # type: ignore[arg-type]
        for i, t in enumerate(totals)
    ]
    final = {r.key: r for r in results}
    incremental = Tally(Scoring.PLACES)
    for result in results:
        incremental.apply(result)
    rebuilt = Tally.of(final.values(), Scoring.PLACES)
    assert {k: v for k, v in incremental.points.items() if v} == {
        k: v for k, v in rebuilt.points.items() if v
    }


def test_place_points_sum_to_the_places_whatever_the_ties() -> None:
    for totals in ([1, 2, 3, 4], [5, 5, 1, 1], [5, 5, 5, 1], [0, 0, 0, 0]):
        assert sum(place_points(totals, (4, 2, 1, 0))) == 7
    assert place_points([9, 9, 9, 1], (4, 2, 1, 0))[0] == Fraction(7, 3)


@pytest.mark.parametrize("places", [[3, 2, 1], [1, 2, 3, 4], [3, 2, 1, "0"], [3, 2, 1, True]])
def test_places_must_be_four_numbers_never_rising(places: list[object]) -> None:
    with pytest.raises(MalformedError, match="four whole numbers from first place to fourth"):
        check_places(places)


def test_points_show_as_whole_numbers_or_two_decimals() -> None:
    assert points_value(Fraction(7, 2)) == 3.5
    assert points_value(Fraction(-90)) == -90


# Byes: A plays two tables (places 3/2/1/0: first, then third) and sits a round out.
BYE_NIGHT = [
    TableResult(1, 1, ("A", "B", "C", "D"), (90, 30, -40, -80)),
    TableResult(2, 1, ("B", "C", "A", "D"), (60, 20, -30, -50)),
]


def bye_night(rule: ByeRule, ranking: Ranking = Ranking.POINTS) -> Tally:
    tally = Tally(Scoring.PLACES, bye_rule=rule, ranking=ranking)
    for result in BYE_NIGHT:
        tally.apply(result)
    tally.sit_out(["A"])
    return tally


def test_an_average_bye_is_worth_the_players_own_average_counted_again_later() -> None:
    tally = bye_night(ByeRule(Byes.AVERAGE))
    a = next(s for s in tally.standings() if s.player == "A")
    # A: 3 + 1 = 4 points from 2 tables, a bye worth their average 2: 6 in all.
    assert (a.points, a.tables, a.byes, a.bye_points, a.average) == (6, 2, 1, 2, 2)
    tally.apply(TableResult(3, 1, ("A", "B", "C", "D"), (50, 10, -20, -40)))
    a = next(s for s in tally.standings() if s.player == "A")
    # Now 7 points from 3 tables: the bye is worth 7/3, 28/3 in all.
    assert (a.points, a.bye_points) == (Fraction(28, 3), Fraction(7, 3))


def test_a_fixed_bye_or_none() -> None:
    fixed = next(s for s in bye_night(ByeRule(Byes.FIXED, 2)).standings() if s.player == "A")
    nothing = next(s for s in bye_night(ByeRule(Byes.NONE)).standings() if s.player == "A")
    assert (fixed.points, nothing.points) == (6, 4)


def test_ranking_by_points_per_table_played() -> None:
    # B: 2 + 3 = 5 from 2 tables (2.5 each); A: 4 from 2 and a bye of nothing (2 each);
    # C: 1 + 2 = 3 (1.5); D: 0.
    lines = bye_night(ByeRule(Byes.NONE), Ranking.AVERAGE).standings()
    assert [(s.player, s.average, s.rank) for s in lines] == [
        ("B", Fraction(5, 2), 1),
        ("A", 2, 2),
        ("C", Fraction(3, 2), 3),
        ("D", 0, 4),
    ]


# Tables still playing: their result so far counts as a finished table's, and says so.


def test_a_table_still_playing_counts_its_result_so_far_as_its_provisional_points() -> None:
    tally = Tally(Scoring.PLACES)
    tally.apply(TableResult(1, 1, ("A", "B", "C", "D"), (90, 30, -40, -80), finished=True))
    tally.apply(TableResult(2, 1, ("B", "C", "A", "D"), (60, 20, -30, -50), deals=3))
    by_name = {s.player: s for s in tally.standings()}
    # A: 3 from the finished table and, so far, 1 (third) from the one still playing.
    assert (by_name["A"].points, by_name["A"].provisional, by_name["A"].tables) == (4, 1, 2)
    assert (by_name["B"].points, by_name["B"].provisional) == (5, 3)
    tally.apply(
        TableResult(2, 1, ("B", "C", "A", "D"), (60, 20, -30, -50), deals=20, finished=True)
    )
    assert all(s.provisional == 0 for s in tally.standings())  # finished: all of it settled
    assert {s.player: s.points for s in tally.standings()} == {"A": 4, "B": 5, "C": 3, "D": 0}


def test_a_table_still_playing_moves_an_average_bye_and_that_is_provisional_too() -> None:
    tally = Tally(Scoring.PLACES, bye_rule=ByeRule(Byes.AVERAGE))
    tally.apply(TableResult(1, 1, ("A", "B", "C", "D"), (90, 30, -40, -80), finished=True))
    tally.sit_out(["A"])
    tally.apply(TableResult(3, 1, ("A", "B", "C", "D"), (-90, 30, 40, 80), deals=2))
    a = next(s for s in tally.standings() if s.player == "A")
    # Settled: 3 from one finished table and a bye worth 3, so 6. With the 0 so far at
    # the table still playing, the bye is worth 3/2: 9/2 in all, 3/2 less than settled.
    assert (a.points, a.bye_points, a.provisional) == (
        Fraction(9, 2),
        Fraction(3, 2),
        -Fraction(3, 2),
    )
    assert a.points - a.provisional == 6
