"""Offline play at a real table, in Chromium at 390×844: two phones racing for one deal, the
time a deal was played, a Save that hangs, the game's last deal, a correction and an undo
whose first answer was lost, and the deal form's own checks before the engine is ready.

The steps and the fake networks are test_offline.py's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from datetime import timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from scorekeeper.extensions import db
from scorekeeper.store import models
from tests.browser.phone import Thumb, fill, form_url, tap_choice
from tests.browser.test_offline import (
    API_DEALS,
    ENGINE_MS,
    FIRST_KINGDOM,
    KING,
    PHONE,
    QUEENS,
    SAVE_DATA,
    TRIX,
    BadWifi,
    SlowOrBroken,
    api_game,
    back_online,
    close,
    entry_ids,
    join,
    keep_offline,
    needs_pyodide,
    offline_kept_game,
    open_form,
    record_offline,
    save,
    save_online_queued,
    server_log,
    start_game,
)
from tests.web.sheets.conftest import pdf_text

pytestmark = pytest.mark.browser


@pytest.fixture
def app(make_app: Callable[..., Flask], tmp_path: Path) -> Iterator[Flask]:
    app = make_app(
        SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'table.sqlite'}", WTF_CSRF_ENABLED=True
    )
    with app.app_context():
        db.create_all()
        yield app
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def phones(browser: Browser) -> Iterator[Callable[..., BrowserContext]]:
    """``phones(**options)``: a phone (390×844, touch) with its own cookies and storage;
    ``timezone_id`` and the like as Playwright's contexts take them."""
    made: list[BrowserContext] = []

    def new(**options: Any) -> BrowserContext:
        context = browser.new_context(**PHONE, **options)
        context.set_default_timeout(15_000)
        made.append(context)
        return context

    yield new
    for context in made:
        close(context)


def in_language(page: Page, base: str, lang: str) -> None:
    page.goto(f"{base}/lang/{lang}?next=/")


def deals_on_server(app: Flask, game_id: str) -> int:
    return sum(1 for entry in server_log(app, game_id) if "contracts" in entry)


# --- two phones, one deal ------------------------------------------------------------------


@needs_pyodide
@pytest.mark.parametrize("lang", ["en", "ar"])
def test_r2_two_phones_save_a_kingdoms_last_deal_the_same_deal_is_asked_and_recorded_once(
    live_server: str, phones: Any, app: Flask, lang: str
) -> None:
    """Deal 5 ends the first kingdom (R2). Phone A saves it offline; phone B, online, saves
    the same deal from its page. A's sync is refused for that position: A is asked "the same
    deal?", never shown deal 6 with a Save; "Discard mine" comes first; one deal 5 stands."""
    game_id, token = api_game(app, API_DEALS)
    phone_a, phone_b = phones(), phones()
    a = phone_a.new_page()
    in_language(a, live_server, lang)
    game_url = join(a, live_server, game_id, token)
    keep_offline(a)
    phone_a.set_offline(True)
    a.goto(game_url)
    record_offline(a, TRIX)  # deal 5 on phone A, the kingdom's last: the board moves on
    expect(a.get_by_test_id("game-status")).to_contain_text("6", timeout=ENGINE_MS)

    b = phone_b.new_page()
    join(b, live_server, game_id, token)
    fill(open_form(b, TRIX), TRIX)
    with b.expect_navigation():
        b.get_by_test_id("save-deal").click()
    assert deals_on_server(app, game_id) == 5

    phone_a.set_offline(False)
    a.evaluate("window.dispatchEvent(new Event('online'))")
    same = a.locator("[data-same-deal]")
    expect(same).to_be_visible(timeout=30_000)
    assert a.evaluate("document.documentElement.dir") == ("rtl" if lang == "ar" else "ltr")
    theirs = same.get_by_test_id("conflict-theirs")
    expect(theirs).to_have_attribute("data-recorded-by", "another")
    expect(same.get_by_test_id("same-verdict")).to_be_visible()
    choices = same.locator("[data-choice]")
    assert choices.first.get_attribute("data-choice") == "discard"  # first: both say the same
    expect(choices.first).to_have_class(re.compile("button-big"))
    expect(same.get_by_test_id("conflict-next")).to_be_visible()  # the explicit other choice
    if lang == "en":
        expect(same).to_contain_text("The same deal?")
        expect(same).to_contain_text("Deal 5 was recorded meanwhile")
        expect(theirs).to_contain_text("Recorded from another phone")
        expect(same.get_by_test_id("same-verdict")).to_have_text(
            "Both say the same: it is one deal, and it is already recorded."
        )
        expect(same.get_by_test_id("conflict-next")).to_have_text(
            "Mine is the next deal: save it as deal 6, Sami king"
        )
    assert deals_on_server(app, game_id) == 5  # no phantom deal 6 while A decides
    with a.expect_navigation(timeout=30_000):
        same.get_by_test_id("conflict-discard").click()
    expect(a.get_by_test_id("sync-count")).to_be_hidden()
    log = server_log(app, game_id)
    assert [e["contracts"] for e in log] == [d["contracts"] for d in API_DEALS] + [["trix"]]


