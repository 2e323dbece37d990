"""The games endpoints of API.md: every status code, ETags, tokens, and a whole game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper.extensions import db
from tests.sql import sql_statements

API = "/api/v1"
PLAYERS = ["Rana", "Sami", "Omar", "Lina"]
TRIX = {"contracts": ["trix"], "captures": {"trix_order": [2, 0, 3, 1]}}
KING = {"contracts": ["king"], "captures": {"king_of_hearts": {"taker": 1, "doubled_by": None}}}
DIAMONDS = {"contracts": ["diamonds"], "captures": {"diamonds": [5, 4, 3, 1]}}


class Table:
    """A game created through the API, and its edit token."""

    def __init__(self, client: FlaskClient, **body: Any) -> None:
        self.client = client
        response = client.post(f"{API}/games", json={"players": PLAYERS, **body})
        assert response.status_code == 201, response.json
        assert response.json is not None
        self.id: str = response.json["id"]
        self.token: str = response.json["edit_token"]
        self.url = f"{API}/games/{self.id}"

    def auth(self, **headers: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}", **headers}

    def deal(self, body: dict[str, Any], **headers: str) -> TestResponse:
        return self.client.post(f"{self.url}/deals", json=body, headers=self.auth(**headers))

    def state(self) -> dict[str, Any]:
        response = self.client.get(self.url)
        assert response.status_code == 200 and response.json is not None
        return response.json


@pytest.fixture
def table(client: FlaskClient) -> Table:
    return Table(client)


def errors(response: TestResponse) -> list[dict[str, Any]]:
    body = response.get_json()
    assert body["ok"] is False and body["errors"], body
    return list(body["errors"])


def kingdom(k: int) -> list[dict[str, Any]]:
    """King ``k``'s five deals (the same game as tests/store/test_games.py)."""
    s = [(k + i) % 4 for i in range(4)]
    queens = {
        card: {"taker": taker, "doubled_by": None}
        for card, taker in zip(("QS", "QH", "QD", "QC"), (s[2], s[2], s[3], s[0]), strict=True)
    }
    deals = [
        {"contracts": ["trix"], "captures": {"trix_order": [s[1], s[0], s[3], s[2]]}},
        {"contracts": ["king"], "captures": {"king_of_hearts": {"taker": s[1]}}},
        {"contracts": ["queens"], "captures": {"queens": queens}},
        {"contracts": ["diamonds"], "captures": {"diamonds": [5, 4, 3, 1]}},
        {"contracts": ["collections"], "captures": {"tricks": [2, 3, 4, 4]}},
    ]
    return deals[k:] + deals[:k]


# --- POST /games ---------------------------------------------------------------------------


def test_create_game(client: FlaskClient) -> None:
    body = {"players": [" Rana", "Sami", "عمر", "Lina"], "first_king": 1, "rules": {"kingdoms": 1}}
    response = client.post(f"{API}/games", json=body)
    assert response.status_code == 201
    data = response.get_json()
    assert set(data) == {"id", "edit_token", "game"}
    assert len(data["id"]) >= 16 and len(data["edit_token"]) >= 43
    game = data["game"]
    assert game["id"] == data["id"] and game["version"] == 1
    assert game["players"] == ["Rana", "Sami", "عمر", "Lina"]
    assert game["rules"]["kingdoms"] == 1 and game["rules"]["doubling"] is True
    assert game["current_king"] == 1 and game["totals"] == [0, 0, 0, 0]
    assert game["available_contracts"] == ["king", "queens", "diamonds", "collections", "trix"]
    assert game["finished"] is False and game["winner"] is None and game["tied"] == []
    assert game["zero_sum"] is True and len(game["standings"]) == 4
    assert response.headers["ETag"] == '"1"'
    assert response.headers["Location"].endswith(f"/api/v1/games/{data['id']}")


