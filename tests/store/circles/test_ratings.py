"""Ratings: rated again from the whole history after every change, equal to a fresh rating."""

from __future__ import annotations

from flask import Flask
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import games
from scorekeeper.store.circles import services
from scorekeeper.store.circles.hooks import rated_games
from scorekeeper.store.circles.models import RatingPoint
from scorekeeper.store.circles.ratings import RatedGame, rate_history
from tests.store.circles.helpers import SHORT_GAME, deal, play

NAMES = ["Rana", "Sami", "Omar", "Lina"]
SHORT = RuleSet(kingdoms=1)


def stored(circle_id: str) -> dict[int, tuple[float, float]]:
    circle = services.load_circle(circle_id)
    return {
        m.id: (m.mu, m.sigma) for m in circle.members if m.mu is not None and m.sigma is not None
    }


def fresh(circle_id: str) -> dict[int, tuple[float, float]]:
    current, _history = rate_history(rated_games(db.session().connection(), circle_id))
    return current


def test_an_edit_of_a_finished_game_gives_what_a_fresh_rating_gives(app: Flask) -> None:
    circle, _ = services.create_circle("Thursday", [], True)
    ids = []
    for seats in (NAMES, NAMES[1:] + NAMES[:1], NAMES):
        loaded, _ = services.start_game(circle.id, seats, 0, SHORT)
        play(loaded.id, SHORT_GAME)
        ids.append(loaded.id)
    before = stored(circle.id)
    # The first game's Trix reversed: the order of that game changes, and so every rating.
    games.edit_deal(ids[0], 1, deal(["trix"], trix_order=[3, 2, 1, 0]), None)
    after = stored(circle.id)
    assert after != before and after == fresh(circle.id)
    history = db.session.scalars(select(RatingPoint).where(RatingPoint.circle_id == circle.id))
    assert sorted({p.sequence for p in history}) == [1, 2, 3]


def test_undoing_the_last_deal_unrates_the_game(app: Flask) -> None:
    circle, _ = services.create_circle("Thursday", [], True)
    loaded, _ = services.start_game(circle.id, NAMES, 0, SHORT)
    play(loaded.id, SHORT_GAME)
    assert stored(circle.id)
    games.undo_last(loaded.id, None)
    assert stored(circle.id) == {} == fresh(circle.id)


def test_ties_share_a_place_and_partners_are_rated_as_a_team() -> None:
    tied = RatedGame("g", (1, 2, 3, 4), (1, 1, 3, 4), False)
    current, _ = rate_history([tied])
    assert current[1] == current[2]
    team = RatedGame("g", (1, 2, 3, 4), (1, 2, 1, 2), True)
    current, _ = rate_history([team])
    assert current[1][0] > 25 > current[2][0] and current[1][0] == current[3][0]


def test_switching_ratings_on_rates_the_history_at_once(app: Flask) -> None:
    circle, _ = services.create_circle("Thursday", [], False)
    loaded, _ = services.start_game(circle.id, NAMES, 0, SHORT)
    play(loaded.id, SHORT_GAME)
    assert stored(circle.id) == {}
    services.set_ratings(circle.id, True)
    assert stored(circle.id) == fresh(circle.id) != {}
