"""Slow bodies and PDF variants at once: do other tables' pages still answer?

Run: ``python benchmarks/abuse.py [--database sqlite|postgresql] [--slow-bodies 40]
[--pdf-clients 30] [--seconds 30] [--orphans]``.

It serves the app under gunicorn (gunicorn.conf.py, its own defaults for workers
and threads; tests/server/serving.py) on a loopback port, sets up 12 games and a
club night of 16 players, then, at the same time and for ``--seconds``:

- ``--slow-bodies`` connections each send a POST's head and the first bytes of
  its body, then nothing more; a connection the server answers (408) or closes
  is opened again at once, so that that many are always held (0: off);
- ``--pdf-clients`` threads loop on PDFs nobody asked for before: a blank sheet
  with random names, a game's ``sheet.pdf`` under another ``Host``, the club
  night's ``results.pdf`` in each ``lang``/``digits``/``paper`` (0: off);
- the measurer loads the other tables' game pages, one after another, from 4
  threads (each page with a 30 s timeout).

It prints the victims' p50/p95/max and their success rate (a 200 within the
timeout), and what the attackers got. Target: p95 under 250 ms, 100% answered.
``--orphans`` then starts a claim search (the tests' slow solver), SIGKILLs the
master alone and prints how long the workers and the search ran on.

PostgreSQL is a fresh database in ``TEST_DATABASE_URL``. Loopback only; bounded
in connections, threads and time.
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import signal
import socket
import string
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout

from tests.server.serving import (  # noqa: E402
    Server,
    children_of,
    create_schema,
    fresh_database,
    long_claim_request,
    post_request,
    running,
    slow_solvers_of,
    start_server,
)

TARGET_P95_MS = 250.0
VICTIM_TIMEOUT = 30.0
VICTIM_THREADS = 4
GAMES = 12
EVENT_PLAYERS = [f"Player {n}" for n in range(1, 17)]
LANGS = ["en", "ar", "es", "it", "pt", "ru"]
DIGITS = ["latn", "arab"]
PAPERS = ["a4", "letter"]


class Tally:
    """Counts and latencies, shared by threads."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.counts: Counter[str] = Counter()
        self.latencies: list[float] = []

    def count(self, what: str, seconds: float | None = None) -> None:
        with self.lock:
            self.counts[what] += 1
            if seconds is not None:
                self.latencies.append(seconds * 1000)


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def port_of(server: Server) -> int:
    return int(server.url.rsplit(":", 1)[1])


# --- the scene -------------------------------------------------------------------------------


def set_up(server: Server) -> tuple[list[str], str]:
    """(game ids, club night id): the tables whose pages are measured, and a night to print."""
    client = server.client()
    games = [client.new_game()[0] for _ in range(GAMES)]
    status, _, event = client.call(
        "POST", "/api/v1/events", {"name": "Abuse night", "players": EVENT_PLAYERS, "seed": 7}
    )
    assert status == 201, event
    auth = {"Authorization": f"Bearer {event['director_token']}"}
    status, _, drawn = client.call("POST", f"/api/v1/events/{event['id']}/rounds", {}, auth)
    assert status == 201, drawn
    client.close()
    return games, event["id"]


# --- the attacks -----------------------------------------------------------------------------


def hold_slow_body(port: int, stop: threading.Event, tally: Tally) -> None:
    """One connection holding a half-sent POST body; opened again whenever it ends."""
    head = post_request("/api/v1/games", 4000, b'{"players": ["')
    while not stop.is_set():
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
                sock.sendall(head)
                tally.count("held")
                sock.settimeout(1)
                answer = b""
                while not stop.is_set():
                    try:
                        chunk = sock.recv(4096)
                    except TimeoutError:
                        continue
                    if not chunk:
                        break
                    answer += chunk
                status = answer.split(b" ", 2)[1].decode() if answer.count(b" ") >= 2 else ""
                if status or not stop.is_set():  # not the ones closed at the end of the run
                    tally.count(f"answered {status}" if status else "closed unanswered")
        except OSError as error:
            tally.count(f"failed: {type(error).__name__}")
            stop.wait(0.2)


