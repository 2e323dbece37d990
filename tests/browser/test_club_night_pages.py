"""The club night's pages catch up with the API, on a phone (390×844) in English and
Arabic: the new-night page holds a night for a circle (its members ticked at the door,
other names typed) with house rules chosen as for a new game, and Enter in a box creates
the night (with or without JavaScript) while "Show its members" only shows them; the
director's page updates live without losing what is being typed; a table's game page
names its night, round and table and leads back to the board; a circle's table has its
headers over its columns and ratings on one line."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.conftest import PHONE, screenshot
from tests.browser.test_i18n_screens import FITS
from tests.web.events.test_api import kingdom

pytestmark = pytest.mark.browser

WAIT_MS = 15_000
MEMBERS = ["Rana", "Sami", "Omar", "Lina", "Hadi", "Maya"]
LANGS = ["en", "ar"]


def in_language(page: Page, base: str, lang: str) -> None:
    page.goto(f"{base}/lang/{lang}?next=/")


def fits(page: Page, name: str) -> None:
    """Nothing wider than the phone, and a screenshot."""
    found = page.evaluate(FITS)
    screenshot(page, f"club-night/{name}")
    assert found["scrollWidth"] <= 390, found
    assert not found["outside"], found["outside"][:8]


def api_circle(page: Page, base: str, ratings: bool = False) -> dict[str, Any]:
    answer = page.request.post(
        f"{base}/api/v1/circles", data={"name": "Club", "members": MEMBERS, "ratings": ratings}
    )
    assert answer.status == 201, answer.text()
    made: dict[str, Any] = answer.json()
    return made


def api_night(page: Page, base: str, **body: Any) -> dict[str, Any]:
    night = {"name": "Thursday club", "players": [*MEMBERS, "Zein", "Dana"], **body}
    answer = page.request.post(f"{base}/api/v1/events", data=night)
    assert answer.status == 201, answer.text()
    made: dict[str, Any] = answer.json()
    return made


def draw(page: Page, base: str, night: dict[str, Any]) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {night['director_token']}"}
    answer = page.request.post(f"{base}/api/v1/events/{night['id']}/rounds", headers=headers)
    assert answer.status == 201, answer.text()
    drawn: dict[str, Any] = answer.json()
    return drawn


def record(page: Page, base: str, table: dict[str, Any], bodies: list[dict[str, Any]]) -> None:
    headers = {"Authorization": f"Bearer {table['edit_token']}"}
    for body in bodies:
        answer = page.request.post(
            f"{base}/api/v1/games/{table['game']}/deals", data=body, headers=headers
        )
        assert answer.status == 201, answer.text()


@pytest.mark.parametrize("lang", LANGS)
def test_a_circles_night_with_house_rules_from_the_new_night_page(
    live_server: str, contexts: Callable[..., BrowserContext], lang: str
) -> None:
    phone = contexts(WAIT_MS).new_page()
    made = api_circle(phone, live_server)
    in_language(phone, live_server, lang)
    phone.goto(f"{live_server}/events/new")
    expect(phone.get_by_test_id("event-circle-choice")).to_have_count(0)  # no rights here
    link = f"{live_server}/circles/{made['id']}/join/{made['edit_token']}"
    phone.get_by_test_id("event-circle-link").fill(link)
    phone.get_by_test_id("show-members").click()
    expect(phone.get_by_test_id("event-members")).to_be_visible()
    # The pasted link gave this phone the circle's rights: it is now offered by name.
    expect(phone.get_by_test_id("event-circle-choice")).to_have_value(made["id"])
    phone.get_by_test_id("event-name").fill("Circle night")
    for index in range(5):
        phone.get_by_test_id(f"member-{index}").check()
    phone.get_by_test_id("event-players").fill("Zein\nDana\nNour")
    phone.get_by_test_id("event-round_kind").select_option("kingdom")
    phone.get_by_test_id("preset-standard").check()
    phone.get_by_test_id("rule-doubling").select_option("off")  # R9: no doubling
    fits(phone, f"new-night-circle-{lang}")
    phone.get_by_test_id("create-event").click()
    expect(phone.get_by_test_id("director-controls")).to_be_visible()
    event_id = phone.url.split("#")[0].rsplit("/", 1)[1]
    night = phone.request.get(f"{live_server}/api/v1/events/{event_id}").json()
    assert night["circle"] == made["id"] and night["rules"]["doubling"] is False
    assert night["players"] == [*MEMBERS[:5], "Zein", "Dana", "Nour"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_new_night_page_refuses_a_circle_without_its_rights(
    live_server: str, contexts: Callable[..., BrowserContext], lang: str
) -> None:
    phone = contexts(WAIT_MS).new_page()
    made = api_circle(phone, live_server)
    in_language(phone, live_server, lang)
    phone.goto(f"{live_server}/events/new")
    phone.get_by_test_id("event-name").fill("Raid")
    wrong = f"{live_server}/circles/{made['id']}/join/not-its-token"
    phone.get_by_test_id("event-circle-link").fill(wrong)
    with phone.expect_response(lambda r: r.url.endswith("/events/new")) as answer:
        phone.get_by_test_id("create-event").click()
    assert answer.value.status == 403
    expect(phone.get_by_test_id("error-summary")).to_be_visible()
    expect(phone.get_by_test_id("director-controls")).to_have_count(0)
    fits(phone, f"new-night-refused-{lang}")


def night_by_url(page: Page, base: str) -> dict[str, Any]:
    """The night whose page ``page`` shows, as the API gives it."""
    event_id = page.url.split("#")[0].rsplit("/", 1)[1]
    night: dict[str, Any] = page.request.get(f"{base}/api/v1/events/{event_id}").json()
    return night


@pytest.mark.parametrize("script", [True, False], ids=["js", "no-js"])
def test_enter_in_the_nights_name_creates_the_night(
    live_server: str, contexts: Callable[..., BrowserContext], script: bool
) -> None:
    """Enter in a box is the form's main action, not "Show its members" above it."""
    phone = contexts(WAIT_MS, **PHONE, java_script_enabled=script).new_page()
    phone.goto(f"{live_server}/events/new")
    name = phone.get_by_test_id("event-name")
    name.press_sequentially("Enter night")
    phone.get_by_test_id("event-players").fill("\n".join([*MEMBERS, "Zein", "Dana"]))
    name.press("Enter")
    expect(phone.get_by_test_id("director-controls")).to_be_visible()
    night = night_by_url(phone, live_server)
    assert night["name"] == "Enter night" and night["circle"] is None
    assert night["players"] == [*MEMBERS, "Zein", "Dana"]


