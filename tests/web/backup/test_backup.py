"""Backups: export a game as JSON, restore it as a new game; a broken file changes nothing."""

from __future__ import annotations

import copy
import io
import json
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.store import models
from tests.conftest import postgres_schema_app

API = "/api/v1"
ARABIC = ["رنا", "سامي", "عمر", "لينا"]
QUEENS = {
    q: {"taker": t, "doubled_by": None}
    for q, t in zip(("QS", "QH", "QD", "QC"), (1, 2, 3, 0), strict=True)
}
CHANGES_ON_IMPORT = ("id", "exported_at")
DIAMONDS = {"contracts": ["diamonds"], "captures": {"diamonds": [5, 4, 3, 1]}}


class Table:
    """A game created through the API."""

    def __init__(self, client: FlaskClient, **body: Any) -> None:
        self.client = client
        answer = client.post(f"{API}/games", json={"players": ARABIC, **body}).get_json()
        self.id, self.token = answer["id"], answer["edit_token"]
        self.played_at: str | None = None

    def write(self, method: str, path: str, body: Any = None) -> dict[str, Any]:
        version = self.client.get(f"{API}/games/{self.id}").get_json()["version"]
        headers = {"Authorization": f"Bearer {self.token}", "If-Match": f'"{version}"'}
        response = self.client.open(
            f"{API}/games/{self.id}{path}", method=method, json=body, headers=headers
        )
        assert response.status_code in (200, 201), response.get_json()
        return dict(response.get_json())

    def export(self) -> dict[str, Any]:
        response = self.client.get(f"{API}/games/{self.id}/export")
        assert response.status_code == 200
        return dict(response.get_json())


def played_now() -> str:
    """A phone's clock at Save, in its own offset (read when the deal is saved: a time
    read at import would be long before the game under a busy parallel run)."""
    return (
        datetime.now(UTC)
        .replace(microsecond=0)
        .astimezone(timezone(timedelta(hours=3)))
        .isoformat()
    )


def rich_game(client: FlaskClient) -> Table:
    """Arabic names, a combined deal (R9.6), redeals, edits with revisions and an undo."""
    table = Table(client, first_king=1, rules={"combination": "any", "doubling": True})
    table.write("POST", "/redeals", {"kind": "misdeal", "note": "ورقة مكشوفة"})
    combined = {
        "contracts": ["king", "queens"],
        "captures": {
            "king_of_hearts": {"taker": 2, "doubled_by": 2},
            "queens": QUEENS,
            "tricks": [4, 3, 3, 3],
        },
    }
    table.write("POST", "/deals", combined)
    table.played_at = played_now()
    played = {"played_at": table.played_at}  # the phone's clock at Save, its own offset
    table.write("POST", "/deals", {**DIAMONDS, "entry_id": "phone-a-1", **played})
    table.write(
        "PUT", "/deals/2", {"contracts": ["diamonds"], "captures": {"diamonds": [1, 3, 4, 5]}}
    )
    table.write(
        "POST", "/redeals", {"kind": "redeal", "seat": 3, "contract": "trix", "entry_id": "r-1"}
    )
    table.write("POST", "/deals", {"contracts": ["trix"], "captures": {"trix_order": [3, 1, 0, 2]}})
    table.write("DELETE", "/deals/last")  # its revisions go to "undone"
    table.write(
        "POST", "/deals", {"contracts": ["collections"], "captures": {"tricks": [1, 5, 3, 4]}}
    )
    table.write("DELETE", "/deals/last")
    return table


def without(data: dict[str, Any], keys: tuple[str, ...] = CHANGES_ON_IMPORT) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in keys}


def import_api(client: FlaskClient, data: Any) -> Any:
    return client.post(f"{API}/games/import", json=data)


def game_count(app: Flask) -> int:
    """Games stored (read in the test's app context, then let go of the connection)."""
    count = int(db.session.scalar(select(func.count()).select_from(models.Game)) or 0)
    db.session.remove()
    return count


# --- round trip ------------------------------------------------------------------------------


def check_round_trip(client: FlaskClient) -> None:
    table = rich_game(client)
    first = table.export()
    assert first["format"] == "scorekeeper.game" and first["format_version"] == 1
    assert first["players"] == ARABIC and first["first_king"] == 1
    assert [e["kind"] for e in first["log"]] == ["misdeal", "deal", "deal", "redeal"]
    assert first["undone"] and {r["action"] for r in first["undone"]} == {"record", "undo"}
    assert [r["action"] for r in first["log"][2]["revisions"]] == ["record", "edit"]
    assert first["log"][2]["revisions"][0]["entry_id"] == "phone-a-1"
    assert "entry_id" not in first["log"][2]["revisions"][1]  # a write nobody named
    assert first["log"][2]["played_at"] == table.played_at  # kept through its correction
    assert "played_at" not in first["log"][1]  # sent without one
    restored = import_api(client, first)
    assert restored.status_code == 201
    new_id = restored.get_json()["id"]
    assert new_id != table.id and restored.get_json()["edit_token"] != table.token
    second = client.get(f"{API}/games/{new_id}/export").get_json()
    assert second["id"] == new_id
    assert without(second) == without(first)
    again = client.get(f"{API}/games/{import_api(client, second).get_json()['id']}/export")
    assert without(again.get_json()) == without(first)
    original = client.get(f"{API}/games/{table.id}").get_json()
    copy_state = restored.get_json()["game"]
    assert without(copy_state, ("id",)) == without(original, ("id",))


