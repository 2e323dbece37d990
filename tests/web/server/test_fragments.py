"""Pieces of pages kept between requests (scorekeeper/web/server/fragments.py) never
show stale text.

The game page keeps its deal rows, kingdoms, house rules, share links and
redeal form rendered. These tests change each thing a kept piece shows (a
deal's captures, the language, the digits, the contracts left, the edit
link) and check that the page shows the change, so that a key missing a
part would fail here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.store import games as services
from scorekeeper.web.server.fragments import FragmentCache, fragment_cache
from tests.web.pages import NAMES, new_game

KING = {"kh_taker": "1", "kh_doubled_by": ""}


def post(client: FlaskClient, url: str, data: dict[str, Any], game_id: str) -> None:
    body = {"version": str(services.load_game(game_id).version), **data}
    response = client.post(url, data=body)
    assert response.status_code == 302, response.get_data(as_text=True)[:1500]


def row(page: str, n: int) -> str:
    """Deal ``n``'s row on the scoreboard, tags removed."""
    match = re.search(rf'<tr id="deal-{n}".*?</tr>', page, re.S)
    assert match, f"no row for deal {n}"
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", match.group(0))).strip()


def page_of(client: FlaskClient, game_id: str, query: str = "") -> str:
    response = client.get(f"/games/{game_id}{query}")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_an_edited_deal_shows_its_new_scores_in_its_row_and_kingdom(client: FlaskClient) -> None:
    game_id = new_game(client)
    post(client, f"/games/{game_id}/deals/new?contracts=king", KING, game_id)
    assert row(page_of(client, game_id), 1) == "1 K♥ King of Hearts 0 −75 0 0"
    post(client, f"/games/{game_id}/deals/1/edit", {"kh_taker": "2", "kh_doubled_by": ""}, game_id)
    page = page_of(client, game_id)
    assert row(page, 1) == "1 K♥ King of Hearts 0 0 −75 0"
    subtotal = re.search(r'data-testid="kingdom-1-total">(.*?)</tr>', page, re.S)
    assert subtotal and re.sub(r"<[^>]+>|\s+", "", subtotal.group(1)).endswith("00−750")


def test_rows_follow_the_language_and_the_digits_of_each_request(client: FlaskClient) -> None:
    game_id = new_game(client)
    post(client, f"/games/{game_id}/deals/new?contracts=king", KING, game_id)
    english = row(page_of(client, game_id, "?lang=en"), 1)
    arabic = row(page_of(client, game_id, "?lang=ar&digits=arab"), 1)
    again = row(page_of(client, game_id, "?lang=en&digits=latn"), 1)
    assert english == again == "1 K♥ King of Hearts 0 −75 0 0"
    assert "King of Hearts" not in arabic and "٧٥" in arabic and "75" not in arabic


def test_the_contract_buttons_and_the_redeal_form_offer_only_what_is_left(
    client: FlaskClient,
) -> None:
    game_id = new_game(client)
    before = page_of(client, game_id)
    assert 'data-testid="contract-king"' in before and '<option value="king">' in before
    post(client, f"/games/{game_id}/deals/new?contracts=king", KING, game_id)
    after = page_of(client, game_id)
    assert 'data-testid="contract-king"' not in after and '<option value="king">' not in after
    assert 'data-testid="contract-queens"' in after and '<option value="queens">' in after


def test_a_redeal_row_shows_its_own_note(client: FlaskClient) -> None:
    game_id = new_game(client)
    for note in ("first shuffle", "second shuffle"):
        post(client, f"/games/{game_id}/redeals", {"kind": "redeal", "note": note}, game_id)
    page = page_of(client, game_id)
    assert "<q>first shuffle</q>" in page and "<q>second shuffle</q>" in page


def test_each_browser_gets_its_own_csrf_token_and_the_current_version(
    make_app: Callable[..., Flask], tmp_path: Path
) -> None:
    """What differs per browser or per version stays outside the kept pieces.

    Requests run outside a test app context, as in production: each has its own
    ``g`` (Flask-WTF keeps a request's token there).
    """
    app = make_app(
        WTF_CSRF_ENABLED=True, SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'games.sqlite'}"
    )
    with app.app_context():
        db.create_all()
    first, second, visitor = app.test_client(), app.test_client(), app.test_client()
    game_id = new_game_with_csrf(first)
    mine = page_of(first, game_id)
    data = {**KING, "version": "1", "csrf_token": csrf_tokens(mine).pop()}
    assert first.post(f"/games/{game_id}/deals/new?contracts=king", data=data).status_code == 302
    mine = page_of(first, game_id)  # now with the undo form too
    join = re.search(r"/games/[^/]+/join/[^<\s\"]+", mine)
    assert join
    asked = second.get(join.group(0))
    assert asked.status_code == 200
    confirm = {"csrf_token": csrf_tokens(asked.get_data(as_text=True)).pop()}
    assert second.post(join.group(0), data=confirm).status_code == 303
    theirs = page_of(second, game_id)
    mine_tokens, their_tokens = csrf_tokens(mine), csrf_tokens(theirs)
    assert len(mine_tokens) == len(their_tokens) == 1 and mine_tokens != their_tokens
    assert versions(mine) == versions(theirs) == {"2"}
    watching = page_of(visitor, game_id)
    assert 'data-testid="undo-form"' not in watching and "/join/" not in watching
    data = {"kh_taker": "2", "version": "2", "csrf_token": their_tokens.pop()}
    response = second.post(f"/games/{game_id}/deals/1/edit", data=data)
    assert response.status_code == 302
    assert versions(page_of(first, game_id)) == {"3"}
    with app.app_context():
        db.engine.dispose()


