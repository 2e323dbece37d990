"""A national-size club night against gunicorn, on SQLite and on PostgreSQL.

Run: ``python benchmarks/events_load.py [--tables 200] [--db sqlite,postgresql]
[--servers 1|2] [--seconds 90]``.

The director creates an event of ``4 × tables`` players and draws a round
(``--tables`` tables, each a game). Then, for ``--seconds``, every table records
a deal every 10–20 s (with ``If-Match``) while its four players' phones poll
``GET /games/<id>/version`` every ~1.5 s with ``If-None-Match`` (as
static/live.js does) and 10 boards poll ``GET /events/<id>/board/live`` every
3 s (as static/board.js does). One thread per table drives its recorder and its
four phones (five keep-alive connections).

With ``--servers 2`` (PostgreSQL) two gunicorn instances on different ports share
the database: each table records through one and its phones and half the
boards follow through the other, so every update a phone or board sees crossed
servers. Printed: throughput, p50/p95/p99 of deal POSTs, phone polls (304 and
200) and board polls; errors; lost deals (every acknowledged deal compared with
the stored log and with the event's table results); and how long a recorded
deal took to reach a phone on the other server (poll interval included).
Targets: 0 errors, 0 lost deals, deal POST p95 < 100 ms, live update p95 < 20 ms.
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import shutil
import sys
import tempfile
import threading
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout

from benchmarks.load_tables import (  # noqa: E402
    Phone,
    Stats,
    game_deals,
    gunicorn,
    percentile,
    postgres_database,
    sqlite_database,
)

PHONES_PER_TABLE = 4
BOARDS = 10
POLL_EVERY = 1.5
BOARD_EVERY = 3.0
DEAL_EVERY = (10.0, 20.0)
TARGET_RECORD_P95_MS = 100.0
TARGET_LIVE_P95_MS = 20.0


class Table:
    """One table: its recorder (on one server) and four phones (on the other, if two)."""

    def __init__(self, spec: dict[str, Any], ports: tuple[int, int], stats: Stats, seed: int):
        self.stats = stats
        self.rng = random.Random(seed)
        self.game_id = spec["game"]
        self.auth = {"Authorization": f"Bearer {spec['edit_token']}"}
        self.recorder = Phone(ports[0], stats)
        self.phones = [Phone(ports[1], stats) for _ in range(PHONES_PER_TABLE)]
        self.seen = [1] * PHONES_PER_TABLE
        self.version = 1
        self.deals = game_deals()
        self.acknowledged: list[dict[str, Any]] = []
        self.recorded_at: dict[int, float] = {}
        self.lags: list[float] = []

    def play(self, stop_at: float) -> None:
        now = time.monotonic()
        next_deal = now + self.rng.uniform(0, DEAL_EVERY[1])
        next_poll = [now + self.rng.uniform(0, POLL_EVERY) for _ in self.phones]
        while time.monotonic() < stop_at:
            wake = min(next_deal, *next_poll)
            time.sleep(max(0.0, wake - time.monotonic()))
            for i in range(PHONES_PER_TABLE):
                if time.monotonic() >= next_poll[i]:
                    self.poll(i)
                    next_poll[i] += POLL_EVERY * self.rng.uniform(0.9, 1.1)
            if self.deals and time.monotonic() >= next_deal:
                self.record()
                next_deal += self.rng.uniform(*DEAL_EVERY)
        for phone in [self.recorder, *self.phones]:
            phone.close()

    def record(self) -> None:
        headers = {**self.auth, "If-Match": f'"{self.version}"', "Content-Type": "application/json"}
        path = f"/api/v1/games/{self.game_id}/deals"
        status, answer = self.recorder.call("record", "POST", path, self.deals[0], headers)
        if status != 201:
            self.stats.error(f"record: {status} {answer}")
            return
        self.deals.pop(0)
        self.version = answer["game"]["version"]
        self.recorded_at[self.version] = time.monotonic()
        self.acknowledged.append(answer["deal"])

    def poll(self, i: int) -> None:
        headers = {"If-None-Match": f'"{self.seen[i]}"'}
        path = f"/games/{self.game_id}/version"
        status, answer = self.phones[i].call("live", "GET", path, None, headers)
        if status == 200:
            self.seen[i] = answer["version"]
            if self.seen[i] in self.recorded_at:
                self.lags.append(time.monotonic() - self.recorded_at[self.seen[i]])
        elif status != 304:
            self.stats.error(f"live: {status} {answer}")


class BoardPhone(Phone):
    """A board: its answers are HTML, and it keeps the ETag it was given."""

    etag: str | None = None

    def call_raw(self, kind: str, path: str, headers: dict[str, str]) -> tuple[int, bytes]:
        start = time.perf_counter()
        try:
            status, body, response = self._get(path, headers)
        except (OSError, http.client.HTTPException) as error:
            self.conn.close()
            self.stats.error(f"{kind}: {error}")
            return 0, b""
        self.stats.add(kind, time.perf_counter() - start, status)
        self.etag = (response.getheader("ETag") or "").strip('W/"') or self.etag
        return status, body

    def _get(self, path: str, headers: dict[str, str]) -> Any:
        """A GET, sent again once if the server had closed the idle keep-alive connection."""
        for attempt in (1, 2):
            reused = self.conn.sock is not None
            try:
                self.conn.request("GET", path, headers=headers)
                response = self.conn.getresponse()
                return response.status, response.read(), response
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                self.conn.close()
                if not reused or attempt == 2:
                    raise
                self.stats.reconnect()
        raise AssertionError("unreachable")


def setup(port: int, tables: int) -> tuple[str, list[dict[str, Any]], float]:
    """Create the event and draw its first round; (event id, tables, draw seconds)."""
    director = Phone(port, Stats())
    players = [f"Player {i}" for i in range(PHONES_PER_TABLE * tables)]
    body = {"name": "National night", "players": players, "rounds": 8, "seed": 1}
    status, answer = director.call("create", "POST", "/api/v1/events", body)
    assert status == 201, answer
    event_id, token = answer["id"], answer["director_token"]
    started = time.perf_counter()
    auth = {"Authorization": f"Bearer {token}"}
    status, drawn = director.call("draw", "POST", f"/api/v1/events/{event_id}/rounds", None, auth)
    assert status == 201, drawn
    seconds = time.perf_counter() - started
    director.close()
    return event_id, drawn["tables"], seconds


def check_lost(port: int, event_id: str, tables: list[Table], stats: Stats) -> tuple[int, int]:
    """(acknowledged deals, lost): against each game's log and the event's table results."""
    phone = Phone(port, Stats())
    total = lost = 0
    _status, event = phone.call("check", "GET", f"/api/v1/events/{event_id}")
    played = {t["game"]: t["state"]["deals_played"] for t in event["rounds_drawn"][0]["tables"]}
    for table in tables:
        _status, backup = phone.call("check", "GET", f"/api/v1/games/{table.game_id}/export")
        stored = [(e["entry"]["contracts"], e["entry"]["captures"]) for e in backup["log"]]
        for n, deal in enumerate(table.acknowledged, start=1):
            total += 1
            if n > len(stored) or stored[n - 1] != (deal["contracts"], deal["captures"]):
                lost += 1
        if played[table.game_id] != len(table.acknowledged):
            stats.error(
                f"event result of {table.game_id}: {played[table.game_id]} deals, "
                f"{len(table.acknowledged)} acknowledged"
            )
    phone.close()
    return total, lost


def run(kind: str, tables: int, servers: int, seconds: float, workdir: Path) -> bool:
    database = sqlite_database if kind == "sqlite" else postgres_database
    with ExitStack() as stack:
        url, label = stack.enter_context(database(workdir))
        ports = [stack.enter_context(gunicorn(url, workdir)) for _ in range(servers)]
        event_id, specs, draw_seconds = setup(ports[0], tables)
        stats = Stats()
        pair = (ports[0], ports[-1])
        players = [Table(spec, pair, stats, i) for i, spec in enumerate(specs)]
        stop_at = time.monotonic() + seconds
        threads = [threading.Thread(target=t.play, args=(stop_at,)) for t in players]
        threads += [
            threading.Thread(
                target=follow_board_on, args=(ports[i % servers], event_id, stats, stop_at, i)
            )
            for i in range(BOARDS)
        ]
        started = time.monotonic()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=seconds + 60)
        elapsed = time.monotonic() - started
        deals = check_lost(ports[-1], event_id, players, stats)
    lags = [lag for t in players for lag in t.lags]
    return report(
        f"{label}, {servers} server(s)", tables, stats, elapsed, deals, lags, draw_seconds
    )


def follow_board_on(port: int, event_id: str, stats: Stats, stop_at: float, seed: int) -> None:
    phone, version, rng = BoardPhone(port, stats), "0", random.Random(seed)
    time.sleep(rng.uniform(0, BOARD_EVERY))
    while time.monotonic() < stop_at:
        started = time.monotonic()
        status, _ = phone.call_raw(
            "board", f"/events/{event_id}/board/live", {"If-None-Match": f'"{version}"'}
        )
        if status not in (200, 304):
            stats.error(f"board: {status}")
        version = phone.etag or version
        time.sleep(max(0.0, BOARD_EVERY - (time.monotonic() - started)))
    phone.close()


def report(
    label: str,
    tables: int,
    stats: Stats,
    elapsed: float,
    deals: tuple[int, int],
    lags: list[float],
    draw_seconds: float,
) -> bool:
    total, lost = deals
    requests = sum(len(v) for v in stats.latencies.values())
    print(
        f"\n== {label}: {tables} tables, {PHONES_PER_TABLE} phones each, {BOARDS} boards, "
        f"{elapsed:.0f} s"
    )
    print(
        f"machine: {os.cpu_count()} cores, load average "
        + ", ".join(f"{x:.1f}" for x in os.getloadavg())
    )
    print(f"draw of round 1 ({tables} tables, their games started): {draw_seconds * 1000:.0f} ms")
    print(f"throughput: {requests / elapsed:.1f} requests/s, {total / elapsed:.1f} deals/s")
    print(f"{'request':<8} {'count':>7} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for kind in ("record", "live", "board"):
        values = stats.latencies.get(kind, [])
        figures = [percentile(values, p) for p in (50, 95, 99, 100)]
        print(f"{kind:<8} {len(values):>7} " + " ".join(f"{f:>8.1f}" for f in figures))
    for kind in ("live", "board"):
        answers = {s: n for (k, s), n in stats.statuses.items() if k == kind}
        print(f"{kind} answers: {dict(sorted(answers.items()))} (304 = unchanged)")
    if lags:
        print(
            f"a deal reaching a phone (poll interval included): p50 {percentile(lags, 50):.2f} s, "
            f"p95 {percentile(lags, 95):.2f} s, {len(lags)} updates seen"
        )
    print(f"errors: {len(stats.errors)}" + (f" (first: {stats.errors[0]})" if stats.errors else ""))
    print(f"deals acknowledged: {total}, lost: {lost}")
    record_p95 = percentile(stats.latencies.get("record", []), 95)
    live_p95 = percentile(stats.latencies.get("live", []), 95)
    ok = not stats.errors and lost == 0
    ok = ok and record_p95 < TARGET_RECORD_P95_MS and live_p95 < TARGET_LIVE_P95_MS
    print(
        f"target (0 errors, 0 lost, record p95 < {TARGET_RECORD_P95_MS:.0f} ms, live p95 < "
        f"{TARGET_LIVE_P95_MS:.0f} ms): {'met' if ok else 'MISSED'}"
    )
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--db", default="sqlite,postgresql")
    parser.add_argument("--servers", type=int, default=1, choices=(1, 2))
    parser.add_argument("--seconds", type=float, default=90.0)
    args = parser.parse_args()
    results = []
    with tempfile.TemporaryDirectory(prefix="scorekeeper-events-") as tmp:
        workdir = Path(tmp)
        if os.geteuid() == 0:
            shutil.chown(workdir, "postgres")
        for kind in args.db.split(","):
            servers = args.servers if kind.strip() == "postgresql" else 1
            results.append(run(kind.strip(), args.tables, servers, args.seconds, workdir))
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