@needs_pyodide
def test_mine_is_the_next_deal_resends_it_for_the_new_position_and_moves_the_rest_with_it(
    live_server: str, phones: Any, app: Flask
) -> None:
    game_id, token = api_game(app, FIRST_KINGDOM)
    phone = phones()
    page = phone.new_page()
    game_url = join(page, live_server, game_id, token)
    keep_offline(page)
    phone.set_offline(True)
    page.goto(game_url)
    record_offline(page, KING)  # deal 6 on this phone
    record_offline(page, QUEENS)  # deal 7
    theirs = {"contracts": ["diamonds"], "captures": {"diamonds": [3, 4, 5, 1]}}
    answer = app.test_client().post(
        f"/api/v1/games/{game_id}/deals", json=theirs, headers={"Authorization": f"Bearer {token}"}
    )
    assert answer.status_code == 201  # another app recorded deal 6 meanwhile

    phone.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    same = page.locator("[data-same-deal]")
    expect(same.get_by_test_id("same-verdict")).to_contain_text("They differ", timeout=30_000)
    assert same.locator("[data-choice]").first.get_attribute("data-choice") == "discard"
    with page.expect_navigation(timeout=30_000):
        same.get_by_test_id("conflict-next").click()
    expect(page.get_by_test_id("sync-count")).to_be_hidden()
    log = server_log(app, game_id)
    assert [e["contracts"] for e in log[5:]] == [["diamonds"], ["king"], ["queens"]]
    ids = entry_ids(app, game_id)
    assert len(ids) == 8 and all(ids[-2:]) and ids[-1] != ids[-2]


HOLD_SECOND = (
    """() => SKOutbox.list().then((es) => SKOutbox.put(Object.assign(es[1], {state: "held"})))"""
)
# An entry saved before entries said their position (an older outbox): sent as it is.
RELEASE_UNPLACED = """() => SKOutbox.list().then((es) => {
  delete es[0].fields;
  return SKOutbox.put(Object.assign(es[0], {state: "waiting"}));
}).then(() => SKOutbox.sync())"""


@needs_pyodide
def test_this_phones_own_synced_deals_are_never_shown_as_another_phones(
    live_server: str, phones: Any, app: Flask
) -> None:
    """Deals 6 and 7 saved offline; 6 syncs, then another app records Queens as deal 7, so
    this phone's Queens no longer fits: the conflict names that app's deal, never this
    phone's own deal 6 (the id it was written under is this phone's)."""
    game_id, token = api_game(app, FIRST_KINGDOM)
    phone = phones()
    page = phone.new_page()
    game_url = join(page, live_server, game_id, token)
    keep_offline(page)
    phone.set_offline(True)
    page.goto(game_url)
    record_offline(page, KING)
    record_offline(page, QUEENS)
    page.evaluate(HOLD_SECOND)  # deal 6 reaches the server alone
    phone.set_offline(False)
    page.evaluate("SKOutbox.sync()")
    page.wait_for_function("SKOutbox.list().then((es) => es.length === 1)")
    assert deals_on_server(app, game_id) == 6
    theirs = {
        "contracts": ["queens"],
        "captures": {
            "queens": {q: {"taker": 3, "doubled_by": None} for q in ("QS", "QH", "QD", "QC")}
        },
    }
    auth = {"Authorization": f"Bearer {token}"}
    posted = app.test_client().post(f"/api/v1/games/{game_id}/deals", json=theirs, headers=auth)
    assert posted.status_code == 201
    page.evaluate(RELEASE_UNPLACED)
    page.reload()
    conflict = page.get_by_test_id("conflict")
    expect(conflict).to_be_visible(timeout=30_000)
    expect(conflict.get_by_test_id("conflict-theirs")).to_contain_text("Deal 7: Queens")
    expect(conflict.get_by_test_id("conflict-theirs")).not_to_contain_text("Deal 6")
    with page.expect_navigation(timeout=30_000):
        conflict.get_by_test_id("conflict-discard").click()
    log = server_log(app, game_id)
    assert [e["contracts"] for e in log[5:]] == [["king"], ["queens"]] and log[6] == theirs


