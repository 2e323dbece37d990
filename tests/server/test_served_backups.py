"""Backup uploads under gunicorn: read whole before a work slot, and every export restores.

- A game import declaring 1 MB (past ``MAX_CONTENT_LENGTH``, within the import's own limit)
  whose body never comes is answered 408 by the body-first middleware
  (scorekeeper/web/server/bodies.py), and holds no work slot meanwhile: the pages still answer.
- A chunked import of a 400 KB backup is read whole (not cut at 256 KiB) and imported.
- A circle's own backup of more whole games than 256 KiB holds restores as a new circle
  (its limit follows from the games a circle backup holds: store/circles/backup.py).

Speeds are benchmarks' to print; these tests assert what happens, with guard timeouts.
"""

from __future__ import annotations

import http.client
import json
import re
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.cookies import SimpleCookie
from typing import Any

import pytest

from scorekeeper import create_app
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.game_log import RedealEntry
from scorekeeper.rules.redeal import REDEALS_IN_A_ROW_MAX
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import games
from scorekeeper.store.backup_format import IMPORT_BYTES_MAX
from scorekeeper.store.circles import services as circles
from scorekeeper.store.circles.backup import (
    CIRCLE_HEAD_BYTES,
    RESTORE_BYTES_MAX,
    WHOLE_GAME_BYTES,
)
from scorekeeper.store.input import NOTE_MAX, parse_deal_body
from scorekeeper.store.snapshot import LoadedGame
from scorekeeper.web.server.bodies import LARGE_READERS
from tests.server.serving import PLAYERS, Client, Server, post_request
from tests.server.test_served_slow_clients import answer_of, half_sent, port_of

pytestmark = pytest.mark.served

GUARD_SECONDS = 60.0
"""The longest a test waits for an answer (never a speed assertion)."""
MAX_CONTENT_LENGTH = 256 * 1024
STALLED_IMPORTS = LARGE_READERS
"""More than the one work slot the server has: as many as its worker reads at once."""
TOKEN = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')
QUEENS = {q: {"taker": i, "doubled_by": 3} for i, q in enumerate(("QS", "QH", "QD", "QC"))}
CAPTURES: dict[Contract, dict[str, Any]] = {
    Contract.KING: {"king_of_hearts": {"taker": 1, "doubled_by": 2}},
    Contract.QUEENS: {"queens": QUEENS},
    Contract.DIAMONDS: {"diamonds": [4, 3, 3, 3]},
    Contract.COLLECTIONS: {"tricks": [1, 2, 4, 6]},
    Contract.TRIX: {"trix_order": [2, 0, 3, 1]},
}


