"""A club night in Chromium: the director creates an 8-player, 2-round event and draws its
rounds, each table's phone joins by its edit link and records, and the standings board,
open all along, follows every deal without reloading."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from scorekeeper.rules.captures import Captures
from tests.browser.conftest import join
from tests.browser.phone import Deal, P, Thumb, fill, form_url, save, tap_choice
from tests.common import K
from tests.web.events.test_api import kingdom

pytestmark = pytest.mark.browser

SCREEN = {"viewport": {"width": 1280, "height": 800}}
EIGHT = ["Rana", "Sami", "Omar", "Lina", "Hadi", "Maya", "Nour", "Ziad"]
LIVE_MS = 8000  # the board polls every 3 s
WAIT_MS = 15_000


def create_event(page: Page, base: str) -> str:
    page.goto(f"{base}/events/new")
    page.get_by_test_id("event-name").fill("Thursday club")
    page.get_by_test_id("event-players").fill("\n".join(EIGHT))
    page.get_by_test_id("event-rounds").fill("2")
    page.get_by_test_id("event-round_kind").select_option("kingdom")
    page.get_by_test_id("create-event").click()
    expect(page.get_by_test_id("director-controls")).to_be_visible()
    expect(page.get_by_test_id("director-link-url")).to_be_visible()  # shown big at once
    return page.url.split("#")[0]  # the page opens at the director's link


def draw(page: Page, number: int) -> list[str]:
    """Draw the next round; the tables' edit links."""
    page.get_by_test_id("draw-round").click()
    expect(page.get_by_test_id("confirm-message")).to_contain_text(f"Draw round {number} now?")
    page.get_by_test_id("confirm-yes").click()
    expect(page.get_by_test_id(f"round-{number}")).to_be_visible()
    links = page.get_by_test_id(f"round-{number}").get_by_test_id("table-edit-link")
    expect(links).to_have_count(2)
    return [links.nth(i).get_attribute("href") or "" for i in range(2)]


def play_table(phone: Page, base: str, edit_link: str) -> None:
    """The table's phone joins, records the King of Hearts on its page, the rest by the API."""
    game_id, token = re.findall(r"/games/([^/]+)/join/([^/?#]+)", edit_link)[0]
    join(phone, base, game_id, token)
    deals = kingdom()
    taker = deals[1]["captures"]["king_of_hearts"]["taker"]
    king = Deal(K, Captures(king_of_hearts=P(taker)))
    phone.goto(form_url(f"{base}/games/{game_id}", king))
    thumb = Thumb(phone)
    expect(phone.get_by_test_id("seven-hearts")).to_be_visible()  # R2: the first king
    tap_choice(thumb, "king-0")
    fill(thumb, king)
    save(thumb, "recorded")
    for body in [deals[0], *deals[2:]]:
        answer = phone.request.post(
            f"{base}/api/v1/games/{game_id}/deals",
            data=body,
            headers={"Authorization": f"Bearer {token}"},
        )
        assert answer.status == 201, answer.text()


def board_points(board: Page) -> list[str]:
    cells = board.get_by_test_id("board-standings-table").locator("tbody tr td:nth-child(3)")
    return cells.all_inner_texts()


def test_a_two_round_club_night_with_the_board_open(
    live_server: str, contexts: Callable[..., BrowserContext]
) -> None:
    director = contexts(WAIT_MS).new_page()
    event_url = create_event(director, live_server)
    links = draw(director, 1)
    board = contexts(WAIT_MS, **SCREEN).new_page()
    board.goto(f"{event_url}/board")
    # Just drawn, the board opens at "find your seat"; the standings follow on its screens.
    expect(board.get_by_test_id("board-seats")).to_be_visible()
    board.evaluate("window.stillTheSamePage = true")
    assert set(board_points(board)) == {"0"}
    for link in links:
        play_table(contexts(WAIT_MS).new_page(), live_server, link)
    board.wait_for_function(
        "() => [...document.querySelectorAll("
        "'[data-testid=board-standings-table] tbody tr td:nth-child(3)')]"
        ".some(td => td.textContent.trim() !== '0')",
        timeout=LIVE_MS,
    )
    assert board.evaluate("window.stillTheSamePage") is True
    # The board turns through its screens (every 12 s): the standings, then the tables.
    expect(board.get_by_test_id("board-tables")).to_be_visible(timeout=40_000)
    director.get_by_test_id("lock-round-1").click()
    expect(director.get_by_test_id("round-locked")).to_be_visible()
    second = draw(director, 2)
    board.wait_for_function(
        "() => document.querySelector('[data-testid=board-tables] h2').textContent.includes('2')",
        timeout=LIVE_MS,
    )
    for link in second:
        play_table(contexts(WAIT_MS).new_page(), live_server, link)
    director.get_by_test_id("close-event").click()
    expect(director.get_by_test_id("event-closed")).to_have_count(0)  # asked first
    director.get_by_test_id("confirm-yes").click()
    expect(director.get_by_test_id("event-closed")).to_be_visible()
    standings = director.get_by_test_id("standings").locator("tbody tr")
    expect(standings).to_have_count(8)
    assert board.evaluate("window.stillTheSamePage") is True
