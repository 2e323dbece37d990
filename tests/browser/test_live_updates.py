"""Two phones on one game (Chromium, 390×844): what one records, the other sees, with no reload.

No reload: the watching page keeps a JavaScript marker that a navigation
would erase. A deal form being filled in is never replaced: it shows a
banner instead, and what was typed stays.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import BrowserContext, Page, expect

from scorekeeper.rules.captures import Captures
from tests.browser.phone import Deal, P, Thumb, fill, form_url, save, total_of
from tests.common import NAMES, K

pytestmark = pytest.mark.browser

LIVE_DEADLINE_MS = 30_000
"""A guard, not a target: how fast an update arrives is measured by benchmarks/events_load.py."""


def start_game(page: Page, base: str) -> str:
    """Start a game through the form (this phone may edit it); its page's URL."""
    page.goto(f"{base}/games/new")
    for seat, name in enumerate(NAMES):
        page.get_by_test_id(f"player-{seat}").fill(name)
    page.check("#first_king-0")
    page.get_by_test_id("start-game").click()
    expect(page.get_by_test_id("game-status")).to_contain_text("Deal 1 of 20")
    return page.url


def record_king(page: Page, game_url: str, taker: int) -> None:
    """Record a K♥ taken by ``taker`` through its form."""
    king = Deal(K, Captures(king_of_hearts=P(taker)))
    page.goto(form_url(game_url, king))
    thumb = Thumb(page)
    fill(thumb, king)
    save(thumb, "recorded")


def watch(page: Page, game_url: str) -> None:
    """Open the game and wait for its poller to start; mark the page (a reload loses it)."""
    page.goto(game_url)
    expect(page.locator("[data-live-started]")).to_have_count(1)
    page.evaluate("window.stillTheSamePage = true")


def test_a_deal_recorded_on_one_phone_appears_on_the_other(
    live_server: str, contexts: Callable[[], BrowserContext]
) -> None:
    editor, viewer = contexts().new_page(), contexts().new_page()
    game_url = start_game(editor, live_server)
    watch(viewer, game_url)
    sami = total_of(viewer, 1)
    expect(sami).to_have_text("0")
    record_king(editor, game_url, taker=1)
    expect(sami).to_have_text("−75", timeout=LIVE_DEADLINE_MS)
    expect(viewer.get_by_test_id("game-status")).to_contain_text("Deal 2 of 20")
    assert viewer.evaluate("window.stillTheSamePage") is True  # swapped, not reloaded
    expect(viewer.get_by_test_id("live-banner")).to_be_hidden()


def requests_to(page: Page, ending: str) -> list[str]:
    """Every request the page makes from now on whose path ends with ``ending``."""
    seen: list[str] = []
    page.on("request", lambda r: seen.append(r.url) if r.url.endswith(ending) else None)
    return seen


def test_a_page_follows_the_game_by_its_stream_and_does_not_poll(
    live_server: str, contexts: Callable[[], BrowserContext]
) -> None:
    editor, viewer = contexts().new_page(), contexts().new_page()
    game_url = start_game(editor, live_server)
    polls, streams = requests_to(viewer, "/version"), requests_to(viewer, "/stream")
    watch(viewer, game_url)
    viewer.wait_for_timeout(4000)  # more than two polls' worth
    assert polls == [] and len(streams) == 1
    record_king(editor, game_url, taker=1)
    expect(total_of(viewer, 1)).to_have_text("−75", timeout=LIVE_DEADLINE_MS)
    assert polls == []  # pushed by the stream; the fresh page is all the game page needs


def test_a_game_page_busy_in_a_form_keeps_it_and_says_what_changed(
    live_server: str, contexts: Callable[[], BrowserContext]
) -> None:
    phone = contexts()
    recorder, reader = phone.new_page(), phone.new_page()  # two tabs, both may edit
    game_url = start_game(recorder, live_server)
    watch(reader, game_url)
    reader.get_by_test_id("redeal").locator("summary").click()  # busy in "Fix a mistake"
    record_king(recorder, game_url, taker=2)
    banner = reader.get_by_test_id("live-banner")
    expect(banner).to_contain_text(
        "Deal 1 was recorded meanwhile: \u2068Rana\u2069's King of Hearts.",
        timeout=LIVE_DEADLINE_MS,
    )
    expect(reader.get_by_test_id("redeal")).to_have_attribute("open", "")  # kept as it was
    expect(total_of(reader, 2)).to_have_text("−75")  # the board moved on


