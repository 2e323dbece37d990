"""Tap targets on a phone (390×844): at least 44 × 44 px for what is tapped at the table,
the score sheet's deal numbers, the way back, Refresh and the top menu."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from playwright.sync_api import Browser

from scorekeeper.rules.captures import Capture, Captures
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.game_log import DealEntry
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import games as services
from tests.browser.closing import close

pytestmark = pytest.mark.browser

SMALLEST = 44 - 0.5  # CSS pixels, less rounding

TARGETS = {
    "/games/{id}": [
        ".sheet td.n a",
        ".site-nav a",
        ".brand",
        ".lang-menu summary",
        "[data-testid=refresh]",
    ],
    "/games/{id}/deals/1": ["[data-testid=back-to-game]"],
}


@pytest.fixture
def game_id(app: Flask) -> Iterator[str]:
    with app.app_context():
        loaded, _token = services.create_game(["Rana", "Sami", "Omar", "Lina"], 0, RuleSet())
        services.record_deal(loaded.id, DealEntry((Contract.KING,), Captures(Capture(1))))
        yield loaded.id


def test_what_is_tapped_at_the_table_is_at_least_44_px(
    live_server: str, browser: Browser, game_id: str
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        page = context.new_page()
        small = []
        for path, selectors in TARGETS.items():
            page.goto(live_server + path.format(id=game_id))
            for selector in selectors:
                elements = page.locator(selector)
                assert elements.count(), selector
                for i in range(elements.count()):
                    box = elements.nth(i).bounding_box()
                    assert box is not None, selector
                    if box["width"] < SMALLEST or box["height"] < SMALLEST:
                        small.append((path, selector, round(box["width"]), round(box["height"])))
        assert not small
    finally:
        close(context)
