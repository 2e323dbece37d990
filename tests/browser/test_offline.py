"""Offline play in Chromium: the installable app, the engine on the phone, the outbox's sync.

The engine runs in Pyodide, which scripts/test.sh fetches into vendor/pyodide; the
tests that need it skip, saying so, only when those files are missing.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect
from playwright.sync_api import Error as PlaywrightError

from scorekeeper.extensions import db
from scorekeeper.rules.captures import Captures
from scorekeeper.rules.contracts import Contract
from scorekeeper.store import models
from scorekeeper.web.offline import engine
from tests.browser import closing
from tests.browser.closing import CHROMIUM, CHROMIUM_ARGS
from tests.browser.phone import Deal, P, Thumb, fill, fill_card, form_url, tap_choice

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
NAMES = ["Rana", "Sami", "Omar", "Lina"]
ENGINE_MS = 90_000
needs_pyodide = pytest.mark.skipif(
    not engine.pyodide_ready(),
    reason=f"Pyodide {engine.PYODIDE_VERSION} is not in vendor/pyodide: run scripts/test.sh",
)


@pytest.fixture
def app(make_app: Callable[..., Flask], tmp_path: Path) -> Iterator[Flask]:
    app = make_app(
        SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'offline.sqlite'}", WTF_CSRF_ENABLED=True
    )
    with app.app_context():
        db.create_all()
        yield app
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def contexts(browser: Browser) -> Iterator[Callable[[], BrowserContext]]:
    made: list[BrowserContext] = []

    def new() -> BrowserContext:
        context = browser.new_context(**PHONE)  # type: ignore[arg-type]
        context.set_default_timeout(15_000)
        made.append(context)
        return context

    yield new
    for context in made:
        close(context)


# Chromium can hang for good closing a context while its service worker checks for an
# update, which every navigation starts (a teardown that never ended, in CI): wait for
# that check (a new update() joins it) before closing. The cap only guards a stuck page.
UPDATE_CHECKED = """() => new Promise((resolve) => {
  setTimeout(() => resolve("cap"), 15000);
  if (!("serviceWorker" in navigator)) return resolve("none");
  navigator.serviceWorker.getRegistration()
    .then((r) => (r ? r.update() : null))
    .then(() => resolve("checked"), () => resolve("offline"));
})"""


def settle(page: Page) -> None:
    """Let the page finish its navigation and its service worker's update check."""
    for _attempt in range(3):
        if page.is_closed() or not page.url.startswith("http"):
            return
        try:
            page.wait_for_load_state("load")
            page.evaluate(UPDATE_CHECKED)
            return
        except PlaywrightError:  # navigated meanwhile: wait for the new page
            continue


def close(context: BrowserContext) -> None:
    for page in context.pages:
        settle(page)
    closing.close(context)


@pytest.fixture
def profile_context(browser: Browser, tmp_path: Path) -> Iterator[BrowserContext]:
    """A phone with a browser profile on disk: Chromium installs no app from an incognito
    context, which every ``new_context`` is."""
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=str(CHROMIUM),
        headless=True,
        args=CHROMIUM_ARGS,
        **PHONE,  # type: ignore[arg-type]
    )
    context.set_default_timeout(15_000)
    yield context
    close(context)


# --- steps ---------------------------------------------------------------------------------


def start_game(page: Page, base: str) -> str:
    page.goto(f"{base}/games/new")
    for seat, name in enumerate(NAMES):
        page.get_by_test_id(f"player-{seat}").fill(name)
    page.check("#first_king-0")
    page.get_by_test_id("start-game").click()
    expect(page.get_by_test_id("game-status")).to_contain_text("Deal 1 of 20")
    return page.url


def game_id_of(game_url: str) -> str:
    return game_url.rstrip("/").rsplit("/", 1)[1]


def kept_game(page: Page, base: str) -> tuple[str, str]:
    """A new game kept offline on this phone: its address and its id."""
    game_url = start_game(page, base)
    keep_offline(page)
    return game_url, game_id_of(game_url)


def offline_kept_game(context: BrowserContext, base: str) -> tuple[Page, str, str]:
    """A new game kept on a phone that then goes offline, its page open: (page, address, id)."""
    page = context.new_page()
    game_url, game_id = kept_game(page, base)
    context.set_offline(True)
    page.goto(game_url)
    return page, game_url, game_id


def controlled(page: Page) -> None:
    """Wait until the service worker controls the page."""
    page.evaluate(
        """() => new Promise((resolve, reject) => {
             if (navigator.serviceWorker.controller) return resolve(true);
             navigator.serviceWorker.addEventListener('controllerchange', () => resolve(true));
             setTimeout(() => reject(new Error('no service worker controls the page')), 30000);
           })"""
    )


def keep_offline(page: Page) -> None:
    """Nothing to tap: a game page opened is kept once idle, and the engine's files with it
    (once per phone)."""
    controlled(page)
    expect(page.get_by_test_id("offline")).to_have_attribute("data-kept", "", timeout=ENGINE_MS)
    page.wait_for_function("localStorage.getItem('sk-engine')", timeout=ENGINE_MS)


def engine_ready(page: Page) -> None:
    """Offline, with the engine kept on this phone: wait until the form's engine has started.
    A Save waits only a few seconds for it (then keeps the deal "not checked yet"), and
    these tests prove the engine's own answers, which a busy machine could otherwise miss."""
    page.wait_for_function(
        """() => navigator.onLine || !localStorage.getItem('sk-engine')
                 || (window.SKOffline && SKOffline.engine.booted)""",
        timeout=ENGINE_MS,
    )


