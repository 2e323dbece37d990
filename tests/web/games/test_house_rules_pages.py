"""The house rules of the five sources on the pages: the new-game controls, the game page.

One test per switch (R2 fixed order and dealer, R3/R4 quadruple self-capture,
R7 closed suit, R9.5 team kingdoms, R9.6 all four at once): the control is on
the new-game page, a game started with it keeps it, and the game page says it.
"""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.ruleset import ClosedSuit, Combination, Dealer, SelfCapture
from scorekeeper.store import games as services
from tests.web.pages import html, new_game, post_deal, version

FIXED = ("trix", "queens", "king", "diamonds", "collections")
DEALS = {
    "king": {"kh_taker": "1", "kh_doubled_by": ""},
    "queens": {f"{q}_taker": str(i) for i, q in enumerate(("qs", "qh", "qd", "qc"))},
    "diamonds": {"diamonds-0": "4", "diamonds-1": "3", "diamonds-2": "3", "diamonds-3": "3"},
    "collections": {"tricks-0": "1", "tricks-1": "2", "tricks-2": "4", "tricks-3": "6"},
    "trix": {"trix-0": "2", "trix-1": "0", "trix-2": "3", "trix-3": "1"},
}


def contract_buttons(page: str) -> list[str]:
    """The contract buttons the game page offers, by their test ids."""
    return re.findall(r'data-testid="contract-([a-z-]+)"', page)


def control_errors(page: str, name: str) -> str:
    """The error list rendered right after the control ``name`` of the new-game form."""
    match = re.search(rf'id="{name}"[^>]*>.*?</select>\s*(<ul class="errors".*?</ul>)?', page, re.S)
    assert match, f"no control {name}"
    return match.group(1) or ""


def test_new_game_page_has_a_control_for_every_new_house_rule(client: FlaskClient) -> None:
    page = html(client.get("/games/new"))
    for name in ("contract_order", "dealer", "first_dealer", "trix_closed_suit", "team_kingdoms"):
        assert f'data-testid="rule-{name}"' in page, name
    assert 'value="quadruple"' in page and 'data-testid="order-4"' in page
    assert 'name="rounds"' in page
    for preset in ("jordanian_complex", "fixed_order", "team_kingdoms"):
        assert f'data-testid="preset-{preset}"' in page, preset
    assert "Jordanian Complex" in page


def test_r3_r4_quadruple_self_capture_is_kept_and_said(client: FlaskClient) -> None:
    game_id = new_game(client, doubled_self_capture="quadruple")
    assert services.load_game(game_id).rules.doubled_self_capture is SelfCapture.QUADRUPLE
    page = html(client.get(f"/games/{game_id}"))
    assert "Costs four times its value (−300 or −100)" in page
    assert 'data-testid="not-zero-sum"' in page and "costs −300 / −100" in page
    post_deal(client, game_id, "king", {"kh_taker": "2", "kh_doubled_by": "2"})
    assert list(services.load_game(game_id).game.deals[0].scores) == [0, 0, -300, 0]


def test_r2_fixed_contract_order_offers_only_the_next(client: FlaskClient) -> None:
    fields = {f"order-{i}": c for i, c in enumerate(FIXED)}
    game_id = new_game(client, contract_order="fixed", **fields)
    rules = services.load_game(game_id).rules
    assert [c.value for c in rules.contract_order or ()] == list(FIXED)
    page = html(client.get(f"/games/{game_id}"))
    assert contract_buttons(page) == ["trix"]
    assert (
        "Contracts in the agreed order: Trix, Queens, King of Hearts, Diamonds, Collections."
        in page
    )
    post_deal(client, game_id, "trix", DEALS["trix"])
    assert contract_buttons(html(client.get(f"/games/{game_id}"))) == ["queens"]


def test_r2_fixed_contract_order_needs_the_order_and_no_combinations(
    client: FlaskClient,
) -> None:
    data = {f"players-{i}": n for i, n in enumerate(("Rana", "Sami", "Omar", "Lina"))}
    data.update(first_king="0", preset="standard", contract_order="fixed")
    missing = html(client.post("/games/new", data=data))
    assert "Choose the five contracts in the agreed order." in control_errors(
        missing, "contract_order"
    )
    combined = html(
        client.post("/games/new", data={**data, "preset": "fixed_order", "combination": "any"})
    )
    assert "cannot go with combinations" in control_errors(combined, "contract_order")


def test_r2_fixed_order_preset_plays_a_whole_kingdom_in_its_order(client: FlaskClient) -> None:
    game_id = new_game(client, preset="fixed_order", kingdoms="1")
    for contract in FIXED:
        assert contract_buttons(html(client.get(f"/games/{game_id}"))) == [contract]
        response = post_deal(client, game_id, contract, DEALS[contract])
        assert response.status_code == 302, contract
    game = services.load_game(game_id).game
    assert [d.contracts[0].value for d in game.deals] == list(FIXED)
    assert game.finished and 'data-testid="final-standings"' in html(
        client.get(f"/games/{game_id}")
    )


def test_r2_out_of_order_contract_is_refused_on_the_page(client: FlaskClient) -> None:
    game_id = new_game(client, preset="fixed_order")
    response = post_deal(client, game_id, "king", DEALS["king"])
    assert response.status_code == 409
    assert "Trix next" in html(response)
    assert not services.load_game(game_id).game.deals


def test_r2_dealer_rotates_the_game_page_says_who_deals_leads_and_is_king(
    client: FlaskClient,
) -> None:
    game_id = new_game(client, dealer="rotates", first_dealer="2", first_lead="right_of_king")
    rules = services.load_game(game_id).rules
    assert (rules.dealer, rules.first_dealer) == (Dealer.ROTATES, 2)
    page = html(client.get(f"/games/{game_id}"))
    assert "Omar deals; Lina leads; Rana is king." in page
    assert "An agreed player deals first; then the deal passes to the right" in page
    assert "First dealer: Omar." in page
    post_deal(client, game_id, "king", DEALS["king"])
    assert "Lina deals; Rana leads; Rana is king." in html(client.get(f"/games/{game_id}"))


