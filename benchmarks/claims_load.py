"""Tables keep their latency while whole-deal claims are judged: 20 tables, 8 claimants.

Run: ``python benchmarks/claims_load.py [--tables 20] [--claimants 8] [--db sqlite]
[--seconds 300] [--phases] [--env NAME=VALUE ...]``.

Against one gunicorn (``gunicorn.conf.py``'s defaults: 2 × cores + 1
workers, 4 threads each; the claim pool's defaults), ``--tables`` tables play
game after game: each records a deal every 2–4 s while another phone polls
the game's version (the table load of ``load_tables.py``). Meanwhile
``--claimants`` clients post whole-deal claims in a loop (``POST
/api/v1/check/claim``, each from its own address): 13 cards per hand,
Collections, a claimant holding low cards who says "I take no more tricks"
(a claim that needs the whole tree to be proved), with a ``--limit`` of 10 s.
A claimant told 429 or 503 waits ``Retry-After``, as a phone does.

The claimants come and go in turns (``--on`` seconds posting, then quiet
until every claim they sent is answered, then ``--off`` seconds more), and
each table request counts for the turn it fell in: "alone" (no claim posted
nor searched from its start to its end), "with claims" (claimants posting,
or a claim in flight, the whole time), or neither (it straddled a change, and
is left out). Turns of a minute cancel the drift of the machine's other load,
which two runs minutes apart (``--phases``: the tables alone, then a second
server with the claimants throughout) cannot.

It prints the tables' latencies (record and poll: p50, p95, p99) alone and
with claims, the ratio of the p95s (target: at most 1.5), and what the
claimants got (answers, their times, refusals). ``--env`` passes a setting to
the server (``CLAIM_SLOTS=1``; ``CLAIM_SOLVER_MODULE=tests.server.slow_solver``
for searches that only burn CPU). Rate limits are off (every phone is on
127.0.0.1); ``TRUSTED_PROXIES=1`` lets each claimant give its own address in
``X-Forwarded-For``.

``--flush-probe ROUNDS`` measures instead what a busy core costs a disk flush
(a recorded deal waits for one): 4 KB written and flushed (``fsync``) 50
times a second, while no core, all but one core, or every core runs a busy
loop at a solver's priority (:func:`scorekeeper.web.server.workers.lower_priority`),
in turns of 5 s.
"""

from __future__ import annotations

import argparse
import bisect
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout

from benchmarks.load_tables import (  # noqa: E402
    START_OVER,
    Phone,
    Stats,
    Table,
    percentile,
    play_tables,
    postgres_database,
    sqlite_database,
)
from tests.server.serving import start_server  # noqa: E402

TARGET_RATIO = 1.5
RANKS = "23456789TJQKA"
SUITS = "SHDC"


def whole_deal_claim(rng: random.Random, limit: float) -> dict[str, Any]:
    """A Collections claim at the first trick: the claimant's 13 cards are drawn from the
    low half of the pack (2s to 8s), the others' from what is left; he claims 0."""
    low = [r + s for r in RANKS[:7] for s in SUITS]
    rng.shuffle(low)
    claimant = rng.randrange(4)
    mine = low[:13]
    rest = [r + s for r in RANKS for s in SUITS if r + s not in mine]
    rng.shuffle(rest)
    hands: dict[str, list[str]] = {}
    others = iter(range(3))
    for seat in range(4):
        hands[str(seat)] = mine if seat == claimant else rest[13 * next(others) :][:13]
    return {
        "contracts": ["collections"],
        "hands": hands,
        "current_trick": [],
        "leader": rng.randrange(4),
        "claim": {"seat": claimant, "min_score": 0},
        "time_limit": limit,
    }