def new_game_with_csrf(client: FlaskClient) -> str:
    page = client.get("/games/new").get_data(as_text=True)
    (token,) = csrf_tokens(page)
    data = {f"players-{i}": name for i, name in enumerate(NAMES)}
    data.update({"first_king": "0", "preset": "standard", "csrf_token": token})
    response = client.post("/games/new", data=data)
    assert response.status_code == 302
    return response.headers["Location"].rsplit("/", 1)[-1]


def versions(page: str) -> set[str]:
    """The versions the page's forms will send (undo, redeal)."""
    return set(re.findall(r'name="version" value="([^"]*)"', page))


def csrf_tokens(page: str) -> set[str]:
    return set(re.findall(r'name="csrf_token" type="hidden" value="([^"]+)"', page))


def test_rule_texts_follow_each_request_s_language(client: FlaskClient) -> None:
    """The dispute desk's rule switches used to keep the first request's language."""
    labels = r'<label for="switch-[a-z_]+">([^<]*)</label>'
    arabic = re.findall(labels, client.get("/disputes/claim?lang=ar").get_data(as_text=True))
    english = re.findall(labels, client.get("/disputes/claim?lang=en").get_data(as_text=True))
    assert "Penalty discard (R9.4)" in english and "Penalty discard (R9.4)" not in arabic
    assert set(arabic).isdisjoint(english)


def test_the_site_header_is_kept_per_address(client: FlaskClient) -> None:
    one = client.get("/help").get_data(as_text=True)
    two = client.get("/games/new").get_data(as_text=True)
    assert "next=/help" in one and "next=/games/new" in two and "next=/help" not in two


# --- the cache itself ------------------------------------------------------------------------


def test_the_cache_drops_the_least_recently_used_piece() -> None:
    cache = FragmentCache(size=2)
    renders: list[str] = []

    def render(text: str) -> Any:
        return lambda: renders.append(text) or text

    assert cache.get_or_render("a", render("A")) == "A"
    cache.get_or_render("b", render("B"))
    cache.get_or_render("a", render("A"))  # a hit: "a" is now the most recent
    cache.get_or_render("c", render("C"))  # "b" goes
    cache.get_or_render("a", render("A"))
    cache.get_or_render("b", render("B"))
    assert renders == ["A", "B", "C", "B"]
    assert (cache.hits, cache.misses) == (2, 4)


@pytest.mark.parametrize("length", [10, 301])
def test_keys_with_long_texts_are_rendered_but_not_kept(app: Flask, length: int) -> None:
    from scorekeeper.web.server.fragments import cached

    with app.test_request_context("/"):
        cache = fragment_cache()
        cache.clear()
        cached("x" * length, caller=lambda: "<p>one</p>")
        cached("x" * length, caller=lambda: "<p>one</p>")
        kept = length <= 300
        assert (cache.hits, cache.misses) == ((1, 1) if kept else (0, 0))


def test_made_up_addresses_cannot_evict_the_kept_pieces(app: Flask, client: FlaskClient) -> None:
    """Pieces are kept only for real pages: a query string, an unknown address or a game id
    that does not exist is rendered afresh and kept nowhere."""
    cache = fragment_cache(app)
    client.get("/help")
    kept = len(cache)
    for n in range(30):
        assert client.get(f"/help?x={n}").status_code == 200
        assert client.get(f"/no-such-page-{n}").status_code == 404
        assert client.get(f"/games/made-up-{n}").status_code == 404
    assert len(cache) == kept
    page = client.get("/help?x=1").get_data(as_text=True)
    assert "next=/help?x%3D1" in page or "next=/help%3Fx%3D1" in page  # still this page's links


def test_a_made_up_theme_cookie_cannot_add_pieces(app: Flask, client: FlaskClient) -> None:
    """The theme is one of three whatever the cookie says, so cookies cannot grow the cache."""
    cache = fragment_cache(app)
    client.get("/help")
    kept = len(cache)
    for n in range(20):
        client.set_cookie("theme", f"made-up-{n}")
        assert client.get("/help").status_code == 200
    assert len(cache) == kept
