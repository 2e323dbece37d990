"""A circle under gunicorn (the project's gunicorn.conf.py), on SQLite and PostgreSQL:
create it, play a short game in it through the API, read a player's statistics, the CSV,
and the season's table as PDF (rendered by the workers' render processes)."""

from __future__ import annotations

import io
import json
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

import pytest
from pypdf import PdfReader

from tests.server.serving import Server
from tests.web.circles.test_api import DEALS

pytestmark = pytest.mark.served

NAMES = ["Rana", "Sami", "عمر", "Lina"]


def call(
    server: Server, method: str, path: str, body: Any = None, token: str = ""
) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server.url + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            raw = response.read()
            kind = response.headers.get("Content-Type", "")
            if "pdf" in kind:
                return response.status, raw
            return response.status, json.loads(raw) if "json" in kind else raw.decode()
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def test_a_circle_game_served_by_gunicorn(database_url: str, serve: Callable[..., Server]) -> None:
    server = serve(database_url)
    status, created = call(server, "POST", "/api/v1/circles", {"name": "Thursday", "ratings": True})
    assert status == 201, created
    circle_id, token = created["id"], created["edit_token"]
    body = {"players": NAMES, "rules": {"kingdoms": 1}}
    status, _ = call(server, "POST", f"/api/v1/circles/{circle_id}/games", body)
    assert status == 401
    status, game = call(server, "POST", f"/api/v1/circles/{circle_id}/games", body, token)
    assert status == 201, game
    for deal in DEALS:
        status, answer = call(
            server, "POST", f"/api/v1/games/{game['id']}/deals", deal, game["edit_token"]
        )
        assert status == 201, answer
    status, circle = call(server, "GET", f"/api/v1/circles/{circle_id}")
    members = {m["name"]: m for m in circle["members"]}
    assert status == 200 and members["Rana"]["wins"] == 1 and members["عمر"]["games"] == 1
    status, stats = call(
        server, "GET", f"/api/v1/circles/{circle_id}/members/{members['Rana']['id']}"
    )
    assert status == 200 and stats["average_total"] == 250
    status, csv = call(server, "GET", f"/circles/{circle_id}/export.csv")
    assert status == 200 and "عمر" in csv and "250" in csv
    status, page = call(server, "GET", f"/circles/{circle_id}/members/{members['Rana']['id']}")
    assert status == 200 and "<svg" in page


def test_the_circles_season_pdf_served_by_gunicorn(
    database_url: str, serve: Callable[..., Server]
) -> None:
    server = serve(database_url)
    status, created = call(server, "POST", "/api/v1/circles", {"name": "Thursday"})
    assert status == 201, created
    circle_id, token = created["id"], created["edit_token"]
    body = {"players": NAMES, "rules": {"kingdoms": 1}}
    status, game = call(server, "POST", f"/api/v1/circles/{circle_id}/games", body, token)
    assert status == 201, game
    for deal in DEALS:
        call(server, "POST", f"/api/v1/games/{game['id']}/deals", deal, game["edit_token"])
    status, page = call(server, "GET", f"/circles/{circle_id}")
    assert status == 200 and f"/circles/{circle_id}/table.pdf" in page
    for lang in ("en", "ar"):
        status, data = call(server, "GET", f"/circles/{circle_id}/table.pdf?lang={lang}")
        assert status == 200 and data.startswith(b"%PDF-"), data[:100]
        reader = PdfReader(io.BytesIO(data))
        text = "".join(p.extract_text() or "" for p in reader.pages)
        assert len(reader.pages) >= 1 and "Thursday" in text and "Rana" in text