def open_form(page: Page, deal: Deal) -> Thumb:
    """Tap the deal's contract on the game page: its form, and a thumb to fill it."""
    with page.expect_navigation():
        page.get_by_test_id(f"contract-{deal.contract.value}").click()
    expect(page.get_by_test_id("deal-form")).to_be_visible()
    page.wait_for_load_state("load")  # its scripts run: they drive the boxes and the Save
    engine_ready(page)
    return Thumb(page)


def save(page: Page) -> None:
    """Save a deal offline: back on the game page, saved on this phone."""
    with page.expect_navigation(timeout=ENGINE_MS):
        page.get_by_test_id("save-deal").click()
    expect(page.get_by_test_id("offline-saved")).to_be_visible()


def back_online(page: Page, context: BrowserContext | None = None) -> None:
    """The network is back: the outbox is sent, then the game page reloads itself to show
    the server's page. Waiting for that reload (not only for the count to go) leaves no
    navigation running under the test's next step, or under its context's closing."""
    with page.expect_navigation(timeout=30_000):
        if context is not None:
            context.set_offline(False)
        # The browser's own "online" may have synced and reloaded it first.
        with contextlib.suppress(PlaywrightError):
            page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.get_by_test_id("sync-count")).to_be_hidden()


def record_offline(page: Page, deal: Deal) -> None:
    fill(open_form(page, deal), deal)
    save(page)


KING = Deal(Contract.KING, Captures(king_of_hearts=P(1)))
QUEENS = Deal(Contract.QUEENS, Captures(queens=(P(2, 1), P(2), P(3), P(0))))
DIAMONDS = Deal(Contract.DIAMONDS, Captures(diamonds=(3, 4, 5, 1)))
COLLECTIONS = Deal(Contract.COLLECTIONS, Captures(tricks=(2, 3, 4, 4)))
TRIX = Deal(Contract.TRIX, Captures(trix_order=(1, 0, 3, 2)))


def server_log(app: Flask, game_id: str) -> list[dict[str, Any]]:
    with app.app_context():
        db.session.remove()
        rows = db.session.scalars(
            db.select(models.LogEntry)
            .where(models.LogEntry.game_id == game_id)
            .order_by(models.LogEntry.position)
        ).all()
        return [row.payload for row in rows]


def entry_ids(app: Flask, game_id: str) -> list[str | None]:
    with app.app_context():
        db.session.remove()
        return list(
            db.session.scalars(
                db.select(models.Revision.entry_id)
                .where(models.Revision.game_id == game_id)
                .order_by(models.Revision.version)
            )
        )


# --- installable ---------------------------------------------------------------------------


def test_chromium_finds_the_app_installable(live_server: str, profile_context: Any) -> None:
    page = profile_context.new_page()
    page.goto(f"{live_server}/")
    controlled(page)
    cdp = page.context.new_cdp_session(page)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert errors == []
    manifest = cdp.send("Page.getAppManifest")
    assert not manifest.get("errors"), manifest
    scope = page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.scope)")
    assert scope == f"{live_server}/"


def test_home_help_and_an_opened_game_open_offline(live_server: str, contexts: Any) -> None:
    context = contexts()
    page = context.new_page()
    game_url = start_game(page, live_server)
    controlled(page)
    page.goto(f"{live_server}/help")
    page.goto(game_url)  # opened once under the service worker: kept
    context.set_offline(True)
    for url in (f"{live_server}/", f"{live_server}/help", game_url):
        page.goto(url)
        expect(page.locator("header.site-header")).to_be_visible()
    expect(page.get_by_test_id("game-status")).to_contain_text("Deal 1 of 20")
    page.goto(f"{live_server}/games/never-opened-here")
    expect(page.get_by_test_id("offline-unavailable")).to_be_visible()


KEPT_PAIR = """(game) => caches.open("sk-pages").then((cache) => Promise.all([
    cache.match(game).then((r) => (r ? r.text() : "")),
    cache.match(game + "/offline.json").then((r) => (r ? r.json() : {}))]))
  .then(([page, copy]) => {
    const shown = /data-testid="live" data-version="(\\d+)"/.exec(page);
    return [shown ? Number(shown[1]) : null, copy.version === undefined ? null : copy.version];
  })"""
"""The versions of the game in the page the phone keeps and in the copy its engine replays."""


def kept_pair(page: Page, game_url: str, version: int) -> list[int | None]:
    """The kept page's and copy's versions once both are ``version`` (or as they stay)."""
    for _attempt in range(120):  # the service worker keeps them in the background
        pair = list(page.evaluate(KEPT_PAIR, game_url))
        if pair == [version, version]:
            break
        page.wait_for_timeout(250)
    return pair


