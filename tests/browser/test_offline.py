"""Offline play in Chromium: the installable app, the engine on the phone, the outbox's sync.

The engine runs in Pyodide, which scripts/test.sh fetches into vendor/pyodide; the
tests that need it skip, saying so, only when those files are missing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, BrowserContext, Page, expect

from scorekeeper.extensions import db
from scorekeeper.store import models
from scorekeeper.web.offline import engine
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS

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
        context.close()


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
    context.close()


# --- steps ---------------------------------------------------------------------------------


def start_game(page: Page, base: str) -> str:
    page.goto(f"{base}/games/new")
    for seat, name in enumerate(NAMES):
        page.get_by_test_id(f"player-{seat}").fill(name)
    page.check("#first_king-0")
    page.get_by_test_id("start-game").click()
    expect(page.get_by_test_id("game-status")).to_contain_text("Deal 1 of 20")
    return page.url


def controlled(page: Page) -> None:
    """Wait until the service worker controls the page."""
    page.evaluate(
        """() => new Promise(resolve => {
             if (navigator.serviceWorker.controller) return resolve(true);
             navigator.serviceWorker.addEventListener('controllerchange', () => resolve(true));
           })"""
    )


def keep_offline(page: Page) -> None:
    controlled(page)
    page.get_by_test_id("keep-offline").click()
    expect(page.get_by_test_id("offline-line")).to_have_text(
        "This game can be played offline on this phone.", timeout=ENGINE_MS
    )


def open_form(page: Page, contract: str) -> None:
    with page.expect_navigation():
        page.get_by_test_id(f"contract-{contract}").click()
    expect(page.get_by_test_id("deal-form")).to_be_visible()


def save(page: Page) -> None:
    """Save a deal offline: back on the game page, saved on this phone."""
    with page.expect_navigation(timeout=ENGINE_MS):
        page.get_by_test_id("save-deal").click()
    expect(page.get_by_test_id("offline-saved")).to_be_visible()


def counts(page: Page, name: str, values: list[int]) -> None:
    for seat, value in enumerate(values):
        page.fill(f"#{name}-{seat}", str(value))


def trix_order(page: Page, order: list[int]) -> None:
    page.evaluate(
        """order => order.forEach((seat, place) => {
             const select = document.getElementById('trix-' + place);
             select.value = String(seat);
             select.dispatchEvent(new Event('change', {bubbles: true}));
           })""",
        order,
    )


def record_offline(page: Page, contract: str) -> None:
    open_form(page, contract)
    if contract == "king":
        page.check("#kh_taker-1", force=True)
    elif contract == "queens":
        for key, taker in zip(("qs", "qh", "qd", "qc"), (2, 2, 3, 0), strict=True):
            page.check(f"#{key}_taker-{taker}", force=True)
    elif contract == "collections":
        counts(page, "tricks", [2, 3, 4, 4])
    elif contract == "trix":
        trix_order(page, [1, 0, 3, 2])
    save(page)


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


# --- offline play --------------------------------------------------------------------------


@needs_pyodide
def test_five_deals_offline_then_exactly_those_on_the_server(
    live_server: str, contexts: Any, app: Flask
) -> None:
    context = contexts()
    page = context.new_page()
    game_url = start_game(page, live_server)
    game_id = game_url.rstrip("/").rsplit("/", 1)[1]
    keep_offline(page)
    context.set_offline(True)
    page.goto(game_url)

    record_offline(page, "king")
    # Diamonds adding up to 12: refused on the phone, in the engine's words (R11).
    open_form(page, "diamonds")
    counts(page, "diamonds", [3, 4, 5, 0])
    page.get_by_test_id("save-deal").click()
    expect(page.get_by_test_id("offline-errors")).to_contain_text(
        "Diamonds must add up to 13; these add up to 12", timeout=ENGINE_MS
    )
    expect(page.locator("#diamonds-group [data-offline-error]")).to_be_visible()
    counts(page, "diamonds", [3, 4, 5, 1])
    save(page)
    record_offline(page, "queens")
    record_offline(page, "collections")
    record_offline(page, "trix")

    expect(page.get_by_test_id("sync-count")).to_have_text("Waiting to sync: 5")
    page.reload()  # still offline: the outbox and the phone's scoreboard survive
    expect(page.get_by_test_id("pending-entry")).to_have_count(5, timeout=ENGINE_MS)
    # The board moves on as the engine on the phone says: the next kingdom's first deal.
    expect(page.get_by_test_id("game-status")).to_have_text("Deal 6 of 20")
    expect(page.get_by_test_id("turn").locator("strong")).to_have_text("Sami")
    expect(page.get_by_test_id("contract-king")).to_be_visible()
    assert server_log(app, game_id) == []

    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.get_by_test_id("sync-count")).to_be_hidden(timeout=30_000)
    log = server_log(app, game_id)
    assert [entry["contracts"] for entry in log] == [
        ["king"],
        ["diamonds"],
        ["queens"],
        ["collections"],
        ["trix"],
    ]
    assert log[1]["captures"]["diamonds"] == [3, 4, 5, 1]
    ids = entry_ids(app, game_id)
    assert len(ids) == 5 and len(set(ids)) == 5 and all(ids)
