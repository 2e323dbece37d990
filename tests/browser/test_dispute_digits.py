"""The dispute desk's card picker in Arabic under the Arabic-Indic digits setting (390×844):
what its script draws (each hand's count, "N of 13", the play's status, the trick, the
reasons a card is not legal, the verdict) shows no Latin digit, card names aside (10♦).
The server's own HTML is checked in tests/web/disputes/test_arabic_digits.py."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.rules.cards import ALL_CARDS, cards_of
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.deals import random_revoke_deal
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import games as services
from tests.browser.test_forms_say_what_is_missing import LATIN_DIGITS

pytestmark = pytest.mark.browser

NAMES = ["رنا", "سامي", "عمر", "لينا"]


def tap(page: Page, grid: str, card: str) -> None:
    page.get_by_test_id(grid).locator(f"[data-card='{card}']").tap()


def test_the_claim_pickers_counts_are_in_arabic_indic_digits(live_server: str, phone: Page) -> None:
    page = phone
    page.goto(f"{live_server}/disputes/claim?lang=ar&digits=arab")
    expect(page.get_by_test_id("picker")).to_be_visible()
    page.get_by_test_id("contract").select_option("trix")
    expect(page.get_by_test_id("preset-out_first")).to_be_checked()
    expect(page.get_by_test_id("min_score")).to_have_value("٢٠٠")  # the claim's score, too
    page.locator("label:has(> [data-testid=preset-custom])").tap()
    page.locator("label:has(> [data-testid=preset-out_first])").tap()
    expect(page.get_by_test_id("min_score")).to_have_value("٢٠٠")
    page.get_by_test_id("contract").select_option("collections")
    for rank in "AKQJT98765432"[:12]:  # the spades but the 2
        tap(page, "picker-grid", rank + "S")
    expect(page.get_by_test_id("picker-seat-0").locator("[data-count]")).to_have_text("١٢")
    page.get_by_test_id("picker-seat-trick").tap()
    tap(page, "picker-grid", "2S")
    expect(page.get_by_test_id("picker-seat-trick").locator("[data-count]")).to_have_text("١")
    assert page.evaluate(LATIN_DIGITS, False) == []


def test_r10_the_check_pickers_counts_and_play_are_in_arabic_indic_digits(
    live_server: str, phone: Page
) -> None:
    page = phone
    hands, tricks, (r_trick, _seat, _card) = random_revoke_deal(
        random.Random(5), RuleSet(), [Contract.COLLECTIONS], 0, after=12
    )
    loaded, _token = services.create_game(NAMES, 0, RuleSet())
    page.goto(f"{live_server}/games/{loaded.id}/check?lang=ar&digits=arab")
    page.get_by_test_id("contract").select_option("collections")
    expect(page.get_by_test_id("picker")).to_be_visible()
    for seat in range(3):
        page.get_by_test_id(f"picker-seat-{seat}").tap()
        for card in cards_of(hands[seat])[: 5 if seat == 2 else 13]:
            tap(page, "picker-grid", str(card))
    count = page.get_by_test_id("picker-seat-2").locator("[data-count]")
    expect(count).to_have_text("٥/١٣")
    assert page.evaluate(LATIN_DIGITS, False) == []
    for card in cards_of(hands[2])[5:]:
        tap(page, "picker-grid", str(card))
    expect(page.get_by_test_id("picker-seat-3").locator("[data-count]")).to_have_text("١٣/١٣")
    page.get_by_test_id("picker-to-play").tap()
    for trick in tricks[:r_trick]:
        for index in trick:
            expect(page.get_by_test_id("picker-status")).not_to_be_empty()
            tap(page, "picker-hand", str(ALL_CARDS[index]))
    expect(page.get_by_test_id("picker-verdict")).not_to_be_empty()  # the revoke, told
    expect(page.get_by_test_id("picker-status")).to_contain_text(re.compile("[٠-٩]"))  # trick
    assert page.evaluate(LATIN_DIGITS, False) == []