@dataclass
class Claims:
    """What the claimants got (thread-safe)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    statuses: Counter[int] = field(default_factory=Counter)
    seconds: list[float] = field(default_factory=list)
    verdicts: Counter[str] = field(default_factory=Counter)

    def add(self, status: int, seconds: float, answer: Any) -> None:
        with self.lock:
            self.statuses[status] += 1
            if status == 200:
                self.seconds.append(seconds)
                decided = answer.get("decided")
                self.verdicts[
                    "holds" if answer.get("holds") else "fails" if decided else "undecided"
                ] += 1


class Turns:
    """Whether claims are about (claimants posting, or a claim in flight), and since when."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.posting = threading.Event()
        self.in_flight = 0
        self.changes: list[tuple[float, bool]] = [(time.perf_counter(), False)]
        """(time, claims about from then on), in time order."""

    def _note(self) -> None:
        busy = self.posting.is_set() or self.in_flight > 0
        if busy != self.changes[-1][1]:
            self.changes.append((time.perf_counter(), busy))

    def set_posting(self, on: bool) -> None:
        with self.lock:
            self.posting.set() if on else self.posting.clear()
            self._note()

    @contextmanager
    def claim(self) -> Iterator[None]:
        with self.lock:
            self.in_flight += 1
            self._note()
        try:
            yield
        finally:
            with self.lock:
                self.in_flight -= 1
                self._note()

    def quiet(self) -> bool:
        with self.lock:
            return not self.changes[-1][1]

    def label(self, start: float, end: float) -> str | None:
        """``"alone"`` or ``"claims"`` for a request from ``start`` to ``end`` (perf_counter
        times), or None if the claims came or went meanwhile."""
        with self.lock:
            times = [t for t, _busy in self.changes]
            at = bisect.bisect_right(times, start) - 1
            if at + 1 < len(times) and times[at + 1] <= end:
                return None
            return "claims" if self.changes[max(at, 0)][1] else "alone"


class TurnStats(Stats):
    """The tables' figures, each request filed under the turn it fell in."""

    def __init__(self, turns: Turns) -> None:
        super().__init__()
        self.turns = turns
        self.by_turn: dict[str, Stats] = {"alone": Stats(), "claims": Stats()}

    def add(self, kind: str, seconds: float, status: int) -> None:
        super().add(kind, seconds, status)
        end = time.perf_counter()
        turn = self.turns.label(end - seconds, end)
        if turn is not None:
            self.by_turn[turn].add(kind, seconds, status)


def claimant(
    port: int,
    n: int,
    limit: float,
    stop: threading.Event,
    claims: Claims,
    turns: Turns | None = None,
) -> None:
    """One client posting claims in a loop until ``stop`` (while ``turns`` says so); waits
    Retry-After when refused."""
    rng = random.Random(f"claimant {n}")
    phone = Phone(port, Stats())
    phone.conn.timeout = limit + 60  # a queued claim waits up to 30 s for its place
    headers = {"X-Forwarded-For": f"10.0.{n // 250}.{n % 250 + 1}"}
    try:
        while not stop.is_set():
            if turns is not None and not turns.posting.wait(0.2):
                continue
            started = time.perf_counter()
            body = whole_deal_claim(rng, limit)
            with turns.claim() if turns is not None else _nothing():
                status, answer = phone.call("claim", "POST", "/api/v1/check/claim", body, headers)
            claims.add(status, time.perf_counter() - started, answer or {})
            if status in (429, 503) or status == 0:
                stop.wait(5.0)  # Retry-After
    finally:
        phone.close()


@contextmanager
def _nothing() -> Iterator[None]:
    yield


@contextmanager
def server(url: str, workdir: Path, settings: dict[str, str]) -> Iterator[int]:
    log = workdir / f"gunicorn-{uuid.uuid4().hex[:6]}.log"
    env = {"GUNICORN_ACCESS_LOG": "", "TRUSTED_PROXIES": "1", **settings}
    running = start_server(url, log, workers=None, threads=None, env=env)
    try:
        yield int(running.url.rsplit(":", 1)[1])
    finally:
        running.stop()


def tables_in_turns(port: int, tables: int, stop_at: float, stats: Stats) -> None:
    """``tables`` tables, each playing game after game until ``stop_at``."""

    def sit(seed: int) -> None:
        time.sleep(random.Random(seed).uniform(0, START_OVER))
        game = 0
        while time.monotonic() < stop_at:
            Table(port, stats, seed * 1000 + game, stop_at).play(0.0)
            game += 1

    threads = [threading.Thread(target=sit, args=(n,), daemon=True) for n in range(tables)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=max(1.0, stop_at + 30 - time.monotonic()))


