"""Names never break inside a word, on a phone (390×844), in English and Arabic: they wrap
at spaces only; a word too long for its box ends in an ellipsis, with the whole name in the
title and shown on a tap. Long names in Latin, Arabic and Cyrillic script."""

from __future__ import annotations

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, expect

from scorekeeper.rules.captures import Captures
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.game_log import DealEntry
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import games as services
from tests.browser.conftest import PHONE, join

pytestmark = pytest.mark.browser

LONG_NAMES = [
    "Abdelrahman",
    "Alexandra Konstantinopoulou",
    "عبدالرحمن الحسيني",
    "Константинопольская",
]
NAME_BOXES = ".total-name, .sheet thead th, .four .choice, .card-grid thead th, .count-row label"
# Each word of each name box: the lines its letters lie on (a word split across two lines
# has rectangles at two heights).
SPLIT_WORDS = """(selector) => {
  const split = [];
  for (const box of document.querySelectorAll(selector)) {
    if (!box.checkVisibility()) continue;
    const walk = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      for (const match of node.textContent.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const tops = new Set(Array.from(range.getClientRects())
          .filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (tops.size > 1) split.push(match[0]);
      }
    }
  }
  return split;
}"""


@pytest.fixture
def game(browser: Browser, live_server: str, app: Flask) -> tuple[Page, str]:
    with app.app_context():
        loaded, token = services.create_game(LONG_NAMES, 0, RuleSet())
        services.record_deal(
            loaded.id, DealEntry((Contract.DIAMONDS,), Captures(diamonds=(3, 4, 6, 0)))
        )
    context = browser.new_context(**PHONE)  # type: ignore[arg-type]
    page = context.new_page()
    join(page, live_server, loaded.id, token)
    return page, f"{live_server}/games/{loaded.id}"


@pytest.mark.parametrize("lang", ["en", "ar"])
@pytest.mark.parametrize(
    "where",
    [
        "",
        "/deals/new?contracts=trix",
        "/deals/new?contracts=queens",
        "/deals/new?contracts=diamonds",
    ],
)
def test_no_name_is_split_inside_a_word(game: tuple[Page, str], lang: str, where: str) -> None:
    page, url = game
    page.goto(f"{url}{where}{'&' if '?' in where else '?'}lang={lang}")
    assert page.locator(NAME_BOXES).count() >= 4
    assert page.evaluate(SPLIT_WORDS, NAME_BOXES) == []


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_name_cut_short_has_its_whole_name_in_the_title_and_on_a_tap(
    game: tuple[Page, str], lang: str
) -> None:
    page, url = game
    page.goto(f"{url}?lang={lang}")
    cut = page.locator(".totals .name-cut")
    expect(cut.first).to_be_visible()
    names = [cut.nth(i).get_attribute("title") for i in range(cut.count())]
    assert "Alexandra Konstantinopoulou" in names or "Константинопольская" in names
    assert set(names) <= set(LONG_NAMES)
    target = cut.filter(has_text="Константинопольская")
    target.tap()
    expect(page.get_by_test_id("name-tip")).to_have_text("Константинопольская")
    expect(page.get_by_test_id("name-tip")).to_be_in_viewport()
    page.goto(f"{url}/deals/new?contracts=trix&lang={lang}")
    button = page.get_by_test_id("trix-tap-1")
    assert button.locator(".name-cut").get_attribute("title") == LONG_NAMES[1]
    button.tap()
    expect(page.get_by_test_id("name-tip")).to_have_text(LONG_NAMES[1])
