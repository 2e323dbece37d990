"""One deal, one position: a deal typed for deal n is never recorded as deal n+1 by itself.

And a deal keeps the time it was played (``played_at``, the phone's clock at Save).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from flask.testing import FlaskClient

from tests.web.api.test_conflicts import API, KING, TRIX, new_game


def test_a_taken_position_is_409_with_the_other_entry(client: FlaskClient) -> None:
    game_id, auth = new_game(client)
    first = {**KING, "position": {"n": 1, "king": 0}, "entry_id": "phone-a-1"}
    assert client.post(f"{API}/games/{game_id}/deals", json=first, headers=auth).status_code == 201
    second = {**KING, "position": {"n": 1, "king": 0, "game": game_id}, "entry_id": "phone-b-1"}
    answer = client.post(f"{API}/games/{game_id}/deals", json=second, headers=auth)
    assert answer.status_code == 409
    body = answer.get_json()
    assert body["errors"][0]["code"] == "deal_already_recorded"
    assert body["errors"][0]["field"] == "position"
    assert body["errors"][0]["message"] == (
        "Deal 1 was recorded meanwhile; this entry, typed for deal 1, was not saved."
    )
    assert body["other"]["deal"]["n"] == 1 and body["other"]["source"] == "api"
    assert body["other"]["entry_id"] == "phone-a-1"  # a phone tells its own entries by it
    assert body["same"] is True
    assert body["mine"]["scores"] == [0, -75, 0, 0]
    assert body["position"] == {"n": 1, "king": 0}
    assert body["next"]["n"] == 2 and body["next"]["king"] == 0
    assert body["next"]["valid"] is False  # Rana played King of Hearts already (R2)
    assert body["next"]["problems"][0]["code"] == "contract_already_played"
    assert body["game"]["version"] == 2
    state = client.get(f"{API}/games/{game_id}").get_json()
    assert len(state["kingdoms"][0]["deals"]) == 1


def test_mine_is_the_next_deal_is_sent_for_the_next_position(client: FlaskClient) -> None:
    game_id, auth = new_game(client)
    client.post(f"{API}/games/{game_id}/deals", json={**KING, "position": {"n": 1}}, headers=auth)
    refused = client.post(
        f"{API}/games/{game_id}/deals", json={**TRIX, "position": {"n": 1}}, headers=auth
    )
    assert refused.status_code == 409 and refused.get_json()["same"] is False
    assert refused.get_json()["next"]["valid"] is True
    again = {**TRIX, "position": {"n": 2, "king": 0}}
    assert client.post(f"{API}/games/{game_id}/deals", json=again, headers=auth).status_code == 201


def test_a_position_checked_before_if_match(client: FlaskClient) -> None:
    """The phone learns "the same deal?" rather than "reload": the position is asked first."""
    game_id, auth = new_game(client)
    client.post(f"{API}/games/{game_id}/deals", json=KING, headers=auth)
    headers = {**auth, "If-Match": '"1"'}
    answer = client.post(
        f"{API}/games/{game_id}/deals", json={**KING, "position": {"n": 1}}, headers=headers
    )
    assert answer.status_code == 409 and answer.get_json()["errors"][0]["code"] == (
        "deal_already_recorded"
    )


def test_a_position_ahead_of_the_game_is_position_moved(client: FlaskClient) -> None:
    game_id, auth = new_game(client)
    answer = client.post(
        f"{API}/games/{game_id}/deals", json={**KING, "position": {"n": 2}}, headers=auth
    )
    assert answer.status_code == 409
    body = answer.get_json()
    assert body["errors"][0]["code"] == "position_moved" and body["other"] is None
    other_king = client.post(
        f"{API}/games/{game_id}/deals", json={**KING, "position": {"n": 1, "king": 2}}, headers=auth
    )
    assert other_king.status_code == 409
    assert (
        "with Omar as king, but Rana is king now" in other_king.get_json()["errors"][0]["message"]
    )


def test_a_malformed_position_is_422(client: FlaskClient) -> None:
    game_id, auth = new_game(client)
    for position in ({"n": 0}, {"n": "1"}, {"n": 1, "king": 4}, {"n": 1, "x": 1}, [1]):
        answer = client.post(
            f"{API}/games/{game_id}/deals", json={**KING, "position": position}, headers=auth
        )
        assert answer.status_code == 422, position
    state = client.get(f"{API}/games/{game_id}").get_json()
    assert state["version"] == 1


def test_played_at_is_kept_and_shown_in_the_deal(client: FlaskClient) -> None:
    game_id, auth = new_game(client)
    played = (datetime.now(UTC) - timedelta(minutes=1)).replace(microsecond=0)
    played = played.astimezone(timezone(timedelta(hours=3)))
    body = {**KING, "played_at": played.isoformat()}
    assert client.post(f"{API}/games/{game_id}/deals", json=body, headers=auth).status_code == 201
    deal = client.get(f"{API}/games/{game_id}/deals/1").get_json()
    assert deal["played_at"] == played.isoformat()  # with the phone's own offset
    assert deal["recorded_at"] != deal["played_at"]


def test_absurd_or_malformed_played_at_is_422(client: FlaskClient) -> None:
    game_id, auth = new_game(client)
    now = datetime.now(UTC)
    for raw, code in (
        ((now + timedelta(hours=1)).isoformat(), "played_at_out_of_range"),
        ((now - timedelta(days=1)).isoformat(), "played_at_out_of_range"),
        ("2026-12-03T21:42:05", "bad_played_at"),  # no offset
        ("yesterday", "bad_played_at"),
        (1733259725, "bad_played_at"),
    ):
        answer = client.post(
            f"{API}/games/{game_id}/deals", json={**KING, "played_at": raw}, headers=auth
        )
        assert answer.status_code == 422, raw
        assert answer.get_json()["errors"][0]["code"] == code
        assert answer.get_json()["errors"][0]["field"] == "played_at"
    assert client.get(f"{API}/games/{game_id}").get_json()["version"] == 1


def test_a_redeal_keeps_its_time_too(client: FlaskClient) -> None:
    game_id, auth = new_game(client)
    played = datetime.now(UTC).replace(microsecond=0)
    body = {"kind": "misdeal", "played_at": played.isoformat()}
    assert client.post(f"{API}/games/{game_id}/redeals", json=body, headers=auth).status_code == 201
    backup = client.get(f"{API}/games/{game_id}/export").get_json()
    assert backup["log"][0]["played_at"] == played.isoformat()
