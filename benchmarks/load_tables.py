"""Many tables playing at once against gunicorn, on SQLite and on PostgreSQL.

Run: ``python benchmarks/load_tables.py [--tables 100] [--db sqlite,postgresql]``.

For each database it starts the app under gunicorn (``gunicorn.conf.py``, its
defaults: 2 × cores + 1 workers, 4 threads each) on a free loopback port,
then plays ``--tables`` games at once, one thread per table. A table creates
its game, then records its 20 deals one every 2–4 s (jittered), each with
``If-Match``, while another phone at the table polls ``GET
/games/<id>/version`` with ``If-None-Match`` every ~1.5 s (a 304 while
nothing changed), as static/live.js does. A game lasts about 60–80 s.

It prints throughput, latency percentiles (p50/p95/p99) for recording and
polling, errors (any status other than the expected one, and failed
connections) and lost deals: after the run every acknowledged deal is
compared with the game's stored log. Targets: zero errors, zero lost deals,
p95 recording latency under 150 ms.

SQLite lives in a temporary directory. PostgreSQL is ``TEST_DATABASE_URL``
if set (a fresh database is created in it), else a throwaway server started
here like scripts/test.sh does, but with the default durability settings.
Rate limits are off: every simulated phone comes from 127.0.0.1. The run is
bounded (``--deadline``, 240 s) and stops by itself.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout

from tests.server.serving import create_schema, fresh_database, start_server  # noqa: E402

PLAYERS = ["Rana", "Sami", "Omar", "Lina"]
CONTRACT_CAPTURES: dict[str, dict[str, Any]] = {
    "trix": {"trix_order": [1, 0, 3, 2]},
    "king": {"king_of_hearts": {"taker": 2, "doubled_by": None}},
    "queens": {
        "queens": {
            q: {"taker": t, "doubled_by": None}
            for q, t in zip(("QS", "QH", "QD", "QC"), (1, 2, 3, 0), strict=True)
        }
    },
    "diamonds": {"diamonds": [5, 4, 3, 1]},
    "collections": {"tricks": [2, 3, 4, 4]},
}
CONTRACTS = list(CONTRACT_CAPTURES)
POLL_EVERY = 1.5
DEAL_EVERY = (2.0, 4.0)
TARGET_P95_MS = 150.0
START_OVER = 10.0
"""Tables sit down over the first 10 s, not all in the same instant."""


def game_deals() -> list[dict[str, Any]]:
    """The 20 deals of a standard game: each king plays the five contracts."""
    deals = []
    for kingdom in range(4):
        order = CONTRACTS[kingdom:] + CONTRACTS[:kingdom]
        for contract in order:
            deals.append({"contracts": [contract], "captures": CONTRACT_CAPTURES[contract]})
    return deals


# --- measurements ----------------------------------------------------------------------------


@dataclass
class Stats:
    """Latencies per kind of request, statuses, errors and acknowledged deals (thread-safe)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: Counter[tuple[str, int]] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    acknowledged: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    reconnects: int = 0
    """Idle keep-alive connections the server had closed (the request was sent again)."""

    def add(self, kind: str, seconds: float, status: int) -> None:
        with self.lock:
            self.latencies[kind].append(seconds * 1000)
            self.statuses[(kind, status)] += 1

    def error(self, message: str) -> None:
        with self.lock:
            self.errors.append(message)

    def reconnect(self) -> None:
        with self.lock:
            self.reconnects += 1


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


# --- HTTP ------------------------------------------------------------------------------------


class Phone:
    """One keep-alive connection; timed JSON requests."""

    def __init__(self, port: int, stats: Stats) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.stats = stats

    def call(
        self,
        kind: str,
        method: str,
        path: str,
        body: Any = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body)
        start = time.perf_counter()
        try:
            status, raw = self._send(method, path, data, headers or {})
        except (OSError, http.client.HTTPException) as error:
            self.conn.close()
            self.stats.error(f"{kind}: {type(error).__name__}: {error}")
            return 0, None
        self.stats.add(kind, time.perf_counter() - start, status)
        return status, (json.loads(raw) if raw else None)

    def _send(self, method: str, path: str, data: str | None, headers: dict[str, str]) -> Any:
        """One request, sent again once if the reused keep-alive connection turns out to
        have been closed by the server while idle (it never read the request), as browsers
        do. A deal carries If-Match: even a repeat of a processed one could not be saved twice.
        """
        reused = self.conn.sock is not None
        try:
            self.conn.request(method, path, body=data, headers=headers)
            response = self.conn.getresponse()
        except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
            if not reused:
                raise
            self.conn.close()
            self.stats.reconnect()
            self.conn.request(method, path, body=data, headers=headers)
            response = self.conn.getresponse()
        return response.status, response.read()

    def close(self) -> None:
        self.conn.close()


# --- one table -------------------------------------------------------------------------------