def take_turns(turns: Turns, on: float, off: float, stop_at: float) -> None:
    """Claimants post for ``on`` seconds, then keep quiet until their claims are answered
    and ``off`` seconds more; until ``stop_at``."""
    while time.monotonic() < stop_at:
        turns.set_posting(True)
        time.sleep(min(on, max(0.0, stop_at - time.monotonic())))
        turns.set_posting(False)
        while not turns.quiet() and time.monotonic() < stop_at:
            time.sleep(0.1)
        time.sleep(min(off, max(0.0, stop_at - time.monotonic())))


def interleaved_run(
    kind: str, workdir: Path, args: argparse.Namespace, settings: dict[str, str]
) -> tuple[Stats, Stats, Claims]:
    """One server; the claimants come and go in turns while the tables play."""
    database = sqlite_database if kind == "sqlite" else postgres_database
    claims, turns, stop = Claims(), Turns(), threading.Event()
    stats = TurnStats(turns)
    stop_at = time.monotonic() + args.seconds
    with database(workdir) as (url, _label), server(url, workdir, settings) as port:
        threads = [
            threading.Thread(
                target=claimant, args=(port, n, args.limit, stop, claims, turns), daemon=True
            )
            for n in range(args.claimants)
        ]
        threads.append(
            threading.Thread(
                target=take_turns, args=(turns, args.on, args.off, stop_at), daemon=True
            )
        )
        for thread in threads:
            thread.start()
        tables_in_turns(port, args.tables, stop_at, stats)
        stop.set()
        for thread in threads:
            thread.join(args.limit + 30)
    stats.by_turn["alone"].errors = stats.errors
    return stats.by_turn["alone"], stats.by_turn["claims"], claims


def phased_run(
    kind: str, workdir: Path, args: argparse.Namespace, settings: dict[str, str]
) -> tuple[Stats, Stats, Claims]:
    """Two servers one after the other: the tables alone, then with the claimants."""
    alone, _none = table_run(kind, workdir, args, 0, settings)
    loaded, claims = table_run(kind, workdir, args, args.claimants, settings)
    return alone, loaded, claims


def table_run(
    kind: str, workdir: Path, args: argparse.Namespace, claimants: int, settings: dict[str, str]
) -> tuple[Stats, Claims]:
    database = sqlite_database if kind == "sqlite" else postgres_database
    claims = Claims()
    with database(workdir) as (url, _label), server(url, workdir, settings) as port:
        stop = threading.Event()
        threads = [
            threading.Thread(target=claimant, args=(port, n, args.limit, stop, claims), daemon=True)
            for n in range(claimants)
        ]
        for thread in threads:
            thread.start()
        stats, _elapsed = play_tables(port, args.tables, args.deadline)
        stop.set()
        for thread in threads:
            thread.join(args.limit + 30)
    return stats, claims


def line(label: str, values: list[float]) -> str:
    figures = [percentile(values, p) for p in (50, 95, 99)]
    return f"{label:<28} {len(values):>6} " + " ".join(f"{f:>8.1f}" for f in figures)


def report(kind: str, alone: Stats, loaded: Stats, claims: Claims, claimants: int) -> bool:
    print(f"\n== {kind}: tables' latencies (ms), alone and with {claimants} claimants")
    cores, load = os.cpu_count(), ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"machine: {cores} cores, load average {load} (at the end; other programs count too)")
    print(f"{'':<28} {'count':>6} {'p50':>8} {'p95':>8} {'p99':>8}")
    ok = True
    for kind_ in ("record", "poll"):
        before = alone.latencies.get(kind_, [])
        after = loaded.latencies.get(kind_, [])
        print(line(f"{kind_}, tables alone", before))
        print(line(f"{kind_}, with claims", after))
        ratio = percentile(after, 95) / percentile(before, 95)
        met = ratio <= TARGET_RATIO
        ok = ok and met
        verdict = "met" if met else "MISSED"
        print(f"{kind_} p95 ratio: {ratio:.2f} (target ≤ {TARGET_RATIO}): {verdict}")
    errors = len(alone.errors) + len(loaded.errors)
    print(
        f"tables' errors: {errors}"
        + (f" (first: {(alone.errors + loaded.errors)[0]})" if errors else "")
    )
    answered = claims.seconds
    print(
        f"claims: {dict(sorted(claims.statuses.items()))} (status: count); "
        f"verdicts {dict(claims.verdicts)}; answered in p50 {percentile(answered, 50):.1f} s, "
        f"max {percentile(answered, 100):.1f} s"
    )
    return ok and errors == 0


