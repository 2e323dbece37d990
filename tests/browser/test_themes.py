"""Light and dark: every page readable in both (text contrast at least 4.5:1, WCAG AA),
the phone's own setting followed unless the player chose, and the choice remembered."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

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

# The contrast of every element's own text against the background it is drawn on
# (the nearest ancestor with a background colour), as WCAG 2 defines it.
CONTRAST = """
() => {
  function rgba(text) {
    const m = text.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1};
  }
  function lum(c) {
    const f = v => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
  }
  function ground(el) {
    for (let e = el; e; e = e.parentElement) {
      const c = rgba(getComputedStyle(e).backgroundColor);
      if (c && c.a > 0.5) return c;
    }
    const root = rgba(getComputedStyle(document.documentElement).backgroundColor);
    return root || {r: 255, g: 255, b: 255};
  }
  const worst = [];
  for (const el of document.querySelectorAll("body *")) {
    const own = Array.from(el.childNodes).some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.getClientRects().length) continue;
    const style = getComputedStyle(el);
    if (style.visibility === "hidden" || Number(style.opacity) < 0.5) continue;
    const fg = rgba(style.color), bg = ground(el);
    const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    const ratio = (a + 0.05) / (b + 0.05);
    if (ratio < 4.5) {
      worst.push([el.tagName + "." + el.className, el.textContent.trim().slice(0, 30),
                  ratio.toFixed(2)]);
    }
  }
  return worst;
}
"""


@pytest.fixture
def game_id(app: Flask) -> Iterator[str]:
    with app.app_context():
        loaded, _token = services.create_game(["Rana", "Sami", "Omar", "Lina"], 0, RuleSet())
        king = DealEntry((Contract.KING,), Captures(king_of_hearts=Capture(1, 0)))
        services.record_deal(loaded.id, king)
        yield loaded.id


def pages(game: str) -> list[str]:
    return [
        "/",
        "/help",
        "/games/new",
        f"/games/{game}",
        f"/games/{game}/deals/1",
        f"/games/{game}/deals/new?contracts=queens",
        "/disputes",
        "/disputes/play",
        "/disputes/claim",
        "/no-such-page",
    ]


def low_contrast(page: Page, url: str) -> list[Any]:
    page.goto(url)
    found: list[Any] = page.evaluate(CONTRAST)
    return found


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_is_readable_in_both_themes(
    live_server: str, browser: Browser, game_id: str, scheme: str
) -> None:
    context = browser.new_context(color_scheme=scheme, viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        failures = {
            url: low for url in pages(game_id) if (low := low_contrast(page, live_server + url))
        }
        assert not failures
        background = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
        assert (background == "rgb(22, 22, 26)") == (scheme == "dark")
    finally:
        close(context)


def test_the_players_choice_overrides_the_phone_and_is_remembered(
    live_server: str, browser: Browser
) -> None:
    context = browser.new_context(color_scheme="dark")
    try:
        page = context.new_page()
        page.goto(live_server + "/help")
        page.get_by_test_id("lang-menu").locator("summary").click()
        page.get_by_test_id("theme-light").click()
        page.wait_for_url("**/help")
        assert page.evaluate("document.documentElement.dataset.theme") == "light"
        assert (
            page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
            != "rgb(22, 22, 26)"
        )
        page.goto(live_server + "/")  # remembered (a cookie) on every page
        assert page.evaluate("document.documentElement.dataset.theme") == "light"
        page.goto(live_server + "/theme/auto?next=/")
        assert page.evaluate("document.documentElement.dataset.theme") is None
    finally:
        close(context)
