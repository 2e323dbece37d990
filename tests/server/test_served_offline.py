"""Offline play under gunicorn (gunicorn.conf.py), on SQLite and PostgreSQL.

A phone's page syncs its outbox with its session cookie and CSRF token; copies of
one entry sent at once (the page and Background Sync, or a retry) record it once.
The service worker, the manifest and the engine archive are served as the phone
fetches them.
"""

from __future__ import annotations

import http.client
import json
import re
import threading
import urllib.parse
from typing import Any

import pytest

from tests.server.serving import PLAYERS

pytestmark = pytest.mark.served

TRIX = {"contracts": ["trix"], "captures": {"trix_order": [2, 0, 3, 1]}}
KING = {"contracts": ["king"], "captures": {"king_of_hearts": {"taker": 1, "doubled_by": None}}}
COPIES = 6


class Browser:
    """One browser: its cookie, over plain HTTP/1.1 connections."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookie = ""

    def call(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            head = (
                {"Cookie": self.cookie, **(headers or {})} if self.cookie else dict(headers or {})
            )
            conn.request(method, path, body=body, headers=head)
            response = conn.getresponse()
            data = response.read()
            got = {k.lower(): v for k, v in response.getheaders()}
        finally:
            conn.close()
        if "set-cookie" in got:
            self.cookie = got["set-cookie"].split(";", 1)[0]
        return response.status, got, data

    def start_game(self) -> str:
        _, _, page = self.call("GET", "/games/new")
        token = re.search(rb'name="csrf_token" type="hidden" value="([^"]+)"', page)
        assert token is not None
        form = {f"players-{i}": name for i, name in enumerate(PLAYERS)}
        form.update(first_king="0", preset="standard", csrf_token=token.group(1).decode())
        body = urllib.parse.urlencode(form).encode()
        status, headers, _ = self.call(
            "POST", "/games/new", body, {"Content-Type": "application/x-www-form-urlencoded"}
        )
        assert status == 302, status
        return headers["location"].rsplit("/", 1)[-1]

    def json(self, path: str) -> Any:
        status, _, data = self.call("GET", path)
        assert status == 200, (path, status)
        return json.loads(data)


def test_a_phones_outbox_is_written_once_when_served(serve: Any, database_url: str) -> None:
    server = serve(database_url, workers=3, threads=4)
    port = int(server.url.rsplit(":", 1)[1])
    phone = Browser(port)
    game_id = phone.start_game()
    copy = phone.json(f"/games/{game_id}/offline.json")
    assert copy["editable"] is True and copy["csrf_token"]
    headers = {"Content-Type": "application/json", "X-CSRFToken": copy["csrf_token"]}
    body = json.dumps({"entry_id": "o-served-1", "action": "record", "entry": TRIX}).encode()
    answers: list[int] = []
    barrier = threading.Barrier(COPIES)

    def send() -> None:
        barrier.wait()
        answers.append(phone.call("POST", copy["urls"]["sync"], body, headers)[0])

    threads = [threading.Thread(target=send) for _ in range(COPIES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert answers == [201] * COPIES
    state = phone.json(f"/api/v1/games/{game_id}")
    assert state["version"] == 2 and [len(k["deals"]) for k in state["kingdoms"]] == [1]
    other = json.dumps({"entry_id": "o-served-1", "action": "record", "entry": KING}).encode()
    status, _, refused = phone.call("POST", copy["urls"]["sync"], other, headers)
    assert status == 409 and json.loads(refused)["errors"][0]["code"] == "entry_id_reused"
    assert "Traceback" not in server.log_text()


def test_the_installable_app_is_served(serve: Any, database_url: str) -> None:
    server = serve(database_url, workers=2, threads=2)
    browser = Browser(int(server.url.rsplit(":", 1)[1]))
    status, headers, script = browser.call("GET", "/sw.js")
    assert status == 200 and headers["content-type"].startswith("text/javascript")
    release = json.loads(script.split(b"\n", 1)[0].removeprefix(b"const RELEASE = ").rstrip(b";"))
    status, headers, _ = browser.call("GET", "/manifest.webmanifest")
    assert status == 200 and headers["content-type"].startswith("application/manifest+json")
    status, headers, archive = browser.call("GET", release["engine"])
    assert status == 200 and archive[:2] == b"PK"
    status, headers, _ = browser.call("GET", release["worker"])
    assert status == 200 and "'wasm-unsafe-eval'" in headers["content-security-policy"]
    status, headers, _ = browser.call("GET", "/")
    assert "wasm" not in headers["content-security-policy"]


def form_post(browser: Browser, path: str, form: dict[str, str]) -> int:
    body = urllib.parse.urlencode(form).encode()
    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    return browser.call("POST", path, body, headers)[0]


def test_a_form_whose_answer_was_lost_then_synced_is_written_once_when_served(
    serve: Any, database_url: str
) -> None:
    """The deal form reached the server under an entry id, its answer never came back, the
    phone queued the same entry under that id; then a backup restored keeps the id."""
    server = serve(database_url, workers=2, threads=2)
    phone = Browser(int(server.url.rsplit(":", 1)[1]))
    game_id = phone.start_game()
    copy = phone.json(f"/games/{game_id}/offline.json")
    form = {"trix-0": "2", "trix-1": "0", "trix-2": "3", "trix-3": "1", "version": "1"}
    form.update(csrf_token=copy["csrf_token"], entry_id="o-lost-1")
    assert form_post(phone, f"/games/{game_id}/deals/new?contracts=trix", form) == 302
    headers = {"Content-Type": "application/json", "X-CSRFToken": copy["csrf_token"]}
    body = json.dumps({"entry_id": "o-lost-1", "action": "record", "entry": TRIX}).encode()
    assert phone.call("POST", copy["urls"]["sync"], body, headers)[0] == 201
    assert phone.json(f"/api/v1/games/{game_id}")["version"] == 2  # one deal written

    backup = phone.json(f"/api/v1/games/{game_id}/export")
    assert backup["log"][0]["revisions"][0]["entry_id"] == "o-lost-1"
    status, _, made = phone.call(
        "POST",
        "/api/v1/games/import",
        json.dumps(backup).encode(),
        {"Content-Type": "application/json"},
    )
    assert status == 201
    restored = json.loads(made)
    retry = json.dumps({**TRIX, "entry_id": "o-lost-1"}).encode()
    auth = {"Content-Type": "application/json", "Authorization": f"Bearer {restored['edit_token']}"}
    assert phone.call("POST", f"/api/v1/games/{restored['id']}/deals", retry, auth)[0] == 201
    assert phone.json(f"/api/v1/games/{restored['id']}")["version"] == 2  # not written again
    assert "Traceback" not in server.log_text()


def test_r2_a_tables_first_deal_synced_names_the_first_king_when_served(
    serve: Any, database_url: str
) -> None:
    server = serve(database_url, workers=2, threads=2)
    port = int(server.url.rsplit(":", 1)[1])
    phone = Browser(port)
    players = [*PLAYERS, "Hadi", "Maya", "Nour", "Ziad"]
    json_headers = {"Content-Type": "application/json"}
    made = json.loads(
        phone.call(
            "POST",
            "/api/v1/events",
            json.dumps({"name": "Club", "players": players}).encode(),
            json_headers,
        )[2]
    )
    auth = {"Authorization": f"Bearer {made['director_token']}"}
    table = json.loads(phone.call("POST", f"/api/v1/events/{made['id']}/rounds", None, auth)[2])[
        "tables"
    ][0]
    join = f"/games/{table['game']}/join/{table['edit_token']}"
    _, _, page = phone.call("GET", join)
    token = re.search(rb'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert token is not None
    form = urllib.parse.urlencode({"csrf_token": token.group(1).decode()}).encode()
    assert (
        phone.call("POST", join, form, {"Content-Type": "application/x-www-form-urlencoded"})[0]
        == 303
    )
    copy = phone.json(f"/games/{table['game']}/offline.json")
    assert copy["first_king_from_deal"] is True and copy["first_king_open"] is True
    assert phone.json(f"/api/v1/games/{table['game']}")["first_king_open"] is True
    headers = {**json_headers, "X-CSRFToken": copy["csrf_token"]}

    def sync(entry_id: str, entry: dict[str, Any]) -> tuple[int, Any]:
        body = json.dumps({"entry_id": entry_id, "action": "record", "entry": entry}).encode()
        status, _, data = phone.call("POST", copy["urls"]["sync"], body, headers)
        return status, json.loads(data)

    status, refused = sync("club-1", TRIX)
    assert status == 422 and refused["errors"][0]["message"] == "Choose who was dealt the 7♥."
    status, first = sync("club-2", {**TRIX, "king": 3})
    assert status == 201 and first["deal"]["king"] == 3
    state = phone.json(f"/api/v1/games/{table['game']}")
    assert state["first_king_open"] is False and state["current_king"] == 3
    assert sum(len(k["deals"]) for k in state["kingdoms"]) == 1
