"""Unchanged polls are answered 304 before the app runs: one lookup, the same headers a
poll needs; anything else (a changed version, an unknown id, a query) reaches the app."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.sql import sql_statements

PLAYERS = ["Rana", "Sami", "Omar", "Lina"]


def test_an_unchanged_game_poll_costs_one_lookup_and_no_session(client: FlaskClient) -> None:
    game = client.post("/api/v1/games", json={"players": PLAYERS}).json
    assert game is not None
    for path in (f"/games/{game['id']}/version", f"/api/v1/games/{game['id']}"):
        with sql_statements() as statements:
            response = client.get(path, headers={"If-None-Match": '"1"'})
        assert response.status_code == 304 and response.headers["ETag"] == '"1"'
        assert [s for s in statements if s.startswith("SELECT")] == [statements[-1]]
        assert "Set-Cookie" not in response.headers
        assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_a_changed_or_unknown_poll_reaches_the_app(client: FlaskClient) -> None:
    game = client.post("/api/v1/games", json={"players": PLAYERS}).json
    assert game is not None
    changed = client.get(f"/games/{game['id']}/version", headers={"If-None-Match": '"0"'})
    assert changed.status_code == 200 and changed.json is not None
    assert changed.json["version"] == 1
    missing = client.get("/games/nosuchgame000000/version", headers={"If-None-Match": '"1"'})
    assert missing.status_code == 404


def test_an_unchanged_event_poll_is_a_304(client: FlaskClient) -> None:
    event = client.post(
        "/api/v1/events", json={"name": "N", "players": PLAYERS * 1 + ["Hadi"]}
    ).json
    assert event is not None
    for path in (f"/api/v1/events/{event['id']}", f"/events/{event['id']}/board/live"):
        response = client.get(path, headers={"If-None-Match": '"1"'})
        assert response.status_code == 304
        assert client.get(path, headers={"If-None-Match": '"0"'}).status_code == 200
