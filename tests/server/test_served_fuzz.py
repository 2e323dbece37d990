"""The fuzz through the served app: gunicorn's forked workers, on SQLite and PostgreSQL.

Every JSON endpoint of docs/API.md (tests/malformed.py's table) gets a wrong JSON type at
every level of a valid body, each part removed, an unknown key, and bodies that are no
object at all; then malformed requests of every shape the attacks found (lone surrogates
and NULs in stored texts, impossible game ids, versions and integers past 64 bits, made-up
backups, random bytes) and valid ones around them. All go in a fixed order over one
keep-alive connection. The server must answer every one with less than a 500, a refused
request must leave every table as it was (row counts and versions, read after each
answer), and every game must still be shown afterwards. The counts are printed.
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
from sqlalchemy import Engine, create_engine

from tests import malformed
from tests.malformed import fingerprint
from tests.server.serving import PLAYERS, Server

pytestmark = pytest.mark.served

REQUESTS = 300
"""Requests of the attacks' shapes, after the sweep of every endpoint."""
DEPTH = 1
"""A body's top-level parts get a value of every JSON type; deeper ones, one type in turn
(the in-process fuzz, tests/security/test_fuzz.py, gives every type at every level)."""
SURROGATE = "\udfff"
NASTY_TEXTS = [SURROGATE, "a\x00b", "\u202eSami", "\u200b", "x" * 5000, "", " ", "عمر", "🂡"]
HUGE_NUMBERS = [2**63, 2**64, -(2**63) - 1, 10**30, 10**400, 1e308, -1]
IMPOSSIBLE_IDS = ["%00", "a%00b", "%ED%B3%BF", "x" * 300, "a.b", "%C3%A9", "..%2F..", "%FF"]
CSRF = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')
KING = {"contracts": ["king"], "captures": {"king_of_hearts": {"taker": 1, "doubled_by": None}}}
REDEAL = {"kind": "redeal", "seat": 1, "contract": "trix", "note": "seven hearts"}
ENDPOINTS_CIRCLE = {"name": "Friday club", "members": PLAYERS}


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

    def wrote(self, what: str) -> None:
        if len(self.errors) < 20:
            self.errors.append(what)

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


@dataclass
class Watch:
    """The database as the server leaves it: a refused request must not change it."""

    engine: Engine
    seen: tuple[int, ...] = ()

    def changed(self) -> bool:
        with self.engine.connect() as connection:
            now = fingerprint(connection)
        changed, self.seen = now != self.seen, now
        return changed


def _check(raw: Raw, watch: Watch | None, tally: Tally, request: Request) -> int:
    """Send one request: a 5xx, or a refusal that wrote, is counted as an error (``watch``
    None: the caller reads the database after a batch of requests that never write)."""
    method, path, body, headers = request
    status, _h, _data = raw.send(method, quote(path, safe="/?=&%:"), body, headers)
    what = f"{method} {path[:80]}"
    tally.add(status, what)
    if watch is not None and watch.changed() and status >= 400:
        tally.wrote(f"{status} wrote: {what} {(body or b'')[:120]!r}")
    return status