def test_r2_first_deal_by_anyone_then_the_king_deals(client: FlaskClient) -> None:
    game_id = new_game(client, first_king="1", dealer="first_any", first_dealer="3")
    assert "Lina deals; Lina leads; Sami is king." in html(client.get(f"/games/{game_id}"))
    post_deal(client, game_id, "king", DEALS["king"])
    assert "Sami deals; Sami leads; Sami is king." in html(client.get(f"/games/{game_id}"))


def test_r2_dealer_needs_a_first_dealer_said_beside_it(client: FlaskClient) -> None:
    data = {f"players-{i}": n for i, n in enumerate(("Rana", "Sami", "Omar", "Lina"))}
    data.update(first_king="0", preset="standard", dealer="rotates")
    page = html(client.post("/games/new", data=data))
    assert "first deal" in control_errors(page, "first_dealer")


def test_r7_closed_suit_redeal_is_offered_and_does_not_use_up_trix(client: FlaskClient) -> None:
    game_id = new_game(client, trix_closed_suit="replay")
    assert services.load_game(game_id).rules.trix_closed_suit is ClosedSuit.REPLAY
    page = html(client.get(f"/games/{game_id}"))
    assert "The deal is void and is dealt again; Trix is not used up." in page
    assert 'value="closed_suit"' in page
    body = {"version": str(version(game_id)), "kind": "closed_suit", "seat": "", "note": ""}
    response = client.post(f"/games/{game_id}/redeals", data=body)
    assert response.status_code == 302
    game = services.load_game(game_id).game
    redeal = game.kingdoms[0].redeals[0]
    assert (redeal.reason, redeal.contract) == ("closed_suit", Contract.TRIX)
    assert Contract.TRIX in game.available_contracts
    after = html(client.get(f"/games/{game_id}"))
    assert "Trix is not used up" in after and "a suit was closed before every Jack" in after


def test_r7_closed_suit_is_not_offered_without_its_house_rule(client: FlaskClient) -> None:
    game_id = new_game(client)
    assert 'value="closed_suit"' not in html(client.get(f"/games/{game_id}"))
    body = {"version": str(version(game_id)), "kind": "closed_suit"}
    assert client.post(f"/games/{game_id}/redeals", data=body).status_code == 422
    assert not services.load_game(game_id).log


def test_r9_5_team_kingdoms_shown_per_team(client: FlaskClient) -> None:
    game_id = new_game(client, partnership="on", team_kingdoms="on", rounds="2")
    rules = services.load_game(game_id).rules
    assert rules.team_kingdoms and rules.rounds == 2 and rules.kingdom_count == 4
    page = html(client.get(f"/games/{game_id}"))
    assert "Kingdom 1 of 4" in page
    assert "This kingdom belongs to the team Rana &amp; Omar." in page
    assert "Twice round: four kingdoms, 20 deals." in page
    post_deal(client, game_id, "king", DEALS["king"])
    sheet = html(client.get(f"/games/{game_id}"))
    assert "Kingdom 1: Rana is king, for the team Rana &amp; Omar" in sheet


def test_r9_5_team_kingdoms_need_partnership_said_beside_it(client: FlaskClient) -> None:
    data = {f"players-{i}": n for i, n in enumerate(("Rana", "Sami", "Omar", "Lina"))}
    data.update(first_king="0", preset="standard", team_kingdoms="on")
    page = html(client.post("/games/new", data=data))
    assert "need partnerships" in control_errors(page, "team_kingdoms")


def test_r9_6_all_four_offers_only_the_complex_and_trix(client: FlaskClient) -> None:
    game_id = new_game(client, preset="jordanian_complex")
    assert services.load_game(game_id).rules.combination is Combination.ALL_FOUR
    page = html(client.get(f"/games/{game_id}"))
    assert contract_buttons(page) == ["king-queens-diamonds-collections", "trix"]
    assert 'data-testid="combine-form"' not in page
    assert "Only all four trick contracts at once." in page
    post_deal(client, game_id, "trix", DEALS["trix"])
    assert contract_buttons(html(client.get(f"/games/{game_id}"))) == [
        "king-queens-diamonds-collections"
    ]
    alone = post_deal(client, game_id, "king", DEALS["king"])
    assert alone.status_code == 409 and "alone" in html(alone)


def test_help_explains_the_new_house_rules_and_presets(client: FlaskClient) -> None:
    page = html(client.get("/help"))
    for text in (
        "Costs four times its value",
        "Fixed: every king plays the five in the order agreed below.",
        "An agreed player deals first; then the deal passes to the right every deal.",
        "The deal is void and is dealt again; Trix is not used up.",
        "On: partners share a kingdom; the kingdoms alternate between the teams.",
        "Twice round: four kingdoms, 20 deals.",
        "Jordanian Complex",
        "Scored as if the offender had taken all 13 tricks",
        "counted from the dealer",
        "closed suit replays",
    ):
        assert text in page, text


def test_r2_deal_form_says_who_deals_and_leads(client: FlaskClient) -> None:
    game_id = new_game(client, dealer="rotates", first_dealer="2", trix_first="right_of_king")
    form = html(client.get(f"/games/{game_id}/deals/new?contracts=trix"))
    assert "Omar deals; Lina leads; Rana is king." in form
    post_deal(client, game_id, "trix", DEALS["trix"])
    assert "Omar dealt; Rana was king." in html(client.get(f"/games/{game_id}/deals/1/edit"))
