"""The dispute desk on a phone: a revoke found through the card picker.

A phone (390×844, touch; see conftest.py) opens the card-by-card check of a
game's deal, chooses Collections, taps three players' 13 cards (the fourth
hand fills itself), then taps the tricks card by card. The picker says whose
turn it is after every card; at the revoke it shows the card as illegal and
why, lets it be tapped anyway, and tells of the revoke at once. Sending the
check shows the ruling with the player's name. The redeal check and the
claim page are tapped through too. Screenshots go to artifacts/screenshots/.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.rules.cards import ALL_CARDS, cards_of
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.deals import random_revoke_deal
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.rules.trickplay import trick_winner
from scorekeeper.store import games as services
from tests.browser.phone import assert_fits

pytestmark = pytest.mark.browser

NAMES = ["Rana", "Sami", "Omar", "Lina"]
KING_ONLY_HEART = "KH AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S"
Shoot = Callable[[str], Path]


def tap_hand(page: Page, seat: int, hand: int) -> None:
    """Tap a player's tab, then each of his cards in the 4 × 13 grid."""
    page.get_by_test_id(f"picker-seat-{seat}").tap()
    expect(page.get_by_test_id(f"picker-seat-{seat}")).to_have_attribute("aria-pressed", "true")
    for card in cards_of(hand):
        page.get_by_test_id("picker-grid").locator(f"[data-card='{card}']").tap()
    expect(page.get_by_test_id(f"picker-seat-{seat}").locator("[data-count]")).to_have_text("13/13")


def test_a_revoke_is_found_through_the_card_picker(
    live_server: str, phone: Page, shoot: Shoot
) -> None:
    page = phone
    loaded, _ = services.create_game(NAMES, 0, RuleSet())
    hands, tricks, revoke = random_revoke_deal(
        random.Random(5), RuleSet(), [Contract.COLLECTIONS], 0, after=12
    )
    r_trick, r_seat, r_card = revoke
    page.goto(f"{live_server}/games/{loaded.id}/disputes")
    with page.expect_navigation():
        page.get_by_test_id("link-play").tap()
    page.get_by_test_id("contract").select_option("collections")
    expect(page.get_by_test_id("picker")).to_be_visible()
    expect(page.get_by_test_id("hands")).to_be_hidden()  # the typed boxes, filled by the picker

    for seat in range(3):
        tap_hand(page, seat, hands[seat])
    last = page.get_by_test_id("picker-seat-3").locator("[data-count]")
    expect(last).to_have_text("13/13")  # the fourth hand filled itself
    owned = page.get_by_test_id("picker-grid").locator("[data-card=AS]")
    expect(owned).to_be_visible()
    assert_fits(page)
    shoot("dispute-01-hands")

    page.get_by_test_id("picker-to-play").tap()
    status = page.get_by_test_id("picker-status")
    leader = 0
    for t, trick in enumerate(tricks, start=1):
        for i, index in enumerate(trick):
            seat, card = (leader + i) % 4, str(ALL_CARDS[index])
            expect(status).to_contain_text(f"Trick {t}: \u2068{NAMES[seat]}\u2069 to play")
            button = page.get_by_test_id("picker-hand").locator(f"[data-card='{card}']")
            if (t, seat, index) == (r_trick, r_seat, r_card):
                expect(button).to_have_class(re.compile(r"\billegal\b"))
                expect(page.get_by_test_id("picker-why")).to_contain_text("You must follow suit")
                assert_fits(page)
                shoot("dispute-02-revoke-card")
            button.tap()
            if (t, seat, index) == (r_trick, r_seat, r_card):
                verdict = page.get_by_test_id("picker-verdict")
                expect(verdict).to_contain_text(f"\u2068{NAMES[seat]}\u2069 revoked on trick {t}")
                shoot("dispute-03-revoke-told")
        leader = trick_winner(leader, trick)
    expect(status).to_have_text("All 13 tricks are entered.")

    with page.expect_navigation():
        page.get_by_test_id("check-submit").tap()
    who = NAMES[r_seat]
    expect(page.get_by_test_id("verdict-headline")).to_have_text(
        f"Not legal: {who} revoked on trick {r_trick}."
    )
    expect(page.get_by_test_id("first-player")).to_have_text(who)
    expect(page.get_by_test_id("first-card")).to_have_text(ALL_CARDS[r_card].pretty)
    expect(page.get_by_test_id("ruling")).to_contain_text(
        f"under the standard penalty (R10), \u2068{who}\u2069 takes every trick "
        f"from trick {r_trick} on."
    )
    expect(page.get_by_test_id("check-scores")).to_be_visible()
    assert_fits(page)
    shoot("dispute-04-ruling")

    # The picker comes back with the record, and the typed boxes are one tap away.
    expect(page.get_by_test_id("play-picker")).to_be_visible()
    page.get_by_test_id("picker-typing").tap()
    expect(page.get_by_test_id("tricks")).to_be_visible()
    expect(page.get_by_test_id("tricks")).to_have_value(re.compile(r"^(\S+ \S+ \S+ \S+\n){12}"))


