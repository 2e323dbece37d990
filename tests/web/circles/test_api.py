"""The circles' JSON API (API.md "Circles"): shapes, tokens, and every write's refusals."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

NAMES = ["Rana", "Sami", "Omar", "Lina"]
DEALS: list[dict[str, Any]] = [
    {"contracts": ["trix"], "captures": {"trix_order": [0, 1, 2, 3]}},
    {"contracts": ["king"], "captures": {"king_of_hearts": {"taker": 1, "doubled_by": 0}}},
    {
        "contracts": ["queens"],
        "captures": {
            "queens": {
                "QS": {"taker": 1, "doubled_by": None},
                "QH": {"taker": 2, "doubled_by": None},
                "QD": {"taker": 3, "doubled_by": None},
                "QC": {"taker": 3, "doubled_by": None},
            }
        },
    },
    {"contracts": ["diamonds"], "captures": {"diamonds": [1, 2, 3, 7]}},
    {"contracts": ["collections"], "captures": {"tricks": [1, 2, 3, 7]}},
]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def make_circle(client: FlaskClient, **extra: Any) -> tuple[str, str]:
    body = {"name": "Thursday table", "members": ["Rana", "Sami"], "ratings": True, **extra}
    response = client.post("/api/v1/circles", json=body)
    assert response.status_code == 201, response.json
    return response.json["id"], response.json["edit_token"]


def play_game(client: FlaskClient, circle_id: str, token: str, names: list[str] = NAMES) -> str:
    body = {"players": names, "rules": {"kingdoms": 1}}
    response = client.post(f"/api/v1/circles/{circle_id}/games", json=body, headers=bearer(token))
    assert response.status_code == 201, response.json
    game_id, game_token = response.json["id"], response.json["edit_token"]
    for deal in DEALS:
        answer = client.post(
            f"/api/v1/games/{game_id}/deals", json=deal, headers=bearer(game_token)
        )
        assert answer.status_code == 201, answer.json
    return game_id


def test_create_a_circle_201_with_its_token_and_the_circle(client: FlaskClient) -> None:
    response = client.post(
        "/api/v1/circles", json={"name": "Thursday", "members": ["Rana", "سامي"]}
    )
    assert response.status_code == 201
    body = response.json
    assert set(body) == {"id", "edit_token", "circle"} and len(body["edit_token"]) >= 43
    circle = body["circle"]
    assert circle["id"] == body["id"] and circle["name"] == "Thursday" and circle["games"] == []
    assert [m["name"] for m in circle["members"]] == ["Rana", "سامي"]
    assert set(circle["members"][0]) >= {"id", "name", "games", "wins", "rating"}


def test_get_a_circle_after_a_game(client: FlaskClient) -> None:
    circle_id, token = make_circle(client)
    game_id = play_game(client, circle_id, token)
    circle = client.get(f"/api/v1/circles/{circle_id}").json
    assert circle["games"] == [game_id]
    rows = {m["name"]: m for m in circle["members"]}
    assert rows["Rana"]["games"] == 1 and rows["Rana"]["wins"] == 1 and rows["Sami"]["wins"] == 0
    assert rows["Rana"]["rating"] is None  # shown after the fifth game


def test_member_statistics_in_the_documented_shape(client: FlaskClient) -> None:
    circle_id, token = make_circle(client)
    play_game(client, circle_id, token)
    rana = client.get(f"/api/v1/circles/{circle_id}").json["members"][0]
    stats = client.get(f"/api/v1/circles/{circle_id}/members/{rana['id']}").json
    for key in ("games", "wins", "win_rate", "average_total", "per_contract", "streaks"):
        assert key in stats
    assert set(stats["per_contract"]) == {"king", "queens", "diamonds", "collections", "trix"}
    assert {"deals", "taken", "average"} <= set(stats["per_contract"]["king"])
    assert set(stats["per_contract"]["trix"]) == {"deals", "places", "average"}
    assert set(stats["streaks"]) == {"wins", "losses"}
    assert {"member", "games", "above", "below"} <= set(stats["head_to_head"][0])
    assert stats["games"] == 1 and stats["win_rate"] == 1.0 and stats["average_total"] == 250


def test_the_fifth_game_shows_a_rating_with_words(client: FlaskClient) -> None:
    circle_id, token = make_circle(client)
    for _ in range(5):
        play_game(client, circle_id, token)
    rana = client.get(f"/api/v1/circles/{circle_id}").json["members"][0]
    assert rana["rating"]["mu"] > 25 and rana["rating"]["sigma"] < 25 / 3
    assert rana["rating"]["display"].startswith("about ")


def test_a_circle_without_ratings_shows_none(client: FlaskClient) -> None:
    circle_id, token = make_circle(client, ratings=False)
    for _ in range(5):
        play_game(client, circle_id, token)
    assert all(
        m["rating"] is None for m in client.get(f"/api/v1/circles/{circle_id}").json["members"]
    )


def test_starting_a_circle_game_without_a_token_is_401(client: FlaskClient) -> None:
    circle_id, _token = make_circle(client)
    response = client.post(f"/api/v1/circles/{circle_id}/games", json={"players": NAMES})
    assert response.status_code == 401 and response.json["ok"] is False
    assert client.get(f"/api/v1/circles/{circle_id}").json["games"] == []


def test_another_circles_token_is_403(client: FlaskClient) -> None:
    circle_id, _token = make_circle(client)
    _other, other_token = make_circle(client)
    response = client.post(
        f"/api/v1/circles/{circle_id}/games", json={"players": NAMES}, headers=bearer(other_token)
    )
    assert response.status_code == 403


def test_a_games_token_gives_no_right_over_its_circle(client: FlaskClient) -> None:
    circle_id, token = make_circle(client)
    body = {"players": NAMES, "rules": {"kingdoms": 1}}
    game = client.post(f"/api/v1/circles/{circle_id}/games", json=body, headers=bearer(token)).json
    response = client.post(
        f"/api/v1/circles/{circle_id}/games", json=body, headers=bearer(game["edit_token"])
    )
    assert response.status_code == 403


def test_a_circles_token_gives_no_right_over_its_games(client: FlaskClient) -> None:
    circle_id, token = make_circle(client)
    body = {"players": NAMES, "rules": {"kingdoms": 1}}
    game = client.post(f"/api/v1/circles/{circle_id}/games", json=body, headers=bearer(token)).json
    response = client.post(
        f"/api/v1/games/{game['id']}/deals", json=DEALS[0], headers=bearer(token)
    )
    assert response.status_code == 403


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({"name": "", "members": []}, 422, "name"),
        ({"name": "T", "members": ["Rana", "rana"]}, 422, "members.1"),
        ({"name": "T", "members": "Rana"}, 422, "members"),
        ({"name": "T", "ratings": "yes"}, 422, "ratings"),
        ({"name": "T", "colour": "red"}, 422, "colour"),
        ({"name": "T", "rules": {"kingdoms": 3}}, 422, None),
    ],
)
def test_a_bad_circle_is_refused_naming_the_field(
    client: FlaskClient, body: dict[str, Any], status: int, field: str | None
) -> None:
    response = client.post("/api/v1/circles", json=body)
    assert response.status_code == status and response.json["ok"] is False
    if field is not None:
        assert response.json["errors"][0]["field"] == field


def test_unknown_circle_and_member_are_404(client: FlaskClient) -> None:
    assert client.get("/api/v1/circles/nope").status_code == 404
    circle_id, _token = make_circle(client)
    assert client.get(f"/api/v1/circles/{circle_id}/members/999").status_code == 404
    response = client.post("/api/v1/circles/nope/games", json={"players": NAMES})
    assert response.status_code == 404


def test_the_csv_has_one_row_per_finished_game_and_one_column_per_member(
    client: FlaskClient,
) -> None:
    circle_id, token = make_circle(client, members=["=cmd", "Rana"])
    play_game(client, circle_id, token)
    play_game(client, circle_id, token)
    response = client.get(f"/circles/{circle_id}/export.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    lines = response.get_data(as_text=True).strip().splitlines()
    assert lines[0].split(",") == [
        "date",
        "game",
        "'=cmd",
        "Rana",
        "Sami",
        "Omar",
        "Lina",
        "winners",
        "teams",
    ]
    row = ["", "250", "-75", "0", "-175", "Rana", ""]
    assert len(lines) == 3 and lines[1].split(",")[2:] == row