# --- the time a deal was played ------------------------------------------------------------


@needs_pyodide
def test_a_deal_synced_late_keeps_the_time_it_was_played_in_its_page_and_the_pdf(
    live_server: str, phones: Any, app: Flask
) -> None:
    phone = phones(timezone_id="Asia/Kolkata")  # +05:30: the table's own clock
    page, game_url, game_id = offline_kept_game(phone, live_server)
    record_offline(page, KING)
    page.get_by_test_id("redeal").locator("summary").click()
    page.select_option("#redeal-contract", "trix")
    page.get_by_test_id("redeal-submit").click()
    expect(page.get_by_test_id("pending-entry")).to_have_count(2, timeout=ENGINE_MS)
    page.wait_for_timeout(2_500)  # the sync comes later than the Save
    back_online(page, phone)

    with app.app_context():
        db.session.remove()
        rows = db.session.scalars(
            db.select(models.LogEntry)
            .where(models.LogEntry.game_id == game_id)
            .order_by(models.LogEntry.position)
        ).all()
        assert [row.kind for row in rows] == ["deal", "redeal"]
        assert all(row.played_at is not None and row.played_offset == 330 for row in rows)
        deal = rows[0]
        assert deal.created_at - deal.played_at >= timedelta(seconds=2)  # played, then synced
        played = deal.played_at.astimezone(timezone(timedelta(minutes=330)))
    page.goto(f"{game_url}/deals/1")
    shown = page.get_by_test_id("played-at").locator("time")
    assert shown.get_attribute("datetime") == deal.played_at.isoformat()
    pdf = app.test_client().get(f"/games/{game_id}/sheet.pdf")
    assert pdf.status_code == 200
    assert f"played {played:%H:%M}" in pdf_text(pdf.data)


# --- a Save that hangs ---------------------------------------------------------------------


class Hanging(SlowOrBroken):
    """``"hang"``: every POST stays unanswered (held open) until healed; then they fail."""

    def __init__(self, context: BrowserContext) -> None:
        self.held: list[Route] = []
        super().__init__(context)

    def handle(self, route: Any) -> None:
        if self.mode == "hang" and route.request.method == "POST":
            self.posts.append(route.request.url)
            self.held.append(route)  # never answered while hanging
            return
        super().handle(route)

    def heal_quietly(self) -> None:
        """The server answers again; the browser hears nothing (no "online" event), and
        the requests held stay unanswered: only the page's own patience ends them."""
        self.mode = "ok"


@needs_pyodide
def test_a_save_that_hangs_past_five_seconds_waits_in_the_outbox_and_syncs_once(
    live_server: str, phones: Any, app: Flask
) -> None:
    phone = phones()
    page = phone.new_page()
    game_url = start_game(page, live_server)
    game_id = game_url.rsplit("/", 1)[1]
    keep_offline(page)
    server = Hanging(phone)
    fill(open_form(page, KING), KING)
    server.mode = "hang"
    save_online_queued(page)  # no answer in 5 s: kept on the phone, under the same id
    expect(page.get_by_test_id("sync-count")).to_have_text("Waiting to sync: 1")
    assert server_log(app, game_id) == [] and server.posts
    # The sync's own requests hang too, and give up: the retries go on by themselves.
    with page.expect_navigation(timeout=90_000):
        server.heal_quietly()
    expect(page.get_by_test_id("sync-count")).to_be_hidden()
    assert [e["contracts"] for e in server_log(app, game_id)] == [["king"]]