def test_first_king_defaults_to_seat_0(client: FlaskClient) -> None:
    response = client.post(f"{API}/games", json={"players": PLAYERS})
    assert response.status_code == 201 and response.get_json()["game"]["current_king"] == 0


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"players": ["Rana", "Sami", "Omar"]}, "players"),
        ({"players": ["Rana", "Sami", "Omar", "rana"]}, "players.3"),
        ({"players": ["Rana", "Sami", "", "Lina"]}, "players.2"),
        ({"players": PLAYERS, "first_king": 4}, "first_king"),
        ({"players": PLAYERS, "rules": {"doubling": "yes"}}, "rules.doubling"),
        ({"players": PLAYERS, "rules": {"jokers": True}}, "rules.jokers"),
        ({"players": PLAYERS, "colour": "red"}, "colour"),
    ],
)
def test_create_game_refuses_bad_bodies(
    client: FlaskClient, body: dict[str, Any], field: str
) -> None:
    response = client.post(f"{API}/games", json=body)
    assert response.status_code == 422
    assert field in [e["field"] for e in errors(response)]
    assert all(e["message"] for e in errors(response))


@pytest.mark.parametrize("data", ["not json", "[1, 2]", ""])
def test_create_game_needs_a_json_object(client: FlaskClient, data: str) -> None:
    response = client.post(f"{API}/games", data=data, content_type="application/json")
    assert response.status_code == 400
    assert "JSON object" in errors(response)[0]["message"]


# --- GET /games/<id> -----------------------------------------------------------------------


def test_get_game_with_etag_and_304(table: Table) -> None:
    response = table.client.get(table.url)
    assert response.status_code == 200 and response.headers["ETag"] == '"1"'
    assert response.get_json()["id"] == table.id
    cached = table.client.get(table.url, headers={"If-None-Match": '"1"'})
    assert cached.status_code == 304 and cached.headers["ETag"] == '"1"' and not cached.data
    assert table.deal(TRIX).status_code == 201
    fresh = table.client.get(table.url, headers={"If-None-Match": '"1"'})
    assert fresh.status_code == 200 and fresh.headers["ETag"] == '"2"'
    assert table.client.get(table.url, headers={"If-None-Match": 'W/"2"'}).status_code == 304


def test_unknown_game_is_404_in_json(client: FlaskClient) -> None:
    for response in (
        client.get(f"{API}/games/nope"),
        client.post(f"{API}/games/nope/deals", json=TRIX, headers={"Authorization": "Bearer x"}),
        client.post(f"{API}/games/nope/deals", json=TRIX),
        client.delete(f"{API}/games/nope/deals/last", headers={"If-Match": '"1"'}),
    ):
        assert response.status_code == 404
        assert "no game" in errors(response)[0]["message"]


# --- POST /games/<id>/deals ----------------------------------------------------------------


def test_record_deal(table: Table) -> None:
    response = table.deal(TRIX)
    assert response.status_code == 201
    data = response.get_json()
    assert data["deal"] == {
        "n": 1,
        "king": 0,
        "contracts": ["trix"],
        "captures": {"trix_order": [2, 0, 3, 1]},
        "scores": [150, 50, 200, 100],
    }
    game = data["game"]
    assert game["version"] == 2 and game["totals"] == [150, 50, 200, 100]
    assert game["kingdoms"][0]["deals"] == [data["deal"]]
    assert game["available_contracts"] == ["king", "queens", "diamonds", "collections"]
    assert response.headers["ETag"] == '"2"'
    assert table.state() == game


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({}, 401),
        ({"Authorization": "Basic cmFuYTpzZWNyZXQ="}, 401),
        ({"Authorization": "Bearer "}, 401),
        ({"Authorization": "Bearer not-the-token"}, 403),
    ],
)
def test_writes_need_the_edit_token(table: Table, headers: dict[str, str], status: int) -> None:
    other = Table(table.client)
    if status == 403:  # another game's real token is wrong here too
        headers = {"Authorization": f"Bearer {other.token}"}
    for response in (
        table.client.post(f"{table.url}/deals", json=TRIX, headers=headers),
        table.client.put(f"{table.url}/deals/1", json=TRIX, headers=headers),
        table.client.delete(f"{table.url}/deals/last", headers=headers),
        table.client.post(f"{table.url}/redeals", json={"kind": "misdeal"}, headers=headers),
    ):
        assert response.status_code == status
        assert errors(response)[0]["message"]
    assert table.state()["version"] == 1


