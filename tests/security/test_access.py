"""Who may write: every write route refuses visitors, wrong, revoked and foreign tokens.

The write routes are found in the app's URL map (every POST/PUT/PATCH/DELETE
route of a game), so a write route added later is checked too. After every
refusal the game is exactly as before: version, log, revisions and token.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask, url_for
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper import create_app
from scorekeeper.store import games as services
from scorekeeper.store.tokens import GAME_ID_BYTES, hash_token
from tests.common import owner_token

API = "/api/v1"
CONFIG = {"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://", "SECRET_KEY": "routes"}
WRITE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}
KING_BODY = {
    "contracts": ["king"],
    "captures": {"king_of_hearts": {"taker": 2, "doubled_by": None}},
}
FORM = {"kh_taker": "2", "kh_doubled_by": "", "confirm": "yes", "kind": "misdeal"}
EDIT_PAGES = ["web.new_deal", "web.edit_deal", "web.undo"]
"""Pages that show an entry form (GET): refused to visitors as well."""


def _write_routes() -> list[tuple[str, str]]:
    """(endpoint, method) of every write route that names a game and nothing else: a
    circle's or a club night's routes need their own tokens (tests/web/circles, events)."""
    app = create_app(CONFIG)
    routes = {
        (rule.endpoint, method)
        for rule in app.url_map.iter_rules()
        if "game_id" in rule.arguments and not {"circle_id", "event_id"} & rule.arguments
        for method in (rule.methods or set()) & WRITE_METHODS
    }
    return sorted(routes)


WRITE_ROUTES = _write_routes()


def test_the_known_write_routes_are_all_found() -> None:
    known = {
        ("api_games.record_deal", "POST"),
        ("api_games.edit_deal", "PUT"),
        ("api_games.undo_last", "DELETE"),
        ("api_games.record_redeal", "POST"),
        ("web.new_deal", "POST"),
        ("web.edit_deal", "POST"),
        ("web.undo", "POST"),
        ("web.record_redeal", "POST"),
        ("web.revoke", "POST"),
    }
    assert known <= set(WRITE_ROUTES)


def _url(app: Flask, endpoint: str, game_id: str) -> str:
    rule = next(iter(app.url_map.iter_rules(endpoint)))
    values: dict[str, Any] = {"game_id": game_id, "n": 1, "token": "x", "contracts": "king"}
    with app.test_request_context():
        return url_for(
            endpoint, **{k: v for k, v in values.items() if k in rule.arguments or k == "contracts"}
        )


def _send(
    client: FlaskClient, method: str, url: str, version: int, headers: dict[str, str]
) -> TestResponse:
    if url.startswith(API):
        headers = {"If-Match": f'"{version}"', **headers}
        return client.open(url, method=method, json=KING_BODY, headers=headers)
    return client.open(url, method=method, data={"version": str(version), **FORM})


def _refused(
    app: Flask,
    client: FlaskClient,
    endpoint: str,
    method: str,
    game_id: str,
    headers: dict[str, str],
    snapshot: Callable[[str], Any],
) -> int:
    before = snapshot(game_id)
    url = _url(app, endpoint, game_id)
    response = _send(client, method, url, before.version, headers)
    assert snapshot(game_id) == before, (method, url, response.status_code)
    if url.startswith(API):
        assert response.is_json and response.get_json()["ok"] is False
    else:
        assert response.mimetype == "text/html"
    return response.status_code


@pytest.mark.parametrize(("endpoint", "method"), WRITE_ROUTES)
def test_no_token_is_refused(
    app: Flask,
    start: Callable[..., Any],
    phone: Callable[..., FlaskClient],
    snapshot: Any,
    endpoint: str,
    method: str,
) -> None:
    game = start()
    status = _refused(app, phone(), endpoint, method, game.id, {}, snapshot)
    assert status == (401 if endpoint.startswith("api") else 403)


@pytest.mark.parametrize(("endpoint", "method"), WRITE_ROUTES)
@pytest.mark.parametrize("which", ["wrong", "revoked", "other game's"])
def test_bad_token_is_refused(
    app: Flask,
    start: Callable[..., Any],
    phone: Callable[..., FlaskClient],
    snapshot: Any,
    endpoint: str,
    method: str,
    which: str,
) -> None:
    game, other = start(), start()
    token = {"wrong": game.token[:-2] + "xx", "other game's": other.token, "revoked": game.token}
    if which == "revoked":
        services.replace_edit_token(game.id)
    bad = token[which]
    if endpoint.startswith("api"):
        client, headers = phone(), {"Authorization": f"Bearer {bad}"}
    else:
        client, headers = phone(game, bad, owner=True), {}
    assert _refused(app, client, endpoint, method, game.id, headers, snapshot) == 403


@pytest.mark.parametrize("endpoint", EDIT_PAGES)
def test_entry_forms_are_refused_to_visitors(
    app: Flask, start: Callable[..., Any], phone: Callable[..., FlaskClient], endpoint: str
) -> None:
    game = start()
    response = phone().get(_url(app, endpoint, game.id))
    assert response.status_code == 403
    assert "this phone cannot change them" in response.get_data(as_text=True)


def test_the_right_token_is_accepted_on_every_kind_of_write(
    start: Callable[..., Any], phone: Callable[..., FlaskClient]
) -> None:
    game = start()
    client = phone()
    auth = {"Authorization": f"Bearer {game.token}"}
    response = client.post(f"{API}/games/{game.id}/redeals", json={"kind": "misdeal"}, headers=auth)
    assert response.status_code == 201
    page = phone(game, game.token).post(
        f"/games/{game.id}/redeals",
        data={"version": str(services.load_game(game.id).version), "kind": "misdeal"},
    )
    assert page.status_code == 302


# --- ids and tokens --------------------------------------------------------------------------


def test_ids_and_tokens_are_long_random_and_tokens_stored_hashed(
    start: Callable[..., Any], snapshot: Any
) -> None:
    games = [start(deals=0) for _ in range(20)]
    assert GAME_ID_BYTES * 8 >= 64
    assert all(len(g.id) >= 16 and len(g.token) >= 43 for g in games)  # 96 and 256 bits
    assert len({g.id for g in games}) == len({g.token for g in games}) == 20
    for game in games:
        stored = snapshot(game.id).token_hash
        assert stored == hash_token(game.token) and game.token not in stored


# --- the edit link ---------------------------------------------------------------------------


def _owner(client: FlaskClient) -> tuple[str, str]:
    """Start a game through the form: (game id, edit token held by this browser)."""
    data = {f"players-{i}": name for i, name in enumerate(["Rana", "Sami", "Omar", "Lina"])}
    response = client.post("/games/new", data={**data, "first_king": "0", "preset": "standard"})
    assert response.status_code == 302
    game_id = response.headers["Location"].rsplit("/", 1)[-1]
    token = owner_token(client, game_id)
    assert token is not None
    return game_id, token


def _king(client: FlaskClient, game_id: str) -> TestResponse:
    version = services.load_game(game_id).version
    return client.post(
        f"/games/{game_id}/deals/new?contracts=king",
        data={"version": str(version), "kh_taker": "1", "kh_doubled_by": ""},
    )


def _page(client: FlaskClient, game_id: str) -> str:
    response = client.get(f"/games/{game_id}")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_game_page_shows_edit_and_view_links_to_editors_view_link_to_visitors(
    app: Flask, client: FlaskClient, phone: Callable[..., FlaskClient]
) -> None:
    game_id, token = _owner(client)
    page = _page(client, game_id)
    edit = f"http://localhost/games/{game_id}/join/{token}"
    view = f"http://localhost/games/{game_id}"
    view_qr, edit_qr = _qr_sources(page)
    assert edit in page and view in page and edit_qr and view_qr
    assert 'data-testid="revoke-form"' in page and 'data-copy="edit-url"' in page
    visitor = _page(phone(), game_id)
    assert view in visitor and _qr_sources(visitor) == (view_qr, None)
    assert token not in visitor and "/join/" not in visitor and "revoke" not in visitor


def _qr_sources(page: str) -> tuple[str | None, str | None]:
    """The addresses of the view and edit QR images on a game page."""
    found = {
        which: re.search(rf'data-testid="{which}-qr"><img class="qr" src="([^"]+)"', page)
        for which in ("view", "edit")
    }
    return tuple(m.group(1).replace("&amp;", "&") if m else None for m in found.values())  # type: ignore[return-value]


def test_qr_images_encode_the_links_and_only_editors_get_the_edit_one(
    app: Flask, client: FlaskClient, phone: Callable[..., FlaskClient]
) -> None:
    from scorekeeper.web.paper.qr import qr_svg

    game_id, token = _owner(client)
    view_qr, edit_qr = _qr_sources(_page(client, game_id))
    assert view_qr and edit_qr
    with app.test_request_context():
        want_view = qr_svg(f"http://localhost/games/{game_id}")
        want_edit = qr_svg(f"http://localhost/games/{game_id}/join/{token}")
    view, edit = client.get(view_qr), client.get(edit_qr)
    assert (view.status_code, view.mimetype, view.data) == (200, "image/svg+xml", want_view)
    assert (edit.status_code, edit.mimetype, edit.data) == (200, "image/svg+xml", want_edit)
    assert (
        want_view.startswith(b'<svg xmlns="http://www.w3.org/2000/svg"')
        and b"<script" not in want_edit
    )
    assert "immutable" in view.headers["Cache-Control"]
    assert edit.headers["Cache-Control"] == "no-store"  # the edit link's image is the token
    other = phone()
    assert other.get(view_qr).status_code == 200
    assert other.get(edit_qr).status_code == 403  # the edit link's QR code is the edit link
    assert client.get("/games/nosuchgame00000/qr/view.svg").status_code == 404
    assert client.get(f"/games/{game_id}/qr/other.svg").status_code == 404


def test_replacing_the_edit_link_changes_the_edit_qr_address(client: FlaskClient) -> None:
    game_id, _token = _owner(client)
    _view, before = _qr_sources(_page(client, game_id))
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page)
    data = {"csrf_token": csrf.group(1)} if csrf else {}
    assert client.post(f"/games/{game_id}/revoke", data=data).status_code == 302
    _view, after = _qr_sources(_page(client, game_id))
    assert before and after and before != after  # a phone cannot keep showing the old code


def test_edit_link_asks_first_then_grants_edit_rights_and_leaves_the_address_bar(
    client: FlaskClient, phone: Callable[..., FlaskClient]
) -> None:
    game_id, token = _owner(client)
    other = phone()
    assert _king(other, game_id).status_code == 403
    # opening the link (a cross-site link, an image) asks, and grants nothing
    response = other.get(f"/games/{game_id}/join/{token}")
    assert response.status_code == 200
    assert "Join this game to keep its score?" in response.get_data(as_text=True)
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert _king(other, game_id).status_code == 403
    response = other.post(f"/games/{game_id}/join/{token}")
    assert response.status_code == 303
    assert response.headers["Location"] == f"/games/{game_id}"
    assert token not in response.headers["Location"]
    assert response.headers["Cache-Control"] == "no-store"
    page = _page(other, game_id)
    assert "This phone can now enter deals" in page and 'data-testid="contract-king"' in page
    assert token not in page  # only the owner's phone shows the edit link
    assert 'data-testid="revoke-form"' not in page  # and only the owner revokes
    assert _king(other, game_id).status_code == 302
    assert services.load_game(game_id).game.deals_played == 1


def test_wrong_edit_links_grant_nothing(
    client: FlaskClient, phone: Callable[..., FlaskClient]
) -> None:
    game_id, token = _owner(client)
    other = phone()
    for bad in (token[:-1], token + "x", "x", token.upper()):
        for response in (
            other.get(f"/games/{game_id}/join/{bad}"),
            other.post(f"/games/{game_id}/join/{bad}"),
        ):
            assert response.status_code == 403
            assert "This edit link is not complete" in response.get_data(as_text=True)
    assert other.get(f"/games/nosuchgame000000/join/{token}").status_code == 404
    assert _king(other, game_id).status_code == 403


def test_revoke_ends_other_phones_rights_at_once_and_the_old_bearer_token(
    client: FlaskClient, phone: Callable[..., FlaskClient]
) -> None:
    game_id, token = _owner(client)
    other = phone()
    other.post(f"/games/{game_id}/join/{token}")
    assert _king(other, game_id).status_code == 302
    version = services.load_game(game_id).version
    response = client.post(f"/games/{game_id}/revoke")
    assert response.status_code == 302 and response.headers["Location"].endswith("#share")
    assert services.load_game(game_id).version == version  # the game itself is unchanged
    new = owner_token(client, game_id)
    assert new is not None and new != token and services.token_matches(game_id, new)
    page = _page(client, game_id)
    assert "The old edit link no longer works" in page and new in page and token not in page
    # the other phone: read-only at its very next request, its edit link gone
    other_page = _page(other, game_id)
    assert 'data-testid="read-only"' in other_page and "/join/" not in other_page
    response = _king(other, game_id)
    assert response.status_code == 403
    assert services.load_game(game_id).version == version
    # the API: the old token is refused, the new one works
    api = phone()
    url = f"{API}/games/{game_id}/redeals"
    old = api.post(url, json={"kind": "misdeal"}, headers={"Authorization": f"Bearer {token}"})
    assert old.status_code == 403
    assert (
        api.post(
            url, json={"kind": "misdeal"}, headers={"Authorization": f"Bearer {new}"}
        ).status_code
        == 201
    )
    # the old edit link no longer grants anything; the owner still edits
    assert phone().post(f"/games/{game_id}/join/{token}").status_code == 403
    assert _king(client, game_id).status_code in (302, 409)


def test_only_the_owner_may_revoke(
    client: FlaskClient, phone: Callable[..., FlaskClient], snapshot: Any
) -> None:
    game_id, token = _owner(client)
    joined = phone()
    joined.post(f"/games/{game_id}/join/{token}")
    before = snapshot(game_id)
    for other in (joined, phone()):
        response = other.post(f"/games/{game_id}/revoke")
        assert response.status_code == 403
    assert snapshot(game_id) == before
    assert client.post("/games/nosuchgame000000/revoke").status_code == 404


# --- no leaks between games ------------------------------------------------------------------


def test_no_route_shows_another_games_data(
    start: Callable[..., Any], phone: Callable[..., FlaskClient]
) -> None:
    small, big = start(deals=0), start()
    client = phone()
    assert client.get(f"/games/{small.id}/deals/1").status_code == 404
    assert client.get(f"{API}/games/{small.id}/deals/1").status_code == 404
    assert client.get(f"/games/{big.id}/deals/1").status_code == 200
    # the home page lists only the games this browser knows
    assert small.id not in client.get("/").get_data(as_text=True)
    client.get(f"/games/{big.id}")
    home = client.get("/").get_data(as_text=True)
    assert big.id in home and small.id not in home
