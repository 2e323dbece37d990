"""The dispute desk under R2's dealer house rules, R10's revoke "whole" and R7's closed suit.

When another player than the king deals, the first lead (R10) and the first
Trix turn (R7) count from the dealer: on a game's desk (the deal about to be
entered, and a recorded deal) the pages, the picker and the engine's own
check (API.md ``check/play`` with ``dealer``) agree.
"""

from __future__ import annotations

import random
import re
from html import unescape
from typing import Any

import pytest
from flask.testing import FlaskClient

from scorekeeper.rules.cards import ALL_CARDS, cards_of
from scorekeeper.rules.checks import check_play
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.deals import random_deal, random_revoke_deal
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import games as services
from tests.rules.test_trix import EARLY_HANDS, early_record
from tests.web.pages import NAMES, html, new_game, post_deal


def bare(text: str) -> str:
    """Text as read: without the isolates that keep names in their place."""
    return text.translate({0x2066: None, 0x2067: None, 0x2068: None, 0x2069: None})


def text_of(page: str, testid: str) -> str:
    match = re.search(rf'data-testid="{re.escape(testid)}"[^>]*>(.*?)</(p|dd|td|h2)>', page, re.S)
    assert match, testid
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", match.group(1))).strip())


def typed(hands: list[int], tricks: list[list[int]]) -> dict[str, str]:
    """A card-by-card check as typed: the hands, then the tricks, leader first."""
    form = {"contract": "collections", "check": "1"}
    form["tricks"] = "\n".join(" ".join(str(ALL_CARDS[i]) for i in t) for t in tricks)
    for seat, hand in enumerate(hands):
        form[f"hands-{seat}"] = " ".join(str(c) for c in cards_of(hand))
    return form


def api_scores(hands: list[int], tricks: list[list[int]], **body: Any) -> list[int]:
    record = {"contracts": ["collections"], "names": NAMES, **body}
    record["tricks"] = [[str(ALL_CARDS[i]) for i in t] for t in tricks]
    record["hands"] = {str(s): [str(c) for c in cards_of(h)] for s, h in enumerate(hands)}
    scores: list[int] = check_play(record)["scores"]
    return scores


def shown(scores: list[int]) -> list[str]:
    return [str(s).replace("-", "−") for s in scores]


@pytest.mark.parametrize(("first_lead", "leader"), [("king", 2), ("right_of_king", 3)])
def test_r10_first_lead_counts_from_the_dealer_on_the_game_desk(
    client: FlaskClient, first_lead: str, leader: int
) -> None:
    game = new_game(client, dealer="rotates", first_dealer="2", first_lead=first_lead)
    rules = RuleSet.from_dict({"first_lead": first_lead})
    hands, tricks = random_deal(random.Random(8), rules, [Contract.COLLECTIONS], 2)
    page = html(client.get(f"/games/{game}/check", query_string=typed(hands, tricks)))
    assert text_of(page, "fixed-king") == "Omar dealt; Rana was king."
    assert text_of(page, "verdict-headline") == "Legal: no rule was broken."
    dealing = {"dealer": "rotates", "first_dealer": 2, "first_lead": first_lead}
    body = {"rules": dealing, "king": 0, "dealer": 2}
    scores = api_scores(hands, tricks, **body)
    assert [text_of(page, f"check-scores-{s}") for s in range(4)] == shown(scores)
    state_form = {**typed(hands, []), "tricks": ""}
    state = client.get(f"/games/{game}/check/state", query_string=state_form).get_json()
    assert state["to_play"] == leader and f"{NAMES[leader]} to play" in bare(state["status"])


def test_r7_first_trix_turn_counts_from_the_dealer_in_the_picker(client: FlaskClient) -> None:
    game = new_game(client, first_king="1", dealer="first_any", first_dealer="3")
    form = {"contract": "trix", "plays": ""}
    state = client.get(f"/games/{game}/check/state", query_string=form).get_json()
    assert state["to_play"] == 3 and "Lina to play" in bare(state["status"])


def test_r2_a_recorded_deal_is_checked_from_its_own_dealer(client: FlaskClient) -> None:
    game = new_game(client, dealer="rotates", first_dealer="2")
    data = {"tricks-0": "1", "tricks-1": "2", "tricks-2": "4", "tricks-3": "6"}
    assert post_deal(client, game, "collections", data).status_code == 302
    hands, tricks = random_deal(random.Random(9), RuleSet(), [Contract.COLLECTIONS], 2)
    form = typed(hands, tricks)
    del form["contract"]
    page = html(client.get(f"/games/{game}/deals/1/check", query_string=form))
    assert text_of(page, "fixed-king") == "Omar dealt; Rana was king."
    assert text_of(page, "verdict-headline") == "Legal: no rule was broken."


@pytest.mark.parametrize("contract", ["king", "queens", "diamonds", "collections"])
def test_r10_revoke_whole_scores_as_if_the_offender_took_all_13(
    client: FlaskClient, contract: str
) -> None:
    rules = RuleSet.from_dict({"revoke": "whole"})
    rng = random.Random(21)
    hands, tricks, (trick, seat, _) = random_revoke_deal(rng, rules, [Contract(contract)], 0, 8)
    form = {**typed(hands, tricks), "contract": contract, "king": "0", "revoke": "whole"}
    page = html(client.get("/disputes/play", query_string=form))
    who = f"Player {seat + 1}"
    assert bare(text_of(page, "ruling")) == (
        f"Ruling: {who} revoked on trick {trick}; under the house rule (R10), the deal is "
        f"scored as if {who} had taken all 13 tricks: {who} is charged the whole contract, the "
        "others score nothing for captures, and a doubling bonus still goes to the card's holder."
    )
    body = {"contracts": [contract], "rules": {"revoke": "whole"}, "king": 0}
    scores = api_scores(hands, tricks, **body)
    assert [s for i, s in enumerate(scores) if i != seat] == [0, 0, 0]
    assert [text_of(page, f"check-scores-{s}") for s in range(4)] == shown(scores)


def test_r7_closed_suit_record_is_void_and_dealt_again(client: FlaskClient) -> None:
    game = new_game(client, trix_closed_suit="replay")
    form = {"contract": "trix", "check": "1"}
    form["plays"] = " ".join("pass" if c is None else str(c) for c in early_record())
    for seat, hand in enumerate(EARLY_HANDS):
        form[f"hands-{seat}"] = " ".join(str(c) for c in hand)
    page = html(client.get(f"/games/{game}/check", query_string=form))
    assert text_of(page, "verdict-headline") == (
        "Void: a suit was closed before every Jack was laid (R7); the deal is dealt again."
    )
    assert text_of(page, "ruling") == (
        "Ruling: Lina laid A♣ on turn 48 and completed its row while J♥ was still in a hand, "
        "so under the house rule (R7) the deal is void and is dealt again; nothing is scored."
    )
    void_form = page.split('data-testid="void-redeal-form"')[1].split("</form>")[0]
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', void_form))
    assert client.post(f"/games/{game}/redeals", data=fields).status_code == 302
    (redeal,) = services.load_game(game).game.kingdoms[0].redeals
    assert redeal.reason == "closed_suit"
    plain = new_game(client)
    played_on = html(client.get(f"/games/{plain}/check", query_string=form))
    assert "Void" not in text_of(played_on, "verdict-headline")
