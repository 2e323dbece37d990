"""A page form sent by the offline script under an ``entry_id``, then synced under it.

When the network fails under a Save, the phone cannot know whether the form
reached the server: it queues the same entry under the same id. Whichever
copies arrive, the game gets the write once: the form's write and the sync's
must be the same request to the server (the same deal, redeal, correction or
undo), whatever way they were typed.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper.extensions import db
from scorekeeper.store import games as services
from scorekeeper.store import models
from tests.web.offline.test_sync import Phone

# The same deals as the deal form posts them and as static/offline/form.js sends them.
DEALS = [
    (
        "trix",
        {"trix-0": "2", "trix-1": "0", "trix-2": "3", "trix-3": "1"},
        {"contracts": ["trix"], "captures": {"trix_order": [2, 0, 3, 1]}},
    ),
    (
        "king",
        {"kh_taker": "2", "kh_doubled": "1", "kh_doubled_by": "1"},
        {"contracts": ["king"], "captures": {"king_of_hearts": {"taker": 2, "doubled_by": 1}}},
    ),
    (
        "diamonds",
        {"diamonds-0": "3", "diamonds-1": "4", "diamonds-2": "5", "diamonds-3": "1"},
        {"contracts": ["diamonds"], "captures": {"diamonds": [3, 4, 5, 1]}},
    ),
    (
        "queens",
        {"qs_taker": "2", "qh_taker": "2", "qd_taker": "3", "qc_taker": "0"},
        {
            "contracts": ["queens"],
            "captures": {
                "queens": {
                    q: {"taker": t, "doubled_by": None}
                    for q, t in zip(("QS", "QH", "QD", "QC"), (2, 2, 3, 0), strict=True)
                }
            },
        },
    ),
]
TRIX_FORM, TRIX = DEALS[0][1], DEALS[0][2]


@pytest.fixture
def app(csrf_app: Flask) -> Flask:
    """CSRF protection on, as in production."""
    return csrf_app


@pytest.fixture
def phone(client: FlaskClient) -> Phone:
    return Phone(client)


def post(phone: Phone, path: str, data: dict[str, Any]) -> TestResponse:
    """A form of the game's pages, as the offline script sends it (version, token, id)."""
    version = services.load_game(phone.game_id).version
    body = {"version": str(version), "csrf_token": phone.copy["csrf_token"], **data}
    return phone.client.post(f"/games/{phone.game_id}{path}", data=body)


def log(phone: Phone) -> list[dict[str, Any]]:
    return [row.entry.to_dict() for row in services.load_game(phone.game_id).log]


@pytest.mark.parametrize(("contracts", "form", "entry"), DEALS, ids=[d[0] for d in DEALS])
def test_a_deal_sent_by_its_form_then_synced_under_its_id_is_recorded_once(
    phone: Phone, contracts: str, form: dict[str, str], entry: dict[str, Any]
) -> None:
    sent = post(phone, f"/deals/new?contracts={contracts}", {**form, "entry_id": "f1"})
    assert sent.status_code == 302, sent.get_data(as_text=True)
    synced = phone.sync({"entry_id": "f1", "action": "record", "entry": entry})
    assert synced.status_code == 201, synced.get_json()
    assert phone.deals() == 1 and synced.get_json()["game"]["version"] == 2


def test_a_correction_sent_then_synced_under_its_id_is_made_once(phone: Phone) -> None:
    phone.sync({"entry_id": "r", "action": "record", "entry": TRIX})
    fixed = {"trix-0": "0", "trix-1": "1", "trix-2": "2", "trix-3": "3"}
    assert post(phone, "/deals/1/edit", {**fixed, "entry_id": "e1"}).status_code == 302
    entry = {"contracts": ["trix"], "captures": {"trix_order": [0, 1, 2, 3]}}
    synced = phone.sync({"entry_id": "e1", "action": "edit", "n": 1, "version": 2, "entry": entry})
    assert synced.status_code == 200, synced.get_json()
    assert synced.get_json()["game"]["version"] == 3  # one correction written, not two