@needs_pyodide
def test_a_live_update_keeps_the_page_and_its_copy_of_one_version(
    live_server: str, contexts: Any, app: Flask
) -> None:
    """Another phone's deal reaches this one by live update: the page the phone keeps and
    the copy of the game its engine replays offline are both of that version. The copy's
    fetch failing under the next update leaves the pair kept before whole: offline, the
    phone shows and draws that one game, never a page newer than its copy."""
    game_id, token = api_game(app, API_DEALS[:1])
    context = contexts()
    page = context.new_page()
    game_url = join(page, live_server, game_id, token)
    keep_offline(page)
    client, auth = app.test_client(), {"Authorization": f"Bearer {token}"}

    def another_phone_saves(deal: dict[str, Any]) -> int:
        answer = client.post(f"/api/v1/games/{game_id}/deals", json=deal, headers=auth)
        assert answer.status_code == 201
        return int(answer.get_json()["game"]["version"])

    version = another_phone_saves(API_DEALS[1])
    expect(page.get_by_test_id("game-status")).to_contain_text("Deal 3 of 20")  # live update
    assert kept_pair(page, game_url, version) == [version, version]

    failed: list[str] = []

    def copy_fails_once(route: Route) -> None:
        if failed:
            route.fallback()
        else:
            failed.append(route.request.url)
            route.abort("internetdisconnected")

    context.route("**/offline.json", copy_fails_once)
    newer = another_phone_saves(API_DEALS[2])
    expect(page.get_by_test_id("game-status")).to_contain_text("Deal 4 of 20")
    for _attempt in range(120):  # the worker's fetch of the copy, under that update
        if failed:
            break
        page.wait_for_timeout(250)
    assert failed, "the live update's page was kept without fetching its copy"
    assert kept_pair(page, game_url, newer) == [version, version]
    context.set_offline(True)  # the board is drawn from the copy the phone has
    expect(page.locator("html[data-offline-board]")).to_have_count(1, timeout=ENGINE_MS)
    expect(page.get_by_test_id("game-status")).to_contain_text("Deal 3 of 20")
    page.reload()
    expect(page.get_by_test_id("game-status")).to_contain_text("Deal 3 of 20")
    expect(page.get_by_test_id("latest")).to_contain_text("Queens")


# --- offline play --------------------------------------------------------------------------


@needs_pyodide
def test_five_deals_offline_then_exactly_those_on_the_server(
    live_server: str, contexts: Any, app: Flask
) -> None:
    context = contexts()
    page, game_url, game_id = offline_kept_game(context, live_server)

    record_offline(page, KING)
    # The King of Hearts again: refused by the engine on the phone (R2), nothing kept.
    page.goto(form_url(game_url, KING))
    engine_ready(page)
    fill(Thumb(page), KING)
    page.get_by_test_id("save-deal").click()
    expect(page.get_by_test_id("offline-errors")).to_contain_text("already", timeout=ENGINE_MS)
    page.goto(game_url)
    # Diamonds adding up to 12: Save waits for 13 and says why (R5).
    thumb = open_form(page, DIAMONDS)
    thumb.tap(page.locator("#diamonds-0"))
    thumb.type("3")
    thumb.type("4")
    thumb.type("5")
    thumb.tap(page.locator("#diamonds-3"))
    thumb.type("0")
    expect(page.get_by_test_id("save-deal")).to_be_disabled()
    expect(page.locator("[data-save-reason]")).to_have_text("The diamonds add up to 12, not 13.")
    page.fill("#diamonds-3", "1")
    save(page)
    # A Q♠ marked "×2" without its holder: asked for, beside the card, as the server would.
    thumb = open_form(page, QUEENS)
    fill_card(thumb, "qs", P(2))
    thumb.tap(page.locator("label:has(> #qs_doubled)"))
    for key, queen in zip(("qh", "qd", "qc"), QUEENS.captures.queens[1:], strict=True):
        fill_card(thumb, key, queen)
    page.get_by_test_id("save-deal").click()
    expect(page.get_by_test_id("offline-errors")).to_have_text(
        "Choose who doubled the Q♠ (its holder)."
    )
    expect(page.locator("#qs_taker-group [data-offline-error]")).to_be_visible()
    tap_choice(thumb, "qs_doubled_by-1")
    save(page)
    record_offline(page, COLLECTIONS)
    record_offline(page, TRIX)

    expect(page.get_by_test_id("sync-count")).to_have_text("Waiting to sync: 5")
    page.reload()  # still offline: the outbox and the phone's scoreboard survive
    expect(page.get_by_test_id("pending-entry")).to_have_count(5, timeout=ENGINE_MS)
    # The board moves on as the engine on the phone says: the next kingdom's first deal.
    expect(page.get_by_test_id("game-status")).to_have_text("Deal 6 of 20")
    expect(page.get_by_test_id("turn").locator("strong")).to_have_text("Sami")
    expect(page.get_by_test_id("contract-king")).to_be_visible()
    assert server_log(app, game_id) == []

    back_online(page, context)
    log = server_log(app, game_id)
    assert [entry["contracts"] for entry in log] == [
        ["king"],
        ["diamonds"],
        ["queens"],
        ["collections"],
        ["trix"],
    ]
    assert log[1]["captures"]["diamonds"] == [3, 4, 5, 1]
    assert log[2]["captures"]["queens"]["QS"] == {"taker": 2, "doubled_by": 1}
    ids = entry_ids(app, game_id)
    assert len(ids) == 5 and len(set(ids)) == 5 and all(ids)


# --- a network that fails while the phone thinks it is online -----------------------------


class BadWifi:
    """A café's Wi-Fi: ``navigator.onLine`` stays true, but requests get no answer.

    ``drop()``: every request fails from now on; ``lose_answer()``: the next form post
    reaches the server, its answer is lost, and every request fails after it;
    ``heal()``: the network works again. Routed on the context, so the service
    worker's own fetches fail too (Chromium).
    """

    def __init__(self, context: BrowserContext) -> None:
        self.mode = "ok"
        self.posts: list[str] = []
        context.route("**/*", self.handle)

    def handle(self, route: Any) -> None:
        request = route.request
        if self.mode == "lose-answer" and request.method == "POST":
            self.posts.append(request.url)
            route.fetch()  # written on the server …
            self.mode = "down"
            route.abort("connectionreset")  # … and the answer never comes back
        elif self.mode in ("down", "lose-answer"):
            if request.method == "POST":
                self.posts.append(request.url)
            route.abort("internetdisconnected")
        else:
            route.fallback()

    def drop(self) -> None:
        self.mode = "down"

    def lose_answer(self) -> None:
        self.mode = "lose-answer"

    def heal(self, page: Page) -> None:
        self.mode = "ok"
        back_online(page)  # the app hears "online" (it never heard "offline")


