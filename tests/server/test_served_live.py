"""Live updates through gunicorn: a phone polling one server sees a deal recorded on another.

On PostgreSQL an unchanged poll is answered from the versions the database
announces (scorekeeper/store/version_feed.py), so the test polls the way a
phone does (again until the change shows, within a few seconds) after having
polled the unchanged game many times on the other server. On SQLite the poll
reads the version itself.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from tests.server.serving import Client, Server
from tests.web.events.test_api import kingdom

pytestmark = pytest.mark.served

GUARD_SECONDS = 30.0
"""The longest a phone polls for the change (a guard, never a speed assertion)."""


def poll_until_changed(
    phone: Client, game_id: str, seen: str, within: float = GUARD_SECONDS
) -> dict:
    deadline = time.monotonic() + within
    while True:
        status, _headers, body = phone.call(
            "GET", f"/games/{game_id}/version", None, {"If-None-Match": seen}
        )
        if status == 200:
            return body
        assert status == 304 and time.monotonic() < deadline, status
        time.sleep(0.05)


def test_served_a_phone_on_one_server_follows_a_deal_recorded_on_another(
    serve: Callable[..., Server], database_url: str
) -> None:
    one = serve(database_url, workers=2)
    other = serve(database_url, workers=2) if database_url.startswith("postgresql") else one
    recorder, phone = one.client(), other.client()
    game_id, token, state = recorder.new_game()
    seen = f'"{state["version"]}"'
    for _ in range(30):  # every worker of the other server has the game in mind
        status, _headers, _body = phone.call(
            "GET", f"/games/{game_id}/version", None, {"If-None-Match": seen}
        )
        assert status == 304
    auth = {"Authorization": f"Bearer {token}"}
    status, _headers, answer = recorder.call(
        "POST", f"/api/v1/games/{game_id}/deals", kingdom()[0], auth
    )
    assert status == 201
    changed = poll_until_changed(phone, game_id, seen)
    assert changed["version"] == answer["game"]["version"] and changed["deals_played"] == 1
    status, _headers, _body = phone.call(
        "GET", f"/games/{game_id}/version", None, {"If-None-Match": f'"{changed["version"]}"'}
    )
    assert status == 304
