"""Circles' services: links, members, games of a circle and statistics from hand-computed games."""

from __future__ import annotations

import pytest
from flask import Flask

from scorekeeper.rules.errors import IllegalError
from scorekeeper.rules.game_log import RedealEntry
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import games
from scorekeeper.store.circles import services
from scorekeeper.store.circles.errors import CircleRefusal
from tests.store.circles.helpers import SHORT_GAME, SHORT_TOTALS, deal, play, queens

SHORT = RuleSet(kingdoms=1)
NAMES = ["Rana", "Sami", "Omar", "Lina"]


def new_circle(ratings: bool = False) -> services.CircleData:
    circle, _token = services.create_circle("Thursday", ["Rana", "Sami"], ratings)
    return circle


def member_id(circle_id: str, name: str) -> int:
    found = services.load_circle(circle_id).member_named(name)
    assert found is not None
    return found.id


def stats(circle_id: str, name: str, period: str = "all") -> dict:
    circle = services.load_circle(circle_id)
    return services.member_stats(circle, member_id(circle_id, name), period)


def test_a_circle_keeps_its_members_and_only_a_hash_of_its_token(app: Flask) -> None:
    circle, token = services.create_circle(" Thursday ", ["Rana", "سامي"], True)
    assert circle.name == "Thursday" and [m.name for m in circle.members] == ["Rana", "سامي"]
    assert services.token_matches(circle.id, token)
    assert not services.token_matches(circle.id, token + "x")
    assert len(token) >= 43  # 256 bits, URL-safe
    assert token not in str(services.head(circle.id))


def test_replacing_the_token_revokes_the_old_one(app: Flask) -> None:
    circle, token = services.create_circle("Thursday", [], False)
    new = services.replace_edit_token(circle.id)
    assert not services.token_matches(circle.id, token) and services.token_matches(circle.id, new)


@pytest.mark.parametrize(
    ("name", "members", "code"),
    [
        ("", [], "circle_name_empty"),
        ("x" * 61, [], "circle_name_length"),
        (5, [], "circle_name_text"),
    ],
)
def test_a_bad_circle_name_is_refused_and_nothing_is_written(
    app: Flask, name: object, members: list[str], code: str
) -> None:
    with pytest.raises(CircleRefusal) as refused:
        services.create_circle(name, members)
    assert refused.value.problems[0].code == code


def test_two_members_with_the_same_name_are_refused_r1(app: Flask) -> None:
    with pytest.raises(IllegalError) as refused:
        services.create_circle("Thursday", ["Rana", "RANA"])
    assert refused.value.problems[0].field == "members.1"


def test_a_game_started_in_a_circle_adds_unknown_names_as_members(app: Flask) -> None:
    circle = new_circle()
    loaded, token = services.start_game(circle.id, NAMES, 0, SHORT)
    again = services.load_circle(circle.id)
    assert [m.name for m in again.members] == NAMES
    (linked,) = services.linked_games(again)
    assert linked.game_id == loaded.id and not linked.finished
    assert games.token_matches(loaded.id, token)
    assert not services.token_matches(circle.id, token)  # a game's token is not the circle's


def test_statistics_of_a_hand_computed_short_game(app: Flask) -> None:
    circle = new_circle()
    loaded, _ = services.start_game(circle.id, NAMES, 0, SHORT)
    play(loaded.id, SHORT_GAME)
    rana, sami = stats(circle.id, "Rana"), stats(circle.id, "Sami")
    assert (rana["games"], rana["wins"], rana["win_rate"]) == (1, 1, 1.0)
    assert rana["average_total"] == SHORT_TOTALS[0] and sami["average_total"] == SHORT_TOTALS[1]
    assert rana["per_contract"]["king"] == {
        "deals": 1,
        "taken": 0,
        "average": 75.0,
        "taken_per_deal": 0.0,
    }
    assert (
        sami["per_contract"]["king"]["taken"] == 1
        and sami["per_contract"]["king"]["average"] == -150
    )
    assert stats(circle.id, "Lina")["per_contract"]["queens"]["taken"] == 2
    assert rana["per_contract"]["trix"] == {"deals": 1, "places": [1, 0, 0, 0], "average": 200.0}
    assert rana["doubling"] == {"doubled": 1, "bonus": 75, "swallowed": 0}
    assert rana["kingdoms"] == {"count": 1, "best": 250, "worst": 250}
    assert rana["streaks"] == {"wins": 1, "losses": 0} and sami["streaks"] == {
        "wins": 0,
        "losses": 1,
    }
    h2h = {row["name"]: row for row in rana["head_to_head"]}
    assert h2h["Sami"]["above"] == 1 and h2h["Sami"]["below"] == 0 and h2h["Sami"]["games"] == 1