@pytest.mark.parametrize("script", [True, False], ids=["js", "no-js"])
def test_show_its_members_still_shows_them_and_enter_then_creates_the_night(
    live_server: str, contexts: Callable[..., BrowserContext], script: bool
) -> None:
    phone = contexts(WAIT_MS, **PHONE, java_script_enabled=script).new_page()
    made = api_circle(phone, live_server)
    phone.goto(f"{live_server}/events/new")
    phone.get_by_test_id("event-name").fill("Circle night")
    link = f"{live_server}/circles/{made['id']}/join/{made['edit_token']}"
    phone.get_by_test_id("event-circle-link").fill(link)
    with phone.expect_response(lambda r: r.url.endswith("/events/new")) as answer:
        phone.get_by_test_id("show-members").click()
    assert answer.value.status == 200
    members = phone.get_by_test_id("event-members")
    expect(members).to_be_visible()
    expect(members.locator("input[type=checkbox]")).to_have_count(len(MEMBERS))
    expect(phone.get_by_test_id("director-controls")).to_have_count(0)  # nothing created
    expect(phone.get_by_test_id("event-name")).to_have_value("Circle night")
    for index in range(4):
        phone.get_by_test_id(f"member-{index}").check()
    phone.get_by_test_id("event-players").fill("Zein\nDana")
    phone.get_by_test_id("event-name").press("Enter")
    expect(phone.get_by_test_id("director-controls")).to_be_visible()
    night = night_by_url(phone, live_server)
    assert night["circle"] == made["id"]
    assert night["players"] == [*MEMBERS[:4], "Zein", "Dana"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_directors_page_updates_live_and_keeps_what_is_typed(
    live_server: str, contexts: Callable[..., BrowserContext], lang: str
) -> None:
    phone = contexts(WAIT_MS).new_page()
    night = api_night(phone, live_server, round="kingdom")
    in_language(phone, live_server, lang)
    phone.goto(f"{live_server}/events/{night['id']}/direct/{night['director_token']}")
    phone.get_by_test_id("direct-yes").click()
    expect(phone.get_by_test_id("director-controls")).to_be_visible()
    phone.evaluate("window.stillTheSamePage = true")
    late = phone.get_by_test_id("late-name")
    late.fill("Nour")
    late.focus()
    drawn = draw(phone, live_server, night)
    # The round appears, and a deal at a table reaches the standings, without a reload.
    expect(phone.get_by_test_id("round-1")).to_be_visible(timeout=WAIT_MS)
    record(phone, live_server, drawn["tables"][0], kingdom()[:1])
    expect(phone.get_by_test_id("round-1").get_by_test_id("table-1-1")).not_to_contain_text(
        "0 deals"
    )
    assert phone.evaluate("window.stillTheSamePage") is True
    expect(late).to_have_value("Nour")
    assert phone.evaluate("document.activeElement.dataset.testid") == "late-name"
    # Once the director is done typing, that part follows too.
    late.fill("")
    phone.evaluate("document.activeElement.blur()")
    expect(phone.get_by_test_id("draw-round")).to_contain_text("2", timeout=WAIT_MS)
    fits(phone, f"director-live-{lang}")


@pytest.mark.parametrize("lang", LANGS)
def test_a_tables_game_page_names_its_night_and_leads_back_to_the_board(
    live_server: str, contexts: Callable[..., BrowserContext], lang: str
) -> None:
    phone = contexts(WAIT_MS).new_page()
    night = api_night(phone, live_server, round="kingdom", rounds=1)
    table = draw(phone, live_server, night)["tables"][1]
    record(phone, live_server, table, kingdom())
    in_language(phone, live_server, lang)
    phone.goto(f"{live_server}/games/{table['game']}/join/{table['edit_token']}")
    phone.get_by_test_id("join-yes").click()
    place = phone.get_by_test_id("table-place")
    expect(place).to_contain_text("Thursday club")
    if lang == "en":
        expect(place).to_contain_text("Club night Thursday club · round 1 · table 2")
    expect(phone.get_by_test_id("rematch")).to_have_count(0)
    fits(phone, f"table-game-{lang}")
    phone.get_by_test_id("back-to-board").click()
    expect(phone.get_by_test_id("board")).to_be_visible()


def header_and_cells(page: Page) -> list[dict[str, float]]:
    """Each column of the circle's table: its header's and first cell's inline edges."""
    found: list[dict[str, float]] = page.evaluate(
        """() => {
          const table = document.querySelector('[data-testid=circle-scores]');
          const heads = [...table.tHead.rows[0].cells], cells = [...table.tBodies[0].rows[0].cells];
          return heads.map((th, i) => {
            const a = th.getBoundingClientRect(), b = cells[i].getBoundingClientRect();
            return {headLeft: a.left, headRight: a.right, cellLeft: b.left, cellRight: b.right};
          });
        }"""
    )
    return found


@pytest.mark.parametrize("lang", LANGS)
def test_a_circles_table_has_its_headers_over_their_columns_and_ratings_on_one_line(
    live_server: str, contexts: Callable[..., BrowserContext], lang: str
) -> None:
    phone = contexts(WAIT_MS).new_page()
    made = api_circle(phone, live_server, ratings=True)
    in_language(phone, live_server, lang)
    phone.goto(f"{live_server}/circles/{made['id']}")
    columns = header_and_cells(phone)
    assert len(columns) == 7
    for column in columns:  # the header's box is its column's box
        assert abs(column["headLeft"] - column["cellLeft"]) < 1
        assert abs(column["headRight"] - column["cellRight"]) < 1
    text_align = phone.evaluate(
        "[...document.querySelectorAll('[data-testid=circle-scores] tr > *:nth-child(3)')]"
        ".map(c => getComputedStyle(c).textAlign)"
    )
    assert len(set(text_align)) == 1, text_align  # header and cells aligned alike
    rating = phone.get_by_test_id("member-rating").first
    height = rating.evaluate("td => td.getBoundingClientRect().height")
    games = phone.get_by_test_id("member-games").first
    assert height <= games.evaluate("td => td.getBoundingClientRect().height") + 1
    screenshot(phone, f"club-night/circle-table-{lang}")
    # Too wide for the phone, the table scrolls in its own box: the page does not.
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


WIDTHS = """() => ({
  scrollWidth: document.documentElement.scrollWidth, viewport: window.innerWidth,
  tables: [...document.querySelectorAll('table.standings')].map(t => ({
    width: Math.round(t.getBoundingClientRect().right - t.getBoundingClientRect().left),
    own: t.scrollWidth, box: t.parentElement.clientWidth,
    cells: [...t.tHead.rows[0].cells].map(c => Math.round(c.getBoundingClientRect().width))})),
})"""


@pytest.mark.parametrize("lang", LANGS)
def test_the_standings_fit_a_phone_on_the_nights_page_and_its_board(
    live_server: str, contexts: Callable[..., BrowserContext], lang: str
) -> None:
    """Every column the standings can have (byes, points per table, a table in progress),
    a long name, 390 px: the page never scrolls sideways, on the night's page or its board."""
    phone = contexts(WAIT_MS).new_page()
    players = [*MEMBERS, "Zein", "Dana", "Abdelrahman Al-Khatib"]  # nine: one sits out
    night = api_night(phone, live_server, round="kingdom", ranking="average", players=players)
    first = draw(phone, live_server, night)
    for table in first["tables"]:
        record(phone, live_server, table, kingdom())
    second = draw(phone, live_server, night)
    record(phone, live_server, second["tables"][0], kingdom()[:1])  # still playing
    in_language(phone, live_server, lang)
    for path, name in (
        (f"/events/{night['id']}", "night"),
        (f"/events/{night['id']}/board", "board"),
    ):
        phone.goto(live_server + path)
        expect(phone.locator("table.standings").first.locator("thead th")).to_have_count(7)
        expect(phone.locator("table.standings [data-testid=playing]")).not_to_have_count(0)
        found = phone.evaluate(WIDTHS)
        screenshot(phone, f"club-night/standings-{name}-{lang}")
        assert found["scrollWidth"] <= found["viewport"], found
        for table in found["tables"]:  # nor inside its box: every column in view
            assert table["width"] <= table["box"] + 1, found