def save_online_queued(page: Page) -> None:
    """Save while the phone believes it is online: back on the game page, kept on the phone."""
    with page.expect_navigation(timeout=ENGINE_MS):
        page.get_by_test_id("save-deal").click()
    expect(page.get_by_test_id("offline-saved")).to_be_visible()


@needs_pyodide
def test_a_save_on_a_failing_network_is_queued_and_synced_exactly_once(
    live_server: str, contexts: Any, app: Flask
) -> None:
    context = contexts()
    page = context.new_page()
    game_url, game_id = kept_game(page, live_server)
    wifi = BadWifi(context)

    # A kept game's form is sent by script: saved, the game page says so as usual …
    fill(open_form(page, TRIX), TRIX)
    with page.expect_navigation():
        page.get_by_test_id("save-deal").click()
    expect(page.get_by_test_id("flash")).to_contain_text("Deal 1 recorded")
    # … refused, the form is posted as usual and the server's page says why.
    open_form(page, QUEENS)
    with page.expect_navigation():
        page.get_by_test_id("save-deal").click()
    expect(page.get_by_test_id("error-summary")).to_be_visible()
    assert [e["contracts"] for e in server_log(app, game_id)] == [["trix"]]
    page.goto(game_url)

    # The post never reaches the server: the deal waits on the phone, as offline.
    fill(open_form(page, KING), KING)
    wifi.drop()
    save_online_queued(page)
    assert page.evaluate("navigator.onLine") is True and wifi.posts
    expect(page.get_by_test_id("sync-count")).to_have_text("Waiting to sync: 1")
    # The page shows the waiting deal once its engine has replayed the log with it: on a
    # busy phone that engine may still be starting.
    expect(page.get_by_test_id("pending-entry")).to_have_text(
        re.compile("waiting to sync"), timeout=ENGINE_MS
    )
    assert len(server_log(app, game_id)) == 1
    wifi.heal(page)
    assert [e["contracts"] for e in server_log(app, game_id)] == [["trix"], ["king"]]

    # The post reaches the server but its answer is lost: queued under the same entry id,
    # the sync is answered "already written", and the deal is on the server once.
    fill(open_form(page, QUEENS), QUEENS)
    wifi.lose_answer()
    save_online_queued(page)
    expect(page.get_by_test_id("sync-count")).to_have_text("Waiting to sync: 1")
    on_server = [["trix"], ["king"], ["queens"]]
    assert [e["contracts"] for e in server_log(app, game_id)] == on_server
    wifi.heal(page)
    assert [e["contracts"] for e in server_log(app, game_id)] == on_server
    ids = entry_ids(app, game_id)
    assert len(ids) == 3 and all(ids) and len(set(ids)) == 3


@needs_pyodide
def test_an_undo_on_a_failing_network_is_queued_and_undoes_one_deal(
    live_server: str, contexts: Any, app: Flask
) -> None:
    game_id, token = api_game(app, FIRST_KINGDOM[:2])
    context = contexts()
    page = context.new_page()
    join(page, live_server, game_id, token)
    keep_offline(page)
    wifi = BadWifi(context)
    page.get_by_test_id("undo-confirm").check()
    wifi.lose_answer()  # undone on the server, the answer lost
    page.get_by_test_id("undo-submit").click()
    expect(page.get_by_test_id("pending-entry")).to_have_text(
        re.compile("Undo of the last entry"), timeout=ENGINE_MS
    )
    assert len(server_log(app, game_id)) == 1
    wifi.heal(page)
    expect(page.get_by_test_id("latest")).to_contain_text("deal 1")  # the server's page
    assert [e["contracts"] for e in server_log(app, game_id)] == [["king"]]  # one undo


# --- redeals offline -----------------------------------------------------------------------


def redeal(page: Page, contract: str) -> None:
    engine_ready(page)
    page.get_by_test_id("redeal").locator("summary").click()
    page.select_option("#redeal-seat", "2")
    page.select_option("#redeal-contract", contract)
    page.get_by_test_id("redeal-submit").click()


@needs_pyodide
def test_a_redeal_offline_is_checked_by_the_engine_queued_and_synced(
    live_server: str, contexts: Any, app: Flask
) -> None:
    context = contexts()
    page, game_url, game_id = offline_kept_game(context, live_server)
    record_offline(page, KING)
    # A redeal is claimed only in the K♥ or Trix (R8): the engine on the phone says so.
    redeal(page, "queens")
    expect(page.get_by_test_id("offline-form-errors")).to_have_text(
        "A redeal can only be claimed in King of Hearts or Trix; "
        "\u2068Rana\u2069 announced Queens.",
        timeout=ENGINE_MS,
    )
    expect(page.get_by_test_id("pending-entry")).to_have_count(1)
    page.select_option("#redeal-contract", "trix")
    page.get_by_test_id("redeal-submit").click()
    expect(page.get_by_test_id("pending-entry")).to_have_count(2, timeout=ENGINE_MS)
    expect(page.get_by_test_id("pending-entry").nth(1)).to_contain_text("Redeal.")
    expect(page.get_by_test_id("sync-count")).to_have_text("Waiting to sync: 2")
    assert server_log(app, game_id) == []

    back_online(page, context)
    log = server_log(app, game_id)
    assert log[0]["contracts"] == ["king"]
    assert log[1] == {"kind": "redeal", "seat": 2, "contract": "trix", "note": ""}
    assert len(entry_ids(app, game_id)) == 2 and all(entry_ids(app, game_id))


