"""The paper of a club night and a circle's ladder on a phone (Chromium, 390×844), in
English and Arabic: the director's page links the round sheet and the results (PDF, CSV,
the standalone page), each link answers what it names, and the ladder page renders,
no wider than the screen.

Screenshots go to artifacts/screenshots/ (club-results-<lang>, circle-ladder-<lang>).
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import APIRequestContext, Page, expect

from tests.browser.conftest import screenshot
from tests.browser.phone import assert_fits, tap_and_load
from tests.web.events.test_api import kingdom

pytestmark = pytest.mark.browser

NINE = ["Rana", "Sami", "عمر", "Lina", "Hadi", "Maya", "Nour", "Ziad", "Dana"]


def api(request: APIRequestContext, base: str, path: str, body: Any, token: str = "") -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = request.post(f"{base}/api/v1{path}", data=body, headers=headers)
    assert answer.status in (200, 201), answer.text()
    return answer.json()


def circle_with_a_night(request: APIRequestContext, base: str) -> str:
    """A circle of nine and a one-round night held for it, both tables' kingdoms played."""
    circle = api(request, base, "/circles", {"name": "Club", "members": NINE})
    body = {"name": "Thursday club", "players": [], "circle": circle["id"], "rounds": 1}
    body |= {"round": "kingdom", "seed": 4}
    night = api(request, base, "/events", body, circle["edit_token"])
    drawn = api(request, base, f"/events/{night['id']}/rounds", None, night["director_token"])
    for table in drawn["tables"]:
        for deal in kingdom():
            api(request, base, f"/games/{table['game']}/deals", deal, table["edit_token"])
    return str(circle["id"])


def direct_a_night(phone: Page, base: str) -> str:
    """The director makes a night of nine on the phone and draws its first round."""
    phone.goto(f"{base}/events/new")
    phone.get_by_test_id("event-name").fill("Thursday club")
    phone.get_by_test_id("event-players").fill("\n".join(NINE))
    phone.get_by_test_id("event-rounds").fill("2")
    phone.get_by_test_id("event-round_kind").select_option("kingdom")
    tap_and_load(phone, phone.get_by_test_id("create-event"))
    expect(phone.get_by_test_id("director-controls")).to_be_visible()
    tap_and_load(phone, phone.get_by_test_id("draw-round"))
    tap_and_load(phone, phone.get_by_test_id("confirm-yes"))
    expect(phone.get_by_test_id("round-1")).to_be_visible()
    return phone.url.split("#")[0]


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_directors_paper_links_answer_and_the_ladder_renders(
    phone: Page, live_server: str, lang: str
) -> None:
    phone.goto(f"{live_server}/lang/{lang}?next=/")
    night = direct_a_night(phone, live_server)
    # The links wrap within their line (the page's own width is the standings' business).
    for testid in ("results-csv-link", "results-html-link", "round-sheet-link"):
        link = phone.get_by_test_id(testid)
        box, line = link.bounding_box(), link.locator("xpath=..").bounding_box()
        assert box and line and line["x"] - 1 <= box["x"], testid
        assert box["x"] + box["width"] <= line["x"] + line["width"] + 1, testid
    kinds = {
        "round-sheet-link": "application/pdf",
        "cards-link": "application/pdf",
        "results-pdf-link": "application/pdf",
        "results-csv-link": "text/csv",
        "results-html-link": "text/html",
    }
    for testid, kind in kinds.items():
        link = phone.get_by_test_id(testid)
        expect(link).to_be_visible()
        href = link.get_attribute("href") or ""
        answer = phone.request.get(live_server + href)
        assert answer.status == 200 and answer.headers["content-type"].startswith(kind), href
    # The standalone page opens on its own: no menu, the standings, as wide as the phone.
    tap_and_load(phone, phone.get_by_test_id("results-html-link"))
    expect(phone.get_by_test_id("results-standings")).to_be_visible()
    expect(phone.locator("nav")).to_have_count(0)
    expect(phone.locator("html")).to_have_attribute("dir", "rtl" if lang == "ar" else "ltr")
    expect(phone.get_by_test_id("results-line")).to_have_count(len(NINE))
    assert_fits(phone)
    screenshot(phone, f"club-results-{lang}")
    phone.goto(night)

    circle = circle_with_a_night(phone.request, live_server)
    phone.goto(f"{live_server}/circles/{circle}")
    tap_and_load(phone, phone.get_by_test_id("ladder-link"))
    expect(phone.get_by_test_id("ladder")).to_be_visible()
    expect(phone.get_by_test_id("ladder-line")).to_have_count(len(NINE) - 1)  # one sat out
    expect(phone.get_by_test_id("ladder-rule")).to_be_visible()
    expect(phone.locator("html")).to_have_attribute("dir", "rtl" if lang == "ar" else "ltr")
    assert_fits(phone)
    screenshot(phone, f"circle-ladder-{lang}")
    pdf = phone.request.get(
        live_server + (phone.get_by_test_id("ladder-pdf").get_attribute("href") or "")
    )
    assert pdf.status == 200 and pdf.headers["content-type"] == "application/pdf"
