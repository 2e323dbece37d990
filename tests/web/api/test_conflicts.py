"""API conflicts come with the fresh game: 412 (stale If-Match) and 409 (the engine refuses)."""

from __future__ import annotations

from flask.testing import FlaskClient

API = "/api/v1"
PLAYERS = ["Rana", "Sami", "Omar", "Lina"]
KING = {"contracts": ["king"], "captures": {"king_of_hearts": {"taker": 1, "doubled_by": None}}}
TRIX = {"contracts": ["trix"], "captures": {"trix_order": [2, 0, 3, 1]}}


def new_game(client: FlaskClient) -> tuple[str, dict[str, str]]:
    answer = client.post(f"{API}/games", json={"players": PLAYERS}).get_json()
    return answer["id"], {"Authorization": f"Bearer {answer['edit_token']}"}


def test_second_phone_without_if_match_gets_409_and_the_fresh_game(client: FlaskClient) -> None:
    game_id, auth = new_game(client)
    assert client.post(f"{API}/games/{game_id}/deals", json=KING, headers=auth).status_code == 201
    again = client.post(f"{API}/games/{game_id}/deals", json=KING, headers=auth)
    assert again.status_code == 409 and again.headers["ETag"] == '"2"'
    body = again.get_json()
    assert body["ok"] is False and body["errors"][0]["message"]
    assert body["game"]["version"] == 2 and body["game"]["kingdoms"][0]["deals"][0]["n"] == 1


def test_second_phone_with_if_match_gets_412_naming_the_deal(client: FlaskClient) -> None:
    game_id, auth = new_game(client)
    headers = {**auth, "If-Match": '"1"'}
    assert (
        client.post(f"{API}/games/{game_id}/deals", json=KING, headers=headers).status_code == 201
    )
    again = client.post(f"{API}/games/{game_id}/deals", json=TRIX, headers=headers)
    assert again.status_code == 412
    body = again.get_json()
    assert body["errors"][0]["message"].startswith(
        "Deal 1 was already recorded: \u2068Rana\u2069's King of Hearts."
    )
    assert body["game"]["version"] == 2


def test_an_edit_that_breaks_a_later_deal_is_409_with_the_game(client: FlaskClient) -> None:
    game_id, auth = new_game(client)
    for deal in (KING, TRIX):
        client.post(f"{API}/games/{game_id}/deals", json=deal, headers=auth)
    edit = client.put(
        f"{API}/games/{game_id}/deals/1", json=TRIX, headers={**auth, "If-Match": '"3"'}
    )
    assert edit.status_code == 409
    body = edit.get_json()
    assert "deal 2" in body["errors"][0]["message"]
    assert body["game"]["version"] == 3  # nothing changed


def test_if_match_that_is_not_a_version_is_a_400(client: FlaskClient) -> None:
    game_id, auth = new_game(client)
    for tag in ('"²"', '"٣"', 'W/"1e3"', '"-1"'):
        response = client.delete(
            f"{API}/games/{game_id}/deals/last", headers={**auth, "If-Match": tag}
        )
        assert response.status_code == 400, tag
        assert "If-Match" in response.get_json()["errors"][0]["message"]
