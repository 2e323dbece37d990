"""The standings board on a projector, in Chromium: a 60-player night at 1280×800 and
1920×1080, in English and Arabic. No site menu; every player is seen across the board's
pages and columns, each line wholly on the screen; seats are labelled, never numbered like
ranks; the round clock the director set counts down and warns near the end, driven by the
page's own (controlled) clock, never the wall's; a round over says the next is being
drawn, and a new draw shows its seating."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.conftest import screenshot

pytestmark = pytest.mark.browser

SCREENS = {"projector": (1280, 800), "full-hd": (1920, 1080)}
SIXTY = [f"Player {chr(65 + i // 10)}{i % 10}" for i in range(60)]
ROTATE_MS = 12_000
WAIT_MS = 15_000
START = "2026-12-04T19:00:00Z"


def new_night(page: Page, base: str, players: list[str], rounds: int = 3) -> dict[str, Any]:
    answer = page.request.post(
        f"{base}/api/v1/events",
        data={"name": "Grand club night", "players": players, "rounds": rounds, "round": "kingdom"},
    )
    assert answer.status == 201, answer.text()
    night: dict[str, Any] = answer.json()
    return night


def draw(page: Page, base: str, night: dict[str, Any]) -> dict[str, Any]:
    answer = page.request.post(
        f"{base}/api/v1/events/{night['id']}/rounds",
        headers={"Authorization": f"Bearer {night['director_token']}"},
    )
    assert answer.status == 201, answer.text()
    drawn: dict[str, Any] = answer.json()
    return drawn


def direct(page: Page, base: str, night: dict[str, Any]) -> None:
    """This browser takes the director's role by the director's link."""
    page.goto(f"{base}/events/{night['id']}/direct/{night['director_token']}")
    page.get_by_test_id("direct-yes").click()
    expect(page.get_by_test_id("director-controls")).to_be_visible()


def set_clock(page: Page, minutes: str) -> None:
    page.get_by_test_id("round-minutes").fill(minutes)
    page.get_by_test_id("set-round-clock").click()
    expect(page.get_by_test_id("flash")).to_be_visible()


def board_screen(
    contexts: Callable[..., BrowserContext], base: str, size: tuple[int, int], lang: str
) -> Page:
    board = contexts(WAIT_MS, viewport={"width": size[0], "height": size[1]}).new_page()
    board.clock.install(time=START)
    board.goto(f"{base}/lang/{lang}?next=/")
    return board


def names_on_screen(board: Page, item: str = "standing") -> list[str]:
    """The names the board shows now in its ``item``s (standings' lines, seats, tables),
    each item checked wholly on the screen."""
    found: list[str] = board.evaluate(
        """(item) => {
          const w = innerWidth, h = innerHeight, out = [];
          for (const row of document.querySelectorAll(`[data-board-view] [data-testid=${item}]`)) {
            const r = row.getBoundingClientRect();
            if (r.width === 0) continue;
            if (r.top < 0 || r.left < 0 || r.bottom > h + 0.5 || r.right > w + 0.5)
              throw new Error('off the screen: ' + row.textContent + ' ' + JSON.stringify(r));
            out.push(...[...row.querySelectorAll('bdi')].map(b => b.textContent));
          }
          return out;
        }""",
        item,
    )
    return found


def standings_pages(board: Page, shots: str = "") -> list[list[str]]:
    """Turn through the board's screens once: the names of each standings page (and with
    ``shots``, a screenshot of each screen)."""
    pages: list[list[str]] = []
    screens = board.evaluate("window.scorekeeperBoard.screens.length")
    for number in range(screens):
        if board.get_by_test_id("board-standings").is_visible():
            pages.append(names_on_screen(board))
        if shots:
            screenshot(board, f"{shots}-{number + 1}")
        board.clock.run_for(ROTATE_MS)
    return pages


def no_site_menu(board: Page) -> None:
    expect(board.locator(".site-header")).to_have_count(0)
    expect(board.get_by_test_id("nav-new-game")).to_have_count(0)
    fits = board.evaluate(
        """() => [document.documentElement.scrollWidth, innerWidth,
          [...document.querySelectorAll('body *')]
            .filter(e => e.getBoundingClientRect().right > innerWidth + 1)
            .slice(0, 5).map(e => e.tagName + ' ' + e.textContent.slice(0, 30))]"""
    )
    assert fits[0] <= fits[1], fits


@pytest.mark.parametrize("lang", ["en", "ar"])
@pytest.mark.parametrize("screen", list(SCREENS))
def test_a_sixty_player_board_shows_everyone_in_columns_and_pages(
    live_server: str, contexts: Callable[..., BrowserContext], screen: str, lang: str
) -> None:
    director = contexts(WAIT_MS).new_page()
    night = new_night(director, live_server, SIXTY)
    draw(director, live_server, night)
    board = board_screen(contexts, live_server, SCREENS[screen], lang)
    board.goto(f"{live_server}/events/{night['id']}/board")
    no_site_menu(board)
    assert board.evaluate("document.documentElement.dir") == ("rtl" if lang == "ar" else "ltr")
    # Just drawn: "find your seat" first, every player's table and seat.
    expect(board.get_by_test_id("board-stage")).to_have_attribute("data-stage", "seating")
    seen_seats: set[str] = set()
    seen_tables: set[str] = set()
    for _turn in range(board.evaluate("window.scorekeeperBoard.screens.length")):
        if board.get_by_test_id("board-seats").is_visible():
            seen_seats |= set(names_on_screen(board, "board-seat"))
        if board.get_by_test_id("board-tables").is_visible():
            seen_tables |= set(names_on_screen(board, "board-table"))
        board.clock.run_for(ROTATE_MS)
    assert seen_seats == set(SIXTY) and seen_tables == set(SIXTY)
    pages = standings_pages(board, f"board/{screen}-{lang}")
    shown = [name for page in pages for name in page]
    assert sorted(shown) == sorted(SIXTY), f"{len(shown)} of 60 shown"
    if len(pages) > 1:
        expect(board.get_by_test_id("board-page")).to_be_visible()
    # The round's tables: seat labels that cannot read as ranks, never an ordered list.
    while not board.get_by_test_id("board-tables").is_visible():
        board.clock.run_for(ROTATE_MS)
    expect(board.locator("[data-testid=board-tables] ol")).to_have_count(0)
    label = board.locator("[data-board-view] .seat-label").first
    assert _latin(label.inner_text()) == ("المقعد 1" if lang == "ar" else "Seat 1")


def columns_on_screen(board: Page) -> int:
    count: int = board.evaluate(
        "document.querySelectorAll('[data-board-view] [data-testid=board-standings-column]').length"
    )
    return count


@pytest.mark.parametrize("screen", list(SCREENS))
def test_the_standings_use_several_columns_on_a_wide_screen(
    live_server: str, contexts: Callable[..., BrowserContext], screen: str
) -> None:
    director = contexts(WAIT_MS).new_page()
    night = new_night(director, live_server, SIXTY)
    board = board_screen(contexts, live_server, SCREENS[screen], "en")
    board.goto(f"{live_server}/events/{night['id']}/board")
    expect(board.get_by_test_id("board-standings")).to_be_visible()
    assert columns_on_screen(board) >= 2
    assert sorted(name for page in standings_pages(board) for name in page) == sorted(SIXTY)


def clock_state(board: Page) -> str:
    state: str = board.get_by_test_id("board-clock").get_attribute("data-state") or ""
    return state


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_round_clock_counts_down_warns_in_the_last_minutes_and_says_time_is_up(
    live_server: str, contexts: Callable[..., BrowserContext], lang: str
) -> None:
    director = contexts(WAIT_MS).new_page()
    night = new_night(director, live_server, SIXTY[:8])
    direct(director, live_server, night)
    set_clock(director, "20")
    expect(director.get_by_test_id("round-minutes")).to_have_value("20")
    draw(director, live_server, night)
    board = board_screen(contexts, live_server, SCREENS["projector"], lang)
    board.goto(f"{live_server}/events/{night['id']}/board")
    no_site_menu(board)
    clock = board.get_by_test_id("board-clock")
    expect(clock).to_be_visible()
    assert clock_state(board) == "running"
    minutes = int(
        re.sub(r"[^0-9]", "", _latin(clock.locator("[data-clock-time]").inner_text()))[:-2]
    )
    assert 18 <= minutes <= 20  # the round was drawn moments ago
    board.clock.run_for(14 * 60 * 1000)
    assert clock_state(board) == "running"
    board.clock.run_for(2 * 60 * 1000)  # less than 5 minutes left
    assert clock_state(board) == "warning"
    note = clock.locator("[data-clock-note]")
    if lang == "en":  # (the other languages' sentences come with the catalogues)
        expect(note).to_contain_text("left: last minutes of the round")
    assert clock.locator("[data-clock-time]").inner_text() in note.inner_text()
    assert (
        board.evaluate(
            "getComputedStyle(document.querySelector('[data-board-clock]')).backgroundColor"
        )
        != "rgba(0, 0, 0, 0)"
    )
    board.clock.run_for(6 * 60 * 1000)
    assert clock_state(board) == "over"
    if lang == "en":
        expect(note).to_contain_text("Time is up for round 1")
    assert _latin(clock.locator("[data-clock-time]").inner_text()) == "0:00"
    # The tables still playing are flagged.
    while not board.get_by_test_id("board-tables").is_visible():
        board.clock.run_for(ROTATE_MS)
    expect(board.locator("[data-board-view] [data-state=playing]")).to_have_count(2)
    screenshot(board, f"board/clock-over-{lang}")


def _latin(text: str) -> str:
    return "".join(str(ord(c) - 0x0660) if "٠" <= c <= "٩" else c for c in text)


def test_the_director_changes_the_clock_and_the_board_follows_live(
    live_server: str, contexts: Callable[..., BrowserContext]
) -> None:
    director = contexts(WAIT_MS).new_page()
    night = new_night(director, live_server, SIXTY[:8])
    draw(director, live_server, night)
    board = board_screen(contexts, live_server, SCREENS["full-hd"], "en")
    board.goto(f"{live_server}/events/{night['id']}/board")
    expect(board.get_by_test_id("board-clock")).to_have_count(0)  # no clock set
    direct(director, live_server, night)
    set_clock(director, "3")  # shorter than the warning: it warns from its half
    board.clock.run_for(4000)  # the board's next poll
    expect(board.get_by_test_id("board-clock")).to_be_visible()
    assert clock_state(board) == "running"
    board.clock.run_for(2 * 60 * 1000)
    assert clock_state(board) == "warning"
    set_clock(director, "")
    board.clock.run_for(4000)
    expect(board.get_by_test_id("board-clock")).to_have_count(0)


# Every word of the board's headers and labels whose client rects lie on more than one line:
# a word broken across lines (rects on two lines have tops at least half a line apart); and
# every word of a column header that does not fit its column (it would run into the next).
SPLIT_WORDS = """(selector) => {
  const split = [];
  for (const box of document.querySelectorAll(selector)) {
    if (!box.getClientRects().length) continue;  // not on this screen
    const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const word of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const rects = [...range.getClientRects()].filter(r => r.width > 0 && r.height > 0);
        if (!rects.length) continue;
        const tops = rects.map(r => r.top);
        const line = Math.min(...rects.map(r => r.height));
        if (Math.max(...tops) - Math.min(...tops) > line / 2)
          split.push(`${word[0]} (in ${box.tagName}: ${box.textContent.trim()})`);
        // A column header's word wider than its column runs into the next one's.
        const cell = box.getBoundingClientRect();
        const out = r => r.left < cell.left - 1 || r.right > cell.right + 1;
        if (box.tagName === "TH" && rects.some(out))
          split.push(`${word[0]} (wider than its column: ${box.textContent.trim()})`);
      }
    }
  }
  return split;
}"""
HEADERS = (
    "[data-board-view] th, .board-head h1, .board-stage, [data-board-panel] h2,"
    " [data-board-view] h3, [data-board-view] .seat-label"
)


@pytest.mark.parametrize("lang", ["en", "ar"])
@pytest.mark.parametrize("screen", list(SCREENS))
def test_no_header_or_label_on_the_board_breaks_inside_a_word(
    live_server: str, contexts: Callable[..., BrowserContext], screen: str, lang: str
) -> None:
    """60 players, every screen of the board: the standings' column headers, the panels'
    titles, the tables' headings and the seat labels wrap at spaces only, never inside a
    word, and each word of a column header fits its column."""
    director = contexts(WAIT_MS).new_page()
    night = new_night(director, live_server, SIXTY)
    draw(director, live_server, night)
    board = board_screen(contexts, live_server, SCREENS[screen], lang)
    board.goto(f"{live_server}/events/{night['id']}/board")
    expect(board.get_by_test_id("board-stage")).to_have_attribute("data-stage", "seating")
    split: list[str] = []
    headers = 0
    for _turn in range(board.evaluate("window.scorekeeperBoard.screens.length")):
        split += board.evaluate(SPLIT_WORDS, HEADERS)
        if board.get_by_test_id("board-standings").is_visible():
            headers += board.locator("[data-board-view] th").count()
        board.clock.run_for(ROTATE_MS)
    assert headers, "no standings header was seen"
    assert split == [], split
