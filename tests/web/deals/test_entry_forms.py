"""The deal forms as a browser without JavaScript posts them: the card grid's "doubled"
toggles (R3, R4), and counts that do not add up to 13 refused by the server (R5, R6)."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from scorekeeper.store import games as services
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
