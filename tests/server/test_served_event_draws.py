"""A club night's draw method through the app as served (gunicorn), on SQLite and
PostgreSQL: each method named at creation draws its rounds accordingly."""

from __future__ import annotations

import itertools
import urllib.parse
from collections.abc import Callable
from typing import Any

import pytest

from scorekeeper.rules.events.rotations import rotation_round
from tests.server.serving import Client, Server
from tests.server.test_served_events import create_event, draw, play_tables
from tests.server.test_served_forms import NEW_EVENT, TOKEN, Browser

pytestmark = pytest.mark.served

Serve = Callable[..., Server]
PLAYERS = [f"Player {i}" for i in range(16)]


def met_twice(rounds: list[dict[str, Any]]) -> list[frozenset[str]]:
    seen: dict[frozenset[str], int] = {}
    for drawn in rounds:
        for table in drawn["tables"]:
            for pair in itertools.combinations(table["players"], 2):
                seen[frozenset(pair)] = seen.get(frozenset(pair), 0) + 1
    return [pair for pair, count in seen.items() if count > 1]


def event_of(client: Client, event_id: str) -> dict[str, Any]:
    status, _, event = client.call("GET", f"/api/v1/events/{event_id}")
    assert status == 200
    return event


def test_served_draws_follow_the_nights_method(serve: Serve, database_url: str) -> None:
    server = serve(database_url, workers=2, threads=2)
    client = server.client()

    # avoid_repeats (the default), 15 players: three sit out a round, and with them
    # chosen together with the tables no pair meets twice in three rounds.
    night, token = create_event(client, players=PLAYERS[:15], rounds=3)
    assert event_of(client, night)["draw"] == "avoid_repeats"
    rounds = [draw(client, night, token) for _ in range(3)]
    assert met_twice(rounds) == []
    assert len({name for r in rounds for name in r["sitting_out"]}) == 9

    # rotation, 16 players: the fixed schedule, every pair exactly once in 5 rounds.
    night, token = create_event(client, players=PLAYERS, rounds=5, draw="rotation")
    assert event_of(client, night)["draw"] == "rotation"
    rounds = [draw(client, night, token) for _ in range(5)]
    for number, drawn in enumerate(rounds, 1):
        expected = {frozenset(t) for t in rotation_round(PLAYERS, 5, number)}
        assert {frozenset(t["players"]) for t in drawn["tables"]} == expected
    assert met_twice(rounds) == []

    # swiss, 16 players: round 2's first table is the standings' first four (every table
    # of round 1 played the same kingdom, so its leaders come one from each table).
    night, token = create_event(client, players=PLAYERS, rounds=2, draw="swiss")
    first = draw(client, night, token)
    assert play_tables(server, first["tables"]) == []
    standings = [line["player"] for line in event_of(client, night)["standings"]]
    leaders = set(standings[:4])
    assert all(len(leaders & set(t["players"])) == 1 for t in first["tables"])
    second = draw(client, night, token)
    assert set(second["tables"][0]["players"]) == leaders
    assert event_of(client, night)["draw"] == "swiss"


@pytest.mark.parametrize(
    ("body", "code"),
    [({"draw": "random"}, "event_choice"), ({"draw": "rotation"}, "event_rotation_size")],
)
def test_served_an_unknown_draw_or_a_rotation_for_10_is_refused_naming_draw(
    serve: Serve, sqlite_url: str, body: dict[str, Any], code: str
) -> None:
    client = serve(sqlite_url).client()
    status, _, answer = client.call(
        "POST", "/api/v1/events", {"name": "N", "players": PLAYERS[:10], **body}
    )
    assert status == 422, answer
    assert answer["errors"][0]["field"] == "draw"
    assert answer["errors"][0]["code"] == code


def test_served_the_new_night_form_chooses_the_draw_method_and_the_page_says_it(
    serve: Serve, database_url: str
) -> None:
    server = serve(database_url)
    director = Browser(server)
    _, _, page = director.request("GET", "/events/new")
    assert 'data-testid="event-draw"' in page and 'value="rotation"' in page
    form = {**NEW_EVENT, "draw": "rotation", "csrf_token": TOKEN.findall(page)[0]}
    status, headers, _ = director.request("POST", "/events/new", form)
    assert status == 302, status
    event_path = urllib.parse.urlsplit(headers["location"]).path
    _, _, page = director.request("GET", event_path)
    assert "Rounds follow a fixed rotation" in page
    event_id = event_path.rstrip("/").rsplit("/", 1)[-1]
    assert event_of(server.client(), event_id)["draw"] == "rotation"
    # Ten players have no rotation: the form comes back with the reason by its field.
    _, _, page = director.request("GET", "/events/new")
    ten = "\n".join(PLAYERS[:10])
    bad = {**form, "players": ten, "csrf_token": TOKEN.findall(page)[0]}
    status, _, page = director.request("POST", "/events/new", bad)
    assert status == 422
    assert "A fixed rotation is for 8, 12 or 16 players; there are 10." in page
