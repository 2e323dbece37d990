"""A club night's draw method in the database: kept, read back, and drawn by."""

from __future__ import annotations

import pytest
from flask import Flask

from scorekeeper.rules.errors import IllegalError, MalformedError
from scorekeeper.rules.events.draw import DrawMethod, draw_round
from scorekeeper.rules.events.rotations import rotation_round
from scorekeeper.store.events import services as events
from scorekeeper.store.events.input import parse_new_event_body

TWELVE = [f"Player {i}" for i in range(12)]


def new_event(**body: object) -> tuple[events.EventView, str]:
    return events.create_event(
        parse_new_event_body({"name": "Night", "players": TWELVE, "seed": 3, **body})
    )


def test_a_night_draws_to_avoid_repeats_unless_told_otherwise() -> None:
    assert parse_new_event_body({"name": "N", "players": TWELVE}).draw == "avoid_repeats"


@pytest.mark.parametrize(
    ("body", "error", "words"),
    [
        ({"draw": "random"}, MalformedError, "“draw” must be one of “avoid_repeats”"),
        ({"draw": 3}, MalformedError, "“draw” must be one of"),
        ({"draw": "rotation", "players": TWELVE[:10]}, IllegalError, "there are 10"),
    ],
)
def test_an_unknown_draw_method_or_a_rotation_for_another_count_is_refused_naming_draw(
    body: dict[str, object], error: type[Exception], words: str
) -> None:
    with pytest.raises(error, match=words) as refused:
        parse_new_event_body({"name": "N", "players": TWELVE, **body})
    assert refused.value.problems[0].field == "draw"  # type: ignore[attr-defined]


def test_the_method_is_kept_and_a_rotation_night_plays_its_schedule(db_app: Flask) -> None:
    event, token = new_event(draw="rotation")
    assert events.load_event(event.id).draw is DrawMethod.ROTATION
    for number in (1, 2, 3):
        drawn = events.draw_next_round(event.id, token)
        expected = {frozenset(t) for t in rotation_round(TWELVE, 3, number)}
        assert {frozenset(t.players) for t in drawn.tables} == expected


def test_a_swiss_night_draws_round_2_by_the_standings_after_round_1(db_app: Flask) -> None:
    sixteen = [*TWELVE, *(f"Player {i}" for i in range(12, 16))]
    event, token = new_event(draw="swiss", players=sixteen)
    events.draw_next_round(event.id, token)
    before = events.load_event(event.id)
    standings = [line.player for line in before.standings()]
    second = events.draw_next_round(event.id, token)
    expected = draw_round(
        sixteen, [before.drawn[0].as_round()], 3, method=DrawMethod.SWISS, standings=standings
    )
    assert [t.players for t in second.tables] == [t.seats for t in expected.tables]
    assert events.load_event(event.id).draw is DrawMethod.SWISS


def test_a_night_of_a_circle_with_a_rotation_needs_a_member_count_it_fits(
    db_app: Flask,
) -> None:
    from scorekeeper.store.circles import services as circles

    circle, _token = circles.create_circle("Club", TWELVE[:9])
    with pytest.raises(IllegalError, match="there are 9"):
        events.create_event(
            parse_new_event_body(
                {"name": "N", "players": [], "circle": circle.id, "draw": "rotation"}
            )
        )
