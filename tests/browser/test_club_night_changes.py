"""A player leaves a club night mid-round, in Chromium: the director opens "A player leaves",
seats the player sitting out in his place, and the table's game page names the substitute."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, expect

pytestmark = pytest.mark.browser

NINE = ["Rana", "Sami", "Omar", "Lina", "Hadi", "Maya", "Nour", "Ziad", "Dana"]
WAIT_MS = 15_000


def test_the_director_seats_a_substitute_from_the_event_page(
    live_server: str, contexts: Callable[..., BrowserContext]
) -> None:
    page = contexts(WAIT_MS).new_page()
    page.goto(f"{live_server}/events/new")
    page.get_by_test_id("event-name").fill("Thursday club")
    page.get_by_test_id("event-players").fill("\n".join(NINE))
    page.get_by_test_id("event-round_kind").select_option("kingdom")
    page.get_by_test_id("create-event").click()
    page.get_by_test_id("draw-round").click()
    page.get_by_test_id("confirm-yes").click()
    out = page.get_by_test_id("sitting-out").inner_text().split(": ", 1)[1].strip()
    leaving_form = page.get_by_test_id("leaving-1")
    leaving_form.locator("summary").click()
    leaving = page.get_by_test_id("replace-player").locator("option").first.inner_text()
    page.get_by_test_id("replace-player").select_option(leaving)
    page.get_by_test_id("replace-substitute").fill(out)
    page.get_by_test_id("replace-submit").click()
    expect(page.get_by_test_id("confirm-message")).to_contain_text(f"{leaving} leaves")
    page.get_by_test_id("confirm-yes").click()
    expect(page.get_by_test_id("round-change")).to_contain_text(
        f"took the seat of {leaving} after 0 deals"
    )
    expect(page.get_by_test_id("sitting-out")).to_have_count(0)
    page.get_by_test_id("table-correct-link").first.click()
    expect(page.get_by_test_id("directing")).to_be_visible()
    expect(page.get_by_test_id("seat-change")).to_contain_text(out)
