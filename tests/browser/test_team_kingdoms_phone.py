"""Team kingdoms on a phone (R9.5): their controls show only with partners, and a game
started from the "Team kingdoms" preset says which team each kingdom belongs to."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.phone import Thumb, tap_and_load, tap_choice, tap_preset
from tests.common import NAMES

pytestmark = pytest.mark.browser


def test_r9_5_team_kingdom_controls_follow_the_partnership(live_server: str, phone: Page) -> None:
    page, thumb = phone, Thumb(phone)
    page.goto(live_server + "/games/new")
    for seat, name in enumerate(NAMES):
        page.get_by_test_id(f"player-{seat}").fill(name)
    tap_choice(thumb, "first_king-0")
    page.get_by_test_id("more-rules").locator("summary").tap()
    team = page.get_by_test_id("rule-team_kingdoms")
    expect(team).to_be_hidden()
    page.get_by_test_id("rule-partnership").select_option("on")
    expect(team).to_be_visible()
    page.get_by_test_id("rule-partnership").select_option("off")
    expect(team).to_be_hidden()
    tap_preset(thumb, "team_kingdoms")
    expect(team).to_be_visible()
    expect(team).to_have_value("on")
    tap_and_load(page, page.get_by_test_id("start-game"))
    expect(page.get_by_test_id("kingdom-team")).to_contain_text(f"{NAMES[0]} & {NAMES[2]}")
    expect(page.get_by_test_id("game-status")).to_contain_text("Deal 1 of 10")
