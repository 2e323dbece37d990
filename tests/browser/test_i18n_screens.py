"""The main pages in Arabic and English on a phone, as screenshots.

Debian's Chromium, 390×844 (conftest.py). Each page is shown in English, then
in Arabic (chosen with the language menu, remembered by its cookie); the
Arabic page must be ``dir="rtl"`` and no element may stick out of the screen
sideways: the document is no wider than 390 px and every element's box lies
within [0, 390]. Screenshots go to artifacts/screenshots/i18n/.

``SCREENSHOT_TRANSLATIONS=/path/to/translations`` renders them with another
catalogue directory (a translator's work in progress, compiled with
``pybabel compile -d``) instead of ``translations/``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Page, expect

from scorekeeper.extensions import db
from scorekeeper.rules.captures import Capture, Captures
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.game_log import DealEntry, RedealEntry
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import games as services
from tests.browser.conftest import screenshot
from tests.browser.phone import WIDTH

pytestmark = pytest.mark.browser

NAMES = ["رنا", "Sami", "عمر الحداد", "Lina"]
FITS = """() => {
  const width = window.innerWidth, outside = [];
  for (const el of document.querySelectorAll("body *")) {
    // Not what the screen shows: hidden, or inside a closed <details>.
    if (!el.checkVisibility({contentVisibilityAuto: true, visibilityProperty: true})) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if (box.left < -0.5 || box.right > width + 0.5) {
      const text = (el.textContent || "").trim().slice(0, 40);
      outside.push(`${el.tagName.toLowerCase()}.${el.className} [${Math.round(box.left)}, `
        + `${Math.round(box.right)}] ${text}`);
    }
  }
  return {scrollWidth: document.documentElement.scrollWidth, outside};
}"""


@pytest.fixture
def app(make_app: Callable[..., Flask], tmp_path: Path) -> Iterator[Flask]:
    """The browser tests' app (a SQLite file, CSRF on), with the catalogues to show."""
    config: dict[str, object] = {
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'i18n.sqlite'}",
        "WTF_CSRF_ENABLED": True,
    }
    if os.environ.get("SCREENSHOT_TRANSLATIONS"):
        config["BABEL_TRANSLATION_DIRECTORIES"] = os.environ["SCREENSHOT_TRANSLATIONS"]
    app = make_app(**config)
    with app.app_context():
        db.create_all()
        yield app
        db.session.remove()
        db.drop_all()
        db.engine.dispose()


def check_page(page: Page, lang: str, name: str) -> None:
    """Right direction, nothing wider than the phone, and a screenshot."""
    direction = "rtl" if lang == "ar" else "ltr"
    assert page.evaluate("document.documentElement.dir") == direction, page.url
    assert page.evaluate("document.documentElement.lang") == lang, page.url
    fits = page.evaluate(FITS)
    screenshot(page, f"i18n/{name}-{lang}")
    assert fits["scrollWidth"] <= WIDTH, f"{page.url} ({lang}) is {fits['scrollWidth']}px wide"
    assert not fits["outside"], f"{page.url} ({lang}): outside the screen: {fits['outside'][:8]}"


def start_game(page: Page, base: str) -> str:
    """A game started on this phone (so that it may enter deals), with names in two scripts."""
    page.goto(base + "/games/new")
    for seat, name in enumerate(NAMES):
        page.get_by_test_id(f"player-{seat}").fill(name)
    page.locator("label:has(> #first_king-0)").click()
    page.get_by_test_id("start-game").click()
    expect(page.get_by_test_id("no-deals")).to_be_visible()
    return page.url.rsplit("/", 1)[-1]


def play(game_id: str) -> None:
    """Some deals, a redeal and a correction, entered through the services."""
    deals = [
        DealEntry((Contract.KING,), Captures(king_of_hearts=Capture(2, 0))),
        DealEntry((Contract.DIAMONDS,), Captures(diamonds=(3, 4, 6, 0))),
        DealEntry((Contract.TRIX,), Captures(trix_order=(2, 0, 3, 1))),
    ]
    services.record_deal(game_id, deals[0])
    services.record_redeal(game_id, RedealEntry("redeal", 1, Contract.TRIX, "♥♥♥"))
    for entry in deals[1:]:
        services.record_deal(game_id, entry)
    changed = DealEntry((Contract.DIAMONDS,), Captures(diamonds=(4, 3, 6, 0)))
    services.edit_deal(game_id, 2, changed, services.load_game(game_id).version)


QUEENS = (Capture(0), Capture(1), Capture(2), Capture(3))


def finished_game() -> str:
    """A short game, played to its end (read-only on this phone)."""
    loaded, _token = services.create_game(NAMES, 0, RuleSet(kingdoms=1))
    for entry in [
        DealEntry((Contract.KING,), Captures(king_of_hearts=Capture(1))),
        DealEntry((Contract.QUEENS,), Captures(queens=QUEENS)),
        DealEntry((Contract.DIAMONDS,), Captures(diamonds=(3, 4, 6, 0))),
        DealEntry((Contract.COLLECTIONS,), Captures(tricks=(2, 5, 6, 0))),
        DealEntry((Contract.TRIX,), Captures(trix_order=(3, 2, 1, 0))),
    ]:
        services.record_deal(loaded.id, entry)
    return loaded.id


def test_main_pages_in_arabic_and_english(app: Flask, phone: Page, live_server: str) -> None:
    base = live_server
    game_id = start_game(phone, base)
    play(game_id)
    done = finished_game()
    game = f"/games/{game_id}"
    pages = {
        "home": "/",
        "new-game": "/games/new",
        "game": game,
        "game-finished": f"/games/{done}",
        "deal-king": f"{game}/deals/new?contracts=king",
        "deal-queens": f"{game}/deals/new?contracts=queens",
        "deal-collections": f"{game}/deals/new?contracts=collections",
        "deal-detail": f"{game}/deals/2",
        "undo": f"{game}/undo",
        "help": "/help",
        "import": "/games/import",
        "not-found": "/games/nope",
    }
    if "web.disputes" in app.view_functions:
        pages["disputes"] = "/disputes"
    for lang in ("en", "ar"):
        phone.goto(f"{base}/lang/{lang}?next=/")  # the menu's link; the cookie keeps it
        for name, path in pages.items():
            response = phone.goto(base + path)
            assert response is not None and response.status in (200, 404), (path, lang)
            check_page(phone, lang, name)


def test_the_language_menu_opens_on_the_screen(phone: Page, live_server: str) -> None:
    """The switch works without a script: open it, pick Arabic, the page turns right to left."""
    phone.goto(live_server + "/help")
    phone.get_by_test_id("lang-menu").locator("summary").click()
    expect(phone.get_by_test_id("lang-ar")).to_be_visible()
    check_page(phone, "en", "menu-open")
    phone.get_by_test_id("lang-ar").click()
    expect(phone.locator("html")).to_have_attribute("dir", "rtl")
    assert phone.url.endswith("/help")
    phone.get_by_test_id("lang-menu").locator("summary").click()
    expect(phone.get_by_test_id("digits-arab")).to_be_visible()
    check_page(phone, "ar", "menu-open")
    phone.get_by_test_id("digits-arab").click()
    expect(phone.locator("html")).to_have_attribute("data-digits", "arab")