def pdf_variants(games: list[str], event_id: str) -> Iterator[tuple[str, dict[str, str]]]:
    """Endless PDF requests, each most likely never asked for before."""
    rng = random.Random()
    while True:
        kind = rng.randrange(3)
        if kind == 0:
            names = ",".join(
                "".join(rng.choices(string.ascii_letters, k=rng.randint(3, 10))) for _ in range(4)
            )
            yield f"/sheets/blank.pdf?players={names}", {}
        elif kind == 1:
            host = f"{rng.getrandbits(40):x}.example"
            yield f"/games/{rng.choice(games)}/sheet.pdf", {"Host": host}
        else:
            lang, digits, paper = rng.choice(LANGS), rng.choice(DIGITS), rng.choice(PAPERS)
            yield f"/events/{event_id}/results.pdf?lang={lang}&digits={digits}&paper={paper}", {}


def loop_pdfs(
    port: int, games: list[str], event_id: str, stop: threading.Event, tally: Tally
) -> None:
    requests = pdf_variants(games, event_id)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=VICTIM_TIMEOUT)
    while not stop.is_set():
        path, headers = next(requests)
        try:
            conn.request("GET", path, headers=headers)
            response = conn.getresponse()
            response.read()
            tally.count(f"pdf {response.status}")
        except (OSError, http.client.HTTPException) as error:
            tally.count(f"pdf failed: {type(error).__name__}")
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=VICTIM_TIMEOUT)
    conn.close()


# --- the victims -----------------------------------------------------------------------------


def load_pages(
    port: int, games: list[str], stop: threading.Event, tally: Tally, measuring: threading.Event
) -> None:
    """Other tables' game pages, one after another (a fresh connection each, as phones do)."""
    rng = random.Random()
    while not stop.is_set():
        path = f"/games/{rng.choice(games)}"
        started = time.monotonic()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=VICTIM_TIMEOUT)
        try:
            conn.request("GET", path)
            response = conn.getresponse()
            response.read()
            outcome = "answered" if response.status == 200 else f"status {response.status}"
        except (OSError, http.client.HTTPException) as error:
            outcome = f"failed: {type(error).__name__}"
        finally:
            conn.close()
        if measuring.is_set():
            tally.count(outcome, time.monotonic() - started)
        stop.wait(0.1)


# --- a run -----------------------------------------------------------------------------------


