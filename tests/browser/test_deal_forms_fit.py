"""Every contract's deal form fits one phone screen (390×844) without scrolling, in English
and in Arabic: the queens on one grid (cards by players), the counts in four rows, Trix
tapped in order, and the Trex Complex combinations (R9.6) with their counts side by side.

What is measured is the whole document's height against the viewport's, with the form as
it opens (no card doubled yet)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page

from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.rules.switches import Combination
from scorekeeper.store import games as services
from tests.browser.closing import close
from tests.browser.conftest import PHONE, join

pytestmark = pytest.mark.browser

SINGLE = ["king", "queens", "diamonds", "collections", "trix"]
COMBINED = [
    "king,queens,diamonds,collections",
    "king,queens",
    "queens,diamonds",
    "diamonds,collections",
    "king,queens,collections",
]
LONG_NAMES = ["Abdulrahman", "سامي", "Marie-Christine", "عبد الرحمن"]


@pytest.fixture
def games(app: Flask) -> Iterator[dict[str, tuple[str, str]]]:
    with app.app_context():
        standard = services.create_game(LONG_NAMES, 0, RuleSet())
        complex_ = services.create_game(LONG_NAMES, 0, RuleSet(combination=Combination.ANY))
        yield {"standard": (standard[0].id, standard[1]), "complex": (complex_[0].id, complex_[1])}


@pytest.fixture
def editor(browser: Browser, live_server: str, games: dict[str, tuple[str, str]]) -> Iterator[Page]:
    """A phone that joined both games with their edit links."""
    context = browser.new_context(**PHONE)  # type: ignore[arg-type]
    page = context.new_page()
    for game_id, token in games.values():
        join(page, live_server, game_id, token)
    try:
        yield page
    finally:
        close(context)


def overflow(page: Page) -> tuple[int, int]:
    """The page's height (its content's, at least the screen's) and the screen's."""
    return page.evaluate(
        "[Math.max(document.documentElement.scrollHeight,"
        " Math.ceil(document.body.getBoundingClientRect().bottom)), window.innerHeight]"
    )


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_every_deal_form_fits_one_phone_screen(
    live_server: str, editor: Page, games: dict[str, tuple[str, str]], lang: str
) -> None:
    cases = [("standard", c) for c in SINGLE] + [("complex", c) for c in COMBINED]
    too_tall = []
    for rules, contracts in cases:
        url = f"{live_server}/games/{games[rules][0]}/deals/new?contracts={contracts}&lang={lang}"
        editor.goto(url)
        assert editor.get_by_test_id("deal-form").count() == 1, url
        height, screen = overflow(editor)
        print(f"{lang} {contracts:36s} {height:4d} px of {screen}")
        if height > screen:
            too_tall.append((contracts, height))
    assert not too_tall, f"{lang}: taller than the screen: {too_tall}"