def test_a_page_refused_a_stream_polls_instead(
    app: Flask, live_server: str, contexts: Callable[[], BrowserContext]
) -> None:
    app.config["LIVE_STREAMS"] = 0  # the server has no stream to spare: 503
    editor, viewer = contexts().new_page(), contexts().new_page()
    game_url = start_game(editor, live_server)
    polls = requests_to(viewer, "/version")
    watch(viewer, game_url)
    viewer.wait_for_timeout(2500)
    assert len(polls) >= 1
    record_king(editor, game_url, taker=1)
    expect(total_of(viewer, 1)).to_have_text("−75", timeout=LIVE_DEADLINE_MS)
    assert viewer.get_by_test_id("live-offline").is_hidden()


def test_an_open_deal_form_keeps_its_input_and_shows_what_changed(
    live_server: str, contexts: Callable[[], BrowserContext]
) -> None:
    phone = contexts()
    recorder, typist = phone.new_page(), phone.new_page()  # two tabs, both may edit
    game_url = start_game(recorder, live_server)
    typist.goto(f"{game_url}/deals/new?contracts=diamonds")
    expect(typist.locator("[data-live-started]")).to_have_count(1)
    typist.locator("#diamonds-0").fill("4")
    record_king(recorder, game_url, taker=2)
    banner = typist.get_by_test_id("live-banner")
    expect(banner).to_contain_text(
        "Deal 1 was recorded meanwhile: \u2068Rana\u2069's King of Hearts.",
        timeout=LIVE_DEADLINE_MS,
    )
    expect(typist.locator("#diamonds-0")).to_have_value("4")
    expect(typist.get_by_test_id("deal-title")).to_contain_text("Deal 1")  # the page stayed


def test_offline_shows_a_notice_and_clears_when_back(
    live_server: str, contexts: Callable[[], BrowserContext]
) -> None:
    phone = contexts()
    page = phone.new_page()
    game_url = start_game(page, live_server)
    watch(page, game_url)
    offline = page.get_by_test_id("live-offline")
    expect(offline).to_be_hidden()
    phone.set_offline(True)
    expect(offline).to_be_visible(timeout=30_000)
    expect(offline).to_contain_text("Offline")
    phone.set_offline(False)
    expect(offline).to_be_hidden(timeout=30_000)


def test_backup_downloaded_on_one_phone_is_restored_on_another(
    live_server: str, contexts: Callable[[], BrowserContext], tmp_path: Path
) -> None:
    """The JSON download and the upload form, with CSRF on, as a phone meets them."""
    owner = contexts().new_page()
    game_url = start_game(owner, live_server)
    record_king(owner, game_url, taker=3)
    owner.goto(game_url)
    with owner.expect_download() as download:
        owner.get_by_test_id("backup-json").click()
    saved = tmp_path / "backup.json"
    download.value.save_as(saved)
    other = contexts().new_page()
    other.goto(live_server)
    other.get_by_test_id("import-game").click()
    other.get_by_test_id("import-file").set_input_files(saved)
    other.get_by_test_id("import-submit").click()
    expect(other.get_by_test_id("flash")).to_contain_text("restored")
    assert other.url != game_url and "/games/" in other.url
    expect(total_of(other, 3)).to_have_text("−75")
    expect(other.get_by_test_id("choose-contract")).to_be_visible()  # this phone may edit


WAKE_LOCK_STUB = """
window.wakeLockRequests = 0;
Object.defineProperty(navigator, "wakeLock", {value: {request: function (kind) {
  window.wakeLockRequests += 1;
  return kind === "screen" ? Promise.resolve({release: function () {}}) : Promise.reject();
}}});
"""


def test_the_screen_stays_awake_on_a_game_page(
    live_server: str, contexts: Callable[[], BrowserContext]
) -> None:
    """A wake lock is asked for when a game page opens, and again when it comes back into
    view (the browser drops the lock whenever the page is hidden)."""
    phone = contexts()
    phone.add_init_script(WAKE_LOCK_STUB)
    page = phone.new_page()
    game_url = start_game(page, live_server)
    page.goto(game_url)
    page.wait_for_function("window.wakeLockRequests >= 1")
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function("window.wakeLockRequests >= 2")
    page.goto(live_server + "/help")  # not a game: nothing asked
    assert page.evaluate("window.wakeLockRequests") == 0


def test_a_refused_wake_lock_changes_nothing(
    live_server: str, contexts: Callable[[], BrowserContext]
) -> None:
    phone = contexts()
    phone.add_init_script(
        "Object.defineProperty(navigator, 'wakeLock', {value: {request: function () {"
        " return Promise.reject(new Error('low battery')); }}});"
    )
    page = phone.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    game_url = start_game(page, live_server)
    page.goto(game_url)
    expect(page.get_by_test_id("live")).to_have_attribute("data-live-started", "1")
    assert errors == []