@contextmanager
def store_of(database_url: str) -> Iterator[None]:
    """The store on the served app's database, to build what a test needs quickly."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": "build"})
    with app.app_context():
        yield


def deal(loaded: LoadedGame) -> LoadedGame:
    """The next deal of a whole game (R1: each kingdom's contracts played alone)."""
    contract = loaded.game.available_contracts[0]
    body = {"contracts": [contract.value], "captures": CAPTURES[contract]}
    return games.record_deal(loaded.id, parse_deal_body(body))[0]


def redealt_game(deals: int) -> str:
    """A game of ``deals`` deals, each dealt again the most times in a row R8 allows, every
    redeal with the longest note: a large backup (about 5 KB a redeal in the API's JSON)."""
    loaded, _token = games.create_game(PLAYERS, 0, RuleSet())
    for _ in range(deals):
        for _ in range(REDEALS_IN_A_ROW_MAX):
            contract = loaded.game.available_contracts[0]
            loaded = games.record_redeal(
                loaded.id, RedealEntry("misdeal", 3, contract, "🂡" * NOTE_MAX)
            )
        loaded = deal(loaded)
    return loaded.id


def test_a_stalled_large_import_is_a_408_and_the_pages_still_answer(
    database_url: str, serve: Callable[..., Server]
) -> None:
    """With one work slot, imports declaring 1 MB that never send it: each is a 408 from
    the middleware, and a page and a new game are served while they wait."""
    server = serve(database_url, workers=1, threads=1, env={"BODY_TIMEOUT": "3"})
    game_id, _token, _state = server.client().new_game()
    head = post_request("/api/v1/games/import", 1_000_000, b'{"format": "scorekeeper.game"')
    with half_sent(server, STALLED_IMPORTS, head) as stalled:
        time.sleep(0.5)  # each is on a connection thread of the worker by now
        page = Client(port_of(server), timeout=GUARD_SECONDS)
        assert page.call("GET", f"/games/{game_id}")[0] == 200
        assert page.call("POST", "/api/v1/games", {"players": PLAYERS})[0] == 201
        answers = [answer_of(sock) for sock in stalled]
    statuses = {answer.split(b"\r\n", 1)[0] for answer in answers}
    assert statuses == {b"HTTP/1.1 408 Request Timeout"}, statuses
    body = json.loads(answers[0].split(b"\r\n\r\n", 1)[1])
    assert body["ok"] is False and "did not arrive within" in body["errors"][0]["message"]
    assert "Traceback" not in server.log_text()


def test_a_chunked_400_kb_import_is_read_whole_and_imported(
    database_url: str, serve: Callable[..., Server]
) -> None:
    with store_of(database_url):
        game_id = redealt_game(deals=4)
    server = serve(database_url, workers=1, threads=2)
    client = server.client()
    status, _, exported = client.call("GET", f"/api/v1/games/{game_id}/export")
    assert status == 200
    data = json.dumps(exported).encode()
    assert 400_000 <= len(data) <= IMPORT_BYTES_MAX
    conn = http.client.HTTPConnection("127.0.0.1", port_of(server), timeout=GUARD_SECONDS)
    try:
        step = 16 * 1024
        chunks = (data[i : i + step] for i in range(0, len(data), step))
        conn.request(
            "POST",
            "/api/v1/games/import",
            body=chunks,
            headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"},
            encode_chunked=True,
        )
        response = conn.getresponse()
        answer = json.loads(response.read())
    finally:
        conn.close()
    assert response.status == 201, answer
    assert answer["game"]["deals_played"] == 4
    status, _, again = client.call("GET", f"/api/v1/games/{answer['id']}/export")
    assert [len(entry["revisions"]) for entry in again["log"]] == [
        len(entry["revisions"]) for entry in exported["log"]
    ]
    assert len(again["log"]) == len(exported["log"]) == 4 * (REDEALS_IN_A_ROW_MAX + 1)


class Browser:
    """One browser: its connection and its cookies (the CSRF token's session)."""

    def __init__(self, server: Server) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port_of(server), timeout=GUARD_SECONDS)
        self.cookies: dict[str, str] = {}

    def request(
        self, method: str, path: str, body: bytes | None = None, **headers: str
    ) -> tuple[int, dict[str, str], bytes]:
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        self.conn.request(method, path, body=body, headers=headers)
        response = self.conn.getresponse()
        data = response.read()
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                cookie: SimpleCookie = SimpleCookie()
                cookie.load(value)
                self.cookies.update({key: morsel.value for key, morsel in cookie.items()})
        return response.status, {k.lower(): v for k, v in response.getheaders()}, data


def multipart(fields: dict[str, str], file_field: str, file: bytes) -> tuple[bytes, str]:
    """A form with one file, as a browser sends it: (its body, its Content-Type)."""
    boundary = uuid.uuid4().hex
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        for name, value in fields.items()
    ]
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="{file_field}"; '
        f'filename="circle.json"\r\nContent-Type: application/json\r\n\r\n'.encode()
        + file
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def test_a_large_circles_own_backup_restores_as_a_new_circle(
    database_url: str, serve: Callable[..., Server]
) -> None:
    """A circle of 16 whole games: its backup is past 256 KiB, within the restore's limit,
    and comes back as a new circle with every game and member."""
    count = 16
    with store_of(database_url):
        circle, _token = circles.create_circle("Thursday table", PLAYERS)
        for _ in range(count):
            loaded, _game_token = circles.start_game(circle.id, PLAYERS, 0, RuleSet())
            for _ in range(20):  # a whole game: four kingdoms of five contracts
                loaded = deal(loaded)
            assert loaded.game.finished
    server = serve(database_url, workers=1, threads=2)
    browser = Browser(server)
    status, _, backup = browser.request("GET", f"/circles/{circle.id}/backup.json")
    assert status == 200
    assert MAX_CONTENT_LENGTH < len(backup) <= RESTORE_BYTES_MAX
    assert len(backup) <= CIRCLE_HEAD_BYTES + count * WHOLE_GAME_BYTES  # the limit's basis
    status, _, page = browser.request("GET", "/circles/restore")
    assert status == 200
    form, kind = multipart({"csrf_token": TOKEN.findall(page.decode())[0]}, "file", backup)
    status, headers, answer = browser.request("POST", "/circles/restore", form, **{
        "Content-Type": kind})  # fmt: skip
    assert status == 303, answer[:400]
    new_id = headers["location"].rstrip("/").rsplit("/", 1)[1]
    assert new_id != circle.id
    with store_of(database_url):
        restored = circles.load_circle(new_id)
        assert [m.name for m in restored.members] == PLAYERS
        assert len(circles.linked_games(restored)) == count
    assert "Traceback" not in server.log_text()
