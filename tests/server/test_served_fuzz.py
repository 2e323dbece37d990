"""The fuzz through the served app: gunicorn's forked workers, on SQLite and PostgreSQL.

Malformed requests of every shape the attack found (lone surrogates and NULs in
every stored text, impossible game ids, versions and integers past 64 bits,
made-up backups, random JSON and bytes) and plenty of valid ones around them,
over keep-alive connections from a few threads. The whole server must answer
every one of them with less than a 500, and every game must still be shown
afterwards (a stored 500 is the worst kind). The count is printed.
"""

from __future__ import annotations

import http.client
import json
import random
import re
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlencode

import pytest

from tests.server.serving import PLAYERS, Server

pytestmark = pytest.mark.served

REQUESTS = 10_000
THREADS = 4
SURROGATE = "\udfff"
NASTY_TEXTS = [SURROGATE, "a\x00b", "\u202eSami", "\u200b", "x" * 5000, "", " ", "عمر", "🂡"]
HUGE_NUMBERS = [2**63, 2**64, -(2**63) - 1, 10**30, 10**400, 1e308, -1]
IMPOSSIBLE_IDS = ["%00", "a%00b", "%ED%B3%BF", "x" * 300, "a.b", "%C3%A9", "..%2F..", "%FF"]
CSRF = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')
KING = {"contracts": ["king"], "captures": {"king_of_hearts": {"taker": 1, "doubled_by": None}}}
REDEAL = {"kind": "redeal", "seat": 1, "contract": "trix", "note": "seven hearts"}


@dataclass
class Raw:
    """One keep-alive connection sending raw bytes (a body may be anything)."""

    port: int
    conn: http.client.HTTPConnection | None = None

    def send(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], bytes]:
        for attempt in (1, 2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            try:
                self.conn.request(method, path, body=body, headers=headers or {})
                response = self.conn.getresponse()
                data = response.read()
                if response.getheader("Connection", "").lower() == "close":
                    self.close()
                return response.status, {k.lower(): v for k, v in response.getheaders()}, data
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                self.close()  # the server closed an idle keep-alive connection
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


@dataclass
class Table:
    """Games to aim at: one made on the page (with its owner's session and CSRF token),
    one made through the API (with its edit token)."""

    id: str
    cookie: str
    csrf: str
    api_id: str
    token: str


@dataclass
class Tally:
    statuses: Counter[int] = field(default_factory=Counter)
    kinds: Counter[tuple[str, int]] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, status: int, what: str) -> None:
        with self.lock:
            self.statuses[status] += 1
            self.kinds[(what.split(" ")[1].split("/")[1], status)] += 1  # by first segment
            if status >= 500 and len(self.errors) < 20:
                self.errors.append(f"{status} {what}")


def _json(value: Any) -> bytes:
    return json.dumps(value).encode()


def _cookie(headers: dict[str, str], old: str = "") -> str:
    raw = headers.get("set-cookie", "")
    found = re.match(r"([^=]+=[^;]*)", raw)
    return found.group(1) if found else old


def new_table(raw: Raw) -> Table:
    """A game made through the new-game page, so that this session owns it."""
    status, headers, page = raw.send("GET", "/games/new")
    assert status == 200
    cookie = _cookie(headers)
    token_match = CSRF.search(page.decode())
    assert token_match, page[:300]
    csrf = token_match.group(1)
    form = {f"players-{i}": name for i, name in enumerate(PLAYERS)}
    form |= {"csrf_token": csrf, "first_king": "0", "preset": "standard"}
    head = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie}
    status, headers, _ = raw.send("POST", "/games/new", urlencode(form).encode(), head)
    assert status == 302, status
    game_id = headers["location"].rstrip("/").rsplit("/", 1)[-1]
    cookie = _cookie(headers, cookie)
    status, _, body = raw.send("POST", "/api/v1/games", _json({"players": PLAYERS}))
    assert status == 201
    answer = json.loads(body)
    return Table(game_id, cookie, csrf, answer["id"], answer["edit_token"])


Request = tuple[str, str, bytes | None, dict[str, str]]


def _api_write(t: Table, rng: random.Random) -> Request:
    text, number = rng.choice(NASTY_TEXTS), rng.choice(HUGE_NUMBERS)
    bodies = [
        KING,
        {**REDEAL, "note": text},
        {**REDEAL, "seat": number},
        {**KING, "king": number},
        {"contracts": ["king"], "captures": {"king_of_hearts": {"taker": number}}},
        {"contracts": [text], "captures": {}},
        {"kind": "misdeal", "note": text, text: 1},
    ]
    body = rng.choice(bodies)
    path = "/redeals" if "kind" in body else "/deals"
    head = {"Authorization": f"Bearer {t.token}", "Content-Type": "application/json"}
    head["If-Match"] = rng.choice(["*", str(number), '"1"', "W/" + str(number)])
    if rng.random() < 0.3:
        n = rng.choice([1, 2, number])
        return "PUT", f"/api/v1/games/{t.api_id}/deals/{n}", _json(body), head
    return "POST", f"/api/v1/games/{t.api_id}{path}", _json(body), head


def _new_game(rng: random.Random) -> Request:
    names = list(PLAYERS)
    names[rng.randrange(4)] = rng.choice(NASTY_TEXTS)
    body: dict[str, Any] = {"players": names, "first_king": rng.choice([0, *HUGE_NUMBERS])}
    return "POST", "/api/v1/games", _json(body), {"Content-Type": "application/json"}


