"""Start forms through gunicorn: every browser gets its own CSRF token and session.

A form page is never kept whole between visitors (scorekeeper/web/server/fragments.py keeps
only pieces that show no token): two browsers that share nothing, each loading the
new-game or the club-night form and sending it, both get their game or club night,
also after the home page, with ``If-None-Match`` sent, and when a page is fetched again.
A form page also tells any shared cache in front of the app (a proxy, a CDN) that it is
this browser's only (scorekeeper/web/server/hardening.py): a cache that kept it would hand the
first visitor's token, without its session cookie, to the next browser, refused with 400.
"""

from __future__ import annotations

import http.client
import re
import urllib.parse
from collections.abc import Callable
from http.cookies import SimpleCookie
from typing import Any

import pytest

from tests.server.serving import PLAYERS, Server

pytestmark = pytest.mark.served

Serve = Callable[..., Server]
TOKEN = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')
NEW_GAME = {
    **{f"players-{seat}": name for seat, name in enumerate(PLAYERS)},
    "first_king": "0",
    "preset": "standard",
}
NEW_EVENT = {
    "name": "Thursday club",
    "players": "\n".join(["Rana", "Sami", "Omar", "Lina", "Hadi", "Nour", "Ziad", "Dana"]),
    "rounds": "2",
    "round_kind": "kingdom",
    "scoring": "places",
    "places": "3 2 1 0",
    "seed": "11",
}
FORMS = {"/games/new": ("/games/", NEW_GAME), "/events/new": ("/events/", NEW_EVENT)}


class Browser:
    """A browser of its own: its own connection and cookies, nothing shared."""

    def __init__(self, server: Server) -> None:
        self.conn = http.client.HTTPConnection(
            "127.0.0.1", int(server.url.rsplit(":", 1)[1]), timeout=60
        )
        self.cookies: dict[str, str] = {}

    def request(
        self, method: str, path: str, form: dict[str, Any] | None = None, **headers: str
    ) -> tuple[int, dict[str, str], str]:
        head = dict(headers)
        if self.cookies:
            head["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form, doseq=True).encode()
            head["Content-Type"] = "application/x-www-form-urlencoded"
        self.conn.request(method, path, body=body, headers=head)
        response = self.conn.getresponse()
        text = response.read().decode()
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                cookie: SimpleCookie = SimpleCookie()
                cookie.load(value)
                self.cookies.update({key: morsel.value for key, morsel in cookie.items()})
        return response.status, {k.lower(): v for k, v in response.getheaders()}, text

    def close(self) -> None:
        self.conn.close()


def load_and_send(
    server: Server, path: str, before: tuple[str, ...] = (), **headers: str
) -> tuple[str, int, str]:
    """A new browser visits ``before``, loads the form at ``path`` and sends it:
    (the form's CSRF token, the answer's status, where it leads)."""
    browser = Browser(server)
    try:
        for page in before:
            assert browser.request("GET", page, **headers)[0] == 200, page
        status, page_headers, page_text = browser.request("GET", path, **headers)
        assert status == 200, (path, status)
        assert page_headers.get("cache-control") == "private, no-cache", path
        tokens = TOKEN.findall(page_text)
        assert len(tokens) == 1, tokens
        assert "session" in browser.cookies  # the token's other half
        form = {**FORMS[path][1], "csrf_token": tokens[0]}
        status, answer_headers, _ = browser.request("POST", path, form)
        return tokens[0], status, answer_headers.get("location", "")
    finally:
        browser.close()


def test_two_browsers_sharing_nothing_each_start_a_game_and_a_club_night(
    database_url: str, serve: Serve
) -> None:
    server = serve(database_url)
    visits: list[tuple[tuple[str, ...], dict[str, str]]] = [
        ((), {}),
        (("/",), {}),  # from the home page
        ((), {"If-None-Match": '"1"'}),  # a conditional request
        (("/games/new", "/events/new"), {}),  # the form fetched again (a service worker)
    ]
    for path, (leads_to, _) in FORMS.items():
        for before, headers in visits:
            first = load_and_send(server, path, before, **headers)
            second = load_and_send(server, path, before, **headers)
            assert first[0] != second[0], (path, before, headers)  # each its own token
            for _token, status, location in (first, second):
                assert status == 302, (path, before, headers, status)
                assert leads_to in location
            assert first[2] != second[2]  # two games (club nights), not one
    assert "Traceback" not in server.log_text()
