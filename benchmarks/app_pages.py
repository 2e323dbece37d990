"""The pages' speed and weight.

Run: ``python benchmarks/app_pages.py [games] [runs]``. Through the Flask test
client, on a temporary SQLite file (the app's default database, with its WAL
and ``synchronous=FULL`` settings) and with CSRF on, as in production:

(a) SQL queries issued by the game page of a 1-deal game and of a finished
    20-deal game (a ``before_cursor_execute`` listener counts them).
    Target: equal, and at most 4.
(b) The bytes of the game page and of every resource it references
    (stylesheets, scripts, icons, images, CSS ``url()`` and ``@import``).
    Target: under 60 KB uncompressed, nothing from another host (an
    external URL stops the script with an error).
(c) Recording a deal (POST, the redirect and the scoreboard's GET) against
    the app's cheapest page (the help page, a 404 page, the home page with
    no games: the cheapest of them), in the same run, best of ``runs``. Every
    POST records a real, valid new deal: ``games`` fresh games are played to
    the end in each run. Target: at most 3x the cheapest page.
"""

from __future__ import annotations

import re
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from flask import Flask  # noqa: E402
from flask.testing import FlaskClient  # noqa: E402

from benchmarks.timing import best_per_call  # noqa: E402
from scorekeeper import create_app  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.store import game_store  # noqa: E402
from tests.sql import sql_statements  # noqa: E402

ORIGIN = "http://localhost"
NAMES = ["Rana", "Sami", "Omar", "Lina"]
KINGDOM: list[tuple[str, dict[str, str]]] = [
    ("king", {"kh_taker": "2", "kh_doubled_by": "1"}),
    (
        "queens",
        {
            "qs_taker": "0",
            "qs_doubled_by": "",
            "qh_taker": "1",
            "qh_doubled_by": "3",
            "qd_taker": "2",
            "qd_doubled_by": "",
            "qc_taker": "3",
            "qc_doubled_by": "",
        },
    ),
    ("diamonds", {"diamonds-0": "3", "diamonds-1": "4", "diamonds-2": "6", "diamonds-3": "0"}),
    ("collections", {"tricks-0": "1", "tricks-1": "2", "tricks-2": "4", "tricks-3": "6"}),
    ("trix", {"trix-0": "2", "trix-1": "0", "trix-2": "3", "trix-3": "1"}),
]
"""One kingdom's five deals, as the deal forms post them (the same for every king)."""
DEALS = KINGDOM * 4
CSRF_INPUT = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')
LIMIT_QUERIES = 4
LIMIT_BYTES = 60 * 1024
LIMIT_RATIO = 3.0


def make_app(path: Path | None) -> Flask:
    """The app on a SQLite file at ``path``, or on in-memory SQLite for ``None``."""
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}" if path else "sqlite://",
            "SECRET_KEY": "benchmark",
            "WTF_CSRF_ENABLED": True,
            # The rate limiter stays on (its cost is part of every request), but
            # high enough for the many games a run starts from one address.
            "RATELIMIT_WRITES": "100000 per minute",
            # A server in its steady state: the PDF engine's start-up warm-up runs in a
            # background thread for a second or so and would compete with the timings.
            "PDF_PREWARM": False,
        }
    )
    with app.app_context():
        db.create_all()
    return app


