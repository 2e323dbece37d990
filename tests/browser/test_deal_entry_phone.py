"""The deal forms' conveniences on a phone (static/deal_form.js): Save waits, saying why,
until the counts add up to 13 (R5, R6); the last box fills itself; one tap gives all 13 to
one player; a queen's "doubled" toggle asks for its holder (R4)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, expect

from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import games as services
from tests.browser.closing import close
from tests.browser.conftest import PHONE, join
from tests.browser.phone import cell, tap_and_load, total_of
from tests.common import NAMES

pytestmark = pytest.mark.browser


@pytest.fixture
def form(browser: Browser, live_server: str, app: Flask) -> Iterator[tuple[Page, str]]:
    """A phone that may edit a new game; yields it and the game's new-deal address."""
    with app.app_context():
        loaded, token = services.create_game(NAMES, 0, RuleSet())
    context = browser.new_context(**PHONE)  # type: ignore[arg-type]
    page = context.new_page()
    join(page, live_server, loaded.id, token)
    try:
        yield page, f"{live_server}/games/{loaded.id}/deals/new"
    finally:
        close(context)


def test_r5_save_waits_for_thirteen_diamonds_and_says_why(form: tuple[Page, str]) -> None:
    page, url = form
    page.goto(url + "?contracts=diamonds")
    save, reason = page.get_by_test_id("save-deal"), page.get_by_test_id("save-reason")
    expect(save).to_be_disabled()
    expect(reason).to_have_text("The diamonds add up to 0, not 13.")
    page.locator("#diamonds-0").tap()
    page.keyboard.type("3")  # cannot grow a digit: the cursor moves on
    expect(page.locator("#diamonds-1")).to_be_focused()
    page.keyboard.type("4")
    page.keyboard.type("5")
    expect(page.locator("#diamonds-3")).to_have_value("1")  # the last box fills itself
    expect(save).to_be_enabled()
    expect(reason).to_be_hidden()
    page.locator("#diamonds-3").tap()
    page.keyboard.type("0")
    expect(page.get_by_test_id("diamonds-sum")).to_have_text("12 of 13")
    expect(save).to_be_disabled()
    expect(reason).to_have_text("The diamonds add up to 12, not 13.")


def test_r6_blanks_count_as_zero_and_the_last_box_fills_at_once(
    form: tuple[Page, str],
) -> None:
    page, url = form
    page.goto(url + "?contracts=collections")
    page.locator("#tricks-0").tap()
    page.keyboard.type("0")
    expect(page.locator("#tricks-1")).to_be_focused()
    page.keyboard.type("6")
    page.keyboard.type("7")
    expect(page.locator("#tricks-3")).to_have_value("0")
    expect(page.get_by_test_id("tricks-sum")).to_have_text("13 of 13")
    expect(page.get_by_test_id("save-deal")).to_be_enabled()


def test_one_tap_gives_all_thirteen_to_one_player(form: tuple[Page, str]) -> None:
    page, url = form
    page.goto(url + "?contracts=diamonds")
    page.get_by_test_id("diamonds-all-2").tap()
    for seat, count in enumerate([0, 0, 13, 0]):
        expect(page.locator(f"#diamonds-{seat}")).to_have_value(str(count))
    expect(page.get_by_test_id("save-deal")).to_be_enabled()
    tap_and_load(page, page.get_by_test_id("save-deal"))
    expect(page.get_by_test_id("flash")).to_contain_text("Deal 1 recorded")


def test_r4_a_doubled_queen_asks_for_its_holder(form: tuple[Page, str]) -> None:
    page, url = form
    page.goto(url + "?contracts=queens")
    holder = page.get_by_test_id("qh-doubled")
    expect(holder).to_be_hidden()
    cell(page, "qh_doubled").tap()
    expect(holder).to_be_visible()
    cell(page, "qh_doubled_by-3").tap()
    cell(page, "qh_doubled").tap()  # switched off: the holder is forgotten
    expect(holder).to_be_hidden()
    expect(page.locator("#qh_doubled_by-3")).not_to_be_checked()
    cell(page, "qh_doubled").tap()
    cell(page, "qh_doubled_by-3").tap()
    for key, seat in zip(("qs", "qh", "qd", "qc"), range(4), strict=True):
        cell(page, f"{key}_taker-{seat}").tap()
    tap_and_load(page, page.get_by_test_id("save-deal"))
    expect(page.get_by_test_id("flash")).to_contain_text("Deal 1 recorded")
    expect(total_of(page, 1)).to_have_text("−50")
    expect(total_of(page, 3)).to_have_text("0")