# --- pages that are never kept -------------------------------------------------------------


def test_the_new_game_form_is_never_shown_from_a_copy(live_server: str, contexts: Any) -> None:
    context = contexts()
    page = context.new_page()
    page.goto(f"{live_server}/")
    controlled(page)
    page.goto(f"{live_server}/games/new")  # under the service worker, online
    expect(page.get_by_test_id("player-0")).to_be_visible()
    kept = page.evaluate(
        "caches.open('sk-pages').then(c => c.keys()).then(ks => ks.map(k => k.url))"
    )
    assert f"{live_server}/games/new" not in kept
    context.set_offline(True)
    with pytest.raises(PlaywrightError):  # the browser's own "no network", not a stale form
        page.goto(f"{live_server}/games/new")


# --- two phones ----------------------------------------------------------------------------

FIRST_KINGDOM = [
    {"contracts": ["king"], "captures": {"king_of_hearts": {"taker": 1, "doubled_by": None}}},
    {
        "contracts": ["queens"],
        "captures": {
            "queens": {
                q: {"taker": t, "doubled_by": None}
                for q, t in zip(("QS", "QH", "QD", "QC"), (2, 2, 3, 0), strict=True)
            }
        },
    },
    {"contracts": ["diamonds"], "captures": {"diamonds": [5, 4, 3, 1]}},
    {"contracts": ["collections"], "captures": {"tricks": [2, 3, 4, 4]}},
    {"contracts": ["trix"], "captures": {"trix_order": [1, 0, 3, 2]}},
]


def api_game(app: Flask, deals: list[dict[str, Any]]) -> tuple[str, str]:
    """A game made through the API with ``deals`` recorded: (id, edit token)."""
    client = app.test_client()
    made = client.post("/api/v1/games", json={"players": NAMES, "first_king": 0}).get_json()
    auth = {"Authorization": f"Bearer {made['edit_token']}"}
    for deal in deals:
        assert (
            client.post(f"/api/v1/games/{made['id']}/deals", json=deal, headers=auth).status_code
            == 201
        )
    return made["id"], made["edit_token"]


def join(page: Page, base: str, game_id: str, token: str) -> str:
    page.goto(f"{base}/games/{game_id}/join/{token}")
    with page.expect_navigation():
        page.get_by_test_id("join-yes").click()
    return f"{base}/games/{game_id}"


@needs_pyodide
def test_two_phones_the_conflict_is_shown_and_nothing_is_lost(
    live_server: str, contexts: Any, app: Flask
) -> None:
    game_id, token = api_game(app, FIRST_KINGDOM)
    context = contexts()
    phone_a = context.new_page()
    game_url = join(phone_a, live_server, game_id, token)
    keep_offline(phone_a)
    context.set_offline(True)
    phone_a.goto(game_url)
    record_offline(phone_a, KING)  # deal 6 on phone A
    record_offline(phone_a, QUEENS)  # deal 7 on phone A
    # Meanwhile phone B, online, records deal 6: the same contract, another taker.
    theirs = {"contracts": ["king"], "captures": {"king_of_hearts": {"taker": 3, "doubled_by": 2}}}
    answer = app.test_client().post(
        f"/api/v1/games/{game_id}/deals", json=theirs, headers={"Authorization": f"Bearer {token}"}
    )
    assert answer.status_code == 201

    context.set_offline(False)
    phone_a.evaluate("window.dispatchEvent(new Event('online'))")
    conflict = phone_a.get_by_test_id("conflict")
    expect(conflict).to_be_visible(timeout=30_000)
    # "The same deal?": what phone B recorded beside phone A's, who recorded it, and why.
    expect(conflict.get_by_test_id("conflict-theirs")).to_contain_text("Deal 6: King of Hearts")
    expect(conflict.get_by_test_id("conflict-theirs")).to_contain_text("Recorded by another app")
    expect(conflict.get_by_test_id("conflict-mine")).to_contain_text("King of Hearts")
    expect(conflict).to_contain_text("Deal 6 was recorded meanwhile")  # the server's reason
    expect(conflict.get_by_test_id("same-verdict")).to_contain_text("They differ")
    assert conflict.locator("[data-choice]").first.get_attribute("data-choice") == "discard"
    expect(phone_a.get_by_test_id("sync-count")).to_have_text("Waiting to sync: 2")
    log = server_log(app, game_id)
    assert len(log) == 6 and log[5] == theirs  # phone A's deals wait for the decision

    with phone_a.expect_navigation(timeout=30_000):  # the rest sent, the server's page shown
        phone_a.get_by_test_id("conflict-discard").click()
    expect(phone_a.get_by_test_id("sync-count")).to_be_hidden()
    log = server_log(app, game_id)
    assert [e["contracts"] for e in log[5:]] == [["king"], ["queens"]]
    assert log[5] == theirs  # phone B's deal stands; phone A's queens follow it


# --- retries -------------------------------------------------------------------------------