class Player:
    """A browser that starts games and records deals in them (it keeps the session)."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.client: FlaskClient = app.test_client()
        page = self.client.get("/games/new").get_data(as_text=True)
        match = CSRF_INPUT.search(page)
        if match is None:
            raise SystemExit("no CSRF token on the new-game page")
        self.csrf = match.group(1)

    def new_game(self) -> str:
        data = {f"players-{i}": name for i, name in enumerate(NAMES)}
        data.update({"first_king": "0", "preset": "standard", "csrf_token": self.csrf})
        response = self.client.post("/games/new", data=data)
        assert response.status_code == 302, response.get_data(as_text=True)[:2000]
        return response.headers["Location"].rsplit("/", 1)[-1]

    def record(self, game_id: str, n: int) -> tuple[float, float]:
        """Record deal ``n`` (1-based) as a phone does: POST, then GET the redirect.

        Returns the seconds spent in the POST and in the scoreboard's GET.
        """
        contract, fields = DEALS[n - 1]
        data = {**fields, "version": str(n), "csrf_token": self.csrf}
        url = f"/games/{game_id}/deals/new?contracts={contract}"
        start = time.perf_counter()
        posted = self.client.post(url, data=data)
        middle = time.perf_counter()
        board = self.client.get(posted.headers.get("Location", ""))
        end = time.perf_counter()
        assert posted.status_code == 302, posted.get_data(as_text=True)[:2000]
        assert board.status_code == 200, board.status_code
        return middle - start, end - middle

    def game_with(self, deals: int) -> str:
        game_id = self.new_game()
        for n in range(1, deals + 1):
            self.record(game_id, n)
        return game_id


# --- (a) SQL queries ---------------------------------------------------------------------


def queries_of(player: Player, url: str) -> list[str]:
    player.client.get(url)  # warm: connection opened, caches filled
    with sql_statements(player.app) as statements:
        response = player.client.get(url)
    assert response.status_code == 200, url
    return statements


def bench_queries(player: Player) -> bool:
    print("(a) SQL queries of the game page")
    one, full = player.game_with(1), player.game_with(20)
    counts = {}
    for label, game_id in (("1-deal game", one), ("finished 20-deal game", full)):
        statements = queries_of(player, f"/games/{game_id}")
        counts[label] = len(statements)
        print(f"    {label:24s} {len(statements)} queries")
        for statement in statements:
            print(f"        {' '.join(statement.split())[:110]}")
    values = list(counts.values())
    ok = values[0] == values[1] <= LIMIT_QUERIES
    print(f"    {'meets' if ok else 'MISSES'} the target (equal, at most {LIMIT_QUERIES})")
    return ok


# --- (b) page weight ---------------------------------------------------------------------


class References(HTMLParser):
    """Every URL a page makes the browser load (not links it merely offers)."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "link" and a.get("href"):
            rels = set(a.get("rel", "").lower().split())
            if rels & {"stylesheet", "icon", "preload", "modulepreload", "manifest", "prefetch"}:
                self.urls.append(a["href"])
        elif tag in ("script", "img", "iframe", "audio", "video", "source", "embed"):
            if a.get("src"):
                self.urls.append(a["src"])
        elif tag == "object" and a.get("data"):
            self.urls.append(a["data"])
        if "style" in a:
            self.urls.extend(css_urls(a["style"]))


def css_urls(css: str) -> list[str]:
    found = re.findall(r"url\(\s*['\"]?([^'\")]+)['\"]?\s*\)", css)
    found += re.findall(r"@import\s+['\"]([^'\"]+)['\"]", css)
    return found


def page_resources(client: FlaskClient, path: str) -> list[tuple[str, int]]:
    """(url, bytes) of the page and of everything it loads, recursively through CSS."""
    sizes: list[tuple[str, int]] = []
    external: list[str] = []
    queue, seen = [urljoin(ORIGIN, path)], set()
    while queue:
        url = queue.pop(0)
        if url in seen or url.startswith("data:"):
            continue
        seen.add(url)
        parts = urlsplit(url)
        if f"{parts.scheme}://{parts.netloc}" != ORIGIN:
            external.append(url)
            continue
        response = client.get(parts.path + (f"?{parts.query}" if parts.query else ""))
        assert response.status_code == 200, (url, response.status_code)
        body = response.get_data()
        sizes.append((parts.path, len(body)))
        text = body.decode("utf-8", "replace")
        if response.mimetype == "text/html":
            parser = References()
            parser.feed(text)
            refs = parser.urls + css_urls_in_style_blocks(text)
        elif response.mimetype == "text/css":
            refs = css_urls(text)
        else:
            refs = []
        queue.extend(urljoin(url, ref) for ref in refs)
    if external:
        raise SystemExit(f"FAIL: the page loads resources from another host: {external}")
    return sizes


def css_urls_in_style_blocks(html: str) -> list[str]:
    return [
        u for block in re.findall(r"<style[^>]*>(.*?)</style>", html, re.S) for u in css_urls(block)
    ]


def bench_weight(player: Player) -> bool:
    print("(b) weight of the game page with its CSS and JS (uncompressed)")
    ok = True
    for label, deals in (("game in progress, deal 11 next", 10), ("finished 20-deal game", 20)):
        sizes = page_resources(player.client, f"/games/{player.game_with(deals)}")
        total = sum(size for _, size in sizes)
        print(f"    {label}:")
        for url, size in sizes:
            print(f"        {url:48s} {size:7d} bytes")
        verdict = "meets" if total < LIMIT_BYTES else "MISSES"
        print(f"        {'total':48s} {total:7d} bytes: {verdict} the 60 KB target")
        ok = ok and total < LIMIT_BYTES
    print("    nothing is loaded from another host")
    return ok


# --- (c) recording a deal against the cheapest page --------------------------------------