class Table:
    """A recording phone and a watching phone at one table."""

    def __init__(self, port: int, stats: Stats, seed: int, stop_at: float) -> None:
        self.stats = stats
        self.rng = random.Random(seed)
        self.recorder = Phone(port, stats)
        self.watcher = Phone(port, stats)
        self.stop_at = stop_at
        self.deals = game_deals()
        self.game_id = ""
        self.auth: dict[str, str] = {}
        self.version = 0
        self.seen_version = 0

    def play(self, start_delay: float) -> None:
        time.sleep(start_delay)
        try:
            if self.create():
                self.loop()
        finally:
            self.recorder.close()
            self.watcher.close()

    def create(self) -> bool:
        body = {"players": PLAYERS}
        status, answer = self.recorder.call("create", "POST", "/api/v1/games", body)
        if status != 201:
            self.stats.error(f"create: {status} {answer}")
            return False
        self.game_id = answer["id"]
        self.auth = {"Authorization": f"Bearer {answer['edit_token']}"}
        self.version = self.seen_version = answer["game"]["version"]
        with self.stats.lock:
            self.stats.acknowledged[self.game_id] = []
        return True

    def loop(self) -> None:
        now = time.monotonic()
        next_deal = now + self.rng.uniform(*DEAL_EVERY)
        next_poll = now + self.rng.uniform(0, POLL_EVERY)
        while self.deals and time.monotonic() < self.stop_at:
            wake = min(next_deal, next_poll)
            time.sleep(max(0.0, wake - time.monotonic()))
            if time.monotonic() >= next_poll:
                self.poll()
                next_poll += POLL_EVERY * self.rng.uniform(0.9, 1.1)
            if time.monotonic() >= next_deal:
                self.record()
                next_deal += self.rng.uniform(*DEAL_EVERY)

    def record(self) -> None:
        headers = {**self.auth, "If-Match": f'"{self.version}"', "Content-Type": "application/json"}
        path = f"/api/v1/games/{self.game_id}/deals"
        status, answer = self.recorder.call("record", "POST", path, self.deals[0], headers)
        if status != 201:
            self.stats.error(f"record: {status} {answer}")
            return
        self.deals.pop(0)
        self.version = answer["game"]["version"]
        with self.stats.lock:
            self.stats.acknowledged[self.game_id].append(answer["deal"])

    def poll(self) -> None:
        headers = {"If-None-Match": f'"{self.seen_version}"'}
        path = f"/games/{self.game_id}/version"
        status, answer = self.watcher.call("poll", "GET", path, None, headers)
        if status == 200:
            self.seen_version = answer["version"]
        elif status != 304:
            self.stats.error(f"poll: {status} {answer}")


# --- the run ---------------------------------------------------------------------------------


def play_tables(port: int, tables: int, deadline: float) -> tuple[Stats, float]:
    stats = Stats()
    stop_at = time.monotonic() + deadline
    players = [Table(port, stats, seed, stop_at) for seed in range(tables)]
    threads = [
        threading.Thread(
            target=t.play, args=(random.Random(i).uniform(0, START_OVER),), daemon=True
        )
        for i, t in enumerate(players)
    ]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=max(1.0, stop_at + 30 - time.monotonic()))
    return stats, time.monotonic() - started


def lost_deals(port: int, stats: Stats) -> tuple[int, int]:
    """(acknowledged deals, of which not found as acknowledged in the stored logs)."""
    phone = Phone(port, Stats())
    lost = total = 0
    for game_id, acked in stats.acknowledged.items():
        status, backup = phone.call("check", "GET", f"/api/v1/games/{game_id}/export")
        entries = backup["log"] if status == 200 else []
        stored = [(e["entry"]["contracts"], e["entry"]["captures"]) for e in entries]
        for n, deal in enumerate(acked, start=1):
            total += 1
            if n > len(stored) or stored[n - 1] != (deal["contracts"], deal["captures"]):
                lost += 1
        if len(stored) != len(acked):
            stats.error(f"game {game_id}: {len(stored)} stored, {len(acked)} acknowledged")
    phone.close()
    return total, lost


# --- servers ---------------------------------------------------------------------------------


SERVER_PIDS: dict[int, int] = {}
"""The gunicorn master of each port :func:`gunicorn` serves on (for CPU accounting)."""


@contextmanager
def gunicorn(url: str, workdir: Path) -> Iterator[int]:
    """The app under gunicorn (gunicorn.conf.py defaults), stopped afterwards."""
    log = workdir / f"gunicorn-{uuid.uuid4().hex[:6]}.log"
    server = start_server(url, log, workers=None, threads=None, env={"GUNICORN_ACCESS_LOG": ""})
    port = int(server.url.rsplit(":", 1)[1])
    SERVER_PIDS[port] = server.process.pid
    try:
        yield port
    finally:
        server.stop()


@contextmanager
def sqlite_database(workdir: Path) -> Iterator[tuple[str, str]]:
    url = f"sqlite:///{workdir / 'load.sqlite'}"
    create_schema(url)
    yield url, "SQLite file (WAL, synchronous=FULL)"


