"""Team kingdoms on a phone (R9.5): their controls show only with partners, and a game
started from the "Team kingdoms" preset says which team each kingdom belongs to."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.common import NAMES

pytestmark = pytest.mark.browser


def test_r9_5_team_kingdom_controls_follow_the_partnership(live_server: str, phone: Page) -> None:
    page = phone
    page.goto(live_server + "/games/new")
    for seat, name in enumerate(NAMES):
        page.get_by_test_id(f"player-{seat}").fill(name)
    page.locator("label:has(> #first_king-0)").tap()
    page.get_by_test_id("more-rules").locator("summary").tap()
    team = page.get_by_test_id("rule-team_kingdoms")
    expect(team).to_be_hidden()
    page.get_by_test_id("rule-partnership").select_option("on")
    expect(team).to_be_visible()
    page.get_by_test_id("rule-partnership").select_option("off")
    expect(team).to_be_hidden()
    page.locator("label:has(> [data-testid=preset-team_kingdoms])").tap()
    expect(team).to_be_visible()
    expect(team).to_have_value("on")
    with page.expect_navigation():
        page.get_by_test_id("start-game").tap()
    expect(page.get_by_test_id("kingdom-team")).to_contain_text(f"{NAMES[0]} & {NAMES[2]}")
    expect(page.get_by_test_id("game-status")).to_contain_text("Deal 1 of 10")