def best_recording(player: Player, games: int, runs: int) -> tuple[float, float]:
    """Seconds per recorded deal (POST, scoreboard GET) of the best run; game creation untimed."""
    best = (float("inf"), float("inf"))
    for _ in range(runs):
        post = board = 0.0
        for _ in range(games):
            game_id = player.new_game()
            for n in range(1, len(DEALS) + 1):
                p, b = player.record(game_id, n)
                post, board = post + p, board + b
        count = games * len(DEALS)
        if post + board < sum(best) * count:
            best = (post / count, board / count)
    return best


@contextmanager
def replays_counted() -> Iterator[list[float]]:
    """Seconds of every replay of a stored log (game_store.replay_stored) in the block."""
    spent: list[float] = []
    original = game_store.replay_stored

    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            spent.append(time.perf_counter() - start)

    game_store.replay_stored = timed
    try:
        yield spent
    finally:
        game_store.replay_stored = original


def anatomy(player: Player) -> None:
    """Where one recording goes: SQL statements and log replays, over a whole game."""
    game_id = player.new_game()
    with sql_statements(player.app) as statements, replays_counted() as replays:
        for n in range(1, len(DEALS) + 1):
            player.record(game_id, n)
    per = len(DEALS)
    print(
        f"    per recorded deal: {len(statements) / per:.1f} SQL statements, "
        f"{len(replays) / per:.1f} replays of the log ({sum(replays) / per * 1e3:.2f} ms)"
    )


def get(client: FlaskClient, url: str, status: int) -> Callable[[], None]:
    def action() -> None:
        response = client.get(url)
        assert response.status_code == status, (url, response.status_code)

    return action


def bench_recording(player: Player, empty: Flask, games: int, runs: int) -> bool:
    print("(c) recording a deal (POST + redirect + scoreboard GET) vs the cheapest page")
    fresh = empty.test_client()
    count = games * len(DEALS)
    cheap = {
        "GET /help": get(player.client, "/help", 200),
        "GET a 404 page": get(player.client, "/no/such/page", 404),
        "GET / (no games yet)": get(fresh, "/", 200),
    }
    for action in cheap.values():  # warm up
        best_per_call(action, 20, 1)
    best_recording(player, 1, 1)
    times = {name: best_per_call(action, count, runs) for name, action in cheap.items()}
    post, board = best_recording(player, games, runs)
    times["record a deal"] = post + board
    cheapest_name = min((n for n in times if n != "record a deal"), key=times.__getitem__)
    cheapest = times[cheapest_name]
    parts = (("  of which the POST", post), ("  and the scoreboard GET", board))
    for name, seconds in (*times.items(), *parts):
        print(f"    {name:28s} {seconds * 1e3:7.2f} ms  {seconds / cheapest:5.2f}x cheapest")
    anatomy(player)
    ratio = times["record a deal"] / cheapest
    ok = ratio <= LIMIT_RATIO
    verdict = "meets" if ok else "MISSES"
    print(
        f"    recording a deal costs {ratio:.2f}x the cheapest page ({cheapest_name}): "
        f"{verdict} the {LIMIT_RATIO:g}x target"
    )
    pages = {n: t for n, t in times.items() if n not in ("record a deal", "GET a 404 page")}
    page_name = min(pages, key=pages.__getitem__)
    print(
        f"    (for comparison: {times['record a deal'] / pages[page_name]:.2f}x the cheapest "
        f"page that is not an error, {page_name})"
    )
    return ok


def without_fsync(games: int, runs: int) -> None:
    """For comparison only: the same recording on in-memory SQLite (no commit reaches a disk)."""
    player = Player(make_app(None))
    cheapest = best_per_call(get(player.client, "/no/such/page", 404), games * 20, runs)
    best_recording(player, 1, 1)
    post, board = best_recording(player, games, runs)
    print(
        f"    on in-memory SQLite (no fsync): a 404 page {cheapest * 1e3:.2f} ms, "
        f"recording {(post + board) * 1e3:.2f} ms (POST {post * 1e3:.2f} + GET {board * 1e3:.2f}), "
        f"{(post + board) / cheapest:.2f}x"
    )


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    with tempfile.TemporaryDirectory() as tmp:
        player = Player(make_app(Path(tmp) / "games.sqlite"))
        empty = make_app(Path(tmp) / "empty.sqlite")
        results = [
            bench_queries(player),
            bench_weight(player),
            bench_recording(player, empty, games, runs),
        ]
        without_fsync(games, runs)
        with player.app.app_context():
            db.engine.dispose()
        with empty.app_context():
            db.engine.dispose()
    print("all targets met" if all(results) else "SOME TARGETS MISSED")


if __name__ == "__main__":
    main()
