"""The dispute desk's entry, counted tap by tap on a phone (390×844, touch).

A revoke check of four tricks: the tricks are tapped first, card by card in play order
(the hands left out); then the hands start from the cards each player was seen to play,
so only the nine cards each still held are tapped, the fourth hand fills itself, and the
picker goes back to the play with the verdict (R10). A claim with three cards in each
hand, in English and Arabic: each hand's cards from the one grid, the picker moving on to
the next hand once a hand holds as many cards as the others, the leader taken from the hand
entered first and the contract's own claim chosen with the contract; once the last hand is
entered the claim's choices come up, on one screen. Each test prints its counts (taps,
scrolls) and asserts them against the desk's targets. The screen is kept on at the desk too.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import pytest
from flask import Flask
from playwright.sync_api import BrowserContext, Page, expect

from scorekeeper.rules.captures import Captures
from scorekeeper.rules.cards import ALL_CARDS, cards_of
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.deals import random_revoke_deal
from scorekeeper.rules.game_log import DealEntry
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.rules.trickplay import trick_winner
from scorekeeper.store import games as services
from tests.browser.phone import Thumb, assert_fits

pytestmark = pytest.mark.browser

NAMES = ["Rana", "Sami", "Omar", "Lina"]
REVOKE_TAPS = 45
CLAIM_TAPS = 16
"""A claim: 12 cards, one tab, the contract, the claimant and Judge (24, then 18 before):
the contract's own claim comes with the contract, the leader is the hand entered first."""


def card_in(page: Page, grid: str, card: str) -> object:
    return page.get_by_test_id(grid).locator(f"[data-card='{card}']")


def revoke_in_four_tricks() -> tuple[list[int], list[list[int]], tuple[int, int, int]]:
    """A Collections deal whose one revoke falls within its first four tricks."""
    rng = random.Random(11)
    while True:
        hands, tricks, revoke = random_revoke_deal(rng, RuleSet(), [Contract.COLLECTIONS], 0, 4)
        if revoke[0] <= 4:
            return hands, tricks[:4], revoke


def test_r10_a_four_trick_revoke_check_in_45_taps_without_a_scroll(
    app: Flask, live_server: str, phone: Page
) -> None:
    hands, tricks, (r_trick, r_seat, _card) = revoke_in_four_tricks()
    with app.app_context():
        loaded, _token = services.create_game(NAMES, 0, RuleSet())
        services.record_deal(
            loaded.id, DealEntry((Contract.COLLECTIONS,), Captures(tricks=(4, 3, 3, 3)))
        )
    page = phone
    page.goto(f"{live_server}/games/{loaded.id}/deals/1/check")
    expect(page.get_by_test_id("picker")).to_be_visible()
    thumb = Thumb(page)

    thumb.tap(page.get_by_test_id("picker-skip-hands"))
    leader = 0
    for t, trick in enumerate(tricks, start=1):
        for i, index in enumerate(trick):
            seat = (leader + i) % 4
            expect(page.get_by_test_id("picker-status")).to_contain_text(
                f"Trick {t}: \u2068{NAMES[seat]}\u2069 to play"
            )
            thumb.tap(card_in(page, "picker-hand", str(ALL_CARDS[index])))  # type: ignore[arg-type]
        leader = trick_winner(leader, trick)

    thumb.tap(page.get_by_test_id("picker-to-hands"))
    for seat in range(3):
        tab = page.get_by_test_id(f"picker-seat-{seat}")
        expect(tab).to_have_attribute("aria-pressed", "true")  # the picker moved on by itself
        expect(tab.locator("[data-count]")).to_have_text("4/13")  # what the tricks showed
        shown = {
            ALL_CARDS[t[(seat - lead) % 4]] for t, lead in zip(tricks, leads(tricks), strict=True)
        }
        for card in cards_of(hands[seat]):
            if card not in shown:
                thumb.tap(card_in(page, "picker-grid", str(card)))  # type: ignore[arg-type]
    verdict = page.get_by_test_id("picker-verdict")
    expect(verdict).to_contain_text(f"\u2068{NAMES[r_seat]}\u2069 revoked on trick {r_trick}")
    expect(page.get_by_test_id("picker-seat-3").locator("[data-count]")).to_have_text("13/13")
    assert_fits(page)
    print(f"\nrevoke check, 4 hands and 4 tricks: {thumb.taps} taps, {thumb.scrolls} scrolls")
    assert thumb.taps <= REVOKE_TAPS
    assert thumb.scrolls == 0


