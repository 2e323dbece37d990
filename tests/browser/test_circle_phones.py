"""A circle on two phones (Chromium, 390×844): one creates it and shares its edit link, the
other opens that link; each plays a short game (one kingdom, five deals) in the circle, and
the circle's table and a player's page show the right games and wins.

Screenshots of the circle's pages in English and Arabic go to artifacts/screenshots/.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from scorekeeper.rules.captures import Captures
from tests.browser.conftest import screenshot
from tests.browser.phone import (
    Deal,
    P,
    Thumb,
    assert_fits,
    assert_totals,
    engine_totals,
    enter_deal,
    tap_and_load,
)
from tests.common import C, D, K, Q, T

pytestmark = pytest.mark.browser

MEMBERS = ["Rana", "Sami", "عمر", "Lina"]
# One kingdom, king at seat 0, every contract alone, no card doubled. Per seat:
#   K♥ taken by seat 1 -> 0 −75 0 0; queens to 1,2,3,3 -> 0 −25 −25 −50;
#   diamonds 1,2,3,7 -> −10 −20 −30 −70; tricks 1,2,3,7 -> −15 −30 −45 −105;
#   trix 0,1,2,3 -> +200 +150 +100 +50. Totals 175, 0, 0, −175: seat 0 wins.
SHORT_GAME = [
    Deal(K, Captures(king_of_hearts=P(1))),
    Deal(Q, Captures(queens=(P(1), P(2), P(3), P(3)))),
    Deal(D, Captures(diamonds=(1, 2, 3, 7))),
    Deal(C, Captures(tricks=(1, 2, 3, 7))),
    Deal(T, Captures(trix_order=(0, 1, 2, 3))),
]
SEAT_0_WINS = 175


def create_circle(page: Page, base: str) -> str:
    """Create the circle with its four usual players and short games; its page's URL."""
    page.goto(f"{base}/circles")
    page.get_by_test_id("circle-name").tap()
    page.keyboard.type("Thursday table")
    for i, name in enumerate(MEMBERS):
        page.get_by_test_id(f"member-{i}").fill(name)
    page.get_by_test_id("circle-short").check()
    tap_and_load(page, page.get_by_test_id("create-circle"))
    expect(page.get_by_test_id("flash")).to_contain_text("The circle is ready")
    expect(page.get_by_test_id("circle-title")).to_have_text("Thursday table")
    return page.url


def join_circle(page: Page, edit_url: str) -> None:
    """Open the circle's edit link and take it (a button: a link alone changes nothing)."""
    page.goto(edit_url)
    tap_and_load(page, page.get_by_test_id("join-circle"))
    expect(page.get_by_test_id("flash")).to_contain_text("This phone can now start games")
    expect(page.get_by_test_id("circle-new-game")).to_be_visible()


def start_game(page: Page, circle_url: str, seats: list[str]) -> None:
    """Pick each seat's member with the big buttons (or type a new player); a short game."""
    page.goto(circle_url)
    tap_and_load(page, page.get_by_test_id("circle-new-game"))
    for seat, name in enumerate(seats):
        fieldset = page.get_by_test_id(f"seat-{seat}")
        button = fieldset.locator("label.choice", has_text=name)
        if button.count():
            button.tap()
        else:
            page.get_by_test_id(f"new-{seat}").fill(name)
    expect(page.get_by_test_id("short-game")).to_be_checked()  # the circle's usual length
    assert_fits(page)
    tap_and_load(page, page.get_by_test_id("start-circle-game"))
    expect(page.get_by_test_id("game-status")).to_have_text("Deal 1 of 5")


def play_short_game(page: Page) -> None:
    """The five deals of :data:`SHORT_GAME`, each through its form; seat 0 wins."""
    thumb = Thumb(page)
    for n, deal in enumerate(SHORT_GAME, start=1):
        expect(page.get_by_test_id("game-status")).to_have_text(f"Deal {n} of 5")
        enter_deal(thumb, deal, f"Deal {n} recorded")
    expect(page.get_by_test_id("game-status")).to_have_text("Game over")
    final = engine_totals(SHORT_GAME)
    assert final == [SEAT_0_WINS, 0, 0, -SEAT_0_WINS]
    assert_totals(page, final)


def table_rows(page: Page) -> dict[str, tuple[str, str]]:
    """The table as {name: (games, wins)}."""
    rows = page.get_by_test_id("table-row")
    out = {}
    for i in range(rows.count()):
        row = rows.nth(i)
        name = row.get_by_test_id("member-link").inner_text().strip()
        games = row.get_by_test_id("member-games").inner_text().strip()
        out[name] = (games, row.get_by_test_id("member-wins").inner_text().strip())
    return out


def test_a_circle_played_from_two_phones(
    live_server: str, contexts: Callable[[], BrowserContext]
) -> None:
    first, second = contexts().new_page(), contexts().new_page()
    circle_url = create_circle(first, live_server)
    assert_fits(first)
    edit_url = first.get_by_test_id("circle-edit-url").inner_text().strip()
    assert "/join/" in edit_url
    # The second phone without the link sees the circle but cannot start a game in it.
    second.goto(circle_url)
    expect(second.get_by_test_id("circle-new-game")).to_have_count(0)
    join_circle(second, edit_url)

    # Game 1 on the first phone: Rana (seat 0) wins.
    start_game(first, circle_url, MEMBERS)
    play_short_game(first)
    # Game 2 on the second phone, with a new player added on the fly: Hadi (seat 0) wins.
    start_game(second, circle_url, ["Hadi", "Sami", "عمر", "Rana"])
    play_short_game(second)

    for page in (first, second):
        page.goto(circle_url)
        expect(page.get_by_test_id("table-row")).to_have_count(5)
        assert table_rows(page) == {
            "Rana": ("2", "1"),
            "Hadi": ("1", "1"),
            "Sami": ("2", "0"),
            "عمر": ("2", "0"),
            "Lina": ("1", "0"),
        }
    # Ranked by wins, then win rate: Hadi (1 of 1) above Rana (1 of 2).
    expect(first.get_by_test_id("table-row").get_by_test_id("member-link")).to_have_text(
        ["Hadi", "Rana", "Sami", "عمر", "Lina"]
    )
    assert_fits(first)
    screenshot(first, "circle-table-en")

    tap_and_load(first, first.get_by_test_id("member-link").filter(has_text="Rana"))
    expect(first.get_by_test_id("member-name")).to_contain_text("Rana")
    expect(first.get_by_test_id("stat-games")).to_have_text("2")
    expect(first.get_by_test_id("stat-wins")).to_have_text("1")
    # Rana: 175 as seat 0 of game 1, −175 as seat 3 of game 2.
    expect(first.get_by_test_id("stat-average")).to_contain_text("0")
    head = first.get_by_test_id("head-to-head")
    expect(head.locator("tr", has_text="Sami")).to_contain_text("2")
    expect(first.locator("svg.chart")).to_have_count(2)  # running total, per contract
    assert_fits(first)
    screenshot(first, "circle-player-en")

    # The same pages in Arabic: right to left.
    first.goto(circle_url + "?lang=ar")
    expect(first.locator("html")).to_have_attribute("dir", "rtl")
    assert table_rows(first)["Rana"] == ("2", "1")
    assert_fits(first)
    screenshot(first, "circle-table-ar")
    tap_and_load(first, first.get_by_test_id("member-link").filter(has_text="عمر"))
    expect(first.get_by_test_id("stat-games")).to_have_text("2")
    expect(first.get_by_test_id("stat-wins")).to_have_text("0")
    assert_fits(first)
    assert screenshot(first, "circle-player-ar").exists()