def test_a_retried_sync_records_one_deal_and_another_body_is_409(
    live_server: str, contexts: Any, app: Flask
) -> None:
    page = contexts().new_page()
    game_url = start_game(page, live_server)
    game_id = game_id_of(game_url)
    answers = page.evaluate(
        """async (url) => {
             const copy = await (await fetch(url)).json();
             const send = (entry) => fetch(copy.urls.sync, {
               method: "POST", credentials: "same-origin",
               headers: {"Content-Type": "application/json", "X-CSRFToken": copy.csrf_token},
               body: JSON.stringify({entry_id: "o-retry", action: "record", entry})
             }).then(r => r.status);
             const trix = {contracts: ["trix"], captures: {trix_order: [2, 0, 3, 1]}};
             const king = {contracts: ["king"],
                           captures: {king_of_hearts: {taker: 1, doubled_by: null}}};
             return [await send(trix), await send(trix), await send(king)];
           }""",
        f"{game_url}/offline.json",
    )
    assert answers == [201, 201, 409]
    assert [e["contracts"] for e in server_log(app, game_id)] == [["trix"]]


# --- updates -------------------------------------------------------------------------------


def cache_names(page: Page) -> list[str]:
    return list(page.evaluate("caches.keys()"))


def test_a_new_version_waits_for_the_form_then_reloads_and_drops_old_caches(
    live_server: str, contexts: Any, app: Flask
) -> None:
    page = contexts().new_page()
    page.goto(f"{live_server}/")
    controlled(page)
    old = [n for n in cache_names(page) if n.startswith("sk-static-")]
    assert len(old) == 1
    page.goto(f"{live_server}/games/new")
    page.get_by_test_id("player-0").fill("Rana")  # a half-filled form
    app.config["OFFLINE_RELEASE"] = "next-release"
    page.evaluate(
        """() => navigator.serviceWorker.getRegistration().then(r => r.update().then(() =>
             new Promise(resolve => {
               const done = () => r.waiting ? resolve(true) : setTimeout(done, 100);
               done();
             })))"""
    )
    expect(page.get_by_test_id("update-ready")).to_be_hidden()  # never under a typed form
    page.goto(f"{live_server}/help")
    button = page.get_by_test_id("update-ready")
    expect(button).to_have_text("A new version is ready: reload")
    with page.expect_navigation():
        button.click()
    controlled(page)
    names = cache_names(page)
    assert "sk-static-next-release" in names and old[0] not in names


# --- security ------------------------------------------------------------------------------


def test_the_page_may_not_compile_webassembly_only_the_engine_worker_may(
    live_server: str, contexts: Any
) -> None:
    page = contexts().new_page()
    page.goto(f"{live_server}/")
    outcome = page.evaluate(
        """WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]))
             .then(() => "compiled", error => error.name)"""
    )
    assert outcome == "CompileError"


def test_no_other_origin_reads_the_phones_copy_or_its_outbox(
    live_server: str, contexts: Any, app: Flask
) -> None:
    context = contexts()
    page = context.new_page()
    game_url = start_game(page, live_server)
    controlled(page)
    token = page.evaluate("document.cookie")
    assert token == ""  # the session cookie is HttpOnly: not even this origin's scripts read it
    page.evaluate(
        """() => SKBoot.load().then(() => SKOutbox.add({game: "g", action: "undo", version: 1,
                                                       urls: {offline: "/x", game: "/x"}}))"""
    )
    other_origin = live_server.replace("127.0.0.1", "localhost")
    page.goto(f"{other_origin}/help")
    outcome = page.evaluate(
        """url => fetch(url, {credentials: "include"})
                    .then(r => "read " + r.status, e => e.name)""",
        f"{game_url}/offline.json",
    )
    assert outcome == "TypeError"  # no CORS: another origin cannot read it
    outbox = page.evaluate(
        """() => new Promise(resolve => {
             const request = indexedDB.open("scorekeeper-offline");
             request.onsuccess = () => {
               const db = request.result;
               if (!db.objectStoreNames.contains("outbox")) return resolve(0);
               const count = db.transaction("outbox").objectStore("outbox").count();
               count.onsuccess = () => resolve(count.result);
             };
           })"""
    )
    assert outbox == 0  # another origin's IndexedDB: this app's outbox is not there


def test_a_conflict_changed_comes_back_in_the_form_with_its_x2_and_holder(
    live_server: str, contexts: Any
) -> None:
    page = contexts().new_page()
    game_url = start_game(page, live_server)
    game_id = game_id_of(game_url)
    draft = {
        "entry": {
            "contracts": ["king"],
            "captures": {"king_of_hearts": {"taker": 2, "doubled_by": 1}},
        }
    }
    page.evaluate(
        "([key, draft]) => sessionStorage.setItem(key, JSON.stringify(draft))",
        [f"sk-draft-{game_id}", draft],
    )
    page.goto(form_url(game_url, KING))  # its offline script loads by itself, once idle
    expect(page.locator("#kh_taker-2")).to_be_checked(timeout=15_000)
    expect(page.locator("#kh_doubled")).to_be_checked()
    expect(page.locator("#kh_doubled_by-1")).to_be_checked()
    expect(page.get_by_test_id("kh-doubled")).to_be_visible()


# --- a club night's table: its first deal names the first king (R2) -------------------------

CLUB = ["Rana", "Sami", "Omar", "Lina", "Hadi", "Maya", "Nour", "Ziad"]
NO_KING = {"contracts": ["trix"], "captures": {"trix_order": [1, 0, 3, 2]}}
WORKER_SAYS = """(entry) => fetch(document.querySelector('[data-offline-form]')
    .getAttribute('data-offline-url')).then((r) => r.json())
    .then((data) => window.SKOffline.check(data, [], {action: 'record', entry: entry}))"""