def leads(tricks: list[list[int]]) -> list[int]:
    """Each trick's leader, from the first lead (the king's right under the standard rules)."""
    out, leader = [], 0
    for trick in tricks:
        out.append(leader)
        leader = trick_winner(leader, trick)
    return out


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_three_card_claim_in_16_taps_without_a_scroll(
    live_server: str, phone: Page, lang: str
) -> None:
    page = phone
    page.goto(f"{live_server}/disputes/claim?lang={lang}")
    expect(page.get_by_test_id("picker")).to_be_visible()
    thumb = Thumb(page)
    thumb.choose(page.get_by_test_id("contract"), "collections")
    for seat, hand in enumerate(["2S 3S 4S", "AS KS 5H", "QS JS 6H", "TS 9S 7H"]):
        tab = page.get_by_test_id(f"picker-seat-{seat}")
        if tab.get_attribute("aria-pressed") != "true":
            assert seat == 1, "after the first hand, the picker moves on by itself"
            thumb.tap(tab)
        for card in hand.split():
            thumb.tap(card_in(page, "picker-grid", card))  # type: ignore[arg-type]
        expect(tab.locator("[data-count]")).to_have_text("3")
    expect(page.get_by_test_id("leader")).to_have_value("0")  # the hand entered first
    expect(page.get_by_test_id("preset-no_more_tricks")).to_be_checked()  # Collections' claim
    expect(page.get_by_test_id("min_score")).to_have_value("0")
    thumb.choose(page.get_by_test_id("claimant"), "1")
    thumb.tap(page.get_by_test_id("claim-submit"), loads=True)
    expect(page.get_by_test_id("verdict")).to_have_class(re.compile(r"\bverdict-bad\b"))
    if lang == "en":
        expect(page.get_by_test_id("verdict-headline")).to_have_text("The claim fails")
    # The claim judged is the one entered: the form comes back with it.
    expect(page.get_by_test_id("leader")).to_have_value("0")
    expect(page.get_by_test_id("claimant")).to_have_value("1")
    expect(page.get_by_test_id("preset-no_more_tricks")).to_be_checked()
    print(f"\nclaim, 3 cards a hand ({lang}): {thumb.taps} taps, {thumb.scrolls} scrolls")
    assert thumb.taps <= CLAIM_TAPS
    assert thumb.scrolls == 0


def test_the_claim_form_chooses_the_leader_and_the_claim_until_the_player_does(
    live_server: str, phone: Page
) -> None:
    """With cards on the table, the leader is the one seat the hands' sizes allow (those who
    played to the trick hold a card fewer); the claim follows the contract (none of its own:
    another score, blank) until the player chooses one."""
    page = phone
    page.goto(f"{live_server}/disputes/claim")
    expect(page.get_by_test_id("picker")).to_be_visible()
    expect(page.get_by_test_id("preset-no_king")).to_be_checked()  # King of Hearts first
    page.get_by_test_id("contract").select_option("queens")
    expect(page.get_by_test_id("preset-custom")).to_be_checked()
    expect(page.get_by_test_id("min_score")).to_have_value("")
    page.get_by_test_id("contract").select_option("collections")
    for seat, hand in enumerate(["2S 3S 4S", "AS KS 5H", "QS JS", "TS 9S", "8S 7S"]):
        page.get_by_test_id(f"picker-seat-{'trick' if seat == 4 else seat}").tap()
        for card in hand.split():
            card_in(page, "picker-grid", card).tap()  # type: ignore[attr-defined]
        if seat == 0:
            expect(page.get_by_test_id("leader")).to_have_value("0")  # the hand entered first
    expect(page.get_by_test_id("leader")).to_have_value("2")  # seats 2 and 3 played to it
    page.get_by_test_id("leader").select_option("1")
    page.get_by_test_id("picker-seat-trick").tap()
    card_in(page, "picker-grid", "7S").tap()  # type: ignore[attr-defined]
    expect(page.get_by_test_id("leader")).to_have_value("1")  # the player's own choice stays
    page.locator("label:has(> [data-testid=preset-custom])").tap()
    page.get_by_test_id("contract").select_option("king")
    expect(page.get_by_test_id("preset-custom")).to_be_checked()


WAKE_LOCK_STUB = """
window.wakeLockRequests = 0;
Object.defineProperty(navigator, "wakeLock", {value: {request: function (kind) {
  window.wakeLockRequests += 1;
  return kind === "screen" ? Promise.resolve({release: function () {}}) : Promise.reject();
}}});
"""


@pytest.mark.parametrize("path", ["/disputes/claim", "/disputes/play", "/disputes/redeal"])
def test_the_screen_stays_on_at_the_dispute_desk(
    live_server: str, contexts: Callable[[], BrowserContext], path: str
) -> None:
    phone = contexts()
    phone.add_init_script(WAKE_LOCK_STUB)
    page = phone.new_page()
    page.goto(live_server + path)
    page.wait_for_function("window.wakeLockRequests >= 1")
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function("window.wakeLockRequests >= 2")
