"""Edit rights in the session: no token in readable form, created games never pushed out,
the owner sees the edit link again, and editors' pages are never cached.

Flask's session cookie is signed, not encrypted: anyone who sees it (a shared
computer, a proxy's log, a browser extension) can read it. It holds a reference
to a joined game's token and the owner's token sealed, never the token itself.
"""

from __future__ import annotations

import base64
import json
import re
import zlib
from collections.abc import Callable
from typing import Any

from flask.testing import FlaskClient

from scorekeeper.store import games as services
from scorekeeper.web import access
from tests.common import owner_token

PLAYERS = {f"players-{i}": n for i, n in enumerate(["Rana", "Sami", "Omar", "Lina"])}


def cookie_text(client: FlaskClient) -> str:
    """The session cookie's payload, as anyone who sees the cookie can read it."""
    cookie = client.get_cookie("session")
    assert cookie is not None
    payload = cookie.value.split(".")[1 if cookie.value.startswith(".") else 0]
    raw = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    return (zlib.decompress(raw) if cookie.value.startswith(".") else raw).decode()


def new_game(client: FlaskClient) -> tuple[str, str]:
    response = client.post("/games/new", data={**PLAYERS, "first_king": "0", "preset": "standard"})
    assert response.status_code == 302
    game_id = response.headers["Location"].rsplit("/", 1)[-1]
    token = owner_token(client, game_id)
    assert token is not None
    return game_id, token


def test_the_cookie_holds_no_token(
    client: FlaskClient, start: Callable[..., Any], phone: Callable[..., FlaskClient]
) -> None:
    game_id, token = new_game(client)
    other = start()
    assert client.post(f"/games/{other.id}/join/{other.token}").status_code == 303
    text = cookie_text(client)
    assert game_id in text and other.id in text
    assert token not in text and other.token not in text
    assert json.loads(text)["edit_refs"][0][1] == access.token_ref(other.token)
    assert client.get(f"/games/{other.id}").get_data(as_text=True).count("read-only") == 0


def test_joined_games_never_push_out_created_ones(
    client: FlaskClient, start: Callable[..., Any]
) -> None:
    game_id, token = new_game(client)
    for _ in range(access.REMEMBERED + 5):
        game = start(deals=0)
        assert client.post(f"/games/{game.id}/join/{game.token}").status_code == 303
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert f"/games/{game_id}/join/{token}" in page  # the owner sees the edit link again
    assert 'data-testid="revoke-form"' in page
    assert client.post(f"/games/{game_id}/revoke").status_code == 302


def test_editors_pages_are_not_stored(client: FlaskClient, phone: Any, start: Any) -> None:
    game_id, _token = new_game(client)
    for path in (
        f"/games/{game_id}",
        f"/games/{game_id}/deals/new?contracts=king",
        f"/games/{game_id}/undo",
    ):
        response = client.get(path)
        assert response.status_code == 200, path
        assert response.headers["Cache-Control"] == "no-store", path
    assert "no-store" not in phone().get(f"/games/{game_id}").headers.get("Cache-Control", "")


def test_an_old_cookie_with_tokens_in_clear_keeps_its_rights_and_loses_the_tokens(
    client: FlaskClient, start: Callable[..., Any]
) -> None:
    mine, joined = start(), start()
    with client.session_transaction() as session:
        session["edit_games"] = [mine.id, joined.id]
        session["edit_tokens"] = {mine.id: mine.token, joined.id: joined.token}
        session["own_games"] = [mine.id]
    page = client.get(f"/games/{mine.id}").get_data(as_text=True)
    assert 'data-testid="revoke-form"' in page and mine.token in page
    assert 'data-testid="read-only"' not in client.get(f"/games/{joined.id}").get_data(as_text=True)
    text = cookie_text(client)
    assert mine.token not in text and joined.token not in text
    assert services.token_matches(mine.id, owner_token(client, mine.id) or "")


def test_a_sealed_token_opens_only_with_the_apps_secret(client: FlaskClient) -> None:
    app = client.application
    with app.test_request_context():
        sealed = access.seal("secret-token")
        assert access.unseal(sealed) == "secret-token"
        assert re.fullmatch(r"[A-Za-z0-9_=-]+", sealed) and "secret" not in sealed
        assert access.seal("secret-token") != sealed  # a fresh nonce each time
    app.secret_key = "another-secret"
    with app.test_request_context():
        assert access.unseal(sealed) != "secret-token"
