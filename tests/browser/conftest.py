"""Browser fixtures: the app on a SQLite file, and a phone (390×844, touch) in Chromium.

``live_server`` (tests/conftest.py) serves whatever ``app`` fixture is in
scope; here ``app`` is overridden so that the server's threads share a real
SQLite file (WAL, as in production) rather than one in-memory connection,
and CSRF is on, as a real browser meets it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

from scorekeeper.extensions import db
from tests.browser.closing import CHROMIUM, Chromium, close
from tests.conftest import skip_or_fail

SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}

# Playwright's assertions wait 5 s by default, which a loaded 2-core machine can
# exceed between a tap and what it shows; the wait is a guard, never a target.
expect.set_options(timeout=30_000)


@pytest.fixture
def app(make_app: Callable[..., Flask], tmp_path: Path) -> Iterator[Flask]:
    app = make_app(
        SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'browser.sqlite'}",
        WTF_CSRF_ENABLED=True,
    )
    with app.app_context():
        db.create_all()
        yield app
        db.session.remove()
        db.drop_all()
        db.engine.dispose()


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    """A page in a phone-sized, touch-enabled browser context."""
    context = browser.new_context(**PHONE)  # type: ignore[arg-type]
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        yield page
    finally:
        close(context)


@pytest.fixture
def contexts(browser: Browser) -> Iterator[Callable[..., BrowserContext]]:
    """``contexts()``: a fresh phone with its own cookies (``contexts(**options)``: another
    device; ``timeout_ms``: its default wait); all closed after the test."""
    made: list[BrowserContext] = []

    def new(timeout_ms: int = 10_000, **options: object) -> BrowserContext:
        context = browser.new_context(**(options or PHONE))  # type: ignore[arg-type]
        context.set_default_timeout(timeout_ms)
        made.append(context)
        return context

    yield new
    for context in made:
        close(context)


def screenshot(page: Page, name: str) -> Path:
    """Save a full-page PNG of ``page`` to artifacts/screenshots/<name>.png."""
    path = SCREENSHOTS / f"{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=True)
    return path


@pytest.fixture
def shoot(phone: Page) -> Callable[[str], Path]:
    """``shoot("home")`` saves a full-page PNG of the phone to artifacts/screenshots/home.png."""
    return lambda name: screenshot(phone, name)


@pytest.fixture(scope="session")
def chromium() -> Iterator[Chromium]:
    """Debian's headless Chromium driven by Playwright (never `playwright install`)."""
    if not CHROMIUM.exists():
        skip_or_fail(f"{CHROMIUM} is not installed")
    with sync_playwright() as playwright:
        holder = Chromium(playwright)
        yield holder
        holder.close()


@pytest.fixture
def browser(chromium: Chromium) -> Browser:
    """The session's browser (a new one if a hang in Chromium had the last one killed)."""
    return chromium.current()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A fresh browser page with a phone-sized viewport."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        yield page
    finally:
        close(context)


def join(page: Page, base: str, game_id: str, token: str) -> None:
    """Open a game's edit link on ``page`` and confirm: this browser may edit the game."""
    page.goto(f"{base}/games/{game_id}/join/{token}")
    with page.expect_navigation():
        page.get_by_test_id("join-yes").click()
