"""Tables keep their latency while whole-deal claims are judged: 20 tables, 8 claimants.

Run: ``python benchmarks/claims_load.py [--tables 20] [--claimants 8] [--db sqlite]``.

For each database it runs the table load of ``load_tables.py`` twice, each
time against a fresh gunicorn (``gunicorn.conf.py``'s defaults: 2 × cores + 1
workers, 4 threads each; the claim pool's defaults: as many searches at once
as cores, twice that many queued, 2 per address):

1. the tables alone: each records its 20 deals, one every 2–4 s, while
   another phone polls the game's version;
2. the same tables while ``--claimants`` clients post whole-deal claims in a
   loop (``POST /api/v1/check/claim``, each from its own address): 13 cards
   per hand, Collections, a claimant holding low cards who says "I take no
   more tricks" (a claim that needs the whole tree to be proved), with a
   ``--limit`` of 10 s. A claimant told 429 or 503 waits ``Retry-After``, as
   a phone does.

It prints the tables' latencies (record and poll: p50, p95, p99) for both
runs, the ratio of the p95s (target: at most 1.5), and what the claimants
got (answers, their times, refusals). Rate limits are off (every phone is
on 127.0.0.1); ``TRUSTED_PROXIES=1`` lets each claimant give its own address
in ``X-Forwarded-For``.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
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
    Phone,
    Stats,
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


def claimant(port: int, n: int, limit: float, stop: threading.Event, claims: Claims) -> None:
    """One client posting claims in a loop until ``stop``; waits Retry-After when refused."""
    rng = random.Random(f"claimant {n}")
    phone = Phone(port, Stats())
    phone.conn.timeout = limit + 30
    headers = {"X-Forwarded-For": f"10.0.{n // 250}.{n % 250 + 1}"}
    try:
        while not stop.is_set():
            started = time.perf_counter()
            status, answer = phone.call(
                "claim", "POST", "/api/v1/check/claim", whole_deal_claim(rng, limit), headers
            )
            claims.add(status, time.perf_counter() - started, answer or {})
            if status in (429, 503) or status == 0:
                stop.wait(5.0)  # Retry-After
    finally:
        phone.close()


@contextmanager
def server(url: str, workdir: Path) -> Iterator[int]:
    log = workdir / f"gunicorn-{uuid.uuid4().hex[:6]}.log"
    env = {"GUNICORN_ACCESS_LOG": "", "TRUSTED_PROXIES": "1"}
    running = start_server(url, log, workers=None, threads=None, env=env)
    try:
        yield int(running.url.rsplit(":", 1)[1])
    finally:
        running.stop()


def table_run(
    kind: str, workdir: Path, tables: int, deadline: float, claimants: int, limit: float
) -> tuple[Stats, Claims]:
    database = sqlite_database if kind == "sqlite" else postgres_database
    claims = Claims()
    with database(workdir) as (url, _label), server(url, workdir) as port:
        stop = threading.Event()
        threads = [
            threading.Thread(target=claimant, args=(port, n, limit, stop, claims), daemon=True)
            for n in range(claimants)
        ]
        for thread in threads:
            thread.start()
        stats, _elapsed = play_tables(port, tables, deadline)
        stop.set()
        for thread in threads:
            thread.join(limit + 30)
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--claimants", type=int, default=8)
    parser.add_argument("--limit", type=float, default=10.0, help="each claim's time limit")
    parser.add_argument("--db", default="sqlite", help="sqlite, postgresql or both")
    parser.add_argument("--deadline", type=float, default=100.0, help="seconds per run")
    args = parser.parse_args()
    results = []
    with tempfile.TemporaryDirectory(prefix="scorekeeper-claims-load-") as tmp:
        workdir = Path(tmp)
        if os.geteuid() == 0:
            shutil.chown(workdir, "postgres")  # the throwaway server's socket lives here
        for kind in args.db.split(","):
            kind = kind.strip()
            alone, _none = table_run(kind, workdir, args.tables, args.deadline, 0, args.limit)
            loaded, claims = table_run(
                kind, workdir, args.tables, args.deadline, args.claimants, args.limit
            )
            results.append(report(kind, alone, loaded, claims, args.claimants))
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
