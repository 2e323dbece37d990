"""Who may write into a circle, under gunicorn, on SQLite and PostgreSQL: a club night
needs the circle's edit token, a circle keeps its member cap whatever the nights, and a
refused restore writes nothing. What was written is counted in the server's database,
every table, from outside the server."""

from __future__ import annotations

import http.client
import json
import re
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.store.circles.input import MEMBERS_MAX
from tests.server.serving import Server
from tests.server.test_served_app import _session_cookie, get
from tests.server.test_served_circles import call
from tests.sql import row_counts
from tests.web.circles.test_api import DEALS

Serve = Callable[..., Server]
NAMES = ["Rana", "Sami", "Omar", "Lina"]


def counts(database_url: str) -> dict[str, int]:
    """Every table's rows in the server's database."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": "counts"})
    with app.app_context():
        try:
            return row_counts()
        finally:
            db.session.remove()
            db.engine.dispose()


def _circle(server: Server, members: list[str]) -> tuple[str, str]:
    status, made = call(server, "POST", "/api/v1/circles", {"name": "Club", "members": members})
    assert status == 201, made
    return made["id"], made["edit_token"]


@pytest.mark.served
def test_a_club_night_cannot_write_into_a_circle_without_its_token(
    database_url: str, serve: Serve
) -> None:
    server = serve(database_url, workers=2)
    circle, token = _circle(server, NAMES)
    status, game = call(
        server, "POST", f"/api/v1/circles/{circle}/games", {"players": NAMES}, token
    )
    assert status == 201, game
    _other, other_token = _circle(server, ["Zein"])
    night = {"name": "Raid", "players": [*NAMES, "=HYPERLINK(1)", "B", "C", "D"], "circle": circle}
    before = counts(database_url)
    status, refused = call(server, "POST", "/api/v1/events", night)
    assert status == 401 and "circle's edit token" in refused["errors"][0]["message"]
    for wrong in (game["edit_token"], other_token):
        status, refused = call(server, "POST", "/api/v1/events", night, wrong)
        assert status == 403, refused
    assert counts(database_url) == before
    status, held = call(server, "POST", "/api/v1/events", night, token)
    assert status == 201, held
    status, drawn = call(
        server, "POST", f"/api/v1/events/{held['id']}/rounds", None, held["director_token"]
    )
    assert status == 201, drawn
    status, linked = call(server, "GET", f"/api/v1/circles/{circle}")
    assert len(linked["games"]) == 3 and len(linked["members"]) == 8


@pytest.mark.served
def test_three_served_club_nights_cannot_grow_a_circle_past_its_cap(
    database_url: str, serve: Serve
) -> None:
    server = serve(database_url, workers=2)
    members = [f"Member {i:02d}" for i in range(1, MEMBERS_MAX - 3)]
    circle, token = _circle(server, members)
    nights = []
    for k in range(3):
        guests = [f"Guest {k}-{i}" for i in range(4)]
        body = {"name": f"Night {k}", "players": [*members[:4], *guests], "circle": circle}
        status, night = call(server, "POST", "/api/v1/events", body, token)
        assert status == 201, night
        nights.append(night)
    statuses = []
    for night in nights:
        before = counts(database_url)
        status, drawn = call(
            server, "POST", f"/api/v1/events/{night['id']}/rounds", None, night["director_token"]
        )
        statuses.append(status)
        if status == 422:
            assert drawn["errors"][0]["code"] == "members_full", drawn
            assert counts(database_url) == before
    assert statuses == [201, 422, 422]
    status, full = call(server, "GET", f"/api/v1/circles/{circle}")
    assert len(full["members"]) == MEMBERS_MAX


@pytest.mark.served
def test_the_same_new_names_at_once_become_members_once(database_url: str, serve: Serve) -> None:
    """Three circle games started together by the same four new players: the first adds
    them, the others find them (not a duplicate name refused by the database)."""
    server = serve(database_url, workers=3)
    circle, token = _circle(server, [f"Member {i:02d}" for i in range(1, MEMBERS_MAX - 3)])
    path, body = f"/api/v1/circles/{circle}/games", {"players": NAMES}

    def start(_k: int) -> int:
        return call(server, "POST", path, body, token)[0]

    with ThreadPoolExecutor(3) as pool:
        assert list(pool.map(start, range(3))) == [201, 201, 201]
    status, full = call(server, "GET", f"/api/v1/circles/{circle}")
    assert len(full["members"]) == MEMBERS_MAX and len(full["games"]) == 3
    assert "Traceback" not in server.log_text()


@pytest.mark.served
@pytest.mark.parametrize("way", ["club nights' draws", "circle's games"])
def test_writes_at_once_take_the_circles_last_places_once(
    database_url: str, serve: Serve, way: str
) -> None:
    """Three writes at the same moment, each with four new names and room for four: one
    takes the places, the others are refused (the circle's row is locked before counting)."""
    server = serve(database_url, workers=3)
    members = [f"Member {i:02d}" for i in range(1, MEMBERS_MAX - 3)]
    circle, token = _circle(server, members)
    writes = []
    for k in range(3):
        guests = [f"Guest {k}-{i}" for i in range(4)]
        if way == "circle's games":
            writes.append((f"/api/v1/circles/{circle}/games", {"players": guests}, token))
            continue
        body = {"name": f"Night {k}", "players": [*members[:4], *guests], "circle": circle}
        night = call(server, "POST", "/api/v1/events", body, token)[1]
        writes.append((f"/api/v1/events/{night['id']}/rounds", None, night["director_token"]))

    def write(path: str, body: Any, bearer: str) -> int:
        return call(server, "POST", path, body, bearer)[0]

    with ThreadPoolExecutor(len(writes)) as pool:
        statuses = sorted(pool.map(write, *zip(*writes, strict=True)))
    assert statuses == [201, 422, 422]
    status, full = call(server, "GET", f"/api/v1/circles/{circle}")
    assert len(full["members"]) == MEMBERS_MAX


def _upload(server: Server, path: str, field: str, raw: bytes) -> tuple[int, bytes]:
    """Post a file through the page's form: its CSRF token and session first."""
    status, headers, page = get(server, path)
    assert status == 200
    csrf = re.search(rb'name="csrf_token"[^>]*value="([^"]+)"', page)
    assert csrf, page[:500]
    boundary = uuid.uuid4().hex
    body = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n'.encode()
        + csrf.group(1)
        + f'\r\n--{boundary}\r\nContent-Disposition: form-data; name="{field}"; '
        f'filename="backup.json"\r\nContent-Type: application/json\r\n\r\n'.encode()
        + raw
        + f"\r\n--{boundary}--\r\n".encode()
    )
    head = {
        "Cookie": _session_cookie(headers),
        "Content-Type": f"multipart/form-data; boundary={boundary}",
    }
    conn = http.client.HTTPConnection("127.0.0.1", int(server.url.rsplit(":", 1)[1]), timeout=60)
    try:
        conn.request("POST", path, body=body, headers=head)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


@pytest.mark.served
def test_a_served_circle_restore_whose_last_game_is_broken_writes_nothing(
    database_url: str, serve: Serve
) -> None:
    server = serve(database_url, workers=2)
    circle, token = _circle(server, NAMES)
    for _ in range(3):
        body = {"players": NAMES, "rules": {"kingdoms": 1}}
        status, game = call(server, "POST", f"/api/v1/circles/{circle}/games", body, token)
        for deal in DEALS:
            call(server, "POST", f"/api/v1/games/{game['id']}/deals", deal, game["edit_token"])
    status, _headers, raw = get(server, f"/circles/{circle}/backup.json")
    backup: dict[str, Any] = json.loads(raw)
    backup["games"][-1]["game"]["log"][-1]["entry"]["captures"]["tricks"] = [1, 2, 3, 8]
    before = counts(database_url)
    status, page = _upload(server, "/circles/restore", "file", json.dumps(backup).encode())
    assert status == 422, page[:300]
    status, page = _upload(server, "/circles/restore", "file", b"[" * 50_000 + b"]" * 50_000)
    assert status == 422, page[:300]
    assert counts(database_url) == before
    assert "Traceback" not in server.log_text()