def drawn_table(app: Flask) -> dict[str, Any]:
    """The first table of a club night's first round, drawn through the API."""
    client = app.test_client()
    made = client.post("/api/v1/events", json={"name": "Club", "players": CLUB}).get_json()
    auth = {"Authorization": f"Bearer {made['director_token']}"}
    table: dict[str, Any] = client.post(
        f"/api/v1/events/{made['id']}/rounds", headers=auth
    ).get_json()["tables"][0]
    return table


@needs_pyodide
def test_r2_a_tables_first_deal_offline_asks_who_was_dealt_the_7h_and_syncs_him(
    live_server: str, contexts: Any, app: Flask
) -> None:
    table = drawn_table(app)
    players = table["players"]
    context = contexts()
    page = context.new_page()
    game_url = join(page, live_server, table["game"], table["edit_token"])
    keep_offline(page)
    context.set_offline(True)
    page.goto(game_url)

    thumb = open_form(page, TRIX)
    expect(page.get_by_test_id("seven-hearts")).to_be_visible()
    # The engine in the phone's worker refuses a first deal that names nobody, in the
    # form's words, and the form asks before it is sent there.
    answer = page.evaluate(WORKER_SAYS, NO_KING)
    assert answer["ok"] is False and answer["status"] == 422
    assert [(e["field"], e["message"]) for e in answer["errors"]] == [
        ("king", "Choose who was dealt the 7♥.")
    ]
    fill(thumb, TRIX)
    page.get_by_test_id("save-deal").click()
    expect(page.get_by_test_id("offline-errors")).to_have_text("Choose who was dealt the 7♥.")
    expect(page.locator("#king-group [data-offline-error]")).to_be_visible()
    tap_choice(thumb, "king-2")
    save(page)
    # The phone's board follows the 7♥'s holder: he is king of the first kingdom.
    expect(page.get_by_test_id("turn").locator("strong")).to_have_text(
        players[2], timeout=ENGINE_MS
    )
    # The next deal's form, kept before the first deal, asks no more.
    thumb = open_form(page, KING)
    expect(page.get_by_test_id("seven-hearts")).to_have_count(0, timeout=ENGINE_MS)
    fill(thumb, KING)
    save(page)
    assert server_log(app, table["game"]) == []

    back_online(page, context)
    log = server_log(app, table["game"])
    assert [(e["contracts"], e.get("king")) for e in log] == [(["trix"], 2), (["king"], None)]
    state = app.test_client().get(f"/api/v1/games/{table['game']}").get_json()
    assert state["first_king_open"] is False
    assert [d["king"] for d in state["kingdoms"][0]["deals"]] == [2, 2]


# --- one game state: every offline screen from the server's log plus the outbox ----------


API_DEALS = [
    {"contracts": ["king"], "captures": {"king_of_hearts": {"taker": 1, "doubled_by": None}}},
    {"contracts": ["queens"], "captures": {"queens": {q: {"taker": 2, "doubled_by": None}
                                                       for q in ("QS", "QH", "QD", "QC")}}},
    {"contracts": ["diamonds"], "captures": {"diamonds": [3, 4, 5, 1]}},
    {"contracts": ["collections"], "captures": {"tricks": [2, 3, 4, 4]}},
]  # fmt: skip


def totals_bar(page: Page) -> list[str]:
    return [
        page.get_by_test_id(f"total-{seat}").locator(".total-score").inner_text()
        for seat in range(4)
    ]


def sheet_total(page: Page) -> list[str]:
    return page.get_by_test_id("grand-total").locator("td").all_inner_texts()


def board_of_kingdom_two(page: Page, lang: str) -> None:
    """Kingdom 2 as the phone draws it: Sami is king, all his contracts, deal 6."""
    expect(page.get_by_test_id("game-status")).to_contain_text("6", timeout=ENGINE_MS)
    expect(page.get_by_test_id("turn").locator("strong")).to_have_text("Sami")
    expect(page.get_by_test_id("choose-contract").locator("h2")).to_contain_text("Sami")
    buttons = page.get_by_test_id("choose-contract").locator("a.contract-button")
    expect(buttons).to_have_count(5)
    expect(page.get_by_test_id("played-2")).to_be_visible()
    expect(page.get_by_test_id("latest")).to_contain_text("5")
    assert page.evaluate("document.documentElement.dir") == ("rtl" if lang == "ar" else "ltr")
    assert sheet_total(page) == totals_bar(page)


@needs_pyodide
@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_kingdoms_last_deal_offline_draws_the_next_kingdom_everywhere(
    live_server: str, contexts: Any, app: Flask, lang: str
) -> None:
    game_id, token = api_game(app, API_DEALS)
    context = contexts()
    page = context.new_page()
    page.goto(f"{live_server}/lang/{lang}?next=/")
    game_url = join(page, live_server, game_id, token)
    controlled(page)
    page.goto(game_url)  # opened under the service worker: kept with no tap
    expect(page.get_by_test_id("choose-contract").locator("a.contract-button")).to_have_count(1)
    keep_offline(page)
    context.set_offline(True)
    page.goto(game_url)
    record_offline(page, TRIX)

    board_of_kingdom_two(page, lang)
    page.reload()  # still offline: the same board, drawn again from the same state
    board_of_kingdom_two(page, lang)
    # The next kingdom's form is Sami's, numbered 6.
    open_form(page, KING)
    expect(page.get_by_test_id("deal-title")).to_contain_text("6", timeout=ENGINE_MS)
    expect(page.get_by_test_id("dealer-line")).to_contain_text("Sami")
    page.go_back()
    back_online(page, context)
    assert [e["contracts"] for e in server_log(app, game_id)][-1] == ["trix"]
    expect(page.get_by_test_id("turn").locator("strong")).to_have_text("Sami")
    assert sheet_total(page) == totals_bar(page)