def attack(server: Server, options: argparse.Namespace) -> bool:
    port = port_of(server)
    games, event_id = set_up(server)
    victims, games_measured = games[: GAMES // 2], games[GAMES // 2 :]
    stop, measuring = threading.Event(), threading.Event()
    bodies, pdfs, pages = Tally(), Tally(), Tally()
    threads = [
        threading.Thread(target=hold_slow_body, args=(port, stop, bodies), daemon=True)
        for _ in range(options.slow_bodies)
    ]
    threads += [
        threading.Thread(target=loop_pdfs, args=(port, victims, event_id, stop, pdfs), daemon=True)
        for _ in range(options.pdf_clients)
    ]
    threads += [
        threading.Thread(
            target=load_pages, args=(port, games_measured, stop, pages, measuring), daemon=True
        )
        for _ in range(VICTIM_THREADS)
    ]
    for thread in threads:
        thread.start()
    time.sleep(3)  # every attack under way
    measuring.set()
    time.sleep(options.seconds)
    measuring.clear()
    stop.set()
    for thread in threads:
        thread.join(VICTIM_TIMEOUT + 5)
    return report(options, bodies, pdfs, pages)


def report(options: argparse.Namespace, bodies: Tally, pdfs: Tally, pages: Tally) -> bool:
    total = sum(pages.counts.values())
    answered = pages.counts["answered"]
    rate = answered / total if total else 0.0
    p95 = percentile(pages.latencies, 95)
    print(
        f"\n{options.database}: {options.slow_bodies} slow bodies, {options.pdf_clients} PDF "
        f"clients, {options.seconds:g} s measured"
    )
    print(
        f"  victims' game pages: {total} loads, {rate:.1%} answered; "
        f"p50 {percentile(pages.latencies, 50):.0f} ms, p95 {p95:.0f} ms, "
        f"max {max(pages.latencies, default=float('nan')):.0f} ms"
    )
    if len(pages.counts) > 1:
        print(f"  victims' other outcomes: {dict(pages.counts - Counter(answered=answered))}")
    if options.slow_bodies:
        print(f"  slow bodies: {dict(bodies.counts)}")
    if options.pdf_clients:
        print(f"  PDF clients: {dict(pdfs.counts)}")
    met = rate == 1.0 and p95 < TARGET_P95_MS
    print(f"  target (p95 < {TARGET_P95_MS:.0f} ms, 100% answered): {'met' if met else 'NOT met'}")
    return met


# --- orphans ---------------------------------------------------------------------------------


def _until(check: Callable[[], bool], within: float, since: float | None = None) -> float | None:
    """Seconds from ``since`` (default: now) until ``check()`` holds (polled every 10 ms),
    or None past ``within``."""
    started = time.monotonic() if since is None else since
    while time.monotonic() - started < within:
        if check():
            return time.monotonic() - started
        time.sleep(0.01)
    return None


def orphans(server: Server) -> None:
    """A claim searching; the master SIGKILLed alone; how long its workers and search ran on."""
    workers = children_of(server.process.pid)
    claim = socket.create_connection(("127.0.0.1", port_of(server)))
    claim.sendall(long_claim_request())
    searches: list[int] = []

    def searching() -> bool:
        searches.extend(slow_solvers_of(workers))
        return bool(searches)

    if _until(searching, 30) is None:
        print("  orphans: no search started within 30 s")
        return
    time.sleep(1)  # the search is under way, past its start
    killed = time.monotonic()
    os.kill(server.process.pid, signal.SIGKILL)
    workers_gone = _until(lambda: not any(map(running, workers)), 60, killed)
    search_gone = _until(lambda: not any(map(running, searches)), 60, killed)
    server.process.wait(30)
    claim.close()
    print(
        f"  orphans: after a SIGKILL of the master alone, its {len(workers)} workers ran on "
        f"{_seconds(workers_gone)}, the claim search {_seconds(search_gone)} (target: 2 s)"
    )


def _seconds(value: float | None) -> str:
    return "for more than 60 s" if value is None else f"{value:.2f} s"


# --- main ------------------------------------------------------------------------------------


@contextmanager
def database(kind: str, workdir: Path) -> Iterator[str]:
    if kind == "sqlite":
        url = f"sqlite:///{workdir / 'abuse.sqlite'}"
        create_schema(url)
        yield url
        return
    admin = os.environ.get("TEST_DATABASE_URL", "")
    if not admin.startswith("postgresql"):
        raise SystemExit("--database postgresql needs TEST_DATABASE_URL (a PostgreSQL server)")
    with fresh_database(admin, "abuse") as url:
        yield url


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--slow-bodies", type=int, default=40, help="0: no slow bodies")
    parser.add_argument("--pdf-clients", type=int, default=30, help="0: no PDF clients")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--workers", type=int, default=None, help="default: gunicorn.conf.py's")
    parser.add_argument("--orphans", action="store_true", help="then SIGKILL the master alone")
    options = parser.parse_args()
    options.slow_bodies = max(0, min(options.slow_bodies, 200))
    options.pdf_clients = max(0, min(options.pdf_clients, 100))
    options.seconds = max(1.0, min(options.seconds, 300.0))
    env = {"CLAIM_SOLVER_MODULE": "tests.server.slow_solver"} if options.orphans else {}
    with tempfile.TemporaryDirectory() as folder, database(options.database, Path(folder)) as url:
        server = start_server(url, Path(folder) / "gunicorn.log", options.workers, None, env)
        try:
            met = attack(server, options)
            if options.orphans:
                orphans(server)
        finally:
            server.stop()
    sys.exit(0 if met else 1)


if __name__ == "__main__":
    main()