# --- the game's last deal, a correction, an undo whose answer was lost -----------------------


def whole_game_but_one() -> list[dict[str, Any]]:
    return FIRST_KINGDOM * 3 + FIRST_KINGDOM[:4]


@needs_pyodide
def test_r12_the_games_last_deal_offline_ends_the_game_on_the_phone_as_on_the_server(
    live_server: str, phones: Any, app: Flask
) -> None:
    game_id, token = api_game(app, whole_game_but_one())
    phone = phones()
    page = phone.new_page()
    game_url = join(page, live_server, game_id, token)
    keep_offline(page)
    phone.set_offline(True)
    page.goto(game_url)
    expect(page.get_by_test_id("game-status")).to_contain_text("Deal 20 of 20")
    record_offline(page, TRIX)
    status = page.get_by_test_id("game-status")
    expect(status).not_to_contain_text("20 of 20", timeout=ENGINE_MS)
    offline_status = status.inner_text()
    offline_choices = page.get_by_test_id("choose-contract").is_visible()
    offline_totals = page.get_by_test_id("grand-total").locator("td").all_inner_texts()
    back_online(page, phone)
    assert deals_on_server(app, game_id) == 20
    expect(page.get_by_test_id("game-status")).to_have_text(offline_status)
    assert page.get_by_test_id("choose-contract").is_visible() == offline_choices
    assert page.get_by_test_id("grand-total").locator("td").all_inner_texts() == offline_totals


@needs_pyodide
def test_a_correction_of_a_deal_on_the_server_made_offline_is_sent_and_applied(
    live_server: str, phones: Any, app: Flask
) -> None:
    game_id, token = api_game(app, FIRST_KINGDOM[:2])
    phone = phones()
    page = phone.new_page()
    game_url = join(page, live_server, game_id, token)
    keep_offline(page)
    phone.set_offline(True)
    page.goto(game_url)
    expect(page.get_by_test_id("latest")).to_contain_text("deal 2", timeout=ENGINE_MS)
    with page.expect_navigation():
        page.get_by_test_id("latest-edit").click()  # deal 2, on the server: its form, filled
    expect(page.locator("#qc_taker-0")).to_be_checked(timeout=ENGINE_MS)
    tap_choice(Thumb(page), "qc_taker-1")
    save(page)
    expect(page.get_by_test_id("pending-entry")).to_have_text(
        re.compile("Correction of deal 2"), timeout=ENGINE_MS
    )
    back_online(page, phone)
    log = server_log(app, game_id)
    assert len(log) == 2 and log[1]["captures"]["queens"]["QC"]["taker"] == 1


@needs_pyodide
def test_undo_of_a_deal_whose_answer_was_lost_undoes_it_on_the_server_once(
    live_server: str, phones: Any, app: Flask
) -> None:
    phone = phones()
    page = phone.new_page()
    game_url = start_game(page, live_server)
    game_id = game_url.rsplit("/", 1)[1]
    keep_offline(page)
    wifi = BadWifi(phone)
    fill(open_form(page, KING), KING)
    wifi.lose_answer()  # written on the server, the answer lost: queued under its id
    save_online_queued(page)
    assert deals_on_server(app, game_id) == 1
    page.get_by_test_id("latest-undo").click()
    page.get_by_test_id("undo-yes").click()
    # Not simply dropped from the phone (the deal would stay on the server): undone there.
    expect(page.get_by_test_id("pending-entry")).to_have_count(2, timeout=ENGINE_MS)
    expect(page.get_by_test_id("pending-entry").nth(1)).to_contain_text("Undo")
    wifi.heal(page)
    assert server_log(app, game_id) == []
    with app.app_context():
        db.session.remove()
        actions = db.session.scalars(
            db.select(models.Revision.action)
            .where(models.Revision.game_id == game_id)
            .order_by(models.Revision.version)
        ).all()
    assert actions == ["record", "undo"]


# --- before the engine: the form's own checks, and the server's at sync -----------------