def test_record_deal_refusals_write_nothing(table: Table) -> None:
    assert table.deal(TRIX).status_code == 201
    repeated = table.deal(TRIX)
    assert repeated.status_code == 409
    (problem,) = errors(repeated)
    assert problem["rule"] == "R2" and problem["field"] == "contracts"
    assert "The kingdom of \u2068Rana\u2069 has already had Trix" in problem["message"]
    bad = table.deal({"contracts": ["diamonds"], "captures": {"diamonds": [5, 4, 3, 0]}})
    assert bad.status_code == 422
    assert errors(bad)[0] | {"code": None} == {
        "rule": "R11",
        "field": "captures.diamonds",
        "message": "Diamonds must add up to 13; these add up to 12 "
        "(Rana 5, Sami 4, Omar 3, Lina 0).",
        "code": None,
    }
    not_json = table.client.post(
        f"{table.url}/deals", data="{", content_type="application/json", headers=table.auth()
    )
    assert not_json.status_code == 400
    unknown = table.deal({**KING, "note": "x"})
    assert unknown.status_code == 422 and errors(unknown)[0]["field"] == "note"
    assert table.state()["version"] == 2


def test_record_deal_with_if_match(table: Table) -> None:
    assert table.deal(KING, **{"If-Match": '"1"'}).status_code == 201
    stale = table.deal(TRIX, **{"If-Match": '"1"'})
    assert stale.status_code == 412 and stale.headers["ETag"] == '"2"'
    (problem,) = errors(stale)
    assert problem["field"] == "If-Match"
    assert problem["message"].startswith(
        "Deal 1 was already recorded: \u2068Rana\u2069's King of Hearts."
    )
    assert stale.get_json()["game"]["version"] == 2
    assert table.deal(TRIX, **{"If-Match": "*"}).status_code == 201
    malformed = table.deal(DIAMONDS, **{"If-Match": '"abc"'})
    assert malformed.status_code == 400 and "If-Match" in errors(malformed)[0]["message"]
    assert table.state()["version"] == 3


# --- PUT /games/<id>/deals/<n> -------------------------------------------------------------


def test_edit_deal(table: Table) -> None:
    table.deal(KING)
    table.deal(TRIX)
    put = table.client.put(
        f"{table.url}/deals/1",
        json={"contracts": ["king"], "captures": {"king_of_hearts": {"taker": 2}}},
        headers=table.auth(**{"If-Match": '"3"'}),
    )
    assert put.status_code == 200 and put.headers["ETag"] == '"4"'
    data = put.get_json()
    assert data["deal"]["scores"] == [0, 0, -75, 0] and data["deal"]["n"] == 1
    assert data["game"]["totals"] == [150, 50, 125, 100]
    history = table.client.get(f"{table.url}/deals/1").get_json()["revisions"]
    assert [r["action"] for r in history] == ["record", "edit"]
    assert history[1]["before"]["scores"] == [0, -75, 0, 0] and history[1]["source"] == "api"


def test_edit_deal_refusals(table: Table) -> None:
    table.deal(KING)
    table.deal(TRIX)
    url = f"{table.url}/deals/1"

    def put(body: dict[str, Any], n: int = 1, **headers: str) -> TestResponse:
        return table.client.put(f"{table.url}/deals/{n}", json=body, headers=table.auth(**headers))

    missing = table.client.put(url, json=KING, headers=table.auth())
    assert missing.status_code == 428 and "If-Match" in errors(missing)[0]["message"]
    assert put(KING, **{"If-Match": '"1"'}).status_code == 412
    assert put(KING, 3, **{"If-Match": '"3"'}).status_code == 404
    assert "no deal 3" in errors(put(KING, 3, **{"If-Match": '"3"'}))[0]["message"]
    breaks = put(TRIX, **{"If-Match": '"3"'})
    assert breaks.status_code == 409
    (problem,) = errors(breaks)
    assert problem["field"] == "deals.2.contracts"
    assert problem["message"].startswith("Changing deal 1 this way would break deal 2:")
    bad = put(
        {"contracts": ["king"], "captures": {"king_of_hearts": {"taker": 9}}}, **{"If-Match": '"3"'}
    )
    assert bad.status_code == 422
    assert table.state()["version"] == 3 and table.state()["totals"] == [150, -25, 200, 100]