def test_a_game_in_progress_counts_for_nothing_yet(app: Flask) -> None:
    circle = new_circle()
    loaded, _ = services.start_game(circle.id, NAMES, 0, SHORT)
    play(loaded.id, SHORT_GAME[:4])
    assert stats(circle.id, "Rana")["games"] == 0


def test_redeals_change_no_statistic_r8(app: Flask) -> None:
    circle = new_circle()
    loaded, _ = services.start_game(circle.id, NAMES, 0, SHORT)
    redeal = RedealEntry("misdeal", note="a card showed")
    play(loaded.id, [SHORT_GAME[0], redeal, *SHORT_GAME[1:]])
    assert stats(circle.id, "Rana")["average_total"] == 250
    assert stats(circle.id, "Rana")["per_contract"]["king"]["deals"] == 1


def test_a_combination_is_split_into_its_contracts_r9_6(app: Flask) -> None:
    circle = new_circle()
    rules = RuleSet.from_dict({"kingdoms": 1, "combination": "any"})
    loaded, _ = services.start_game(circle.id, NAMES, 0, rules)
    # K♥ taken by 2 doubled by 1: 0 +75 −150 0; queens S,H→1 (H doubled by 3), D→0, C→2
    # doubled by 3: −25 −75 −50 +50; diamonds 3,4,6,0: −30 −40 −60 0; tricks 2,5,6,0.
    combined = deal(
        ["king", "queens", "diamonds", "collections"],
        king_of_hearts={"taker": 2, "doubled_by": 1},
        queens=queens([1, 1, 0, 2], [None, 3, None, 3]),
        diamonds=[3, 4, 6, 0],
        tricks=[2, 5, 6, 0],
    )
    play(loaded.id, [combined, deal(["trix"], trix_order=[3, 0, 1, 2])])
    sami = stats(circle.id, "Sami")
    assert sami["per_contract"]["king"] == {
        "deals": 1,
        "taken": 0,
        "average": 75.0,
        "taken_per_deal": 0.0,
    }
    assert (
        sami["per_contract"]["queens"]["average"] == -75
        and sami["per_contract"]["queens"]["taken"] == 2
    )
    assert sami["per_contract"]["collections"]["average"] == -75
    assert sami["doubling"] == {"doubled": 1, "bonus": 75, "swallowed": 0}
    lina = stats(circle.id, "Lina")
    assert lina["doubling"] == {
        "doubled": 2,
        "bonus": 50,
        "swallowed": 0,
    }  # Q♥ and Q♣, both taken by others
    # −85 −115 −350 +50, then Trix 150 100 50 200: Lina 250 wins
    assert lina["wins"] == 1 and lina["average_total"] == 250


def test_partners_share_their_place_and_are_not_above_each_other_r9_5(app: Flask) -> None:
    circle = new_circle()
    loaded, _ = services.start_game(circle.id, NAMES, 0, RuleSet(kingdoms=1, partnership=True))
    play(loaded.id, SHORT_GAME)
    rana = stats(circle.id, "Rana")  # team 0+2: 250 + 0 beats 1+3: −75 −175
    assert rana["wins"] == 1 and stats(circle.id, "Omar")["wins"] == 1
    h2h = {row["name"]: row for row in rana["head_to_head"]}
    assert h2h["Omar"] == {**h2h["Omar"], "above": 0, "below": 0, "partners": 1}
    assert h2h["Sami"]["above"] == 1 and h2h["Sami"]["partners"] == 0


