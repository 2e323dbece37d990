"""The pages render in a real browser (Debian's Chromium), not only in the test client."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

pytestmark = pytest.mark.browser


def test_index_renders_in_chromium(live_server: str, page: Page) -> None:
    page.goto(live_server + "/")
    assert page.title() == "scorekeeper"
    assert page.locator("h1").inner_text() == "scorekeeper"
