"""The deal forms as a browser without JavaScript posts them: the card grid's "doubled"
toggles (R3, R4), and counts that do not add up to 13 refused by the server (R5, R6)."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.datastructures import MultiDict
from wtforms import Form

from scorekeeper.store import games as services
from scorekeeper.web.deals.fields import CountField
from tests.web.pages import html, new_game, post_deal

QUEENS = {"qs_taker": "0", "qh_taker": "1", "qd_taker": "2", "qc_taker": "3", "toggles": "1"}


def test_queens_are_one_grid_with_a_doubled_toggle_per_queen(client: FlaskClient) -> None:
    game_id = new_game(client)
    page = html(client.get(f"/games/{game_id}/deals/new?contracts=queens"))
    assert page.count('data-testid="cards-grid"') == 1
    for key in ("qs", "qh", "qd", "qc"):
        assert page.count(f'name="{key}_taker"') == 4
        assert page.count(f'name="{key}_doubled"') == 1
        assert page.count(f'name="{key}_doubled_by"') == 4  # its holder, asked when doubled
    assert 'name="toggles" value="1"' in page


def test_r4_a_queen_doubled_by_its_holder_through_the_toggle(client: FlaskClient) -> None:
    game_id = new_game(client)
    data = {**QUEENS, "qh_doubled": "1", "qh_doubled_by": "3"}
    assert post_deal(client, game_id, "queens", data).status_code == 302
    assert list(services.load_game(game_id).game.deals[0].scores) == [-25, -50, -25, 0]


def test_a_holder_whose_toggle_is_off_is_not_a_doubling(client: FlaskClient) -> None:
    """Without JavaScript a holder chosen, then its toggle switched off, stays in the form:
    the toggle decides."""
    game_id = new_game(client)
    data = {**QUEENS, "qh_doubled_by": "3"}  # no qh_doubled: the toggle is off
    assert post_deal(client, game_id, "queens", data).status_code == 302
    assert list(services.load_game(game_id).game.deals[0].scores) == [-25, -25, -25, -25]


def test_a_toggle_on_with_no_holder_asks_for_the_holder(client: FlaskClient) -> None:
    game_id = new_game(client)
    response = post_deal(client, game_id, "queens", {**QUEENS, "qd_doubled": "1"})
    assert response.status_code == 422
    page = html(response)
    assert "Choose who doubled the Q♦ (its holder)." in page
    assert re.search(r'id="qd_doubled"[^>]*checked', page)  # the toggle stays on
    assert services.load_game(game_id).game.deals_played == 0


def test_r3_the_king_of_hearts_toggle_and_its_holder(client: FlaskClient) -> None:
    game_id = new_game(client)
    data = {"kh_taker": "2", "kh_doubled": "1", "kh_doubled_by": "1", "toggles": "1"}
    assert post_deal(client, game_id, "king", data).status_code == 302
    assert list(services.load_game(game_id).game.deals[0].scores) == [0, 75, -150, 0]


def test_r5_without_javascript_twelve_diamonds_are_refused_and_kept(
    client: FlaskClient,
) -> None:
    game_id = new_game(client)
    counts = {"diamonds-0": "3", "diamonds-1": "4", "diamonds-2": "5", "diamonds-3": ""}
    response = post_deal(client, game_id, "diamonds", counts)
    assert response.status_code == 422
    page = html(response)
    assert "Diamonds must add up to 13; these add up to 12" in page
    assert 'value="5"' in page
    assert services.load_game(game_id).game.deals_played == 0


def test_counts_offer_all_thirteen_to_one_player_and_say_why_save_waits(
    client: FlaskClient,
) -> None:
    game_id = new_game(client)
    page = html(client.get(f"/games/{game_id}/deals/new?contracts=collections"))
    for seat in range(4):
        assert f'data-testid="tricks-all-{seat}"' in page
    assert 'data-wrong-text="The tricks add up to {n}, not 13."' in page
    assert 'data-testid="save-reason"' in page


class OneCount(Form):  # type: ignore[misc]
    count = CountField()


def read_count(app: Flask, typed: str) -> int | None:
    """What the deal forms' count field makes of ``typed`` (ValueError: its error)."""
    with app.test_request_context():
        field = OneCount(MultiDict({"count": typed})).count
        if field.process_errors:
            raise ValueError(*field.process_errors)
        return field.data


def test_r5_diamonds_typed_in_arabic_digits_are_recorded(client: FlaskClient) -> None:
    """A phone's Arabic keyboard types ٠–٩, a Persian or Urdu one ۰–۹: all read as 0–9."""
    game_id = new_game(client)
    counts = {"diamonds-0": "٣", "diamonds-1": "۴", "diamonds-2": "٥", "diamonds-3": "1"}
    assert post_deal(client, game_id, "diamonds", counts).status_code == 302
    assert list(services.load_game(game_id).game.deals[0].scores) == [-30, -40, -50, -10]


@pytest.mark.parametrize("typed", ["١٢", "۱۲", "12", " ١٢ "])
def test_r6_a_count_reads_the_same_in_every_digit_system(app: Flask, typed: str) -> None:
    assert read_count(app, typed) == 12


@pytest.mark.parametrize("typed", ["१२", "１２", "1.5", "٥٫٥", "x", "1_2"])
def test_a_count_in_any_other_characters_is_the_fields_error(app: Flask, typed: str) -> None:
    """Python's int() takes Devanagari and full-width digits and underscores: the box does not."""
    with pytest.raises(ValueError, match="is not a number"):
        read_count(app, typed)


def test_a_count_refused_names_what_was_typed(client: FlaskClient) -> None:
    game_id = new_game(client)
    counts = {"diamonds-0": "१२", "diamonds-1": "1", "diamonds-2": "0", "diamonds-3": "0"}
    response = post_deal(client, game_id, "diamonds", counts)
    assert response.status_code == 422
    assert "“१२” is not a number" in html(response)
    assert services.load_game(game_id).game.deals_played == 0


def test_the_count_boxes_are_numeric_text_that_takes_any_digits(client: FlaskClient) -> None:
    """A type=number box refuses ٥ in Chromium: the boxes are text with a numeric keyboard."""
    game_id = new_game(client)
    for contracts in ("diamonds", "collections", "queens,diamonds"):
        page = html(client.get(f"/games/{game_id}/deals/new?contracts={contracts}"))
        assert 'type="number"' not in page
        box = r'<input type="text" id="(diamonds|tricks)-0"[^>]*inputmode="numeric"'
        assert re.search(box, page)


def test_a_corrected_deal_shows_its_counts_in_arabic_indic_digits(client: FlaskClient) -> None:
    game_id = new_game(client)
    counts = {"diamonds-0": "3", "diamonds-1": "4", "diamonds-2": "5", "diamonds-3": "1"}
    assert post_deal(client, game_id, "diamonds", counts).status_code == 302
    page = html(client.get(f"/games/{game_id}/deals/1/edit?digits=arab"))
    assert re.search(r'id="diamonds-2"[^>]*value="٥"', page)
