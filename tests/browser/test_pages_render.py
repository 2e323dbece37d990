"""The pages render in a real browser (Debian's Chromium), not only in the test client."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page

from scorekeeper.rules.captures import Capture, Captures
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.game_log import DealEntry
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import games as services
from tests.browser.closing import close

pytestmark = pytest.mark.browser


def test_index_renders_in_chromium(live_server: str, page: Page) -> None:
    page.goto(live_server + "/")
    assert page.title() == "scorekeeper"
    assert page.locator("h1").inner_text() == "scorekeeper"


def test_times_are_shown_in_the_phones_time_zone(
    live_server: str, browser: Browser, app: Flask
) -> None:
    """Pages send UTC (readable without JavaScript) and show the phone's own time: a
    table in Amman (UTC+3) sees its own clock on a deal's page."""
    with app.app_context():
        loaded, _token = services.create_game(["Rana", "Sami", "Omar", "Lina"], 0, RuleSet())
        king = DealEntry((Contract.KING,), Captures(king_of_hearts=Capture(1)))
        services.record_deal(loaded.id, king)
    context = browser.new_context(timezone_id="Asia/Amman", locale="en-GB")
    try:
        page = context.new_page()
        page.goto(f"{live_server}/games/{loaded.id}/deals/1?lang=en")
        time = page.locator("time").first
        utc = datetime.fromisoformat(time.get_attribute("datetime") or "")
        local = utc.astimezone(timezone(timedelta(hours=3)))
        text = time.inner_text()
        assert "UTC" not in text
        assert f"{local.hour:02d}:{local.minute:02d}" in text or (
            f"{local.hour % 12 or 12}:{local.minute:02d}" in text
        )
    finally:
        close(context)
