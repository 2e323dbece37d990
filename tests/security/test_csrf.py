"""CSRF: every page form carries a token, and a post without the right one writes nothing."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import games as services
from scorekeeper.store import models

FORMS = {
    "/games/{id}/deals/new?contracts=king": {"kh_taker": "2", "kh_doubled_by": ""},
    "/games/{id}/deals/1/edit": {"kh_taker": "3", "kh_doubled_by": ""},
    "/games/{id}/undo": {"confirm": "yes"},
    "/games/{id}/redeals": {"kind": "misdeal"},
    "/games/{id}/revoke": {},
}
POST_FORM = re.compile(r"<form\b[^>]*method=\"post\"[^>]*>(.*?)</form>", re.S | re.I)


@pytest.fixture
def app(csrf_app: Flask) -> Flask:
    """CSRF protection on, as in production."""
    return csrf_app


def _csrf(client: FlaskClient, path: str) -> str:
    page = client.get(path).get_data(as_text=True)
    match = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page)
    assert match, path
    return match.group(1)


def _games() -> int:
    return int(db.session.scalar(select(func.count()).select_from(models.Game)) or 0)


@pytest.mark.parametrize("path", list(FORMS))
@pytest.mark.parametrize("csrf", [None, "", "wrong-token", "forged.from.elsewhere"])
def test_page_posts_without_the_right_csrf_token_are_refused(
    start: Callable[..., Any],
    phone: Callable[..., FlaskClient],
    snapshot: Callable[[str], Any],
    path: str,
    csrf: str | None,
) -> None:
    game = start()
    owner = phone(game, game.token, owner=True)
    before = snapshot(game.id)
    data = {"version": str(before.version), **FORMS[path]}
    if csrf is not None:
        data["csrf_token"] = csrf
    response = owner.post(path.format(id=game.id), data=data)
    assert response.status_code == 400
    assert "security token" in response.get_data(as_text=True)
    assert snapshot(game.id) == before


def test_a_token_from_another_session_is_refused(
    start: Callable[..., Any], phone: Callable[..., FlaskClient], snapshot: Callable[[str], Any]
) -> None:
    game = start()
    owner, attacker = phone(game, game.token, owner=True), phone()
    stolen = _csrf(attacker, "/games/new")
    before = snapshot(game.id)
    data = {"version": str(before.version), "kind": "misdeal", "csrf_token": stolen}
    assert owner.post(f"/games/{game.id}/redeals", data=data).status_code == 400
    assert snapshot(game.id) == before


def test_new_game_needs_the_csrf_token(client: FlaskClient) -> None:
    data = {f"players-{i}": n for i, n in enumerate(["Rana", "Sami", "Omar", "Lina"])}
    data.update(first_king="0", preset="standard")
    assert client.post("/games/new", data=data).status_code == 400
    assert _games() == 0
    data["csrf_token"] = _csrf(client, "/games/new")
    assert client.post("/games/new", data=data).status_code == 302
    assert _games() == 1


def test_every_post_form_on_every_page_carries_a_csrf_token(client: FlaskClient) -> None:
    data = {f"players-{i}": n for i, n in enumerate(["Rana", "Sami", "Omar", "Lina"])}
    data.update(first_king="0", preset="standard", csrf_token=_csrf(client, "/games/new"))
    game_id = client.post("/games/new", data=data).headers["Location"].rsplit("/", 1)[-1]
    version = services.load_game(game_id).version
    deal = {"version": str(version), "kh_taker": "1", "kh_doubled_by": ""}
    deal["csrf_token"] = _csrf(client, f"/games/{game_id}/deals/new?contracts=king")
    assert client.post(f"/games/{game_id}/deals/new?contracts=king", data=deal).status_code == 302
    pages = [
        "/",
        "/games/new",
        f"/games/{game_id}",
        f"/games/{game_id}/deals/new?contracts=queens",
        f"/games/{game_id}/deals/1",
        f"/games/{game_id}/deals/1/edit",
        f"/games/{game_id}/undo",
    ]
    seen = 0
    for path in pages:
        page = client.get(path).get_data(as_text=True)
        for form in POST_FORM.findall(page):
            seen += 1
            assert 'name="csrf_token"' in form, path
    assert seen >= 6  # new game, deal, edit, undo (twice), redeal, revoke


def test_joining_needs_the_csrf_token_and_a_get_grants_nothing(
    client: FlaskClient, make_app: Callable[..., Flask]
) -> None:
    """Login CSRF: a link or a form on another site cannot sign a browser into a game."""
    loaded, token = services.create_game(["Rana", "Sami", "Omar", "Lina"], 0, RuleSet())
    join = f"/games/{loaded.id}/join/{token}"
    visitor = client.application.test_client()
    assert visitor.get(join).status_code == 200  # the question, nothing granted
    assert visitor.post(join).status_code == 400  # a cross-site form: no CSRF token
    assert visitor.post(join, data={"csrf_token": "forged"}).status_code == 400
    page = visitor.get(f"/games/{loaded.id}").get_data(as_text=True)
    assert 'data-testid="read-only"' in page
    csrf = _csrf(visitor, join)
    assert visitor.post(join, data={"csrf_token": csrf}).status_code == 303
    page = visitor.get(f"/games/{loaded.id}").get_data(as_text=True)
    assert 'data-testid="read-only"' not in page


def test_a_page_with_a_csrf_token_is_kept_by_no_shared_cache(client: FlaskClient) -> None:
    """The token belongs to this browser's session: a proxy must not serve it to the next
    browser, which would send it without the session cookie and be refused."""
    # First: this fixture's app context (and its ``g``, which holds the token) lasts all test.
    help_page = client.get("/help")
    assert 'name="csrf_token"' not in help_page.get_data(as_text=True)
    assert "Cache-Control" not in help_page.headers  # no token: any cache may keep it
    for path in ("/games/new", "/events/new", "/circles"):
        response = client.get(path)
        assert 'name="csrf_token"' in response.get_data(as_text=True), path
        assert response.headers["Cache-Control"] == "private, no-cache", path
