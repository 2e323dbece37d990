"""``POST /api/v1/games/<id>/sync``: the outbox of a phone's pages, written exactly once.

Its edit rights come from the session cookie, so it needs the CSRF token the
page has (``X-CSRFToken``), as a form would.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import pytest
from flask import Flask, g, session
from flask.testing import FlaskClient
from flask_wtf.csrf import generate_csrf
from werkzeug.test import TestResponse

from tests.web.pages import NAMES

KING = {"contracts": ["king"], "captures": {"king_of_hearts": {"taker": 1, "doubled_by": None}}}
TRIX = {"contracts": ["trix"], "captures": {"trix_order": [2, 0, 3, 1]}}


@pytest.fixture
def app(csrf_app: Flask) -> Flask:
    """CSRF protection on, as in production."""
    return csrf_app


class Phone:
    """A browser that started a game through its form (CSRF on), as the offline page syncs."""

    def __init__(self, client: FlaskClient, **rules: str) -> None:
        self.client = client
        page = client.get("/games/new").get_data(as_text=True)
        token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
        assert token is not None
        data = {f"players-{i}": name for i, name in enumerate(NAMES)}
        data.update(first_king="0", preset="standard", csrf_token=token.group(1), **rules)
        response = client.post("/games/new", data=data)
        assert response.status_code == 302, response.get_data(as_text=True)
        self.game_id = response.headers["Location"].rsplit("/", 1)[-1]
        self.copy = client.get(f"/games/{self.game_id}/offline.json").get_json()

    def sync(self, body: dict[str, Any], token: str | None = "page") -> TestResponse:
        headers = {} if token is None else {"X-CSRFToken": self.copy["csrf_token"]}
        return self.client.post(self.copy["urls"]["sync"], json=body, headers=headers)

    def deals(self) -> int:
        state = self.client.get(f"/api/v1/games/{self.game_id}").get_json()
        return sum(len(k["deals"]) for k in state["kingdoms"])


@pytest.fixture
def phone(client: FlaskClient) -> Phone:
    return Phone(client)


def test_an_entry_is_recorded_once_however_often_it_is_sent(phone: Phone) -> None:
    body = {"entry_id": "o1", "action": "record", "entry": TRIX}
    first, again = phone.sync(body), phone.sync(body)
    assert first.status_code == again.status_code == 201
    assert first.get_json()["deal"] == again.get_json()["deal"]
    assert again.get_json()["game"]["version"] == 2 and phone.deals() == 1


def test_a_repeat_says_so_so_a_phone_takes_no_later_version_as_its_own(phone: Phone) -> None:
    """An undo queued behind an entry whose first answer was lost takes the version that
    entry made; a repeat's ``game`` is the game now, so the answer says it is a repeat."""
    body = {"entry_id": "o1", "action": "record", "entry": TRIX}
    first = phone.sync(body).get_json()
    assert "repeat" not in first and first["game"]["version"] == 2
    phone.sync({"entry_id": "o2", "action": "record", "entry": KING})  # another write after it
    again = phone.sync(body).get_json()
    assert again["repeat"] is True and again["deal"] == first["deal"]
    assert again["game"]["version"] == 3 and again["game"]["deals_played"] == 2
    redeal = {"entry_id": "r1", "action": "redeal", "entry": {"kind": "misdeal"}}
    assert "repeat" not in phone.sync(redeal).get_json()
    assert phone.sync(redeal).get_json()["repeat"] is True
    undo = {"entry_id": "u1", "action": "undo", "version": 4}
    assert "repeat" not in phone.sync(undo).get_json()
    assert phone.sync(undo).get_json()["repeat"] is True


def test_another_entry_under_a_used_id_is_409(phone: Phone) -> None:
    phone.sync({"entry_id": "o1", "action": "record", "entry": TRIX})
    refused = phone.sync({"entry_id": "o1", "action": "record", "entry": KING})
    assert refused.status_code == 409
    assert refused.get_json()["errors"][0]["code"] == "entry_id_reused"
    assert phone.deals() == 1


def test_an_entry_that_no_longer_fits_is_409_with_the_game_now(phone: Phone) -> None:
    phone.sync({"entry_id": "a", "action": "record", "entry": KING})
    refused = phone.sync({"entry_id": "b", "action": "record", "entry": KING})
    assert refused.status_code == 409
    body = refused.get_json()
    assert body["errors"][0]["code"] == "contract_already_played"
    assert body["game"]["version"] == 2  # what the other phone recorded, to show beside it


def test_without_the_csrf_token_nothing_is_written(phone: Phone) -> None:
    refused = phone.sync({"entry_id": "o1", "action": "record", "entry": TRIX}, token=None)
    assert refused.status_code == 400 and refused.get_json()["ok"] is False
    assert phone.deals() == 0


def test_a_phone_without_edit_rights_cannot_sync(phone: Phone, app: Flask) -> None:
    stranger = app.test_client()
    with app.test_request_context():  # a valid CSRF token of the stranger's own session
        g.pop("csrf_token", None)  # the app context (and its g) is the fixture's
        signed = generate_csrf()
        raw = session["csrf_token"]
    with stranger.session_transaction() as cookie:
        cookie["csrf_token"] = raw
    copy = stranger.get(f"/games/{phone.game_id}/offline.json").get_json()
    assert copy["editable"] is False and copy["csrf_token"] is None
    refused = stranger.post(
        copy["urls"]["sync"],
        json={"entry_id": "x", "action": "record", "entry": TRIX},
        headers={"X-CSRFToken": signed},
    )
    assert refused.status_code == 403, refused.get_json()
    assert phone.deals() == 0


