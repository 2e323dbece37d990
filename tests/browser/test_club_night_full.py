"""A whole club night in Chromium, as a director runs it alone: 15 players, 3 rounds of a
kingdom each, a late arrival before round 2, a leaver before round 3, the director's
correction of a table's deal, a close by mistake and a reopen.

The director works from a phone (390×844), each round has one table's phone entering
its first deal on its page (the rest of each table's deals come through the API, as
another table's phone would send them), and the standings board is open all along on
a 1920×1080 projector. After every round, every standing shown (on the director's page
and on the board) must equal the test's own count from the raw results: each table's
totals and who sat out, with match points by place (3/2/1/0, tied players sharing the
places they cover) and a round sat out worth the player's own average per table played.
"""

from __future__ import annotations

import re
import time
from collections import defaultdict
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.phone import Thumb, fill_trix, save
from tests.browser.test_club_night import play_table
from tests.web.events.test_api import kingdom

pytestmark = pytest.mark.browser

PROJECTOR = {"viewport": {"width": 1920, "height": 1080}}
FIFTEEN = [
    "Rana", "Sami", "Omar", "Lina", "Hadi", "Maya", "Nour", "Ziad",
    "Joud", "Salma", "Rami", "Dina", "Fadi", "Ali", "Youssef",
]  # fmt: skip
LATE = "Karim"
LEAVER = "Dina"
PLACES = (3, 2, 1, 0)
WAIT_MS = 15_000
LIVE_SECONDS = 20.0  # the board follows by its event stream, or polls every few seconds
ISOLATES = re.compile("[\u2066-\u2069]")


# --- the director's phone ----------------------------------------------------------------


def create_night(page: Page, base: str) -> str:
    """The director's new-night form: 15 names, 3 rounds of a kingdom, places, average byes."""
    page.goto(f"{base}/events/new")
    page.get_by_test_id("event-name").fill("Club night, December")
    page.get_by_test_id("event-players").fill("\n".join(FIFTEEN))
    page.get_by_test_id("event-rounds").fill("3")
    page.get_by_test_id("event-round_kind").select_option("kingdom")
    page.get_by_test_id("event-scoring").select_option("places")
    page.get_by_test_id("event-byes").select_option("average")
    page.get_by_test_id("create-event").click()
    expect(page.get_by_test_id("director-link-url")).to_be_visible()
    return page.url.split("#")[0]


def confirm(page: Page, asked: str) -> None:
    """Answer the question the page asks in place, after checking what it says."""
    expect(page.get_by_test_id("confirm-message")).to_contain_text(asked)
    page.get_by_test_id("confirm-yes").click()


def draw(page: Page, number: int, tables: int) -> list[str]:
    """Draw round ``number`` (asked first); its tables' edit links."""
    page.get_by_test_id("draw-round").click()
    confirm(page, f"Draw round {number} now?")
    expect(page.get_by_test_id(f"round-{number}")).to_be_visible()
    links = page.get_by_test_id(f"round-{number}").get_by_test_id("table-edit-link")
    expect(links).to_have_count(tables)
    return [links.nth(i).get_attribute("href") or "" for i in range(tables)]


def add_late_arrival(page: Page, name: str) -> None:
    page.get_by_test_id("late-name").fill(name)
    page.get_by_test_id("add-player").click()
    expect(page.get_by_test_id("late-name")).to_be_visible()


def let_go(page: Page, name: str) -> None:
    """A player goes home before the next round (asked first)."""
    page.get_by_test_id("leave-name").select_option(name)
    page.get_by_test_id("leave-player").click()
    confirm(page, name)


def close_and_reopen(page: Page) -> None:
    """Closed by mistake (asked first, refusing the tables), then reopened."""
    page.get_by_test_id("close-event").click()
    expect(page.get_by_test_id("event-closed")).to_have_count(0)  # nothing closed yet
    page.get_by_test_id("confirm-yes").click()
    expect(page.get_by_test_id("event-closed")).to_be_visible()
    page.get_by_test_id("reopen-event").click()
    expect(page.get_by_test_id("event-closed")).to_have_count(0)
    expect(page.get_by_test_id("draw-round")).to_be_visible()


def correct_trix(page: Page, base: str, game_id: str, order: list[int]) -> None:
    """The director re-enters a table's Trix (its deal 2: the table's phone entered the King
    first) with another finishing order."""
    page.goto(f"{base}/games/{game_id}/deals/2/edit?contracts=trix")
    for _ in range(4):  # the form opens with the recorded order: tap it away first
        page.get_by_test_id("trix-undo").click()
    fill_trix(Thumb(page), order)
    save(Thumb(page), flash="corrected")
    expect(page.get_by_test_id("directing")).to_be_visible()


# --- the tables ----------------------------------------------------------------------------


def token_of(edit_link: str) -> tuple[str, str]:
    game_id, token = re.findall(r"/games/([^/]+)/join/([^/?#]+)", edit_link)[0]
    return game_id, token


def play_by_api(page: Page, base: str, edit_link: str, king: int) -> None:
    """A table's five deals of one kingdom, its first king the seat dealt the 7♥ (R2)."""
    game_id, token = token_of(edit_link)
    first, *rest = kingdom(king)
    for body in [{**first, "king": king}, *rest]:
        answer = page.request.post(
            f"{base}/api/v1/games/{game_id}/deals",
            data=body,
            headers={"Authorization": f"Bearer {token}"},
        )
        assert answer.status == 201, answer.text()


