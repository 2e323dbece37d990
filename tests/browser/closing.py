"""Chromium launched, and a phone's context closed, so that a hang in Chromium never holds
the suite.

Chromium can hang closing a context (``Target.disposeBrowserContext`` never answered),
most often while a service worker is busy: Playwright's ``close()`` then waits for ever,
until pytest-timeout fails the test 5 minutes later. :func:`close` gives Chromium
``CLOSE_S`` seconds; past them the browser's processes are killed (each launch carries a
mark in its command line to find them by), the waiting close returns, and the next test
gets a new browser (:class:`Chromium`).
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import uuid
from contextlib import suppress
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Playwright
from playwright.sync_api import Error as PlaywrightError

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
# Flags that keep Debian's Chromium quiet and offline in a sandbox-less root shell.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
CLOSE_S = 30.0
"""A context not closed by then is taken for a hang in Chromium."""

log = logging.getLogger(__name__)
_marks: dict[int, str] = {}


def launch(playwright: Playwright) -> Browser:
    """Debian's headless Chromium (never `playwright install`), marked to be found by."""
    mark = f"--scorekeeper-test-browser={uuid.uuid4().hex}"  # Chromium ignores the switch
    browser = playwright.chromium.launch(
        executable_path=str(CHROMIUM), headless=True, args=[*CHROMIUM_ARGS, mark]
    )
    _marks[id(browser)] = mark
    return browser


def _kill(mark: str) -> None:
    log.warning("a browser context did not close in %.0f s: Chromium is restarted", CLOSE_S)
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        with suppress(OSError):
            if mark.encode() in (proc / "cmdline").read_bytes():
                os.kill(int(proc.name), signal.SIGKILL)


def close(context: BrowserContext) -> None:
    """Close ``context``; if Chromium hangs on it, kill that browser instead."""
    with suppress(PlaywrightError):
        context.unroute_all(behavior="ignoreErrors")  # a handler left on blocks the close
        context.set_offline(False)
    browser = context.browser
    mark = _marks.get(id(browser)) if browser is not None else None
    watchdog = threading.Timer(CLOSE_S, _kill, args=(mark,)) if mark else None
    if watchdog is not None:
        watchdog.daemon = True
        watchdog.start()
    try:
        context.close()
    except PlaywrightError:
        if browser is None or browser.is_connected():
            raise
    finally:
        if watchdog is not None:
            watchdog.cancel()


class Chromium:
    """The session's browser, launched again once a hang had it killed."""

    def __init__(self, playwright: Playwright) -> None:
        self.playwright = playwright
        self.browser: Browser | None = None

    def current(self) -> Browser:
        if self.browser is None or not self.browser.is_connected():
            self.browser = launch(self.playwright)
        return self.browser

    def close(self) -> None:
        if self.browser is not None and self.browser.is_connected():
            self.browser.close()
