"""The latest entry's Edit and Undo, above the score sheet: one tap each, then a
confirmation (the undo's own page, the edit's form), all without JavaScript."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.store import games as services
from tests.web.pages import html, new_game, post_deal, version

KING = {"kh_taker": "1", "kh_doubled_by": ""}


def test_the_latest_deal_has_edit_and_undo_above_the_sheet(client: FlaskClient) -> None:
    game_id = new_game(client)
    post_deal(client, game_id, "king", KING)
    page = html(client.get(f"/games/{game_id}"))
    latest = page.index('data-testid="latest"')
    assert latest < page.index('data-testid="sheet"')
    assert "Last entry: deal 1, King of Hearts." in page
    assert f'href="/games/{game_id}/deals/1/edit" data-testid="latest-edit"' in page
    assert f'href="/games/{game_id}/undo" data-testid="latest-undo"' in page


def test_undo_from_the_latest_entry_asks_then_undoes_without_javascript(
    client: FlaskClient,
) -> None:
    game_id = new_game(client)
    post_deal(client, game_id, "king", KING)
    ask = html(client.get(f"/games/{game_id}/undo"))
    assert "The last entry is deal 1: King of Hearts." in ask
    done = client.post(
        f"/games/{game_id}/undo", data={"version": str(version(game_id)), "confirm": "yes"}
    )
    assert done.status_code == 302
    page = html(client.get(f"/games/{game_id}"))
    assert "Undone: deal 1: King of Hearts." in page
    assert 'data-testid="latest"' not in page  # nothing left to undo


def test_after_a_redeal_the_latest_entry_is_the_redeal_with_no_edit(
    client: FlaskClient,
) -> None:
    game_id = new_game(client)
    post_deal(client, game_id, "king", KING)
    client.post(
        f"/games/{game_id}/redeals", data={"version": str(version(game_id)), "kind": "redeal"}
    )
    page = html(client.get(f"/games/{game_id}"))
    assert "Last entry: a redeal." in page
    assert 'data-testid="latest-edit"' not in page
    assert 'data-testid="latest-undo"' in page


def test_a_follower_sees_no_edit_or_undo(client: FlaskClient, app: Flask) -> None:
    game_id = new_game(client)
    post_deal(client, game_id, "king", KING)
    follower = app.test_client()
    page = html(follower.get(f"/games/{game_id}"))
    assert 'data-testid="latest"' not in page


def test_r8_a_redeal_from_the_page_keeps_the_phones_time_played(client: FlaskClient) -> None:
    game_id = new_game(client)
    played = services.load_game(game_id).created_at.astimezone().replace(microsecond=0)
    body = {
        "version": str(version(game_id)),
        "kind": "redeal",
        "seat": "1",
        "note": "",
        "played_at": played.isoformat(),
    }
    assert client.post(f"/games/{game_id}/redeals", data=body).status_code == 302
    (row,) = services.load_game(game_id).log
    assert row.played_at == played


def test_r8_a_redeal_with_a_clock_far_ahead_is_refused_and_not_saved(client: FlaskClient) -> None:
    game_id = new_game(client)
    body = {
        "version": str(version(game_id)),
        "kind": "misdeal",
        "seat": "",
        "note": "",
        "played_at": "2099-01-01T12:00:00+03:00",
    }
    response = client.post(f"/games/{game_id}/redeals", data=body)
    assert response.status_code == 422
    assert "check the phone&#39;s clock" in html(response)
    assert not services.load_game(game_id).log