BUSY_LOOP = (
    "from scorekeeper.web.server.workers import lower_priority\nlower_priority()\nwhile True: pass"
)


def flush_probe(rounds: int, workdir: Path, turn: float = 5.0) -> None:
    """Disk flushes' latency with 0, all but one, or all cores busy at a solver's priority."""
    cores = os.cpu_count() or 1
    counts = sorted({0, cores - 1, cores})
    times: dict[int, list[float]] = {n: [] for n in counts}
    fd = os.open(workdir / "flush.dat", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        for _round in range(rounds):
            for busy in counts:
                loops = [
                    subprocess.Popen([sys.executable, "-c", BUSY_LOOP], cwd=ROOT)
                    for _ in range(busy)
                ]
                time.sleep(0.3)  # started and at their priority
                end = time.monotonic() + turn
                while time.monotonic() < end:
                    started = time.perf_counter()
                    os.pwrite(fd, os.urandom(4096), 0)
                    os.fsync(fd)
                    times[busy].append((time.perf_counter() - started) * 1000)
                    time.sleep(0.02)
                for loop in loops:
                    loop.kill()
                    loop.wait()
    finally:
        os.close(fd)
    print("\n== disk flushes (4 KB + fsync, ms) while busy loops run at a solver's priority")
    print(f"machine: {cores} cores, load average {os.getloadavg()[0]:.1f} (at the end)")
    print(f"{'busy cores':<28} {'count':>6} {'p50':>8} {'p95':>8} {'p99':>8}")
    for busy in counts:
        print(line(f"{busy} of {cores}", times[busy]))


def parse_settings(pairs: list[str]) -> dict[str, str]:
    """``["CLAIM_SLOTS=1"]`` → ``{"CLAIM_SLOTS": "1"}``."""
    settings = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"--env takes NAME=VALUE, not {pair!r}")
        settings[name] = value
    return settings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--claimants", type=int, default=8)
    parser.add_argument("--limit", type=float, default=10.0, help="each claim's time limit")
    parser.add_argument("--db", default="sqlite", help="sqlite, postgresql or both")
    parser.add_argument("--seconds", type=float, default=300.0, help="length of a run in turns")
    parser.add_argument("--on", type=float, default=30.0, help="seconds the claimants post")
    parser.add_argument("--off", type=float, default=20.0, help="quiet seconds between turns")
    parser.add_argument("--phases", action="store_true", help="two runs, alone then with claims")
    parser.add_argument("--deadline", type=float, default=100.0, help="seconds per --phases run")
    parser.add_argument("--env", action="append", default=[], help="a server setting NAME=VALUE")
    parser.add_argument("--flush-probe", type=int, default=0, metavar="ROUNDS")
    args = parser.parse_args()
    if args.flush_probe:
        with tempfile.TemporaryDirectory(prefix="scorekeeper-flush-") as tmp:
            flush_probe(args.flush_probe, Path(tmp))
        return
    settings = parse_settings(args.env)
    run = phased_run if args.phases else interleaved_run
    results = []
    with tempfile.TemporaryDirectory(prefix="scorekeeper-claims-load-") as tmp:
        workdir = Path(tmp)
        if os.geteuid() == 0:
            shutil.chown(workdir, "postgres")  # the throwaway server's socket lives here
        for kind in args.db.split(","):
            alone, loaded, claims = run(kind.strip(), workdir, args, settings)
            if settings:
                print(f"\nserver settings: {settings}")
            results.append(report(kind.strip(), alone, loaded, claims, args.claimants))
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
