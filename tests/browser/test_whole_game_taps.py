"""A whole 20-deal game on a phone (390×844), counted: every tap and every keystroke.

From the game page of a started game to game over, with one mistake (the wrong taker of
the K♥) corrected through the latest deal's Edit. The target: at most 90 taps and 25
keystrokes. A tap on something outside the screen counts a scroll first (the target:
none). The figures are printed; run with ``-s`` to see them:

    pytest tests/browser/test_whole_game_taps.py -s

Played in English in the light theme and in Arabic in the dark one. After every deal the
totals are the engine's own scores of what was entered (R3–R7, R11)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from playwright.sync_api import Browser, expect

from scorekeeper.rules.captures import Captures
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import games as services
from tests.browser.closing import close
from tests.browser.conftest import PHONE, join
from tests.browser.phone import Deal, P, Thumb, assert_totals, engine_totals, enter_deal, fill, save
from tests.common import NAMES, C, D, K, Q, T

pytestmark = pytest.mark.browser

MAX_TAPS, MAX_KEYS = 90, 25

DEALS = [
    # Kingdom 1: Rana is king.
    Deal(K, Captures(king_of_hearts=P(2))),
    Deal(Q, Captures(queens=(P(0), P(1, 1), P(2), P(3)))),  # Q♥ doubled by its holder
    Deal(D, Captures(diamonds=(3, 4, 5, 1))),
    Deal(C, Captures(tricks=(2, 4, 6, 1))),
    Deal(T, Captures(trix_order=(2, 0, 3, 1))),
    # Kingdom 2: Sami.
    Deal(T, Captures(trix_order=(0, 1, 2, 3))),
    Deal(C, Captures(tricks=(4, 3, 3, 3))),
    Deal(D, Captures(diamonds=(0, 0, 13, 0))),  # all 13 to Omar: one tap
    Deal(Q, Captures(queens=(P(2), P(3), P(0), P(2)))),
    Deal(K, Captures(king_of_hearts=P(0, 3))),  # doubled by Lina, taken by Rana
    # Kingdom 3: Omar.
    Deal(Q, Captures(queens=(P(1), P(1), P(2), P(3)))),
    Deal(K, Captures(king_of_hearts=P(3))),  # first entered as taken by Sami: corrected
    Deal(T, Captures(trix_order=(1, 3, 0, 2))),
    Deal(D, Captures(diamonds=(2, 2, 7, 2))),
    Deal(C, Captures(tricks=(0, 5, 5, 3))),
    # Kingdom 4: Lina.
    Deal(C, Captures(tricks=(3, 3, 3, 4))),
    Deal(T, Captures(trix_order=(3, 2, 1, 0))),
    Deal(K, Captures(king_of_hearts=P(1))),
    Deal(Q, Captures(queens=(P(3), P(0), P(1), P(2)))),
    Deal(D, Captures(diamonds=(4, 3, 4, 2))),
]
MISTAKE_AT, MISTAKEN_TAKER = 12, 1


def play(thumb: Thumb) -> None:
    page = thumb.page
    played: list[Deal] = []
    for n, deal in enumerate(DEALS, start=1):
        entered = deal
        if n == MISTAKE_AT:
            entered = Deal(K, Captures(king_of_hearts=P(MISTAKEN_TAKER)))
        enter_deal(thumb, entered)
        assert_totals(page, engine_totals([*played, entered]))
        if n == MISTAKE_AT:  # the table notices at once: Edit, the right taker, Save
            thumb.tap(page.get_by_test_id("latest-edit"), loads=True)
            fill(thumb, deal)
            save(thumb)
        played.append(deal)
        assert_totals(page, engine_totals(played))
    expect(page.get_by_test_id("final-standings")).to_be_visible()


@pytest.fixture
def game(app: Flask) -> Iterator[tuple[str, str]]:
    with app.app_context():
        loaded, token = services.create_game(NAMES, 0, RuleSet())
        yield loaded.id, token


@pytest.mark.parametrize(("lang", "theme"), [("en", "light"), ("ar", "dark")])
def test_a_whole_game_in_at_most_90_taps_and_25_keystrokes(
    live_server: str, browser: Browser, game: tuple[str, str], lang: str, theme: str
) -> None:
    context = browser.new_context(**PHONE)  # type: ignore[arg-type]
    try:
        page = context.new_page()
        context.set_default_timeout(10_000)
        join(page, live_server, *game)
        page.goto(f"{live_server}/theme/{theme}?next=/")
        page.goto(f"{live_server}/games/{game[0]}?lang={lang}")
        assert page.locator("html").get_attribute("lang") == lang
        thumb = Thumb(page)
        play(thumb)
        print(
            f"\nwhole game ({lang}, {theme}): {thumb.taps} taps, {thumb.keys} keystrokes, "
            f"{thumb.scrolls} scrolls for 20 deals and one correction "
            f"(targets: {MAX_TAPS} taps, {MAX_KEYS} keystrokes); before the first deal, "
            "1 click to join with the edit link (the game was created by the services)"
        )
        assert thumb.taps <= MAX_TAPS
        assert thumb.keys <= MAX_KEYS
        assert thumb.scrolls == 0
    finally:
        close(context)
