"""A national-size club night against gunicorn, on SQLite and on PostgreSQL.

Run: ``python benchmarks/events_load.py [--tables 200] [--db sqlite,postgresql]
[--servers 1|2] [--seconds 90] [--ramp 10] [--poll]``.

The director creates an event of ``4 × tables`` players and draws a round
(``--tables`` tables, each a game). The players sit down over ``--ramp`` seconds:
each phone opens the game at a random moment of it, and each board too (800
phones connecting within a second or two is a restart's storm, measured apart by
``--ramp 0``). Then, for ``--seconds``, measured, every table records
a deal every 10–20 s (with ``If-Match``) while its four players' phones follow
the game as static/live.js does on the game page: each listens to the game's
event stream (``GET /games/<id>/stream``, reconnecting when the server ends it)
and fetches the page again when a new version comes; a phone refused a stream
(503), or every phone with ``--poll``, polls ``GET /games/<id>/version`` every
~1.5 s with ``If-None-Match`` and, when it has changed, fetches the page. 10
boards poll ``GET /events/<id>/board/live`` every 3 s (as static/board.js
does). One asyncio event loop drives every phone over its own keep-alive
connection (:mod:`benchmarks.http_async`): the load generator shares the 2
cores with the server, and a thread per table with ``http.client`` took most of
them itself.

With ``--servers 2`` (PostgreSQL) two gunicorn instances on different ports share
the database: each table records through one and its phones and half the
boards follow through the other, so every update a phone or board sees crossed
servers. Printed: throughput, p50/p95/p99 of deal POSTs, polls, the pages
fetched after a change and board polls; the CPU the app servers, the load
generator and everything else used; errors; lost deals (every acknowledged
deal compared with the stored log and with the event's table results); and how
long a recorded deal took to reach each phone: with streams from the deal's
answer to the event (0 if the event came first), with polls the poll interval
included.
Targets: 0 errors, 0 lost deals, deal POST p95 < 100 ms, live update p95 < 20 ms
(with streams the deal reaching a phone, with polls the poll itself).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout

from benchmarks.cpu import CpuMeter  # noqa: E402
from benchmarks.http_async import Answer, Connection, EventStream  # noqa: E402
from benchmarks.load_tables import (  # noqa: E402
    SERVER_PIDS,
    Phone,
    Stats,
    game_deals,
    gunicorn,
    percentile,
    postgres_database,
    sqlite_database,
)
from scorekeeper.web.live.streams import RETRY_MILLISECONDS  # noqa: E402

PHONES_PER_TABLE = 4
BOARDS = 10
POLL_EVERY = 1.5
STREAM_RETRY = RETRY_MILLISECONDS / 1000
"""What the app's streams tell the browser to wait before reconnecting (``retry``)."""
POLL_AFTER_REFUSAL = 60.0
BOARD_EVERY = 3.0
DEAL_EVERY = (10.0, 20.0)
TARGET_RECORD_P95_MS = 100.0
TARGET_LIVE_P95_MS = 20.0