def test_round_trip_is_exact(client: FlaskClient) -> None:
    check_round_trip(client)


@pytest.fixture
def pg_client(make_app: Callable[..., Flask], test_database_url: str) -> Iterator[FlaskClient]:
    with postgres_schema_app(make_app, test_database_url) as app:
        yield app.test_client()


def test_round_trip_is_exact_on_postgres(pg_client: FlaskClient) -> None:
    check_round_trip(pg_client)


def test_restored_game_has_its_own_token_and_history(client: FlaskClient) -> None:
    table = rich_game(client)
    answer = import_api(client, table.export()).get_json()
    new_id, token = answer["id"], answer["edit_token"]
    deal = {"contracts": ["trix"], "captures": {"trix_order": [0, 1, 2, 3]}}
    old = client.post(
        f"{API}/games/{new_id}/deals", json=deal, headers={"Authorization": f"Bearer {table.token}"}
    )
    assert old.status_code == 403
    new = client.post(
        f"{API}/games/{new_id}/deals", json=deal, headers={"Authorization": f"Bearer {token}"}
    )
    assert new.status_code == 201
    history = client.get(f"{API}/games/{new_id}/deals/2").get_json()["revisions"]
    assert [r["action"] for r in history] == ["record", "edit"]
    page = client.get(f"/games/{new_id}/deals/2")
    assert page.status_code == 200 and "Corrected" in page.get_data(as_text=True)


# --- entry ids (API.md "Exactly-once entries") -----------------------------------------------


def retry(client: FlaskClient, game_id: str, token: str, body: dict[str, Any]) -> Any:
    headers = {"Authorization": f"Bearer {token}"}
    return client.post(f"{API}/games/{game_id}/deals", json=body, headers=headers)


def deal_count(client: FlaskClient, game_id: str) -> int:
    state = client.get(f"{API}/games/{game_id}").get_json()
    return sum(len(k["deals"]) for k in state["kingdoms"]) + len(state.get("extra_deals", []))


def test_a_restored_game_answers_a_retried_entry_and_does_not_record_it_twice(
    client: FlaskClient,
) -> None:
    table = rich_game(client)
    answer = import_api(client, table.export()).get_json()
    new_id, token = answer["id"], answer["edit_token"]
    deals = deal_count(client, new_id)
    again = retry(client, new_id, token, {**DIAMONDS, "entry_id": "phone-a-1"})
    assert again.status_code == 201, again.get_json()
    assert again.get_json()["deal"]["captures"]["diamonds"] == [5, 4, 3, 1]  # as first written
    assert deal_count(client, new_id) == deals
    other = {"contracts": ["trix"], "captures": {"trix_order": [0, 1, 2, 3]}, "entry_id": "r-1"}
    reused = retry(client, new_id, token, other)
    assert reused.status_code == 409
    assert reused.get_json()["errors"][0]["code"] == "entry_id_reused"


def test_a_backup_made_before_entry_ids_is_still_restored(client: FlaskClient) -> None:
    data = rich_game(client).export()
    for revision in [r for e in data["log"] for r in e["revisions"]] + data["undone"]:
        revision.pop("entry_id", None)
        revision.pop("request_hash", None)
    answer = import_api(client, data)
    assert answer.status_code == 201, answer.get_json()
    new_id, token = answer.get_json()["id"], answer.get_json()["edit_token"]
    trix = {"contracts": ["trix"], "captures": {"trix_order": [0, 1, 2, 3]}, "entry_id": "r-1"}
    assert retry(client, new_id, token, trix).status_code == 201  # the id is free there


# --- broken files ----------------------------------------------------------------------------


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = data
        for key in parents:
            target = target[int(key)] if isinstance(target, list) else target[key]
        if isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value

    return change


