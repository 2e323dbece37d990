"""Exactly-once entries through the JSON API (API.md "Exactly-once entries")."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.web.api.test_games import DIAMONDS, KING, TRIX, Table, errors


@pytest.fixture
def table(client: FlaskClient) -> Table:
    return Table(client)


def test_a_retried_deal_is_recorded_once_with_the_same_answer(table: Table) -> None:
    first = table.deal({**TRIX, "entry_id": "phone-a-0001"})
    again = table.deal({**TRIX, "entry_id": "phone-a-0001"})
    assert first.status_code == again.status_code == 201
    assert first.json is not None and again.json is not None
    assert again.json["deal"] == first.json["deal"]
    assert again.json["game"] == first.json["game"]
    assert again.headers["ETag"] == first.headers["ETag"]
    assert table.state()["version"] == 2


def test_a_retry_gets_the_current_game_and_its_own_deal(table: Table) -> None:
    first = table.deal({**TRIX, "entry_id": "e1"}, **{"If-Match": '"1"'})
    table.deal(KING)  # another phone, meanwhile
    again = table.deal({**TRIX, "entry_id": "e1"}, **{"If-Match": '"1"'})
    assert again.status_code == 201 and again.json is not None and first.json is not None
    assert again.json["deal"] == first.json["deal"] and again.json["deal"]["n"] == 1
    assert again.json["game"]["version"] == 3


def test_the_same_entry_id_with_another_body_is_409(table: Table) -> None:
    table.deal({**TRIX, "entry_id": "e1"})
    refused = table.deal({**KING, "entry_id": "e1"})
    assert refused.status_code == 409
    (error,) = errors(refused)
    assert error["code"] == "entry_id_reused" and error["field"] == "entry_id"
    assert "e1" in error["message"] and "new id" in error["message"]
    assert table.state()["version"] == 2


def test_the_409_is_in_the_request_language(table: Table) -> None:
    table.deal({**TRIX, "entry_id": "e1"})
    refused = table.client.post(
        f"{table.url}/deals",
        json={**KING, "entry_id": "e1"},
        headers=table.auth(**{"Accept-Language": "es"}),
    )
    assert refused.status_code == 409
    assert (
        errors(refused)[0]["message"]
        != errors(table.deal({**KING, "entry_id": "e1"}))[0]["message"]
    )


@pytest.mark.parametrize("bad", ["", "x" * 65, "a b", 12, None])
def test_a_malformed_entry_id_is_422_and_nothing_is_written(table: Table, bad: Any) -> None:
    refused = table.deal({**TRIX, "entry_id": bad})
    assert refused.status_code == 422
    assert errors(refused)[0]["field"] == "entry_id"
    assert table.state()["version"] == 1


def test_a_retried_redeal_is_recorded_once(table: Table) -> None:
    body = {"kind": "redeal", "seat": 1, "contract": "trix", "entry_id": "r-1"}
    first = table.client.post(f"{table.url}/redeals", json=body, headers=table.auth())
    again = table.client.post(f"{table.url}/redeals", json=body, headers=table.auth())
    assert first.status_code == again.status_code == 201, first.json
    assert table.state()["version"] == 2


def test_a_retried_undo_removes_one_deal(table: Table) -> None:
    table.deal(TRIX)
    table.deal(KING)
    url = f"{table.url}/deals/last?entry_id=undo-1"
    first = table.client.delete(url, headers=table.auth(**{"If-Match": '"3"'}))
    again = table.client.delete(url, headers=table.auth(**{"If-Match": '"3"'}))
    assert first.status_code == again.status_code == 200
    state = table.state()
    assert state["version"] == 4 and sum(len(k["deals"]) for k in state["kingdoms"]) == 1
    bad = table.client.delete(
        f"{table.url}/deals/last?entry_id=no%20spaces", headers=table.auth(**{"If-Match": '"4"'})
    )
    assert bad.status_code == 422 and table.state()["version"] == 4


def test_a_retried_correction_is_made_once(table: Table) -> None:
    table.deal(DIAMONDS)
    fix = {"contracts": ["diamonds"], "captures": {"diamonds": [4, 5, 3, 1]}, "entry_id": "c1"}
    url = f"{table.url}/deals/1"
    first = table.client.put(url, json=fix, headers=table.auth(**{"If-Match": '"2"'}))
    again = table.client.put(url, json=fix, headers=table.auth(**{"If-Match": '"2"'}))
    assert first.status_code == again.status_code == 200
    assert again.json is not None and again.json["deal"]["captures"]["diamonds"] == [4, 5, 3, 1]
    assert table.state()["version"] == 3


def test_a_write_without_entry_id_is_not_deduplicated(table: Table) -> None:
    """Without an id, two identical bodies are two deals (the second a 409 here: the
    contract was used), as before."""
    assert table.deal(TRIX).status_code == 201
    assert table.deal(TRIX).status_code == 409
