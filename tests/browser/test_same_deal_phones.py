"""Two phones save the same kingdom-last deal (Chromium, 390×844, English and Arabic).

Both scorers typed deal 10, the last of Sami's kingdom, and tap Save at the same
moment. One deal 10 is recorded; the other phone sees both entries side by side and
"the same deal?", with "Discard mine" first, never a "Deal 11" form. Its explicit
"Mine is the next deal" records it as deal 11, Omar's.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask
from playwright.sync_api import BrowserContext, Page, Route, expect

from scorekeeper.rules.captures import Captures
from scorekeeper.store import games as services
from tests.browser.conftest import join, screenshot
from tests.browser.phone import Deal, Thumb, assert_fits, fill, form_url
from tests.common import NAMES, C

pytestmark = pytest.mark.browser

QUEENS = {q: {"taker": i, "doubled_by": None} for i, q in enumerate(("QS", "QH", "QD", "QC"))}
KINGDOM = [
    {"contracts": ["trix"], "captures": {"trix_order": [2, 0, 3, 1]}},
    {"contracts": ["king"], "captures": {"king_of_hearts": {"taker": 1, "doubled_by": None}}},
    {"contracts": ["queens"], "captures": {"queens": QUEENS}},
    {"contracts": ["diamonds"], "captures": {"diamonds": [4, 3, 3, 3]}},
    {"contracts": ["collections"], "captures": {"tricks": [3, 3, 3, 4]}},
]
LAST = Deal(C, Captures(tricks=(3, 3, 3, 4)))


def game_at_deal_10(app: Flask) -> tuple[str, str]:
    """A game through the API with nine deals: deal 10 closes Sami's kingdom."""
    client = app.test_client()
    made = client.post("/api/v1/games", json={"players": NAMES, "first_king": 0}).get_json()
    auth = {"Authorization": f"Bearer {made['edit_token']}"}
    for deal in KINGDOM + KINGDOM[:4]:
        answer = client.post(f"/api/v1/games/{made['id']}/deals", json=deal, headers=auth)
        assert answer.status_code == 201
    return made["id"], made["edit_token"]


def phone_on_form(context: BrowserContext, base: str, game_id: str, token: str, lang: str) -> Page:
    page = context.new_page()
    page.goto(f"{base}/lang/{lang}?next=/")
    join(page, base, game_id, token)
    page.goto(form_url(f"{base}/games/{game_id}", LAST))
    fill(Thumb(page), LAST)
    return page


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_two_phones_save_the_same_last_deal_and_the_second_is_asked(
    app: Flask, live_server: str, contexts: Callable[..., BrowserContext], lang: str
) -> None:
    game_id, token = game_at_deal_10(app)
    phones = [phone_on_form(contexts(), live_server, game_id, token, lang) for _ in range(2)]
    for page in phones:  # both tap Save at once
        page.get_by_test_id("save-deal").click(no_wait_after=True)
    for page in phones:  # each lands on "the same deal?" or, saved, on the game page
        landed = page.locator("[data-testid=same-deal], [data-testid=game-status]")
        expect(landed.first).to_be_visible(timeout=30_000)
    asked = [page for page in phones if page.get_by_test_id("same-deal").count()]
    if not asked:  # a Save slower than the send timeout was queued: the sync asks instead
        asked_after_sync(app, game_id, phones)
        return
    assert len(asked) == 1, [page.url for page in phones]
    page = asked[0]
    expect(page.get_by_test_id("entry-theirs")).to_be_visible()
    expect(page.get_by_test_id("entry-mine")).to_be_visible()
    expect(page.get_by_test_id("save-deal")).to_have_count(0)  # never the next deal's form
    discard, following = page.get_by_test_id("discard-mine"), page.get_by_test_id("mine-is-next")
    expect(discard).to_be_visible()
    first = discard.bounding_box()
    second = following.bounding_box()
    assert first is not None and second is not None and first["y"] < second["y"]
    theirs = page.get_by_test_id("entry-theirs").bounding_box()
    mine = page.get_by_test_id("entry-mine").bounding_box()
    assert theirs is not None and mine is not None
    assert abs(theirs["y"] - mine["y"]) < 1 and theirs["x"] != mine["x"]  # side by side
    if lang == "ar":
        assert page.evaluate("document.documentElement.dir") == "rtl"
        expect(page.get_by_test_id("same-deal")).to_contain_text("التوزيعة نفسها؟")
        expect(discard).to_have_text("تجاهل إدخالي")
    else:
        expect(page.get_by_test_id("same-deal-title")).to_have_text(
            "Deal 10 was recorded meanwhile"
        )
        expect(page.get_by_test_id("entry-theirs")).to_contain_text("Recorded from another phone")
        expect(discard).to_have_text("Discard mine")
        expect(following).to_contain_text("save it as deal 11, Omar king")
    assert_fits(page)
    screenshot(page, f"same-deal-{lang}")
    with app.app_context():
        loaded = services.load_game(game_id)
        assert loaded.game.deals_played == 10  # exactly one deal 10
        assert loaded.deal_row(10).played_at is not None  # the phone's clock at Save
    with page.expect_navigation():
        following.click()
    with app.app_context():
        deals = services.load_game(game_id).game.deals
    assert len(deals) == 11 and deals[10].king == 2  # only by the explicit choice


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_deal_arriving_under_the_thumb_moves_nothing_and_the_tap_is_asked(
    app: Flask, live_server: str, contexts: Callable[..., BrowserContext], lang: str
) -> None:
    """Another phone's deal 10 reaches this phone by live update while its thumb is on Save:
    the banner saying so moves nothing above the button, so the tap saves, and the phone is
    asked "the same deal?" (a banner above the form once pushed Save from under the thumb:
    the tap was lost, and the phone stayed on its form, asked nothing)."""
    game_id, token = game_at_deal_10(app)
    page = phone_on_form(contexts(), live_server, game_id, token, lang)
    expect(page.locator("[data-live-started]")).to_have_count(1)
    save = page.get_by_test_id("save-deal")
    save.scroll_into_view_if_needed()
    pressed = save.bounding_box()
    assert pressed is not None
    page.mouse.move(pressed["x"] + pressed["width"] / 2, pressed["y"] + pressed["height"] / 2)
    page.mouse.down()
    answer = app.test_client().post(
        f"/api/v1/games/{game_id}/deals",
        json=KINGDOM[4],  # the same deal 10, from another phone
        headers={"Authorization": f"Bearer {token}"},
    )
    assert answer.status_code == 201
    expect(page.get_by_test_id("live-banner")).to_be_visible(timeout=30_000)
    assert save.bounding_box() == pressed
    page.mouse.up()
    expect(page.get_by_test_id("same-deal")).to_be_visible(timeout=30_000)
    with app.app_context():
        assert services.load_game(game_id).game.deals_played == 10  # nothing saved by itself


