"""Security headers on every kind of response, no inline script or style, cookie flags."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper.extensions import db
from scorekeeper.paths import PROJECT_ROOT
from scorekeeper.web.server import hardening as security

CSP = (
    "default-src 'self'; script-src 'self'; worker-src 'self'; manifest-src 'self'; "
    "style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
TEMPLATES = PROJECT_ROOT / "templates"
INLINE = [
    (re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I), "inline <script>"),
    (re.compile(r"<style\b", re.I), "<style> block"),
    (re.compile(r"\sstyle\s*=", re.I), "style attribute"),
    (re.compile(r"\son[a-z]+\s*=", re.I), "inline event handler"),
    (re.compile(r"javascript:", re.I), "javascript: URL"),
]


def assert_secure(response: TestResponse) -> None:
    headers = response.headers
    assert headers["Content-Security-Policy"] == CSP
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] in ("same-origin", "no-referrer")
    assert headers["X-Frame-Options"] == "DENY"
    assert "camera=()" in headers["Permissions-Policy"]


def test_headers_on_pages_api_static_and_errors(
    app: Flask, client: FlaskClient, start: Callable[..., Any]
) -> None:
    game = start()
    responses = [
        client.get("/"),
        client.get(f"/games/{game.id}"),
        client.get("/static/app.css"),
        client.get("/static/share.js"),
        client.get(f"/api/v1/games/{game.id}"),
        client.post("/api/v1/check/deal", data="not json"),
        client.get("/no/such/page"),
        client.get("/api/v1/no/such/thing"),
        client.post(f"/games/{game.id}/redeals", data={"kind": "misdeal"}),  # 403 page
        client.get(f"/games/{game.id}/join/wrong"),
        client.delete("/"),  # 405
    ]
    etag = responses[4].headers["ETag"]
    responses.append(client.get(f"/api/v1/games/{game.id}", headers={"If-None-Match": etag}))
    assert [r.status_code for r in responses] == [
        200, 200, 200, 200, 200, 400, 404, 404, 403, 403, 405, 304,
    ]  # fmt: skip
    for response in responses:
        assert_secure(response)
        response.close()


def test_headers_on_the_500_page(make_app: Callable[..., Flask]) -> None:
    app = make_app(TESTING=False, PROPAGATE_EXCEPTIONS=False)

    @app.get("/boom")
    def boom() -> str:
        raise RuntimeError("boom")

    assert_secure(app.test_client().get("/boom"))


def _templates() -> Iterator[Path]:
    for path in sorted(TEMPLATES.rglob("*.html")):
        parts = path.relative_to(TEMPLATES).parts
        # WeasyPrint's, never served; and the standalone pages made to be copied elsewhere
        # (one file, its style inline), served with a policy of their own (below).
        if "sheets" not in parts and "standalone" not in parts:
            yield path


STANDALONE = sorted(TEMPLATES.rglob("standalone/*.html"))


@pytest.mark.parametrize("path", STANDALONE, ids=lambda p: p.name)
def test_a_standalone_page_has_inline_style_but_never_a_script(path: Path) -> None:
    """A page for another website (a club's results) keeps its style inline and runs
    nothing: no script, no handler, no address loaded from this server."""
    text = path.read_text(encoding="utf-8")
    assert not re.search(r"<script\b|\son\w+=|<link\b|<img\b|<iframe\b", text, re.I)


def test_a_standalone_page_is_served_under_a_policy_that_runs_nothing(
    client: FlaskClient,
) -> None:
    from tests.web.events.test_pages import create

    response = client.get(f"/events/{create(client)}/results.html")
    policy = response.headers["Content-Security-Policy"]
    assert response.status_code == 200 and "default-src 'none'" in policy
    assert "style-src 'unsafe-inline'" in policy and "script" not in policy


@pytest.mark.parametrize("path", list(_templates()), ids=lambda p: p.name)
def test_no_template_has_inline_script_or_style(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for pattern, what in INLINE:
        assert not pattern.search(text), f"{path.name}: {what}"


def test_rendered_pages_have_no_inline_script_or_style(
    client: FlaskClient, start: Callable[..., Any], phone: Callable[..., FlaskClient]
) -> None:
    game = start()
    owner = phone(game, game.token, owner=True)
    paths = ["/", "/help", "/games/new", f"/games/{game.id}", f"/games/{game.id}/deals/1"]
    paths += [f"/games/{game.id}/deals/new?contracts=queens", f"/games/{game.id}/undo"]
    paths += [f"/games/{game.id}/deals/1/edit", "/nothing/here"]
    for path in paths:
        page = owner.get(path).get_data(as_text=True)
        for pattern, what in INLINE:
            assert not pattern.search(page), f"{path}: {what}"


def test_session_cookie_is_httponly_and_samesite(client: FlaskClient) -> None:
    data = {f"players-{i}": n for i, n in enumerate(["Rana", "Sami", "Omar", "Lina"])}
    response = client.post("/games/new", data={**data, "first_king": "0"})
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie
    assert "Expires=" in cookie  # kept when the phone's browser restarts


@pytest.fixture
def https_app(make_app: Callable[..., Flask]) -> Iterator[Flask]:
    app = make_app(PREFERRED_URL_SCHEME="https", WTF_CSRF_ENABLED=True, TRUSTED_PROXIES=1)
    with app.app_context():
        db.create_all()
        yield app
        db.session.remove()
        db.drop_all()


def test_over_https_the_cookie_is_secure_and_forms_still_work(https_app: Flask) -> None:
    assert https_app.config["SESSION_COOKIE_SECURE"] is True
    client = https_app.test_client()
    base = "https://scores.example.org"
    page = client.get(f"{base}/games/new").get_data(as_text=True)
    match = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page)
    assert match
    data = {f"players-{i}": n for i, n in enumerate(["Rana", "Sami", "Omar", "Lina"])}
    data.update(first_king="0", csrf_token=match.group(1))
    # the same-origin Referer survives the referrer policy; Flask-WTF needs it over HTTPS
    response = client.post(f"{base}/games/new", data=data, headers={"Referer": f"{base}/games/new"})
    assert response.status_code == 302
    assert "Secure" in response.headers["Set-Cookie"]
    game_page = client.get(f"{base}{response.headers['Location']}").get_data(as_text=True)
    assert f"{base}/games/" in game_page  # the shared links use the public address


def test_behind_a_proxy_the_forwarded_scheme_host_and_address_are_used(
    https_app: Flask,
) -> None:
    seen: dict[str, Any] = {}

    @https_app.get("/whoami")
    def whoami() -> str:
        from flask import request

        seen.update(addr=request.remote_addr, url=request.url)
        return ""

    headers = {
        "X-Forwarded-For": "203.0.113.7",
        "X-Forwarded-Proto": "https",
        "X-Forwarded-Host": "scores.example.org",
    }
    https_app.test_client().get("/whoami", headers=headers)
    assert seen == {"addr": "203.0.113.7", "url": "https://scores.example.org/whoami"}


def test_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PREFERRED_URL_SCHEME", "https")
    monkeypatch.setenv("TRUSTED_PROXIES", "2")
    monkeypatch.setenv("RATELIMIT_STORAGE_URI", "memcached://cache:11211")
    monkeypatch.setenv("RATELIMIT_WRITES", "30/minute")
    settings = security.config_defaults({})
    assert settings["SESSION_COOKIE_SECURE"] is True
    assert settings["TRUSTED_PROXIES"] == 2
    assert settings["RATELIMIT_ENABLED"] is True and settings["PROPAGATE_EXCEPTIONS"] is False
    assert settings["RATELIMIT_STORAGE_URI"] == "memcached://cache:11211"
    assert settings["RATELIMIT_WRITES"] == "30/minute"
    monkeypatch.setenv("SESSION_COOKIE_SECURE", "0")
    monkeypatch.setenv("RATELIMIT_ENABLED", "false")
    settings = security.config_defaults({"TESTING": True})
    assert settings["SESSION_COOKIE_SECURE"] is False and settings["RATELIMIT_ENABLED"] is False
    assert "PROPAGATE_EXCEPTIONS" not in settings
    assert "TRUSTED_PROXIES" not in security.config_defaults({"TRUSTED_PROXIES": 0})