def test_before_the_engine_trix_needs_its_four_places_and_a_refusal_at_sync_is_a_kept_conflict(
    live_server: str, phones: Any, app: Flask
) -> None:
    phone = phones()
    phone.add_init_script(SAVE_DATA)  # the engine is fetched at its first need only
    page = phone.new_page()
    game_url = start_game(page, live_server)
    game_id = game_url.rsplit("/", 1)[1]
    expect(page.get_by_test_id("offline")).to_have_attribute("data-kept", "", timeout=ENGINE_MS)
    phone.set_offline(True)
    page.goto(game_url)
    record_offline(page, KING)
    # The board says deal 2, never the server's stale "Deal 1", and offers no K♥ again.
    expect(page.get_by_test_id("game-status")).to_have_text("Deal 2 of 20", timeout=ENGINE_MS)
    expect(page.get_by_test_id("turn-unchecked")).to_have_text("not checked yet")
    expect(page.get_by_test_id("contract-king")).to_have_count(0)
    expect(page.get_by_test_id("latest")).to_contain_text("deal 1")

    thumb = open_form(page, TRIX)
    expect(page.get_by_test_id("deal-title")).to_contain_text("Deal 2")
    thumb.tap(page.get_by_test_id("trix-tap-1"))
    thumb.tap(page.get_by_test_id("trix-tap-0"))
    expect(page.get_by_test_id("save-deal")).to_be_disabled()  # the form waits for four places
    # Sent all the same (by script), the offline form's own check refuses it, marked.
    page.evaluate("document.querySelector('[data-testid=save-deal]').form.requestSubmit()")
    expect(page.get_by_test_id("offline-errors").locator("li")).to_have_text(
        ["Choose who went out third.", "Choose who was left with cards."]
    )
    expect(page.locator("#trix-group [data-offline-error]")).to_have_count(2)
    page.goto(game_url)

    # The K♥ again, before the engine: kept "not checked yet", refused by the server at sync.
    page.goto(form_url(game_url, KING))
    fill(Thumb(page), KING)
    save(page)
    expect(page.get_by_test_id("sync-count")).to_have_text("Waiting to sync: 2")
    phone.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    conflict = page.get_by_test_id("conflict")
    expect(conflict).to_be_visible(timeout=30_000)
    expect(conflict.get_by_test_id("conflict-mine")).to_contain_text("King of Hearts")
    expect(page.get_by_test_id("sync-count")).to_have_text("Waiting to sync: 1")  # kept
    assert [e["contracts"] for e in server_log(app, game_id)] == [["king"]]


CELLULAR = (
    "Object.defineProperty(navigator, 'connection', "
    "{get: () => ({type: 'cellular', effectiveType: '4g', saveData: false})});"
)


@needs_pyodide
def test_a_phone_on_its_mobile_network_gets_the_engine_in_the_background(
    live_server: str, phones: Any
) -> None:
    """Where a table plays the network is a phone's own: not a reason to wait for the engine
    until the network is gone (only Save-Data, or a connection marked metered, waits)."""
    phone = phones()
    phone.add_init_script(CELLULAR)
    page = phone.new_page()
    start_game(page, live_server)
    keep_offline(page)  # the engine's files, fetched once the page is idle
    assert page.evaluate("navigator.connection.type") == "cellular"


@needs_pyodide
def test_the_servers_same_deal_page_names_this_phone_when_it_holds_the_position(
    live_server: str, phones: Any, app: Flask
) -> None:
    """Deal 1 saved offline reaches the server by the outbox; a form this phone had open for
    deal 1 is then saved: the server's "the same deal?" says the deal is this phone's own."""
    phone = phones()
    page, game_url, game_id = offline_kept_game(phone, live_server)
    record_offline(page, KING)
    back_online(page, phone)
    assert deals_on_server(app, game_id) == 1
    fill(open_form(page, TRIX), TRIX)
    page.evaluate("document.querySelector('[name=position_n]').value = '1'")  # typed before
    with page.expect_navigation():
        page.get_by_test_id("save-deal").click()
    theirs = page.get_by_test_id("entry-theirs")
    expect(theirs).to_have_attribute("data-recorded-by", "this-phone", timeout=30_000)
    expect(theirs.get_by_test_id("recorded-by")).to_have_text("Recorded from this phone earlier")
    assert deals_on_server(app, game_id) == 1