def asked_after_sync(app: Flask, game_id: str, phones: list[Page]) -> None:
    """The same question as the phone's conflict, after its queued entry was refused at
    sync: both entries side by side, "Discard mine" first, and deal 11 only if chosen."""
    boxes = [page.locator("[data-same-deal]") for page in phones]
    for _ in range(120):  # the sync's answer, polled: no page is asked before it
        if any(box.count() for box in boxes):
            break
        phones[0].wait_for_timeout(250)
    asked = [box for box in boxes if box.count()]
    assert len(asked) == 1, [page.url for page in phones]
    box = asked[0]
    theirs = box.get_by_test_id("conflict-theirs").bounding_box()
    mine = box.get_by_test_id("conflict-mine").bounding_box()
    assert theirs is not None and mine is not None and theirs["x"] != mine["x"]
    first = box.get_by_test_id("conflict-discard").bounding_box()
    second = box.get_by_test_id("conflict-next").bounding_box()
    assert first is not None and second is not None and first["y"] < second["y"]
    with app.app_context():
        assert services.load_game(game_id).game.deals_played == 10  # exactly one deal 10
    box.get_by_test_id("conflict-next").click()
    for _ in range(120):
        with app.app_context():
            deals = services.load_game(game_id).game.deals
        if len(deals) == 11:
            break
        phones[0].wait_for_timeout(250)
    assert len(deals) == 11 and deals[10].king == 2  # only by the explicit choice


def test_discard_mine_saves_nothing(
    app: Flask, live_server: str, contexts: Callable[..., BrowserContext]
) -> None:
    game_id, token = game_at_deal_10(app)
    first, second = (phone_on_form(contexts(), live_server, game_id, token, "en") for _ in "ab")
    with first.expect_navigation():
        first.get_by_test_id("save-deal").click()
    with second.expect_navigation():
        second.get_by_test_id("save-deal").click()
    expect(second.get_by_test_id("same-verdict")).to_contain_text("Both say the same")
    with second.expect_navigation():
        second.get_by_test_id("discard-mine").click()
    expect(second.get_by_test_id("totals")).to_be_visible()
    with app.app_context():
        assert services.load_game(game_id).game.deals_played == 10


def test_a_save_that_fails_under_the_second_phone_is_asked_at_sync(
    app: Flask, live_server: str, contexts: Callable[..., BrowserContext]
) -> None:
    """The network fails under phone B's Save after phone A recorded deal 10: the entry
    goes to the outbox, and the sync asks "the same deal?" instead of recording deal 11."""
    game_id, token = game_at_deal_10(app)
    first, second = (phone_on_form(contexts(), live_server, game_id, token, "en") for _ in "ab")
    with first.expect_navigation():
        first.get_by_test_id("save-deal").click()
    second.wait_for_function("() => !!window.SKOffline")  # the page's Save is the phone's
    failed: list[str] = []

    def fail_once(route: Route) -> None:
        if failed or route.request.method != "POST":
            route.continue_()
            return
        failed.append(route.request.url)
        route.abort()

    second.route("**/deals**", fail_once)
    second.get_by_test_id("save-deal").click()
    expect(second.get_by_test_id("game-status")).to_be_visible(timeout=30_000)
    assert failed
    second.unroute_all(behavior="ignoreErrors")  # a handler left on blocks the page's close
    asked_after_sync(app, game_id, [first, second])
