"""The time a redeal was played (R8), from the phone's clock, as for a deal (Chromium, 390×844).

The game page's redeal form is posted as a plain form; its hidden ``played_at`` is
filled at Save by deal_form.js, which the page loads once idle.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from flask import Flask
from playwright.sync_api import BrowserContext, expect

from scorekeeper.store import games as services
from tests.browser.conftest import join
from tests.common import NAMES

pytestmark = pytest.mark.browser


def test_r8_a_redeal_saved_online_keeps_the_time_it_was_played(
    app: Flask, live_server: str, contexts: Callable[..., BrowserContext]
) -> None:
    made = app.test_client().post("/api/v1/games", json={"players": NAMES, "first_king": 0})
    game = made.get_json()
    page = contexts().new_page()
    join(page, live_server, game["id"], game["edit_token"])
    page.wait_for_function("() => !!window.SKPlayed")  # the page idle: its helpers loaded
    page.get_by_test_id("redeal").locator("summary").click()
    with page.expect_navigation():
        page.get_by_test_id("redeal-submit").click()
    expect(page.get_by_test_id("game-status")).to_be_visible()
    with app.app_context():
        (row,) = services.load_game(game["id"]).log
    assert row.played_at is not None
    assert abs(row.played_at - datetime.now(UTC)) < timedelta(minutes=5)  # this phone's clock
