"""A rematch through gunicorn's forked workers (SQLite and PostgreSQL): the finished game's
page offers it, the POST carries the page's CSRF token, and the new game opens editable."""

from __future__ import annotations

import http.client
import re
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.server.serving import Server
from tests.server.test_served_app import (
    _session_cookie,
    get,
    join_with_csrf,
    play_finished_game,
)

pytestmark = pytest.mark.served

Serve = Callable[..., Server]


def post_form(server: Server, path: str, body: bytes, cookie: str) -> tuple[int, str, str]:
    """POST a form; the status, the Location and the session cookie it sets (or ``cookie``)."""
    port = int(server.url.rsplit(":", 1)[1])
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        head = {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"}
        conn.request("POST", path, body=body, headers=head)
        response = conn.getresponse()
        response.read()
        headers = {k.lower(): v for k, v in response.getheaders()}
        return response.status, headers.get("location", ""), _session_cookie(headers) or cookie
    finally:
        conn.close()


def test_a_rematch_starts_an_editable_game_when_served(database_url: str, serve: Serve) -> None:
    played = play_finished_game(database_url)
    server = serve(database_url)
    cookie = join_with_csrf(server, f"/games/{played.game_id}/join/{played.token}")
    status, _headers, page = get(server, f"/games/{played.game_id}", cookie)
    assert status == 200 and b'data-testid="rematch"' in page
    csrf = re.search(rb'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert csrf
    path = f"/games/{played.game_id}/rematch"
    assert post_form(server, path, b"", cookie)[0] == 400  # no CSRF token: refused
    status, location, cookie = post_form(server, path, b"csrf_token=" + csrf.group(1), cookie)
    assert status == 302, status
    new_id = location.rsplit("/", 1)[-1]
    assert new_id and new_id != played.game_id
    status, _headers, new_page = get(server, f"/games/{new_id}", cookie)
    assert status == 200
    assert b'data-testid="choose-contract"' in new_page  # this browser may edit it
    assert "Traceback" not in server.log_text()


def rematch_form(server: Server, game_id: str, cookie: str) -> bytes:
    """The finished game's page's Rematch form, as this phone would send it."""
    status, _headers, page = get(server, f"/games/{game_id}", cookie)
    assert status == 200 and b'data-testid="rematch"' in page
    csrf = re.search(rb'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert csrf
    return b"csrf_token=" + csrf.group(1)


def test_r2_two_phones_tapping_rematch_at_once_land_on_one_new_game(
    database_url: str, serve: Serve
) -> None:
    """Both POSTs go at the same moment (a barrier), to forked workers: the finished game's
    row lock lets one make the rematch; the other finds it. Each phone may edit it."""
    played = play_finished_game(database_url)
    server = serve(database_url)
    path = f"/games/{played.game_id}/rematch"
    phones = [join_with_csrf(server, f"/games/{played.game_id}/join/{played.token}") for _ in "ab"]
    bodies = [rematch_form(server, played.game_id, cookie) for cookie in phones]
    barrier = threading.Barrier(len(phones))

    def tap(i: int) -> tuple[int, str, str]:
        barrier.wait()
        return post_form(server, path, bodies[i], phones[i])

    with ThreadPoolExecutor(len(phones)) as pool:
        answers = list(pool.map(tap, range(len(phones))))
    assert [status for status, _l, _c in answers] == [302, 302], answers
    locations = {location for _s, location, _c in answers}
    assert len(locations) == 1, locations
    new_id = locations.pop().rsplit("/", 1)[-1]
    assert new_id != played.game_id
    for _status, _location, cookie in answers:
        status, _headers, page = get(server, f"/games/{new_id}", cookie)
        assert status == 200 and b'data-testid="choose-contract"' in page  # editable here
    again = post_form(server, path, rematch_form(server, played.game_id, phones[0]), phones[0])
    assert again[0] == 302 and again[1].endswith(f"/games/{new_id}")  # a later tap too
    assert "Traceback" not in server.log_text()
