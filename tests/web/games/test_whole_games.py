"""Whole games through the pages: 20 deals, the end (R12), partnerships, weight and queries."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper.store import games as services
from scorekeeper.store.game_store import replays
from tests.sql import sql_statements
from tests.web import pages
from tests.web.pages import html, new_game

PAGE_BUDGET = 60_000
"""The game page with all its CSS and JavaScript, uncompressed, in bytes."""
QUERY_BUDGET = 4


def post_deal(
    client: FlaskClient, game_id: str, contracts: str, data: dict[str, Any]
) -> TestResponse:
    """Record a deal through its form; it must be accepted."""
    response = pages.post_deal(client, game_id, contracts, data)
    assert response.status_code == 302, response.get_data(as_text=True)
    return response


def counts(name: str, values: list[int]) -> dict[str, str]:
    return {f"{name}-{i}": str(n) for i, n in enumerate(values)}


KINGDOM: list[tuple[str, dict[str, str]]] = [
    ("trix", {"trix-0": "2", "trix-1": "0", "trix-2": "3", "trix-3": "1"}),
    ("king", {"kh_taker": "1", "kh_doubled_by": ""}),
    ("queens", {f"{q}_taker": str(i) for i, q in enumerate(("qs", "qh", "qd", "qc"))}),
    ("diamonds", counts("diamonds", [4, 3, 3, 3])),
    ("collections", counts("tricks", [1, 2, 4, 6])),
]
"""Per kingdom: Rana 70, Sami −110, Omar 85, Lina −45 (adds up to 0)."""


def play_full_game(client: FlaskClient, game_id: str) -> None:
    for kingdom in range(4):
        for contract, data in KINGDOM:
            if contract == "king" and kingdom == 1:  # Lina doubles, Sami takes it
                data = {"kh_taker": "1", "kh_doubled_by": "3"}
            post_deal(client, game_id, contract, data)


def test_a_whole_game_through_the_forms(client: FlaskClient) -> None:
    game_id = new_game(client)
    play_full_game(client, game_id)
    loaded = services.load_game(game_id)
    assert loaded.game.deals_played == 20 and loaded.game.finished
    assert loaded.game.totals == (280, -515, 340, -105)
    assert [k.king for k in loaded.game.kingdoms] == [0, 1, 2, 3]
    page = html(client.get(f"/games/{game_id}"))
    assert "Game over" in page
    assert "Omar wins." in page
    assert page.count('Total <span class="ok"') == 4  # every kingdom adds up to 0 (R11)
    final = page.split('data-testid="final-standings"')[1].split("</section>")[0]
    order = [final.index(name) for name in ("Omar", "Rana", "Lina", "Sami")]
    assert order == sorted(order)
    for total in ("280", "−515", "340", "−105"):
        assert total in final
    assert 'data-testid="contract-' not in page  # nothing left to play
    assert all(f'id="deal-{n}"' in page for n in range(1, 21))
    home = html(client.get("/"))
    assert f'data-testid="game-{game_id}"' in home.split('data-testid="games-finished"')[1]


def test_game_page_weight_is_within_budget(client: FlaskClient) -> None:
    game_id = new_game(client, preset="partnership", trix_tail="minus")
    play_full_game(client, game_id)
    page = client.get(f"/games/{game_id}")
    weight = len(page.data)
    for asset in ("/static/app.css", "/static/app.js"):
        response = client.get(asset)
        weight += len(response.data)
        response.close()
    assert weight < PAGE_BUDGET, weight


def test_game_page_queries_do_not_grow_with_the_deals(app: Flask, client: FlaskClient) -> None:
    game_id = new_game(client)
    replays().clear()  # the cold path: the log is read and replayed
    with sql_statements(app) as empty:
        client.get(f"/games/{game_id}")
    play_full_game(client, game_id)
    replays().clear()
    with sql_statements(app) as full:
        client.get(f"/games/{game_id}")
    selects = [s for s in full if s.lstrip().upper().startswith("SELECT")]
    assert len(selects) <= QUERY_BUDGET, full
    assert len(full) == len(empty), (empty, full)
    with sql_statements(app) as warm:  # replayed once already: the log is not read again
        client.get(f"/games/{game_id}")
    assert len(warm) < len(full), warm
    assert not any("log_entries" in statement for statement in warm)


def test_a_tie_needs_an_extra_deal_that_decides(client: FlaskClient) -> None:
    game_id = new_game(client, preset="short_game")
    deals = [
        ("trix", {"trix-0": "0", "trix-1": "1", "trix-2": "2", "trix-3": "3"}),
        ("king", {"kh_taker": "0", "kh_doubled_by": ""}),
        ("queens", {f"{q}_taker": "0" for q in ("qs", "qh", "qd", "qc")}),
        ("diamonds", counts("diamonds", [8, 5, 0, 0])),
        ("collections", counts("tricks", [13, 0, 0, 0])),
    ]
    for contract, data in deals:
        post_deal(client, game_id, contract, data)
    page = html(client.get(f"/games/{game_id}"))
    assert "Tie for first place" in page
    assert "Sami &amp; Omar are tied for first place" in page
    assert "One extra deal decides:" in page
    for contract in ("king", "queens", "diamonds", "collections", "trix"):
        assert f'data-testid="contract-{contract}"' in page  # any contract may decide
    post_deal(client, game_id, "king", {"kh_taker": "2", "kh_doubled_by": ""})
    page = html(client.get(f"/games/{game_id}"))
    assert "Sami wins." in page and "broken by an extra deal." in page
    assert "Tie-break deals" in page


def test_trix_first_places_break_a_tie(client: FlaskClient) -> None:
    game_id = new_game(client, preset="short_game")
    deals = [
        ("trix", {"trix-0": "1", "trix-1": "2", "trix-2": "0", "trix-3": "3"}),
        ("king", {"kh_taker": "2", "kh_doubled_by": ""}),
        ("queens", {"qs_taker": "1", "qh_taker": "1", "qd_taker": "1", "qc_taker": "3"}),
        ("diamonds", counts("diamonds", [0, 5, 0, 8])),
        ("collections", counts("tricks", [13, 0, 0, 0])),
    ]
    for contract, data in deals:
        post_deal(client, game_id, contract, data)
    loaded = services.load_game(game_id)
    assert loaded.game.totals == (-95, 75, 75, -55)
    page = html(client.get(f"/games/{game_id}"))
    assert "Sami wins." in page and "broken by Trix first places." in page


def test_partnership_shows_team_totals_and_team_winner(client: FlaskClient) -> None:
    game_id = new_game(client, preset="partnership")
    play_full_game(client, game_id)
    page = html(client.get(f"/games/{game_id}"))
    teams = page.split('data-testid="team-totals"')[1].split("</div>\n</div>")[0]
    assert "Rana &amp; Omar" in teams and "620" in teams and "−620" in teams
    assert "Rana &amp; Omar win." in page


def test_non_zero_sum_rules_are_flagged_and_checked_against_their_totals(
    client: FlaskClient,
) -> None:
    game_id = new_game(client, trix_tail="minus")
    for contract, data in KINGDOM:
        post_deal(client, game_id, contract, data)
    page = html(client.get(f"/games/{game_id}"))
    assert "These house rules are not zero-sum" in page
    assert "a kingdom adds up to −100, not 0" in page
    assert "✓ −100" in page
