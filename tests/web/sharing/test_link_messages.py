"""A mistyped edit link and a replaced one are told apart: the token's last characters
check the rest, so a token that passes its check but is not the game's was replaced."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from tests.common import owner_token
from tests.web.pages import html, new_game

MISTYPED = "This edit link is not complete: a character is missing or was changed."
REPLACED = "This edit link is no longer valid: the game&#39;s owner has replaced it."


def test_a_mistyped_edit_link_says_so(client: FlaskClient, app: Flask) -> None:
    game_id = new_game(client)
    token = owner_token(client, game_id)
    assert token
    other = app.test_client()
    changed = token[:10] + ("A" if token[10] != "A" else "B") + token[11:]
    for bad in (token[:-1], changed, token + "x"):
        response = other.get(f"/games/{game_id}/join/{bad}")
        assert response.status_code == 403
        page = html(response)
        assert MISTYPED in page and REPLACED not in page
        assert "Back to the game" in page


def test_a_replaced_edit_link_says_it_was_replaced(client: FlaskClient, app: Flask) -> None:
    game_id = new_game(client)
    old = owner_token(client, game_id)
    assert client.post(f"/games/{game_id}/revoke").status_code in (302, 303)
    assert owner_token(client, game_id) != old
    response = app.test_client().get(f"/games/{game_id}/join/{old}")
    assert response.status_code == 403
    page = html(response)
    assert REPLACED in page and MISTYPED not in page