def test_a_correction_and_an_undo_name_their_version(phone: Phone) -> None:
    phone.sync({"entry_id": "r", "action": "record", "entry": TRIX})
    fix = {**TRIX, "captures": {"trix_order": [0, 1, 2, 3]}}
    stale = phone.sync({"entry_id": "e0", "action": "edit", "n": 1, "version": 1, "entry": fix})
    assert stale.status_code == 412 and stale.get_json()["game"]["version"] == 2
    edit = {"entry_id": "e1", "action": "edit", "n": 1, "version": 2, "entry": fix}
    assert phone.sync(edit).status_code == 200
    again = phone.sync(edit)
    assert again.status_code == 200 and again.get_json()["deal"]["captures"] == fix["captures"]
    undo = {"entry_id": "u1", "action": "undo", "version": 3}
    assert phone.sync(undo).status_code == phone.sync(undo).status_code == 200
    assert phone.deals() == 0


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"action": "record", "entry": TRIX}, 422),
        ({"entry_id": "a b", "action": "record", "entry": TRIX}, 422),
        ({"entry_id": "a", "action": "delete"}, 400),
        ({"entry_id": "a", "action": "undo"}, 400),
        ({"entry_id": "a", "action": "edit", "version": 1, "entry": TRIX}, 400),
        ({"entry_id": "a", "action": "record", "entry": {"contracts": ["x"]}}, 422),
    ],
)
def test_a_malformed_entry_is_refused_and_nothing_is_written(
    phone: Phone, body: dict[str, Any], status: int
) -> None:
    assert phone.sync(body).status_code == status
    assert phone.deals() == 0


# --- a club night's table: its first deal names the first king (R2) --------------------------


class TablePhone(Phone):
    """A browser that joined a club night's table through its edit link (CSRF on)."""

    def __init__(self, client: FlaskClient) -> None:  # no game form: a drawn table
        self.client = client
        players = [*NAMES, "Hadi", "Maya", "Nour", "Ziad"]
        made = client.post("/api/v1/events", json={"name": "Club", "players": players}).get_json()
        auth = {"Authorization": f"Bearer {made['director_token']}"}
        table = client.post(f"/api/v1/events/{made['id']}/rounds", headers=auth).get_json()
        self.game_id = table["tables"][0]["game"]
        join = f"/games/{self.game_id}/join/{table['tables'][0]['edit_token']}"
        page = client.get(join).get_data(as_text=True)
        token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
        assert token is not None
        assert client.post(join, data={"csrf_token": token.group(1)}).status_code == 303
        self.copy = client.get(f"/games/{self.game_id}/offline.json").get_json()


def test_r2_a_tables_copy_for_the_phone_says_its_first_deal_names_the_first_king(
    client: FlaskClient,
) -> None:
    table = TablePhone(client)
    assert table.copy["first_king_from_deal"] is True and table.copy["first_king_open"] is True
    ordinary = Phone(client)
    assert ordinary.copy["first_king_from_deal"] is False
    assert ordinary.copy["first_king_open"] is False


def test_r2_a_tables_first_deal_synced_without_the_7h_holder_is_refused_and_nothing_saved(
    client: FlaskClient,
) -> None:
    table = TablePhone(client)
    refused = table.sync({"entry_id": "t1", "action": "record", "entry": TRIX})
    assert refused.status_code == 422
    assert refused.json is not None and refused.json["ok"] is False
    [error] = refused.json["errors"]
    assert (error["rule"], error["field"], error["message"]) == (
        "R2",
        "king",
        "Choose who was dealt the 7♥.",
    )
    assert table.deals() == 0


def test_r2_a_tables_first_deal_synced_with_the_7h_holder_makes_him_first_king_once(
    client: FlaskClient,
) -> None:
    table = TablePhone(client)
    body = {"entry_id": "t2", "action": "record", "entry": {**TRIX, "king": 2}}
    first, again = table.sync(body), table.sync(body)
    assert first.status_code == again.status_code == 201
    assert first.json["deal"]["king"] == 2 and first.json["game"]["first_king_open"] is False
    state = client.get(f"/api/v1/games/{table.game_id}").get_json()
    assert table.deals() == 1 and state["kingdoms"][0]["king"] == 2
    # The next deal needs no king: the first king is known.
    follow = table.sync({"entry_id": "t3", "action": "record", "entry": KING})
    assert follow.status_code == 201 and follow.json["deal"]["king"] == 2


# --- one deal, one position; the time played ---------------------------------------------


def test_an_entry_typed_for_a_position_another_phone_took_is_a_conflict(phone: Phone) -> None:
    first = {"entry_id": "a1", "action": "record", "entry": KING, "position": {"n": 1, "king": 0}}
    assert phone.sync(first).status_code == 201
    second = {**first, "entry_id": "b1"}
    answer = phone.sync(second)
    assert answer.status_code == 409
    body = answer.get_json()
    assert body["errors"][0]["code"] == "deal_already_recorded"
    assert body["other"]["entry_id"] == "a1" and body["other"]["source"] == "offline"
    assert body["same"] is True and body["game"]["version"] == 2
    assert phone.sync(first).status_code == 201  # its own retry: answered, never "the other"
    assert phone.deals() == 1


def test_a_synced_entry_keeps_the_time_it_was_played(phone: Phone) -> None:
    played = datetime.now(UTC).replace(microsecond=0).isoformat()
    body = {"entry_id": "t1", "action": "record", "entry": TRIX, "played_at": played}
    assert phone.sync(body).status_code == 201
    deal = phone.client.get(f"/api/v1/games/{phone.game_id}/deals/1").get_json()
    assert deal["played_at"] == played