def _stage(raw: Raw, table: Table) -> tuple[dict[str, Any], dict[str, str], str]:
    """The places and tokens the endpoint table names, and the owner's cookie: the page's
    session joins the API game, so that the offline sync may write to it."""
    form = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": table.cookie}
    path = f"/games/{table.api_id}/join/{table.token}"
    status, headers, _b = raw.send(
        "POST", path, urlencode({"csrf_token": table.csrf}).encode(), form
    )
    assert status == 303, status
    cookie = _cookie(headers, table.cookie)
    json_head = {"Content-Type": "application/json"}
    _s, _h, body = raw.send("POST", "/api/v1/circles", _json(ENDPOINTS_CIRCLE), json_head)
    circle = json.loads(body)
    _s, _h, body = raw.send("POST", "/api/v1/events", _json(malformed.NEW_EVENT), json_head)
    event = json.loads(body)
    director = {"Authorization": f"Bearer {event['director_token']}"}
    _s, _h, body = raw.send("POST", f"/api/v1/events/{event['id']}/rounds", b"", director)
    _s, _h, export = raw.send("GET", f"/api/v1/games/{table.api_id}/export")
    first = json.loads(body)["tables"][0]
    head = {**json_head, "Authorization": f"Bearer {first['edit_token']}"}
    path = f"/api/v1/games/{first['game']}/deals"
    assert raw.send("POST", path, _json({**KING, "king": 0}), head)[0] == 201
    places = {
        "game": table.api_id,
        "event": event["id"],
        "table_game": first["game"],
        "circle": circle["id"],
        "member": str(circle["circle"]["members"][0]["id"]),
        "backup": json.loads(export),
    }
    tokens = {
        "game": table.token,
        "director": event["director_token"],
        "circle": circle["edit_token"],
    }
    return places, tokens, cookie


def _endpoint_requests(
    raw: Raw, table: Table, endpoint: malformed.Endpoint, stage: tuple[Any, ...]
) -> list[Request]:
    places, tokens, cookie = stage
    headers = {"Content-Type": "application/json"}
    if endpoint.auth in tokens:
        headers["Authorization"] = f"Bearer {tokens[endpoint.auth]}"
    if endpoint.auth == "session":
        headers |= {"Cookie": cookie, "X-CSRFToken": table.csrf}
    if endpoint.if_match:
        target = places["table_game" if "{table_game}" in endpoint.path else "game"]
        _s, answer, _b = raw.send("GET", f"/api/v1/games/{target}")
        headers["If-Match"] = answer["etag"]
    return [
        (method, path, body, headers)
        for method, path, body in malformed.requests_of(endpoint, places, DEPTH)
    ]


@pytest.mark.served
def test_served_fuzz_has_no_5xx(database_url: str, serve: Callable[..., Server]) -> None:
    server = serve(database_url, workers=2, threads=2)
    raw = Raw(int(server.url.rsplit(":", 1)[1]))
    tables = [new_table(raw) for _ in range(2)]
    _status, _h, body = raw.send("GET", f"/api/v1/games/{tables[0].id}/export")
    backup = json.loads(body)
    stage = _stage(raw, tables[0])
    watch, tally = Watch(create_engine(database_url)), Tally()
    watch.changed()
    started = time.monotonic()
    for endpoint in malformed.ENDPOINTS:
        for request in _endpoint_requests(raw, tables[0], endpoint, stage):
            _check(raw, watch if endpoint.writes else None, tally, request)
        if not endpoint.writes and watch.changed():
            tally.wrote(f"{endpoint.method} {endpoint.path} wrote")
    swept = sum(tally.statuses.values())
    for request in requests_for(tables[1], backup, 1, REQUESTS):
        _check(raw, watch, tally, request)
    for t in tables:  # every game can still be shown: no stored 500
        for game in (t.id, t.api_id):
            paths = (f"/games/{game}", f"/games/{game}/export.json", f"/api/v1/games/{game}")
            for path in paths:
                _check(raw, watch, tally, ("GET", path, None, {"Cookie": t.cookie}))
    raw.close()
    watch.engine.dispose()
    total = sum(tally.statuses.values())
    fives = sum(n for status, n in tally.statuses.items() if status >= 500)
    elapsed = time.monotonic() - started
    print(
        f"\nserved fuzz ({database_url.split(':')[0]}): {total} requests ({swept} to the "
        f"{len(malformed.ENDPOINTS)} JSON endpoints) in {elapsed:.0f} s, {fives} answers 5xx; "
        f"statuses {dict(sorted(tally.statuses.items()))}"
    )
    print("by first segment:", sorted(tally.kinds.items()))
    assert total >= REQUESTS + swept and swept > 1000
    assert fives == 0 and not tally.errors, tally.errors
    assert "Traceback" not in server.log_text()