@contextmanager
def postgres_database(workdir: Path) -> Iterator[tuple[str, str]]:
    given = os.environ.get("TEST_DATABASE_URL", "")
    if given:
        with fresh_database(given, "load") as url:
            yield url, "PostgreSQL from TEST_DATABASE_URL (its own durability settings)"
        return
    with throwaway_postgres(workdir) as admin_url, fresh_database(admin_url, "load") as url:
        yield url, "throwaway PostgreSQL (default durability: fsync on)"


def _as_postgres(command: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


@contextmanager
def throwaway_postgres(workdir: Path) -> Iterator[str]:
    """initdb + pg_ctl in a temporary directory, on a unix socket only."""
    bins = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name))
    if not bins:
        raise SystemExit("no PostgreSQL server under /usr/lib/postgresql")
    pg, data = bins[-1], workdir / "pg"
    data.mkdir()
    if os.geteuid() == 0:
        shutil.chown(data, "postgres")
    quiet: dict[str, Any] = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    subprocess.run(
        _as_postgres([str(pg / "initdb"), "-D", str(data / "db"), "-U", "postgres", "-A", "trust"]),
        check=True,
        **quiet,
    )
    options = f"-c listen_addresses='' -k {data} -p 5432 -c max_connections=200"
    start = [str(pg / "pg_ctl"), "-D", str(data / "db"), "-l", str(data / "log"), "-w", "-o"]
    subprocess.run(_as_postgres([*start, options, "start"]), check=True, **quiet)
    try:
        yield f"postgresql+psycopg://postgres@/postgres?host={data}&port=5432"
    finally:
        stop = [str(pg / "pg_ctl"), "-D", str(data / "db"), "-m", "fast", "-w", "stop"]
        subprocess.run(_as_postgres(stop), check=False, **quiet)


# --- report ----------------------------------------------------------------------------------


def report(label: str, tables: int, stats: Stats, elapsed: float, deals: tuple[int, int]) -> bool:
    total, lost = deals
    requests = sum(len(v) for v in stats.latencies.values())
    print(f"\n== {label}: {tables} tables, {elapsed:.0f} s")
    cores, load = os.cpu_count(), ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"machine: {cores} cores, load average {load} (at the end; other programs count too)")
    print(f"throughput: {requests / elapsed:.1f} requests/s, {total / elapsed:.1f} deals/s")
    print(f"{'request':<8} {'count':>7} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for kind in ("create", "record", "poll"):
        values = stats.latencies.get(kind, [])
        figures = [percentile(values, p) for p in (50, 95, 99, 100)]
        print(f"{kind:<8} {len(values):>7} " + " ".join(f"{f:>8.1f}" for f in figures))
    polls = {s: n for (k, s), n in stats.statuses.items() if k == "poll"}
    print(f"poll answers: {dict(sorted(polls.items()))} (304 = unchanged)")
    print(f"errors: {len(stats.errors)}" + (f" (first: {stats.errors[0]})" if stats.errors else ""))
    print(f"deals acknowledged: {total}, lost: {lost}")
    print(f"idle keep-alive connections closed by the server, request resent: {stats.reconnects}")
    p95 = percentile(stats.latencies.get("record", []), 95)
    ok = not stats.errors and lost == 0 and p95 < TARGET_P95_MS
    verdict = "met" if ok else "MISSED"
    print(f"target (0 errors, 0 lost, p95 record < {TARGET_P95_MS:.0f} ms): {verdict}")
    mean = statistics.fmean(stats.latencies.get("record", [0.0]))
    print(f"record mean: {mean:.1f} ms")
    return ok


def run(kind: str, tables: int, deadline: float, workdir: Path) -> bool:
    database = sqlite_database if kind == "sqlite" else postgres_database
    with database(workdir) as (url, label), gunicorn(url, workdir) as port:
        stats, elapsed = play_tables(port, tables, deadline)
        deals = lost_deals(port, stats)
    ok = report(label, tables, stats, elapsed, deals)
    if stats.errors:
        show_server_log(workdir)
    return ok


def show_server_log(workdir: Path, lines: int = 15) -> None:
    """The end of gunicorn's log: why connections were dropped, if it says."""
    for log in sorted(workdir.glob("gunicorn-*.log")):
        tail = log.read_text(errors="replace").splitlines()[-lines:]
        print(f"-- last lines of {log.name}:", *tail, sep="\n   ")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--db", default="sqlite,postgresql", help="sqlite, postgresql or both")
    parser.add_argument("--deadline", type=float, default=240.0, help="seconds per database")
    args = parser.parse_args()
    results = []
    with tempfile.TemporaryDirectory(prefix="scorekeeper-load-") as tmp:
        workdir = Path(os.environ.get("LOAD_WORKDIR") or tmp)
        if os.geteuid() == 0:
            shutil.chown(workdir, "postgres")  # the throwaway server's socket lives here
        for kind in args.db.split(","):
            results.append(run(kind.strip(), args.tables, args.deadline, workdir))
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