def test_under_inverted_signs_the_lowest_total_wins_r9_8(app: Flask) -> None:
    circle = new_circle()
    loaded, _ = services.start_game(circle.id, NAMES, 0, RuleSet(kingdoms=1, inverted=True))
    play(loaded.id, SHORT_GAME)
    # every score negated, and the lowest total wins: Rana −250 still wins, Lina +175 is last
    lina, rana = stats(circle.id, "Lina"), stats(circle.id, "Rana")
    assert lina["average_total"] == 175 and lina["wins"] == 0
    assert rana["average_total"] == -250 and rana["wins"] == 1
    assert {r["name"]: r["above"] for r in lina["head_to_head"]} == {
        "Rana": 0,
        "Sami": 0,
        "Omar": 0,
    }
    assert (
        stats(circle.id, "Rana")["doubling"]["bonus"] == -75
    )  # the bonus counts in the game's sign


def test_a_non_zero_sum_rule_set_is_counted_as_scored_r9_7(app: Flask) -> None:
    circle = new_circle()
    rules = RuleSet.from_dict({"kingdoms": 1, "values": {"trix": [250, 150, 100, 50]}})
    loaded, _ = services.start_game(circle.id, NAMES, 0, rules)
    play(loaded.id, SHORT_GAME)
    rana = stats(circle.id, "Rana")
    assert rana["per_contract"]["trix"]["average"] == 250 and rana["average_total"] == 300


def test_an_edit_of_a_finished_game_is_counted_at_once(app: Flask) -> None:
    circle = new_circle()
    loaded, _ = services.start_game(circle.id, NAMES, 0, SHORT)
    play(loaded.id, SHORT_GAME)
    before = services.load_circle(circle.id).version
    fixed = deal(["king"], king_of_hearts={"taker": 3, "doubled_by": None})
    games.edit_deal(loaded.id, 2, fixed, None)
    assert services.load_circle(circle.id).version > before
    assert stats(circle.id, "Lina")["per_contract"]["king"]["taken"] == 1
    assert stats(circle.id, "Rana")["doubling"]["doubled"] == 0


def test_statistics_by_period(app: Flask) -> None:
    circle = new_circle()
    loaded, _ = services.start_game(circle.id, NAMES, 0, SHORT)
    play(loaded.id, SHORT_GAME)
    assert stats(circle.id, "Rana", "month")["games"] == 1
    assert stats(circle.id, "Rana", "year")["games"] == 1


def test_attaching_a_game_matches_names_and_a_game_is_in_one_circle(app: Flask) -> None:
    circle = new_circle()
    loaded, _ = games.create_game(["rana", "Sami", "Omar", "Lina"], 0, SHORT)
    play(loaded.id, SHORT_GAME)
    rana = member_id(circle.id, "Rana")
    services.attach_game(circle.id, loaded.id, [rana, None, None, None])
    assert stats(circle.id, "Rana")["wins"] == 1
    other = new_circle()
    with pytest.raises(CircleRefusal) as refused:
        services.attach_game(other.id, loaded.id, [None] * 4)
    assert refused.value.problems[0].code == "game_in_circle"


def test_one_member_cannot_sit_twice(app: Flask) -> None:
    circle = new_circle()
    loaded, _ = games.create_game(NAMES, 0, SHORT)
    rana = member_id(circle.id, "Rana")
    with pytest.raises(CircleRefusal):
        services.attach_game(circle.id, loaded.id, [rana, rana, None, None])
    assert services.linked_games(services.load_circle(circle.id)) == []


def test_detaching_a_game_removes_it_from_the_statistics(app: Flask) -> None:
    circle = new_circle()
    loaded, _ = services.start_game(circle.id, NAMES, 0, SHORT)
    play(loaded.id, SHORT_GAME)
    services.detach_game(circle.id, loaded.id)
    assert stats(circle.id, "Rana")["games"] == 0
    assert games.load_game(loaded.id).game.finished  # the game itself stays