class Table:
    """One table: its recorder (on one server) and four phones (on the other, if two)."""

    def __init__(
        self, spec: dict[str, Any], ports: tuple[int, int], stats: Stats, seed: int, poll: bool
    ):
        self.stats = stats
        self.poll_only = poll
        self.follow_port = ports[1]
        self.rng = random.Random(seed)
        self.game_id = spec["game"]
        self.auth = {"Authorization": f"Bearer {spec['edit_token']}"}
        self.recorder = Connection(ports[0])
        self.phones = [Connection(ports[1]) for _ in range(PHONES_PER_TABLE)]
        self.version = 1
        self.deals = game_deals()
        self.acknowledged: list[dict[str, Any]] = []
        self.recorded_at: dict[int, float] = {}
        self.heard_early: dict[int, int] = {}
        self.lags: list[float] = []

    async def play(self, ramp: float, stop_at: float) -> None:
        """The four phones, each joining during the first ``ramp`` seconds, and then the
        recorder, each on its own schedule, until ``stop_at``."""
        await asyncio.gather(
            self.keep_recording(ramp, stop_at),
            *(self.follow(phone, ramp, stop_at) for phone in self.phones),
        )

    async def keep_recording(self, ramp: float, stop_at: float) -> None:
        await asyncio.sleep(ramp + self.rng.uniform(0, DEAL_EVERY[1]))
        while self.deals and time.monotonic() < stop_at:
            started = time.monotonic()
            await self.record()
            pause = self.rng.uniform(*DEAL_EVERY) - (time.monotonic() - started)
            await asyncio.sleep(max(0.0, min(pause, stop_at - time.monotonic())))
        self.recorder.close()

    async def follow(self, phone: Connection, ramp: float, stop_at: float) -> None:
        """A phone as static/live.js follows the game: its event stream, or polls where
        there is none (``--poll``, or the server refused the stream)."""
        seen = 1
        await asyncio.sleep(self.rng.uniform(0, max(ramp, POLL_EVERY)))
        while time.monotonic() < stop_at:
            if not self.poll_only:
                seen, refused = await self.listen(phone, seen, stop_at)
                if not refused:
                    await asyncio.sleep(STREAM_RETRY)
                    continue
            poll_until = min(stop_at, time.monotonic() + POLL_AFTER_REFUSAL)
            while time.monotonic() < (stop_at if self.poll_only else poll_until):
                started = time.monotonic()
                seen = await self.poll(phone, seen)
                pause = POLL_EVERY * self.rng.uniform(0.9, 1.1) - (time.monotonic() - started)
                await asyncio.sleep(max(0.0, pause))
        phone.close()

    async def listen(self, phone: Connection, seen: int, stop_at: float) -> tuple[int, bool]:
        """One stream, until the server ends it: (the version seen, whether it was refused)."""
        stream = EventStream(self.follow_port, f"/games/{self.game_id}/stream")
        try:
            status = await stream.open()
            self.stats.add("stream", 0.0, status)
            if status != 200:
                return seen, True
            while time.monotonic() < stop_at:
                data = await asyncio.wait_for(stream.next_data(), stop_at - time.monotonic())
                if data is None:
                    break
                version = int(data)
                if version > seen:  # as static/live.js on the game page: the page alone
                    self.heard(version)
                    seen = version
                    await self.refresh(phone)
        except TimeoutError:  # the run's end (an OSError too: caught first)
            pass
        except (OSError, asyncio.IncompleteReadError, ValueError) as error:
            self.stats.error(f"stream: {type(error).__name__}: {error}")
        finally:
            stream.close()
        return seen, False

    def heard(self, version: int) -> None:
        """A phone heard of ``version``: how long after its deal's answer (0 if before)."""
        if version in self.recorded_at:
            self.lags.append(max(0.0, time.monotonic() - self.recorded_at[version]))
        else:
            self.heard_early[version] = self.heard_early.get(version, 0) + 1

    async def record(self) -> None:
        headers = {**self.auth, "If-Match": f'"{self.version}"'}
        path = f"/api/v1/games/{self.game_id}/deals"
        answer = await timed(
            self.stats, "record", self.recorder, "POST", path, headers, self.deals[0]
        )
        if answer is None:
            return
        if answer.status != 201:
            self.stats.error(f"record: {answer.status} {answer.body[:200]!r}")
            return
        self.deals.pop(0)
        game = answer.json()
        self.version = game["game"]["version"]
        self.recorded_at[self.version] = time.monotonic()
        self.lags += [0.0] * self.heard_early.pop(self.version, 0)
        self.acknowledged.append(game["deal"])

    async def poll(self, phone: Connection, seen: int) -> int:
        """One poll as static/live.js makes it; the version the phone has seen after it."""
        headers = {"If-None-Match": f'"{seen}"'}
        answer = await timed(
            self.stats, "live", phone, "GET", f"/games/{self.game_id}/version", headers
        )
        if answer is None:
            return seen
        if answer.status == 200:
            seen = answer.json()["version"]
            if seen in self.recorded_at:
                self.lags.append(time.monotonic() - self.recorded_at[seen])
            await self.refresh(phone)
        elif answer.status != 304:
            self.stats.error(f"live: {answer.status} {answer.body[:200]!r}")
        return seen

    async def refresh(self, phone: Connection) -> None:
        """What static/live.js does on the game page after a change: fetch the page again."""
        answer = await timed(self.stats, "page", phone, "GET", f"/games/{self.game_id}", {})
        if answer is not None and answer.status != 200:
            self.stats.error(f"page: {answer.status}")


async def timed(
    stats: Stats,
    kind: str,
    connection: Connection,
    method: str,
    path: str,
    headers: dict[str, str],
    body: Any = None,
) -> Answer | None:
    """The request's answer, its time and status counted; None (an error counted) if it failed."""
    start = time.perf_counter()
    try:
        answer = await connection.request(method, path, headers, body)
    except (OSError, asyncio.IncompleteReadError, ValueError) as error:
        connection.close()
        stats.error(f"{kind}: {type(error).__name__}: {error}")
        return None
    stats.add(kind, time.perf_counter() - start, answer.status)
    return answer


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