def play_round(
    base: str, links: list[str], phone: Callable[[], Page], api: Page, round_no: int
) -> None:
    """The first table's phone enters its King on its page; the other tables by the API,
    each with another first king so that the tables' results differ."""
    play_table(phone(), base, links[0])
    for table, link in enumerate(links[1:], start=1):
        play_by_api(api, base, link, (table + round_no) % 4)


# --- the count the test makes itself -------------------------------------------------------


def place_points(totals: list[int]) -> list[Fraction]:
    """Match points by place; players level at a table share the places they cover."""
    out = []
    for total in totals:
        above = sum(1 for other in totals if other > total)
        level = sum(1 for other in totals if other == total)
        out.append(Fraction(sum(PLACES[above : above + level]), level))
    return out


def expected_standings(night: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """Each player's points and tables played, counted from the tables' totals and the
    rounds sat out alone (not from the standings the server computed)."""
    points: dict[str, Fraction] = defaultdict(Fraction)
    tables: dict[str, int] = defaultdict(int)
    byes: dict[str, int] = defaultdict(int)
    for drawn in night["rounds_drawn"]:
        for table in drawn["tables"]:
            state = table["state"]
            if not state["deals_played"]:
                continue  # a table drawn but not started scores nothing
            for player, won in zip(table["players"], place_points(state["totals"]), strict=True):
                points[player] += won
                tables[player] += 1
        for player in drawn["sitting_out"]:
            byes[player] += 1
    shown = {}
    for player in night["players"]:
        own = points[player]
        average = own / tables[player] if tables[player] else Fraction(0)
        shown[player] = (as_shown(own + byes[player] * average), str(tables[player]))
    return shown


def as_shown(points: Fraction) -> str:
    """Points as the standings write them: whole, or a decimal rounded to two places."""
    if points.denominator == 1:
        return str(int(points))
    return f"{round(float(points), 2):g}"


def standings_shown(page: Page, testid: str) -> dict[str, tuple[str, str]]:
    """What a standings table shows: player → (points, tables played)."""
    rows = page.get_by_test_id(testid).locator("[data-testid=standing]")
    shown = {}
    for i in range(rows.count()):
        cells = rows.nth(i).locator("td")
        name = cells.nth(1).locator("bdi").inner_text()
        points = ISOLATES.sub("", cells.nth(2).inner_text()).replace("−", "-").strip()
        tables = ISOLATES.sub("", rows.nth(i).get_by_test_id("tables-played").inner_text())
        shown[name.strip()] = (points, tables.strip())
    return shown


def night_json(api: Page, base: str, event_url: str) -> dict[str, Any]:
    event_id = event_url.rstrip("/").rsplit("/", 1)[-1]
    answer = api.request.get(f"{base}/api/v1/events/{event_id}")
    assert answer.status == 200
    return dict(answer.json())


def check_standings(director: Page, board: Page, api: Page, base: str, event_url: str) -> None:
    """Every standing on the director's page and on the board equals the test's count."""
    expected = expected_standings(night_json(api, base, event_url))
    director.goto(event_url)
    assert standings_shown(director, "standings") == expected
    deadline = time.monotonic() + LIVE_SECONDS  # a guard: the board updates by itself
    while standings_shown(board, "board-standings-table") != expected:
        if time.monotonic() > deadline:
            assert standings_shown(board, "board-standings-table") == expected
        board.wait_for_timeout(300)


def test_a_fifteen_player_night_with_a_late_arrival_a_leaver_a_correction_and_a_reopen(
    live_server: str, contexts: Callable[..., BrowserContext]
) -> None:
    base = live_server
    director = contexts(WAIT_MS).new_page()
    api = contexts(WAIT_MS).new_page()
    event_url = create_night(director, base)
    board = contexts(WAIT_MS, **PROJECTOR).new_page()
    board.goto(f"{event_url}/board")
    expect(board.get_by_test_id("board-standings")).to_be_visible()
    board.evaluate("window.stillTheSamePage = true")

    def phone() -> Page:
        return contexts(WAIT_MS).new_page()

    # Round 1: 15 players make 3 tables, 3 sit out.
    links = draw(director, 1, tables=3)
    play_round(base, links, phone, api, 1)
    check_standings(director, board, api, base, event_url)

    # A late arrival makes 16: round 2 seats everyone at 4 tables.
    add_late_arrival(director, LATE)
    second = draw(director, 2, tables=4)
    play_round(base, second, phone, api, 2)
    # The director corrects table 1's Trix: its totals, and so the standings, change.
    game_id, _ = token_of(second[0])
    before = night_json(api, base, event_url)
    correct_trix(director, base, game_id, [3, 2, 1, 0])
    after = night_json(api, base, event_url)
    assert expected_standings(after) != expected_standings(before)
    check_standings(director, board, api, base, event_url)

    # Someone goes home; the night is closed by mistake and reopened; round 3 is drawn.
    let_go(director, LEAVER)
    close_and_reopen(director)
    third = draw(director, 3, tables=3)
    assert LEAVER not in night_json(api, base, event_url)["rounds_drawn"][2]["sitting_out"]
    play_round(base, third, phone, api, 3)
    check_standings(director, board, api, base, event_url)

    director.get_by_test_id("close-event").click()
    director.get_by_test_id("confirm-yes").click()
    expect(director.get_by_test_id("event-closed")).to_be_visible()
    night = night_json(api, base, event_url)
    assert night["closed"] is True
    assert len(night["standings"]) == 16 and LEAVER in night["left"]
    check_standings(director, board, api, base, event_url)
    assert board.evaluate("window.stillTheSamePage") is True  # never reloaded
