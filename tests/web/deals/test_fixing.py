"""Fixing mistakes on the pages: undo, edit, revisions, redeals, stale versions, read-only."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.store import games as services
from tests.web.pages import html, new_game, post_deal, version

TRIX = {"trix-0": "2", "trix-1": "0", "trix-2": "3", "trix-3": "1"}
KING = {"kh_taker": "1", "kh_doubled_by": ""}


# --- undo ------------------------------------------------------------------------------------


def test_undo_asks_for_confirmation_then_removes_the_last_entry(client: FlaskClient) -> None:
    game_id = new_game(client)
    post_deal(client, game_id, "trix", TRIX)
    post_deal(client, game_id, "king", KING)
    page = html(client.get(f"/games/{game_id}"))
    assert "Yes, undo the last entry (deal 2: King of Hearts)." in page
    unconfirmed = client.post(f"/games/{game_id}/undo", data={"version": str(version(game_id))})
    assert unconfirmed.status_code == 200 and "Yes, undo it" in html(unconfirmed)
    assert len(services.load_game(game_id).log) == 2
    body = {"version": str(version(game_id)), "confirm": "yes"}
    response = client.post(f"/games/{game_id}/undo", data=body)
    assert response.status_code == 302
    assert [d.n for d in services.load_game(game_id).game.deals] == [1]
    assert "Undone: deal 2: King of Hearts." in html(client.get(f"/games/{game_id}"))


def test_undo_with_a_stale_version_changes_nothing(client: FlaskClient) -> None:
    game_id = new_game(client)
    old = version(game_id)
    post_deal(client, game_id, "trix", TRIX)
    response = client.post(f"/games/{game_id}/undo", data={"version": str(old), "confirm": "yes"})
    assert response.status_code == 409
    page = html(response)
    assert 'data-testid="stale-message"' in page and "Nothing was undone." in page
    assert f'name="version" value="{version(game_id)}"' in page
    assert len(services.load_game(game_id).log) == 1


def test_nothing_to_undo(client: FlaskClient) -> None:
    game_id = new_game(client)
    body = {"version": str(version(game_id)), "confirm": "yes"}
    response = client.post(f"/games/{game_id}/undo", data=body)
    assert response.status_code == 409
    assert "There is nothing to undo" in html(response)


# --- edit and revisions ----------------------------------------------------------------------


def test_edit_form_is_prefilled_and_saves_a_correction(client: FlaskClient) -> None:
    game_id = new_game(client)
    post_deal(client, game_id, "king", {"kh_taker": "2", "kh_doubled_by": "1"})
    form = html(client.get(f"/games/{game_id}/deals/1/edit"))
    assert re.search(r'id="kh_taker-2"\s*checked', form)
    assert re.search(r'id="kh_doubled_by-1"\s*checked', form)
    assert re.search(r'id="kh_doubled"[^>]*checked', form)  # the doubled toggle is on
    body = {"version": str(version(game_id)), "kh_taker": "3", "kh_doubled_by": ""}
    response = client.post(f"/games/{game_id}/deals/1/edit?contracts=king", data=body)
    assert response.status_code == 302
    assert list(services.load_game(game_id).game.deals[0].scores) == [0, 0, 0, -75]
    detail = html(client.get(f"/games/{game_id}/deals/1"))
    assert "Recorded" in detail and "Corrected" in detail
    assert "Taken by Omar, doubled by Sami." in detail  # before
    assert "Taken by Lina, not doubled." in detail  # after
    assert 'data-testid="edit-deal"' in detail


def test_an_edit_that_breaks_a_later_deal_is_refused_with_its_reason(client: FlaskClient) -> None:
    game_id = new_game(client)
    post_deal(client, game_id, "king", KING)
    post_deal(client, game_id, "trix", TRIX)
    before = version(game_id)
    body = {"version": str(before), **TRIX}
    response = client.post(f"/games/{game_id}/deals/1/edit?contracts=trix", data=body)
    assert response.status_code == 409
    page = html(response)
    assert "Changing deal 1 this way would break deal 2" in page
    assert 'name="trix-0"' in page and "Nothing was saved" in page
    assert version(game_id) == before


def test_edit_with_a_bad_count_keeps_the_input(client: FlaskClient) -> None:
    game_id = new_game(client)
    counts = {f"tricks-{i}": n for i, n in enumerate(["1", "2", "4", "6"])}
    post_deal(client, game_id, "collections", counts)
    body = {"version": str(version(game_id)), **counts, "tricks-3": "7"}
    response = client.post(f"/games/{game_id}/deals/1/edit", data=body)
    assert response.status_code == 422
    assert "Tricks must add up to 13; these add up to 14" in html(response)
    assert 'name="tricks-3" value="7"' in html(response)


# --- redeals ---------------------------------------------------------------------------------


def test_redeal_is_listed_in_its_kingdom_and_uses_no_contract(client: FlaskClient) -> None:
    game_id = new_game(client)
    post_deal(client, game_id, "trix", TRIX)
    body = {
        "version": str(version(game_id)),
        "kind": "redeal",
        "seat": "2",
        "contract": "king",
        "note": "only the A♥",
    }
    assert client.post(f"/games/{game_id}/redeals", data=body).status_code == 302
    body = {
        "version": str(version(game_id)),
        "kind": "misdeal",
        "seat": "",
        "contract": "",
        "note": "",
    }
    assert client.post(f"/games/{game_id}/redeals", data=body).status_code == 302
    page = html(client.get(f"/games/{game_id}"))
    assert "Redeal asked by Omar." in page and "only the A♥" in page
    assert "Misdeal." in page
    assert 'data-testid="contract-king"' in page  # still available (R2)
    assert services.load_game(game_id).game.deals_played == 1


def test_redeal_of_a_contract_that_allows_none_is_refused(client: FlaskClient) -> None:
    game_id = new_game(client)
    body = {"version": str(version(game_id)), "kind": "redeal", "seat": "1", "contract": "diamonds"}
    response = client.post(f"/games/{game_id}/redeals", data=body)
    assert response.status_code == 422
    assert "A redeal can only be claimed in King of Hearts or Trix" in html(response)
    assert not services.load_game(game_id).log


# --- two phones at once ----------------------------------------------------------------------


def test_stale_deal_shows_what_changed_the_fresh_state_and_keeps_the_input(
    client: FlaskClient,
) -> None:
    game_id = new_game(client)
    old = version(game_id)
    post_deal(client, game_id, "trix", TRIX)  # "another phone"
    body = {
        "version": str(old),
        "diamonds-0": "4",
        "diamonds-1": "3",
        "diamonds-2": "3",
        "diamonds-3": "3",
    }
    response = client.post(f"/games/{game_id}/deals/new?contracts=diamonds", data=body)
    assert response.status_code == 409
    page = html(response)
    assert "Deal 1 was recorded meanwhile: \u2068Rana\u2069&#39;s Trix." in page
    assert 'data-testid="totals"' in page and ">150<" in page  # the fresh totals
    assert 'name="diamonds-0" value="4"' in page
    assert f'name="version" value="{version(game_id)}"' in page
    assert len(services.load_game(game_id).log) == 1
    body["version"] = str(version(game_id))
    saved = client.post(f"/games/{game_id}/deals/new?contracts=diamonds", data=body)
    assert saved.status_code == 302


# --- read-only visitors ----------------------------------------------------------------------


def test_visitors_see_everything_but_cannot_change_anything(
    app: Flask, client: FlaskClient
) -> None:
    game_id = new_game(client)
    post_deal(client, game_id, "trix", TRIX)
    visitor = app.test_client()
    page = html(visitor.get(f"/games/{game_id}"))
    assert 'data-testid="sheet"' in page and 'data-testid="read-only"' in page
    for control in ("contract-", "undo-form", "redeal-form", "combine-form"):
        assert f'data-testid="{control}' not in page
    assert 'data-testid="edit-deal"' not in html(visitor.get(f"/games/{game_id}/deals/1"))
    v = str(version(game_id))
    writes = [
        (f"/games/{game_id}/deals/new?contracts=king", {"version": v, **KING}),
        (f"/games/{game_id}/deals/1/edit", {"version": v, **TRIX}),
        (f"/games/{game_id}/undo", {"version": v, "confirm": "yes"}),
        (f"/games/{game_id}/redeals", {"version": v, "kind": "misdeal"}),
    ]
    for path, body in writes:
        response = visitor.post(path, data=body)
        assert response.status_code == 403, path
        assert "this phone cannot change them" in html(response)
    assert visitor.get(f"/games/{game_id}/deals/new?contracts=king").status_code == 403
    assert len(services.load_game(game_id).log) == 1