def test_redeal_and_claim_pages_on_a_phone(live_server: str, phone: Page, shoot: Shoot) -> None:
    page = phone
    page.goto(f"{live_server}/disputes/redeal")
    page.get_by_test_id("contract").select_option("king")
    for card in KING_ONLY_HEART.split():
        page.get_by_test_id("picker-grid").locator(f"[data-card='{card}']").tap()
    expect(page.get_by_test_id("picker-seat-0").locator("[data-count]")).to_have_text("13/13")
    assert_fits(page)
    shoot("dispute-05-redeal-hand")
    with page.expect_navigation():
        page.get_by_test_id("check-submit").tap()
    expect(page.get_by_test_id("verdict-headline")).to_have_text(
        "Eligible: this hand may ask for a redeal."
    )
    assert_fits(page)
    shoot("dispute-06-redeal-verdict")

    page.goto(f"{live_server}/disputes/claim")
    page.get_by_test_id("contract").select_option("collections")
    for seat, hand in enumerate(["2S 3S", "AS KS", "QS JS", "TS 9S"]):
        page.get_by_test_id(f"picker-seat-{seat}").tap()
        for card in hand.split():
            page.get_by_test_id("picker-grid").locator(f"[data-card='{card}']").tap()
    page.get_by_test_id("leader").select_option("0")
    page.get_by_test_id("claimant").select_option("1")
    page.locator("label:has(> [data-testid=preset-no_more_tricks])").tap()
    expect(page.get_by_test_id("min_score")).to_have_value("0")
    assert_fits(page)
    shoot("dispute-07-claim-form")
    with page.expect_navigation():
        page.get_by_test_id("claim-submit").tap()
    expect(page.get_by_test_id("verdict-headline")).to_have_text("The claim fails")
    expect(page.get_by_test_id("line")).to_contain_text("Player 2 takes it.")
    assert_fits(page)
    shoot("dispute-08-claim-line")


def test_the_check_reads_right_to_left_in_arabic(
    live_server: str, phone: Page, shoot: Shoot
) -> None:
    page = phone
    hands, tricks, (r_trick, _, _) = random_revoke_deal(
        random.Random(5), RuleSet(), [Contract.COLLECTIONS], 0, after=12
    )
    query = "&".join(
        [f"hands-{s}=" + "+".join(str(c) for c in cards_of(hands[s])) for s in range(3)]
        + ["tricks=" + "%0A".join("+".join(str(ALL_CARDS[i]) for i in t) for t in tricks)]
    )
    page.goto(f"{live_server}/disputes/play?lang=ar&contract=collections&king=0&check=1&{query}")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    expect(page.get_by_test_id("first-number")).to_have_text(re.compile(str(r_trick)))
    expect(page.get_by_test_id("play-picker")).to_be_visible()
    assert_fits(page)
    shoot("dispute-09-arabic-ruling")