BROKEN: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("format", _set("format", "something.else"), "format"),
    ("format_version", _set("format_version", 2), "format_version"),
    ("unknown_key", _set("colour", "red"), "colour"),
    ("three_players", _set("players", ["a", "b", "c"]), "players"),
    ("same_name", _set("players.3", "رنا"), "players.3"),
    ("bad_rule", _set("rules.revoke", "sometimes"), "rules.revoke"),
    ("first_king", _set("first_king", 9), "first_king"),
    ("diamonds_sum", _set("log.2.entry.captures.diamonds", [1, 1, 1, 1]), "log.2"),
    (
        "contract_twice",
        _set(
            "log.2.entry",
            {
                "contracts": ["king"],
                "captures": {"king_of_hearts": {"taker": 0, "doubled_by": None}},
            },
        ),
        "log.2",
    ),
    ("bad_card_shape", _set("log.1.entry.captures.queens", {"QX": 1}), "log.1.entry.captures"),
    ("position", _set("log.1.position", 5), "log.1"),
    ("kind", _set("log.1.kind", "redeal"), "log.1"),
    ("timestamp", _set("log.0.created_at", "yesterday"), "log.0.created_at"),
    ("naive_time", _set("created_at", "2025-05-01T21:07:00"), "created_at"),
    ("action", _set("log.1.revisions.0.action", "rewrite"), "log.1.revisions.0"),
    ("future_version", _set("log.1.revisions.0.version", 999), "log.1.revisions.0.version"),
    ("same_version", _set("log.2.revisions.0.version", 3), "log"),
    (
        "revision_side",
        _set("log.2.revisions.1.after.scores", [1, 2]),
        "log.2.revisions.1.after.scores",
    ),
    ("log_not_list", _set("log", {"0": {}}), "log"),
    # a history made up: the scores are not what the deal scores, or not the replayed deal
    ("made_up_scores", _set("log.2.revisions.1.after.scores", [0, 0, 0, 0]), "log.2"),
    ("made_up_before", _set("log.2.revisions.1.before.scores", [9, -9, 0, 0]), "log.2"),
    # text no database can store, anywhere in the file (PostgreSQL refuses a NUL)
    ("surrogate_name", _set("players.1", "Sa\udfffmi"), "players.1"),
    ("surrogate_note", _set("log.0.entry.note", "\udfff"), "log.0.entry.note"),
    ("surrogate_source", _set("log.1.revisions.0.source", "\udfff"), "log.1.revisions.0.source"),
    ("nul_source", _set("log.1.revisions.0.source", "a\x00"), "log.1.revisions.0.source"),
    ("undone_in_log", _set("undone.0.position", 0), "undone.0"),
    ("bad_entry_id", _set("log.2.revisions.0.entry_id", "a b"), "log.2.revisions.0.entry_id"),
    (
        "entry_id_without_hash",
        _set("log.2.revisions.0.request_hash", None),
        "log.2.revisions.0.request_hash",
    ),
    ("same_entry_id", _set("log.3.revisions.0.entry_id", "phone-a-1"), "log"),
]


@pytest.mark.parametrize(("name", "change", "field"), BROKEN, ids=[b[0] for b in BROKEN])
def test_broken_import_is_a_422_naming_the_field_and_saves_nothing(
    app: Flask, client: FlaskClient, name: str, change: Callable[[dict[str, Any]], None], field: str
) -> None:
    data = copy.deepcopy(rich_game(client).export())
    change(data)
    before = game_count(app)
    response = import_api(client, data)
    assert response.status_code == 422, (name, response.get_json())
    errors = response.get_json()["errors"]
    assert errors[0]["field"].startswith(field) and errors[0]["message"], errors
    assert game_count(app) == before


def test_import_refuses_what_is_not_an_object(app: Flask, client: FlaskClient) -> None:
    assert import_api(client, [1, 2]).status_code == 400
    assert client.post(f"{API}/games/import", data="{nope").status_code == 400
    assert import_api(client, {}).status_code == 422
    assert game_count(app) == 0


# --- pages -----------------------------------------------------------------------------------


def test_page_export_is_a_json_download(client: FlaskClient) -> None:
    table = rich_game(client)
    response = client.get(f"/games/{table.id}/export.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    assert response.headers["Content-Disposition"].startswith("attachment; filename=")
    assert without(json.loads(response.data)) == without(table.export())
    assert client.get("/games/nope/export.json").status_code == 404


def upload(client: FlaskClient, content: bytes, name: str = "backup.json") -> Any:
    data = {"backup": (io.BytesIO(content), name)}
    return client.post("/games/import", data=data, content_type="multipart/form-data")


def test_page_import_restores_a_new_game_this_phone_may_edit(
    app: Flask, client: FlaskClient
) -> None:
    form = client.get("/games/import")
    assert form.status_code == 200 and 'enctype="multipart/form-data"' in form.get_data(
        as_text=True
    )
    exported = json.dumps(rich_game(client).export(), ensure_ascii=False).encode()
    phone = app.test_client()  # another browser, with no rights on the original
    response = upload(phone, exported)
    assert response.status_code == 302
    new_id = response.headers["Location"].rsplit("/", 1)[-1]
    page = phone.get(f"/games/{new_id}").get_data(as_text=True)
    assert "Game restored from its backup" in page
    assert 'data-testid="choose-contract"' in page  # edit controls: this phone may edit


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xfe not utf-8", "it is not JSON"),
        (b"{broken", "it is not JSON"),
        (json.dumps({"format": "other"}).encode(), "is not a scorekeeper backup"),
    ],
)
def test_page_import_of_a_broken_file_says_why(
    app: Flask, client: FlaskClient, content: bytes, message: str
) -> None:
    response = upload(client, content)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert message in page and 'data-testid="import-errors"' in page
    assert game_count(app) == 0


def test_page_import_without_a_file_asks_for_one(client: FlaskClient) -> None:
    response = client.post("/games/import", data={}, content_type="multipart/form-data")
    assert response.status_code == 422
    assert "Choose the backup file" in response.get_data(as_text=True)
