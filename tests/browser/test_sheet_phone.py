"""The score sheet on a phone (390 px), in English and Arabic: no player or contract name
is cut off unseen (every cell's text fits its cell, scrollWidth ≤ clientWidth, or is a name
cut with an ellipsis whose whole text is its title and shows on a tap), Trix is never a
bare "J" (read as the Arabic letter ل), and the "contracts played" grid shows kings by
contracts with the deal that played each."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page

from scorekeeper.rules.captures import Capture, Captures
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.game_log import DealEntry
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.rules.switches import Combination
from scorekeeper.store import games as services
from tests.browser.closing import close
from tests.browser.conftest import PHONE, join

pytestmark = pytest.mark.browser

LONG_NAMES = ["Abdulrahman", "عبد الرحمن الخطيب", "Marie-Christine", "Konstantinopolsky"]
CELLS = ".sheet th, .sheet td, .played th, .played td, .total-name, .totals .total-score"
OVERFLOWING = """sel => Array.from(document.querySelectorAll(sel))
  .filter(e => e.scrollWidth > e.clientWidth + 0.5 && e.getClientRects().length)
  .filter(e => {
    const cut = e.matches('.name-cut') ? e : e.querySelector('.name-cut');
    return !(cut && cut.title === e.textContent.trim());
  })
  .map(e => e.className + ': ' + e.textContent.trim().slice(0, 40))"""


@pytest.fixture
def game(app: Flask) -> Iterator[tuple[str, str]]:
    """Trix, the K♥, then the three other trick contracts in one deal (R9.6)."""
    with app.app_context():
        rules = RuleSet(combination=Combination.ANY)
        loaded, token = services.create_game(LONG_NAMES, 0, rules)
        deals = [
            DealEntry((Contract.TRIX,), Captures(trix_order=(1, 2, 3, 0))),
            DealEntry((Contract.KING,), Captures(king_of_hearts=Capture(1, 0))),
            DealEntry(
                (Contract.QUEENS, Contract.DIAMONDS, Contract.COLLECTIONS),
                Captures(
                    queens=(Capture(0), Capture(1), Capture(2), Capture(3)),
                    diamonds=(4, 3, 3, 3),
                    tricks=(4, 3, 3, 3),
                ),
            ),
        ]
        for entry in deals:
            services.record_deal(loaded.id, entry)
        yield loaded.id, token


@pytest.fixture
def phone_editor(browser: Browser, live_server: str, game: tuple[str, str]) -> Iterator[Page]:
    context = browser.new_context(**PHONE)  # type: ignore[arg-type]
    page = context.new_page()
    join(page, live_server, *game)
    try:
        yield page
    finally:
        close(context)


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_no_name_or_contract_is_cut_off_on_a_phone(
    live_server: str, phone_editor: Page, game: tuple[str, str], lang: str
) -> None:
    page = phone_editor
    page.goto(f"{live_server}/games/{game[0]}?lang={lang}")
    assert page.locator(".sheet td.contract").count() == 3
    overflowing = page.evaluate(OVERFLOWING, CELLS)
    assert overflowing == [], overflowing
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    marks = page.locator(".sheet .sym").all_inner_texts()
    assert "J" not in marks and "♠♥♦♣" in marks


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_contracts_played_grid_is_kings_by_contracts(
    live_server: str, phone_editor: Page, game: tuple[str, str], lang: str
) -> None:
    page = phone_editor
    page.goto(f"{live_server}/games/{game[0]}?lang={lang}")
    row = page.get_by_test_id("played-1")
    assert row.locator("th").inner_text().strip() == LONG_NAMES[0]
    # K♥ in deal 2, then the other three trick contracts with it in deal 3; Trix in deal 1
    assert row.locator("td").all_inner_texts() == ["2", "3", "3", "3", "1"]
    overflowing = page.evaluate(OVERFLOWING, ".played th, .played td")
    assert overflowing == [], overflowing
