"""The pages: every page renders, starting a game, entering each kind of deal, bad input.

Forms are posted as a browser without JavaScript would post them (CSRF off,
see tests/conftest.py; one test turns it on).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.store import games as services
from tests.common import owner_token
from tests.web.pages import NAMES, html, new_game, post_deal, version

# --- helpers -------------------------------------------------------------------------------


DEALS: dict[str, dict[str, Any]] = {
    "king": {"kh_taker": "1", "kh_doubled_by": ""},
    "queens": {f"{q}_taker": str(i) for i, q in enumerate(("qs", "qh", "qd", "qc"))},
    "diamonds": {"diamonds-0": "4", "diamonds-1": "3", "diamonds-2": "3", "diamonds-3": "3"},
    "collections": {"tricks-0": "1", "tricks-1": "2", "tricks-2": "4", "tricks-3": "6"},
    "trix": {"trix-0": "2", "trix-1": "0", "trix-2": "3", "trix-3": "1"},
}
SCORES = {
    "king": [0, -75, 0, 0],
    "queens": [-25, -25, -25, -25],
    "diamonds": [-40, -30, -30, -30],
    "collections": [-15, -30, -60, -90],
    "trix": [150, 50, 200, 100],
}


def errors_at(page: str, name: str) -> str:
    """The error list rendered for field or group ``name`` (empty if none)."""
    match = re.search(
        rf'<ul class="errors" aria-live="assertive" id="{re.escape(name)}-errors">(.*?)</ul>',
        page,
        re.S,
    )
    return match.group(1) if match else ""


# --- every page renders ----------------------------------------------------------------------


def test_every_page_renders(client: FlaskClient) -> None:
    game_id = new_game(client)
    assert post_deal(client, game_id, "king", DEALS["king"]).status_code == 302
    paths = [
        "/",
        "/help",
        "/games/new",
        f"/games/{game_id}",
        f"/games/{game_id}/deals/new",
        *(f"/games/{game_id}/deals/new?contracts={c}" for c in DEALS if c != "king"),
        f"/games/{game_id}/deals/1",
        f"/games/{game_id}/deals/1/edit",
        f"/games/{game_id}/undo",
    ]
    for path in paths:
        response = client.get(path)
        assert response.status_code == 200, path
        assert response.mimetype == "text/html"
        page = html(response)
        assert 'name="viewport"' in page
        # nothing external (the game page shows its own links as text, to share them)
        assert not re.search(r'(src|href|action)="https?://', page), path


def test_home_lists_games_in_progress_and_finished(client: FlaskClient) -> None:
    game_id = new_game(client)
    post_deal(client, game_id, "trix", DEALS["trix"])
    page = html(client.get("/"))
    listed = page.split('data-testid="games-finished"')[0]
    assert f'data-testid="game-{game_id}"' in listed
    assert "Rana · Sami · Omar · Lina" in page
    assert "1 of 20 deals played." in page
    assert "Leading: Omar." in page
    assert 'data-testid="new-game"' in page


def test_help_explains_rules_and_every_house_rule(client: FlaskClient) -> None:
    page = html(client.get("/help"))
    for number in range(1, 13):
        assert f'id="r{number}"' in page
    for text in ("Penalty discard", "Inverted signs", "Tie for first place", "Combined contracts"):
        assert text in page


def test_unknown_game_and_deal_are_friendly_404s(client: FlaskClient) -> None:
    response = client.get("/games/nope")
    assert response.status_code == 404 and response.mimetype == "text/html"
    assert "There is no game at this address" in html(response)
    game_id = new_game(client)
    response = client.get(f"/games/{game_id}/deals/3")
    assert response.status_code == 404
    assert "no deal 3" in html(response)
    assert client.get(f"/games/{game_id}/deals/new?contracts=poker").status_code == 400


# --- starting a game -------------------------------------------------------------------------


def test_new_game_page_explains_seats_and_offers_recent_names(client: FlaskClient) -> None:
    new_game(client)
    page = html(client.get("/games/new"))
    assert "counter-clockwise" in page and "on your right" in page
    assert '<datalist id="recent-names">' in page and '<option value="Omar">' in page
    for preset in ("standard", "no_doubling", "short_game", "partnership", "complex"):
        assert f'data-testid="preset-{preset}"' in page
    for switch in ("doubling", "kingdoms", "partnership", "heart_lead", "revoke", "tiebreak"):
        assert f'data-testid="rule-{switch}"' in page
    assert "More rules" in page and "As the preset says" in page


def test_create_game_grants_edit_rights_and_keeps_token(client: FlaskClient) -> None:
    game_id = new_game(client, first_king=2)
    token = owner_token(client, game_id)
    assert token is not None and services.token_matches(game_id, token)
    loaded = services.load_game(game_id)
    assert loaded.players == NAMES and loaded.first_king == 2
    page = html(client.get(f"/games/{game_id}"))
    assert "<strong>Omar</strong> is king and deals." in page
    assert 'data-testid="contract-king"' in page


@pytest.mark.parametrize(
    ("fields", "target", "message"),
    [
        ({"players-1": "  "}, "players-1", "Player 2 needs a name."),
        ({"players-3": "rana"}, "players-3", "Two players are called rana"),
        ({"first_king": ""}, "first_king", "Choose who holds the 7♥"),
        ({"kingdom_order": "custom"}, "king_order", "A custom kingdom order needs"),
        ({"value_king": "-5"}, "value_king", "Enter a whole number from 0 to 10000."),
        ({"preset": "poker"}, "preset", "Choose one of the listed presets."),
    ],
)
def test_create_game_refuses_bad_input_and_saves_nothing(
    client: FlaskClient, fields: dict[str, str], target: str, message: str
) -> None:
    data = {f"players-{i}": name for i, name in enumerate(NAMES)}
    data.update({"first_king": "0", "preset": "standard", **fields})
    response = client.post("/games/new", data=data)
    assert response.status_code == 422
    page = html(response)
    assert "Nothing was saved" in page
    assert message in page
    if target.startswith("players-"):  # the message sits right after its own input
        section = page.split(f'id="{target}"')[1].split('class="field')[0]
        assert message in section
    assert 'value="Omar"' in page  # what was typed is kept
    assert services.list_games() == ([], [])


@pytest.mark.parametrize(
    ("king", "trix"),
    [
        ("٥٠", ["٣٠٠", "٢٠٠", "١٠٠", "−٥٠"]),  # Arabic-Indic, with the pages' minus sign
        ("۵۰", ["۳۰۰", "۲۰۰", "۱۰۰", "-۵۰"]),  # Eastern Arabic-Indic (Persian keyboards)
    ],
)
def test_r9_7_point_values_typed_in_arabic_indic_digits_are_read_right(
    client: FlaskClient, king: str, trix: list[str]
) -> None:
    boxes = {f"trix_values-{place}": text for place, text in enumerate(trix)}
    game_id = new_game(client, value_king=king, **boxes)
    values = services.load_game(game_id).rules.values
    assert values.king == 50 and values.trix == (300, 200, 100, -50)


@pytest.mark.parametrize(
    ("fields", "label"),
    [
        ({"value_queen": "٥x"}, "Points for a queen"),
        ({"trix_values-2": "१००"}, "Points for going out 3rd in Trix"),  # Devanagari digits
    ],
)
def test_a_point_value_that_is_no_number_is_refused_naming_its_box(
    client: FlaskClient, fields: dict[str, str], label: str
) -> None:
    data = {f"players-{i}": name for i, name in enumerate(NAMES)}
    data.update({"first_king": "0", "preset": "standard", **fields})
    response = client.post("/games/new", data=data)
    assert response.status_code == 422
    [(name, typed)] = fields.items()
    beside = html(response).split(f'id="{name}"')[1].split('class="field')[0]
    assert f"{label}: “{typed}” is not a whole number." in beside  # said at its box
    assert services.list_games() == ([], [])


def test_the_point_value_boxes_take_any_digits(client: FlaskClient) -> None:
    """Text boxes with a numeric keyboard: a type=number box refuses ٥ in Chromium."""
    page = html(client.get("/games/new"))
    boxes = re.findall(r'<input[^>]*name="(?:value_\w+|trix_values-\d)"[^>]*>', page)
    assert len(boxes) == 8
    assert all('type="text"' in box and 'inputmode="numeric"' in box for box in boxes)


def test_create_game_refuses_first_king_outside_custom_order(client: FlaskClient) -> None:
    fields = {
        "kingdom_order": "custom",
        **{f"king_order-{i}": str(s) for i, s in enumerate([2, 0, 1, 3])},
    }
    data = {f"players-{i}": name for i, name in enumerate(NAMES)}
    response = client.post(
        "/games/new", data={**data, "first_king": "0", "preset": "standard", **fields}
    )
    assert response.status_code == 422
    assert "\u2068Omar\u2069 is the first king, not \u2068Rana\u2069" in html(response)


def test_preset_applies_without_javascript_and_switches_override_it(client: FlaskClient) -> None:
    short = new_game(client, preset="short_game")
    assert services.load_game(short).rules.kingdoms == 1
    mixed = new_game(client, preset="no_doubling", partnership="on", trix_tail="minus")
    rules = services.load_game(mixed).rules
    assert rules.doubling is False and rules.partnership is True
    assert rules.values.trix == (200, 150, 100, -50)
    page = html(client.get(f"/games/{mixed}"))
    assert 'data-testid="not-zero-sum"' in page and 'data-testid="team-totals"' in page
    explicit = new_game(
        client, preset="no_doubling", doubling="on", value_diamond="15", value_trick="10"
    )
    rules = services.load_game(explicit).rules
    assert rules.doubling is True and (rules.values.diamond, rules.values.trick) == (15, 10)


# --- entering deals --------------------------------------------------------------------------


@pytest.mark.parametrize("contract", list(DEALS))
def test_record_each_contract_through_its_form(client: FlaskClient, contract: str) -> None:
    game_id = new_game(client)
    form = html(client.get(f"/games/{game_id}/deals/new?contracts={contract}"))
    assert 'data-testid="deal-form"' in form
    response = post_deal(client, game_id, contract, DEALS[contract])
    assert response.status_code == 302
    # The game page's top, where the next action is (not the deal's row further down).
    assert response.headers["Location"].endswith(f"/games/{game_id}")
    loaded = services.load_game(game_id)
    assert list(loaded.game.deals[0].scores) == SCORES[contract]
    page = html(client.get(f"/games/{game_id}"))
    assert "Deal 1 recorded" in page
    assert f'data-testid="contract-{contract}"' not in page  # the king has played it (R2)


def test_forms_ask_only_what_the_contract_needs(client: FlaskClient) -> None:
    game_id = new_game(client)
    king = html(client.get(f"/games/{game_id}/deals/new?contracts=king"))
    assert "Who took the K♥?" in king and 'name="kh_doubled_by"' in king
    assert 'name="kh_doubled"' in king and 'name="diamonds-0"' not in king
    counts = html(client.get(f"/games/{game_id}/deals/new?contracts=diamonds"))
    assert counts.count('inputmode="numeric"') == 4 and 'data-sum-text="{n} of 13"' in counts
    trix = html(client.get(f"/games/{game_id}/deals/new?contracts=trix"))
    assert trix.count("<select") == 4 and "Left with cards" in trix
    undoubled = new_game(client, preset="no_doubling")
    queens = html(client.get(f"/games/{undoubled}/deals/new?contracts=queens"))
    assert "Who took each card?" in queens and 'id="qh_taker-0"' in queens
    assert "doubled_by" not in queens and "Doubled?" not in queens


def test_doubled_king_and_queens(client: FlaskClient) -> None:
    game_id = new_game(client)
    post_deal(client, game_id, "king", {"kh_taker": "2", "kh_doubled_by": "1"})
    queens = {**DEALS["queens"], "qh_doubled_by": "3", "qc_doubled_by": "3"}
    post_deal(client, game_id, "queens", queens)
    deals = services.load_game(game_id).game.deals
    assert list(deals[0].scores) == [0, 75, -150, 0]
    assert list(deals[1].scores) == [-25, -50, -25, 0]


def test_combination_under_complex_rules(client: FlaskClient) -> None:
    game_id = new_game(client, preset="complex")
    page = html(client.get(f"/games/{game_id}"))
    assert 'data-testid="combine-form"' in page
    form = html(client.get(f"/games/{game_id}/deals/new?contracts=queens&contracts=diamonds"))
    assert 'id="qs_taker-0"' in form and 'name="diamonds-0"' in form and 'name="tricks-0"' in form
    data = {
        **DEALS["queens"],
        "diamonds-0": "4", "diamonds-1": "3", "diamonds-2": "3", "diamonds-3": "3",
        "tricks-0": "4", "tricks-1": "3", "tricks-2": "3", "tricks-3": "3",
    }  # fmt: skip
    response = post_deal(client, game_id, "queens,diamonds", data)
    assert response.status_code == 302
    deal = services.load_game(game_id).game.deals[0]
    assert [c.value for c in deal.contracts] == ["queens", "diamonds"]
    assert sum(deal.scores) == -230


def test_seven_of_hearts_kingdom_asks_who_holds_it(client: FlaskClient) -> None:
    game_id = new_game(client, kingdom_order="seven_of_hearts")
    for contract, data in DEALS.items():
        assert post_deal(client, game_id, contract, data).status_code == 302
    form = html(client.get(f"/games/{game_id}/deals/new?contracts=trix"))
    assert "Who was dealt the 7♥?" in form
    missing = post_deal(client, game_id, "trix", DEALS["trix"])
    assert missing.status_code == 422 and "Choose who was dealt the 7♥." in html(missing)
    assert post_deal(client, game_id, "trix", DEALS["trix"], king="2").status_code == 302
    assert services.load_game(game_id).game.current_king == 2


# --- bad deals: a clear message next to the field, the input kept, nothing written ----------


def test_invalid_diamonds_show_the_engines_message_next_to_the_counts(client: FlaskClient) -> None:
    game_id = new_game(client)
    before = version(game_id)
    data = {"diamonds-0": "4", "diamonds-1": "3", "diamonds-2": "3", "diamonds-3": "2"}
    response = post_deal(client, game_id, "diamonds", data)
    assert response.status_code == 422
    page = html(response)
    assert "Diamonds must add up to 13; these add up to 12" in errors_at(page, "diamonds")
    assert 'name="diamonds-3" value="2"' in page
    assert version(game_id) == before and not services.load_game(game_id).log


def test_missing_answers_are_named_per_field(client: FlaskClient) -> None:
    game_id = new_game(client)
    page = html(post_deal(client, game_id, "queens", {"qs_taker": "1"}))
    assert "Choose who took the Q♥." in errors_at(page, "qh_taker")
    assert errors_at(page, "qs_taker") == ""
    assert re.search(r'value="1" id="qs_taker-1"\s*checked', page)  # the answer is kept
    trix = html(post_deal(client, game_id, "trix", {"trix-0": "1", "trix-1": "1"}))
    assert "Choose who went out third." in trix
    bad = html(post_deal(client, game_id, "collections", {"tricks-0": "x"}))
    assert "“x” is not a number" in bad


def test_trix_order_that_is_not_a_permutation(client: FlaskClient) -> None:
    game_id = new_game(client)
    data = {"trix-0": "2", "trix-1": "2", "trix-2": "3", "trix-3": "1"}
    page = html(post_deal(client, game_id, "trix", data))
    assert "names Omar twice and leaves out Rana" in errors_at(page, "trix")


def test_doubled_by_is_ignored_when_doubling_is_off(client: FlaskClient) -> None:
    game_id = new_game(client, preset="no_doubling")
    # A doctored form: the page never offers doubled_by under these rules.
    response = post_deal(client, game_id, "king", {"kh_taker": "1", "kh_doubled_by": "2"})
    assert response.status_code == 302  # the field does not exist here, so it is ignored
    assert list(services.load_game(game_id).game.deals[0].scores) == [0, -75, 0, 0]


def test_repeated_contract_is_refused_with_the_reason(client: FlaskClient) -> None:
    game_id = new_game(client)
    post_deal(client, game_id, "trix", DEALS["trix"])
    form = html(client.get(f"/games/{game_id}/deals/new?contracts=trix"))
    assert "The kingdom of \u2068Rana\u2069 has already had Trix" in form
    response = post_deal(client, game_id, "trix", DEALS["trix"])
    assert response.status_code == 409
    assert "The kingdom of \u2068Rana\u2069 has already had Trix" in html(response)
    assert len(services.load_game(game_id).log) == 1


def test_csrf_token_is_required_when_enabled(make_app: Callable[..., Flask]) -> None:
    app = make_app(WTF_CSRF_ENABLED=True)
    with app.app_context():
        db.create_all()
        client = app.test_client()
        data = {f"players-{i}": name for i, name in enumerate(NAMES)}
        response = client.post("/games/new", data={**data, "first_king": "0"})
        assert response.status_code == 400 and response.mimetype == "text/html"
        assert "security token" in html(response)
        assert services.list_games() == ([], [])
        page = html(client.get("/games/new"))
        token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
        assert token is not None
        ok = client.post(
            "/games/new", data={**data, "first_king": "0", "csrf_token": token.group(1)}
        )
        assert ok.status_code == 302
        db.session.remove()
        db.drop_all()


def test_error_pages_are_html_for_pages_and_json_for_the_api(
    make_app: Callable[..., Flask],
) -> None:
    app = make_app(PROPAGATE_EXCEPTIONS=False)

    def boom() -> str:
        raise RuntimeError("boom")

    app.add_url_rule("/boom", "boom", boom)
    app.add_url_rule("/api/v1/boom", "api_boom", boom)
    client = app.test_client()
    page = client.get("/boom")
    assert page.status_code == 500 and page.mimetype == "text/html"
    assert "nothing was saved" in html(page)
    api = client.get("/api/v1/boom")
    assert api.status_code == 500 and api.mimetype == "application/json"
    assert api.get_json()["ok"] is False
    wrong_method = client.get("/games/x/redeals")
    assert wrong_method.status_code == 405 and wrong_method.mimetype == "text/html"
    assert client.get("/api/v1/nothing").mimetype == "application/json"


def test_engine_refusals_map_to_statuses_in_the_web_layer() -> None:
    """One place maps the engine's refusals to HTTP: 409 for the game's state, 422 else."""
    from scorekeeper.rules.errors import IllegalError, MalformedError, StateError
    from scorekeeper.web.errors import status_of

    assert status_of(StateError.one("entry_shape")) == 409
    assert status_of(IllegalError.one("entry_shape")) == 422
    assert status_of(MalformedError.one("entry_shape")) == 422
