"""The two-phone soak at full size: ten whole games (200 deals) on two phones in Chromium.

Run: ``python benchmarks/soak.py`` (scripts/test.sh fetches Pyodide into vendor/pyodide
first). The app runs under gunicorn (gunicorn.conf.py) on a temporary SQLite file, or on
the PostgreSQL database of ``DATABASE_URL`` (a fresh one is made on that server and
dropped afterwards); two phones (Debian's headless Chromium, 390×844) play every deal
while their network drops and comes back (tests/browser/soak_helpers.py says how).

Settings (environment): ``SOAK_GAMES`` (default 10), ``SOAK_DEALS`` (the deals of each
game played on the phones, the last ones; default 20), ``SOAK_SEED`` (printed; a new
one by default), ``SOAK_EXCLUDE`` (scenarios left out, comma-separated). ``-q`` prints
only the counts, not each deal.

It prints the deals meant, recorded, lost and recorded twice (targets: 0 and 0), the
screens compared with the server's page and how many disagreed (target: 0), and what
was found, with the seed that replays it; it exits 1 if any target was missed.
"""

from __future__ import annotations

import contextlib
import os
import random
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from playwright.sync_api import sync_playwright  # noqa: E402

from scorekeeper.web.offline import engine  # noqa: E402
from tests.browser.closing import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.browser.soak_helpers import run_soak  # noqa: E402
from tests.server.serving import create_schema, fresh_database, start_server  # noqa: E402


@contextlib.contextmanager
def database(folder: Path) -> Iterator[str]:
    admin = os.environ.get("DATABASE_URL", "")
    if admin.startswith("postgresql"):
        with fresh_database(admin, prefix="soak") as url:
            yield url
        return
    url = f"sqlite:///{folder / 'soak.sqlite'}"
    create_schema(url)
    yield url


def main() -> int:
    if not engine.pyodide_ready():
        print("Pyodide is not in vendor/pyodide: run scripts/test.sh first", file=sys.stderr)
        return 2
    quiet = "-q" in sys.argv[1:]
    seed = int(os.environ.get("SOAK_SEED") or random.SystemRandom().randrange(1, 10**6))
    games = int(os.environ.get("SOAK_GAMES") or 10)
    deals = int(os.environ.get("SOAK_DEALS") or 20)
    exclude = [s.strip() for s in os.environ.get("SOAK_EXCLUDE", "").split(",") if s.strip()]
    print(f"soak: {games} games, {deals} deals each on the phones, seed {seed}", flush=True)
    with tempfile.TemporaryDirectory() as tmp, database(Path(tmp)) as url:
        server = start_server(url, Path(tmp) / "gunicorn.log", workers=2, threads=4)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
                )
                try:
                    report = run_soak(
                        browser,
                        server.url,
                        seed,
                        games,
                        deals,
                        exclude,
                        log=(lambda line: None)
                        if quiet
                        else (lambda line: print(line, flush=True)),
                    )
                finally:
                    browser.close()
        finally:
            server.stop()
    print("\n".join(report.lines()))
    return 0 if report.ok() else 1


if __name__ == "__main__":
    sys.exit(main())