# --- DELETE /games/<id>/deals/last ---------------------------------------------------------


def test_undo(table: Table) -> None:
    table.deal(KING)
    table.deal(TRIX)
    url = f"{table.url}/deals/last"
    assert table.client.delete(url, headers=table.auth()).status_code == 428
    assert table.client.delete(url, headers=table.auth(**{"If-Match": '"2"'})).status_code == 412
    undone = table.client.delete(url, headers=table.auth(**{"If-Match": '"3"'}))
    assert undone.status_code == 200 and undone.headers["ETag"] == '"4"'
    game = undone.get_json()["game"]
    assert game["version"] == 4 and game["totals"] == [0, -75, 0, 0]
    assert "trix" in game["available_contracts"]
    assert table.client.delete(url, headers=table.auth(**{"If-Match": '"4"'})).status_code == 200
    empty = table.client.delete(url, headers=table.auth(**{"If-Match": '"5"'}))
    assert empty.status_code == 409 and "nothing to undo" in errors(empty)[0]["message"]


# --- POST /games/<id>/redeals (extension) --------------------------------------------------


def test_redeals(table: Table) -> None:
    table.deal(KING)
    url = f"{table.url}/redeals"
    claim = {"kind": "redeal", "seat": 2, "contract": "trix", "note": "four 2s"}
    response = table.client.post(url, json=claim, headers=table.auth())
    assert response.status_code == 201
    assert response.get_json()["redeal"] == claim
    assert response.get_json()["game"]["kingdoms"][0]["redeals"] == [claim]
    used = table.client.post(url, json={**claim, "contract": "king"}, headers=table.auth())
    assert used.status_code == 409
    for bad in ({"kind": "shuffle"}, {"seat": 1}, {"kind": "misdeal", "note": "x" * 201}):
        assert table.client.post(url, json=bad, headers=table.auth()).status_code == 422
    assert table.state()["version"] == 3
    nxt = table.deal(TRIX)
    assert nxt.status_code == 201 and nxt.get_json()["deal"]["n"] == 2


# --- GET /games/<id>/deals/<n> (extension) -------------------------------------------------


def test_get_deal(table: Table) -> None:
    table.deal(TRIX)
    response = table.client.get(f"{table.url}/deals/1")
    assert response.status_code == 200
    assert response.get_json()["deal"]["scores"] == [150, 50, 200, 100]
    assert table.client.get(f"{table.url}/deals/2").status_code == 404


# --- a whole game --------------------------------------------------------------------------


def test_a_whole_game_through_the_api(table: Table) -> None:
    version = 1
    for k in range(4):
        for body in kingdom(k):
            response = table.deal(body, **{"If-Match": f'"{version}"'})
            assert response.status_code == 201, response.get_json()
            version += 1
            assert response.get_json()["deal"]["king"] == k
    game = table.state()
    assert game["version"] == 21 and len(game["kingdoms"]) == 4
    assert game["totals"] == [5, -15, -35, 45]
    assert [k["totals"] for k in game["kingdoms"]] == [
        [45, 40, -90, 5],
        [-5, 40, 35, -70],
        [-80, -10, 35, 55],
        [45, -85, -15, 55],
    ]
    assert game["finished"] is True and game["winner"] == 3 and game["tied"] == []
    assert game["current_king"] is None and game["available_contracts"] == []
    assert [(s["seat"], s["rank"]) for s in game["standings"]] == [(3, 1), (0, 2), (1, 3), (2, 4)]
    over = table.deal(KING)
    assert over.status_code == 409 and "The game is over" in errors(over)[0]["message"]


# --- speed ---------------------------------------------------------------------------------


def queries_for(app: Flask, action: Callable[[], TestResponse]) -> int:
    db.session.remove()
    with sql_statements(app) as statements:
        assert action().status_code == 200
    return len(statements)


def test_get_state_queries_do_not_grow_with_the_deals(app: Flask, client: FlaskClient) -> None:
    short, long = Table(client), Table(client)
    short.deal(TRIX)
    for k in range(4):
        for body in kingdom(k):
            assert long.deal(body).status_code == 201
    one = queries_for(app, lambda: client.get(short.url))
    twenty = queries_for(app, lambda: client.get(long.url))
    assert one == twenty <= 4