def test_an_undo_sent_then_synced_under_its_id_undoes_one_entry(phone: Phone) -> None:
    phone.sync({"entry_id": "a", "action": "record", "entry": TRIX})
    phone.sync({"entry_id": "b", "action": "record", "entry": DEALS[1][2]})
    sent = post(phone, "/undo", {"confirm": "yes", "entry_id": "u1"})
    assert sent.status_code == 302
    synced = phone.sync({"entry_id": "u1", "action": "undo", "version": 3})
    assert synced.status_code == 200, synced.get_json()
    assert phone.deals() == 1  # the trix stays: one undo, not two


def test_a_redeal_sent_then_synced_under_its_id_is_recorded_once(phone: Phone) -> None:
    form = {"kind": "redeal", "seat": "2", "contract": "", "note": " K♥ alone "}
    assert post(phone, "/redeals", {**form, "entry_id": "d1"}).status_code == 302
    entry = {"kind": "redeal", "seat": 2, "contract": None, "note": "K♥ alone"}
    synced = phone.sync({"entry_id": "d1", "action": "redeal", "entry": entry})
    assert synced.status_code == 201, synced.get_json()
    assert log(phone) == [entry]


def test_a_form_sent_again_under_a_written_id_goes_to_the_game_and_writes_nothing(
    phone: Phone,
) -> None:
    phone.sync({"entry_id": "f1", "action": "record", "entry": TRIX})
    again = post(phone, "/deals/new?contracts=trix", {**TRIX_FORM, "entry_id": "f1"})
    assert again.status_code == 302
    assert again.headers["Location"].endswith(f"/games/{phone.game_id}")
    assert phone.deals() == 1
    page = phone.client.get(again.headers["Location"]).get_data(as_text=True)
    assert "This was already saved; it was not saved twice." in page


def test_a_form_without_an_id_or_with_a_bad_one_is_an_unnamed_write(phone: Phone) -> None:
    """The page without JavaScript has no id; a malformed one is ignored, never a 500."""
    assert post(phone, "/deals/new?contracts=trix", TRIX_FORM).status_code == 302
    king_form = {**DEALS[1][1], "entry_id": "not an id!"}
    assert post(phone, "/deals/new?contracts=king", king_form).status_code == 302
    assert phone.deals() == 2
    ids = db.session.scalars(db.select(models.Revision.entry_id)).all()
    assert ids == [None, None]


def test_a_closed_suit_redeal_syncs_under_its_house_rule_only(phone: Phone) -> None:
    closed = {
        "kind": "redeal",
        "seat": None,
        "contract": "trix",
        "note": "",
        "reason": "closed_suit",
    }
    refused = phone.sync({"entry_id": "c1", "action": "redeal", "entry": closed})
    assert refused.status_code in (409, 422)  # standard rules: play on (R7)
    assert refused.get_json()["errors"][0]["code"] == "closed_suit_redeal"
    other = phone.sync({"entry_id": "c2", "action": "redeal", "entry": {**closed, "reason": "x"}})
    assert other.status_code == 400
    assert log(phone) == []


def test_a_void_trix_deal_sent_then_synced_is_recorded_once(client: FlaskClient) -> None:
    """The redeal form's third choice under R7's "closed suit replays": the same redeal
    whether the form or the phone's outbox sends it."""
    phone = Phone(client, trix_closed_suit="replay")
    form = {"kind": "closed_suit", "seat": "", "contract": "", "note": ""}
    assert post(phone, "/redeals", {**form, "entry_id": "v1"}).status_code == 302
    entry = {
        "kind": "redeal",
        "seat": None,
        "contract": "trix",
        "note": "",
        "reason": "closed_suit",
    }
    synced = phone.sync({"entry_id": "v1", "action": "redeal", "entry": entry})
    assert synced.status_code == 201, synced.get_json()
    assert log(phone) == [entry]