def run(
    kind: str, tables: int, servers: int, seconds: float, ramp: float, workdir: Path, poll: bool
) -> bool:
    database = sqlite_database if kind == "sqlite" else postgres_database
    with ExitStack() as stack:
        url, label = stack.enter_context(database(workdir))
        ports = [stack.enter_context(gunicorn(url, workdir)) for _ in range(servers)]
        event_id, specs, draw_seconds = setup(ports[0], tables)
        stats = Stats()
        pair = (ports[0], ports[-1])
        players = [Table(spec, pair, stats, i, poll) for i, spec in enumerate(specs)]
        meter = CpuMeter([SERVER_PIDS[port] for port in ports])
        asyncio.run(play_all(players, ports, event_id, stats, ramp, seconds, meter))
        cpu, elapsed = meter.stop(), seconds
        deals = check_lost(ports[-1], event_id, players, stats)
    lags = [lag for t in players for lag in t.lags]
    requests = sum(len(v) for v in stats.latencies.values())
    print(
        f"\nCPU in cores ({os.cpu_count()} on this machine): app servers "
        f"{cpu['servers'] / elapsed:.2f} ({cpu['servers'] / requests * 1000:.2f} ms a request), "
        f"load generator {cpu['generator'] / elapsed:.2f}, everything else "
        f"{cpu['rest'] / elapsed:.2f} (the database, other work on the machine)"
    )
    how = "phones poll" if poll else "phones listen to streams"
    return report(
        f"{label}, {servers} server(s), {how}", tables, stats, elapsed, deals, lags, draw_seconds
    )


async def play_all(
    players: list[Table],
    ports: list[int],
    event_id: str,
    stats: Stats,
    ramp: float,
    seconds: float,
    meter: CpuMeter,
) -> None:
    """Everyone joins during ``ramp``; then ``seconds`` measured (the CPU meter's too)."""
    stop_at = time.monotonic() + ramp + seconds
    boards = [
        follow_board(Connection(ports[i % len(ports)]), event_id, stats, ramp, stop_at, i)
        for i in range(BOARDS)
    ]
    await asyncio.gather(
        *(t.play(ramp, stop_at) for t in players), *boards, start_meter(meter, ramp)
    )


async def start_meter(meter: CpuMeter, ramp: float) -> None:
    await asyncio.sleep(ramp)
    meter.start()


async def follow_board(
    board: Connection, event_id: str, stats: Stats, ramp: float, stop_at: float, seed: int
) -> None:
    """A board as static/board.js polls it, keeping the ETag it was given; it is shown
    from a moment of the ramp, and its polls are counted from the ramp's end."""
    version, rng = "0", random.Random(seed)
    measured_from = time.monotonic() + ramp
    await asyncio.sleep(rng.uniform(0, max(ramp, BOARD_EVERY)))
    path = f"/events/{event_id}/board/live"
    while time.monotonic() < stop_at:
        started = time.monotonic()
        counted = stats if started >= measured_from else Stats()
        headers = {"If-None-Match": f'"{version}"'}
        answer = await timed(counted, "board", board, "GET", path, headers)
        if answer is not None:
            if answer.status not in (200, 304):
                stats.error(f"board: {answer.status}")
            version = answer.headers.get("etag", "").removeprefix("W/").strip('"') or version
        await asyncio.sleep(max(0.0, BOARD_EVERY - (time.monotonic() - started)))
    board.close()


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
    for kind in ("record", "live", "page", "board"):
        values = stats.latencies.get(kind, [])
        figures = [percentile(values, p) for p in (50, 95, 99, 100)]
        print(f"{kind:<8} {len(values):>7} " + " ".join(f"{f:>8.1f}" for f in figures))
    for kind in ("live", "board", "stream"):
        answers = {s: n for (k, s), n in stats.statuses.items() if k == kind}
        if answers:
            print(f"{kind} answers: {dict(sorted(answers.items()))} (304 = unchanged)")
    streamed = any(k == "stream" for k, _s in stats.statuses)
    how = "from its answer to the event" if streamed else "poll interval included"
    if lags:
        print(
            f"a deal reaching a phone ({how}): "
            f"p50 {percentile(lags, 50) * 1000:.1f} ms, p95 {percentile(lags, 95) * 1000:.1f} ms, "
            f"p99 {percentile(lags, 99) * 1000:.1f} ms, {len(lags)} updates seen"
        )
    print(f"errors: {len(stats.errors)}" + (f" (first: {stats.errors[0]})" if stats.errors else ""))
    print(f"deals acknowledged: {total}, lost: {lost}")
    record_p95 = percentile(stats.latencies.get("record", []), 95)
    # A stream's update is its event; a poll's is the poll itself.
    live_p95 = (
        percentile(lags, 95) * 1000 if streamed else percentile(stats.latencies.get("live", []), 95)
    )
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
    parser.add_argument("--seconds", type=float, default=90.0, help="measured, after the ramp")
    parser.add_argument(
        "--ramp", type=float, default=10.0, help="seconds over which phones and boards join"
    )
    parser.add_argument("--poll", action="store_true", help="phones poll (no event streams)")
    args = parser.parse_args()
    results = []
    with tempfile.TemporaryDirectory(prefix="scorekeeper-events-") as tmp:
        workdir = Path(tmp)
        if os.geteuid() == 0:
            shutil.chown(workdir, "postgres")
        for kind in args.db.split(","):
            servers = args.servers if kind.strip() == "postgresql" else 1
            results.append(
                run(
                    kind.strip(),
                    args.tables,
                    servers,
                    args.seconds,
                    args.ramp,
                    workdir,
                    args.poll,
                )
            )
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