def _impossible_id(rng: random.Random) -> Request:
    game = rng.choice(IMPOSSIBLE_IDS)
    path = rng.choice(
        [
            "/games/{}",
            "/games/{}/export.json",
            "/games/{}/sheet.pdf",
            "/games/{}/join/abc",
            "/games/{}/version",
            "/api/v1/games/{}",
            "/api/v1/games/{}/export",
            "/disputes/claim?for_game={}",
        ]
    ).format(game)
    if rng.random() < 0.3 and "?" not in path:
        return "POST", path + "/deals", _json(KING), {"Content-Type": "application/json"}
    return "GET", path, None, {}


def _page_write(t: Table, rng: random.Random) -> Request:
    version = rng.choice(["1", "2", "", "-1", "x", *(str(n) for n in HUGE_NUMBERS)])
    form: dict[str, str] = {"csrf_token": t.csrf, "version": version}
    path, extra = rng.choice(
        [
            ("/games/{}/deals/new?contracts=king", {"kh_taker": "1"}),
            ("/games/{}/deals/1/edit?contracts=king", {"kh_taker": "2"}),
            ("/games/{}/redeals", {"kind": "redeal", "seat": "1", "note": rng.choice(NASTY_TEXTS)}),
            ("/games/{}/undo", {"confirm": "yes"}),
        ]
    )
    body = urlencode({**form, **extra}, encoding="utf-8", errors="surrogatepass").encode()
    head = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": t.cookie}
    return "POST", path.format(t.id), body, head


def _import(t: Table, backup: dict[str, Any], rng: random.Random) -> Request:
    data = json.loads(json.dumps(backup))
    where = rng.choice(["players", "source", "scores", "note", "version"])
    if where == "players":
        data["players"][rng.randrange(4)] = rng.choice(NASTY_TEXTS)
    elif where == "source" and data["log"] and data["log"][0]["revisions"]:
        data["log"][0]["revisions"][0]["source"] = rng.choice(NASTY_TEXTS)
    elif where == "scores" and data["log"] and data["log"][0]["revisions"]:
        after = data["log"][0]["revisions"][0].get("after") or {}
        after["scores"] = [rng.randint(-500, 500) for _ in range(4)]
    elif where == "version":
        data["version"] = rng.choice(HUGE_NUMBERS)
    return "POST", "/api/v1/games/import", _json(data), {"Content-Type": "application/json"}


def _garbage(rng: random.Random) -> Request:
    body = rng.choice([b"{", b"\xff\xfe", b"[" * 5000, b'{"a": "\\ud800"}', rng.randbytes(40)])
    path = rng.choice(["/api/v1/games", "/api/v1/check/deal", "/api/v1/games/import"])
    return "POST", path, body, {"Content-Type": "application/json"}


def _read(t: Table, rng: random.Random) -> Request:
    path = rng.choice(["/games/{}", "/api/v1/games/{}", "/games/{}/export.json", "/"])
    return "GET", path.format(t.id), None, {"Cookie": t.cookie}


def requests_for(t: Table, backup: dict[str, Any], seed: int, count: int) -> list[Request]:
    """``count`` requests, mostly malformed, in a fixed (seeded) order."""
    rng = random.Random(seed)
    makers: list[Callable[[], Request]] = [
        lambda: _api_write(t, rng),
        lambda: _api_write(t, rng),
        lambda: _new_game(rng),
        lambda: _impossible_id(rng),
        lambda: _impossible_id(rng),
        lambda: _page_write(t, rng),
        lambda: _page_write(t, rng),
        lambda: _import(t, backup, rng),
        lambda: _garbage(rng),
        lambda: _read(t, rng),
    ]
    return [rng.choice(makers)() for _ in range(count)]


def _blast(port: int, work: list[Request], tally: Tally) -> None:
    raw = Raw(port)
    try:
        for method, path, body, headers in work:
            status, _headers, _data = raw.send(method, quote(path, safe="/?=&%:"), body, headers)
            tally.add(status, f"{method} {path[:80]}")
    finally:
        raw.close()


def test_served_fuzz_has_no_5xx(database_url: str, serve: Callable[..., Server]) -> None:
    server = serve(database_url, workers=3, threads=4)
    port = int(server.url.rsplit(":", 1)[1])
    setup = Raw(port)
    tables = [new_table(setup) for _ in range(THREADS)]
    _status, _h, body = setup.send("GET", f"/api/v1/games/{tables[0].id}/export")
    backup = json.loads(body)
    tally = Tally()
    per_thread = REQUESTS // THREADS
    threads = [
        threading.Thread(
            target=_blast,
            args=(port, requests_for(t, backup, i, per_thread), tally),
        )
        for i, t in enumerate(tables)
    ]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=600)
    for t in tables:  # every game can still be shown: no stored 500
        for game in (t.id, t.api_id):
            paths = (f"/games/{game}", f"/games/{game}/export.json", f"/api/v1/games/{game}")
            for path in paths:
                status, _h, _b = setup.send("GET", path, None, {"Cookie": t.cookie})
                tally.add(status, f"GET {path} afterwards")
    setup.close()
    total = sum(tally.statuses.values())
    fives = sum(n for status, n in tally.statuses.items() if status >= 500)
    elapsed = time.monotonic() - started
    print(
        f"\nserved fuzz ({database_url.split(':')[0]}): {total} requests in {elapsed:.0f} s, "
        f"{fives} answers 5xx; statuses {dict(sorted(tally.statuses.items()))}"
    )
    print("by first segment:", sorted(tally.kinds.items()))
    assert total >= REQUESTS
    assert fives == 0, tally.errors
    assert "Traceback" not in server.log_text()