@needs_pyodide
def test_undo_offline_asks_in_place_and_edit_changes_the_phones_own_entry(
    live_server: str, contexts: Any, app: Flask
) -> None:
    context = contexts()
    page, game_url, game_id = offline_kept_game(context, live_server)
    record_offline(page, KING)
    record_offline(page, QUEENS)
    expect(page.get_by_test_id("pending-entry")).to_have_count(2, timeout=ENGINE_MS)
    # Undo: asked in place, on the game page (never the browser's "No internet" page).
    page.get_by_test_id("latest-undo").click()
    expect(page.get_by_test_id("undo-question")).to_contain_text("deal 2")
    page.get_by_test_id("undo-yes").click()
    expect(page.get_by_test_id("pending-entry")).to_have_count(1, timeout=ENGINE_MS)
    expect(page.get_by_test_id("sync-count")).to_have_text("Waiting to sync: 1")
    assert page.url == game_url
    expect(page.get_by_test_id("latest")).to_contain_text("deal 1")
    # Edit: this phone's own deal 1 opens in its form, filled in, and is changed where it waits.
    with page.expect_navigation():
        page.get_by_test_id("latest-edit").click()
    expect(page.locator("#kh_taker-1")).to_be_checked(timeout=ENGINE_MS)
    expect(page.get_by_test_id("deal-title")).to_contain_text("1", timeout=ENGINE_MS)
    tap_choice(Thumb(page), "kh_taker-3")
    save(page)
    expect(page.get_by_test_id("pending-entry")).to_have_count(1, timeout=ENGINE_MS)
    expect(page.get_by_test_id("sync-count")).to_have_text("Waiting to sync: 1")
    back_online(page, context)
    log = server_log(app, game_id)
    assert len(log) == 1 and log[0]["captures"]["king_of_hearts"]["taker"] == 3


SAVE_DATA = "Object.defineProperty(navigator, 'connection', {get: () => ({saveData: true})});"


def test_under_save_data_a_deal_saved_before_the_engine_waits_unchecked_and_syncs(
    live_server: str, contexts: Any, app: Flask
) -> None:
    context = contexts()
    context.add_init_script(SAVE_DATA)  # the engine is fetched at its first need only
    page = context.new_page()
    game_url = start_game(page, live_server)
    game_id = game_id_of(game_url)
    controlled(page)
    expect(page.get_by_test_id("offline")).to_have_attribute("data-kept", "", timeout=ENGINE_MS)
    assert page.evaluate("localStorage.getItem('sk-engine')") is None
    context.set_offline(True)  # no engine on this phone: the form's own checks apply
    page.goto(game_url)
    record_offline(page, KING)
    expect(page.get_by_test_id("pending-entry")).to_contain_text(
        "not checked yet", timeout=ENGINE_MS
    )
    expect(page.get_by_test_id("sync-count")).to_have_text("Waiting to sync: 1")
    back_online(page, context)  # the server checks it at sync
    assert [e["contracts"] for e in server_log(app, game_id)] == [["king"]]


def test_a_browser_without_a_service_worker_says_so_once_and_offers_nothing_more(
    live_server: str, contexts: Any
) -> None:
    context = contexts()
    context.add_init_script("delete Navigator.prototype.serviceWorker;")
    page = context.new_page()
    start_game(page, live_server)
    expect(page.get_by_test_id("cannot-keep")).to_be_visible()
    expect(page.get_by_test_id("cannot-keep")).to_contain_text("HTTPS")
    expect(page.get_by_test_id("offline-line")).to_be_hidden()
    expect(page.get_by_text("This browser cannot keep games")).to_have_count(1)


class SlowOrBroken(BadWifi):
    """A server that answers a form post with a 503, or never within the page's patience."""

    def handle(self, route: Any) -> None:
        request = route.request
        if self.mode == "503" and request.method == "POST":
            self.posts.append(request.url)
            route.fulfill(status=503, body="busy")
        elif (
            self.mode == "503" and "offline.json" not in request.url and "/sw.js" not in request.url
        ):
            route.abort("connectionrefused")  # the sync's fetches fail too, until healed
        else:
            super().handle(route)


@needs_pyodide
def test_a_5xx_save_is_queued_and_the_outbox_empties_by_itself_without_an_online_event(
    live_server: str, contexts: Any, app: Flask
) -> None:
    context = contexts()
    page = context.new_page()
    game_url, game_id = kept_game(page, live_server)
    server = SlowOrBroken(context)
    fill(open_form(page, KING), KING)
    server.mode = "503"
    save_online_queued(page)  # no 5xx page: the deal waits on the phone
    expect(page.get_by_test_id("sync-count")).to_have_text("Waiting to sync: 1")
    assert server_log(app, game_id) == [] and server.posts
    # The server is back; the browser says nothing (no "online" event): the retries send it.
    with page.expect_navigation(timeout=60_000):
        server.mode = "ok"
    expect(page.get_by_test_id("sync-count")).to_be_hidden()
    assert [e["contracts"] for e in server_log(app, game_id)] == [["king"]]
