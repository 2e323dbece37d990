"""The sums each member keeps always equal a fresh computation from the replayed games.

Every write to a circle's game takes the game's old shares from its members'
sums and adds the new ones; after each kind of write (record, edit, undo,
redeal, attach, remove) the kept sums, and the statistics shown from them,
are compared with what replaying every game of the circle from its log gives.
"""

from __future__ import annotations

from flask import Flask

from scorekeeper.rules.game_log import RedealEntry
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import games
from scorekeeper.store.circles import services
from scorekeeper.store.circles.facts import game_facts
from scorekeeper.store.circles.stats import GameRow, member_statistics, played, seat_share, summed
from tests.store.circles.helpers import SHORT_GAME, deal, play

NAMES = ["Rana", "Sami", "Omar", "Lina", "Hadi"]


def replayed(circle: services.CircleData) -> list[GameRow]:
    """Every game of the circle replayed from its log, as the statistics take them."""
    rows = []
    for linked in services.linked_games(circle):
        game = games.load_game(linked.game_id).game
        rows.append(
            GameRow(
                linked.game_id, linked.played_at, game.finished, linked.members, game_facts(game)
            )
        )
    return played(rows)


def assert_kept_equals_fresh(circle_id: str) -> None:
    circle = services.load_circle(circle_id)
    fresh_games = replayed(circle)
    for member in circle.members:
        mine = [(g, g.members.index(member.id)) for g in fresh_games if member.id in g.members]
        fresh = summed(seat_share(g.facts, seat, g.members) for g, seat in mine)
        if fresh:
            assert member.sums == fresh, member.name
        else:
            assert member.games == 0, member.name
        expected = member_statistics(member.id, fresh_games, circle.names)
        assert services.member_stats(circle, member.id) == expected
        assert services.member_stats(circle, member.id, "year") == expected  # all this year
    table = {row["id"]: row for row in services.circle_table(circle)}
    year = {row["id"]: row for row in services.circle_table(circle, "year")}
    for member in circle.members:
        expected = member_statistics(member.id, fresh_games, circle.names)
        for rows in (table, year):
            assert rows[member.id]["games"] == expected["games"]
            assert rows[member.id]["wins"] == expected["wins"]
            assert rows[member.id]["average_total"] == expected["average_total"]


def test_kept_sums_equal_the_replayed_games_after_every_kind_of_write(db_app: Flask) -> None:
    circle, _token = services.create_circle("Thursday", NAMES, True)
    seatings = [NAMES[:4], NAMES[1:5], [NAMES[4], NAMES[0], NAMES[2], NAMES[1]]]
    rule_sets = [
        RuleSet(kingdoms=1),
        RuleSet(kingdoms=1, partnership=True),  # R9.5
        RuleSet(kingdoms=1, inverted=True),  # R9.8
    ]
    ids = []
    for seats, rules in zip(seatings, rule_sets, strict=True):
        loaded, _ = services.start_game(circle.id, seats, 0, rules)
        play(
            loaded.id,
            [RedealEntry("misdeal", note="a card showed"), *SHORT_GAME]
            if rules.partnership
            else SHORT_GAME,
        )
        ids.append(loaded.id)
        assert_kept_equals_fresh(circle.id)
    # An edit of a finished game: K♥ now taken by another seat, doubled by nobody.
    games.edit_deal(
        ids[0], 2, deal(["king"], king_of_hearts={"taker": 3, "doubled_by": None}), None
    )
    assert_kept_equals_fresh(circle.id)
    # Undo the last deal: the game is no longer finished and counts for nothing.
    games.undo_last(ids[1], None)
    assert_kept_equals_fresh(circle.id)
    play(ids[1], SHORT_GAME[-1:])
    assert_kept_equals_fresh(circle.id)
    # Remove a game from the circle, then attach an existing one by its names.
    services.detach_game(circle.id, ids[2])
    assert_kept_equals_fresh(circle.id)
    services.attach_game(circle.id, ids[2], [None] * 4)
    assert_kept_equals_fresh(circle.id)
    # A game in progress is kept out of the sums until it is finished.
    loaded, _ = services.start_game(circle.id, NAMES[:4], 1, RuleSet(kingdoms=1))
    play(loaded.id, SHORT_GAME[:2])
    assert_kept_equals_fresh(circle.id)


def test_a_member_whose_only_game_is_removed_has_nothing_left(db_app: Flask) -> None:
    circle, _token = services.create_circle("Thursday", NAMES[:4], False)
    loaded, _ = services.start_game(circle.id, NAMES[:4], 0, RuleSet(kingdoms=1))
    play(loaded.id, SHORT_GAME)
    services.detach_game(circle.id, loaded.id)
    after = services.load_circle(circle.id)
    rana = after.members[0]
    assert rana.games == 0 and rana.sums["kingdoms"] == {} and rana.sums["opponents"] == {}
    assert services.member_stats(after, rana.id)["kingdoms"] == {
        "count": 0,
        "best": None,
        "worst": None,
    }
