"""Circles: a circle of 12 members and 1,000 finished four-kingdom games.

Prints, for a player's page and the circle's table (all time, and this year:
every game of the benchmark is this year's, so the filter reads them all) the
p50/p95 time (warm: the circle's version read before; cold: its caches
emptied, as after a change), the statements each costs with 100 and with
1,000 games (it must not grow), and the time to rate the whole history again
from scratch.

Targets: p95 < 200 ms for each page; statements equal for 100 and 1,000
games; recomputing every rating < 2 s.

Usage: .venv/bin/python benchmarks/circles.py [games=1000]
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from sqlalchemy import event, insert

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.rules.captures import Capture, Captures
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.game import DealEntry, Game
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import models
from scorekeeper.store.circles import services
from scorekeeper.store.circles.facts import game_facts
from scorekeeper.store.circles.hooks import (
    LINKS,
    SEATS,
    SET_SUMS,
    bump_version,
    refresh_ratings,
)
from scorekeeper.store.circles.stats import add, seat_share
from scorekeeper.store.summary import summarize
from scorekeeper.store.tokens import hash_token, new_game_id
from scorekeeper.store.transactions import write_transaction

MEMBERS = [f"Player {n}" for n in range(1, 13)]
TARGET_PAGE_P95 = 0.200
PAGES = ("player page", "circle table", "player page, this year", "circle table, this year")
TARGET_RATINGS = 2.0


def split13(rng: random.Random) -> tuple[int, int, int, int]:
    cuts = sorted(rng.randint(0, 13) for _ in range(3))
    return (cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 13 - cuts[2])


def captures(rng: random.Random, contract: Contract) -> Captures:
    def card() -> Capture:
        taker = rng.randrange(4)
        return Capture(taker, rng.choice([None, None, rng.randrange(4)]))

    if contract is Contract.KING:
        return Captures(king_of_hearts=card())
    if contract is Contract.QUEENS:
        return Captures(queens=(card(), card(), card(), card()))
    if contract is Contract.DIAMONDS:
        return Captures(diamonds=split13(rng))
    if contract is Contract.COLLECTIONS:
        return Captures(tricks=split13(rng))
    order = rng.sample(range(4), 4)
    return Captures(trix_order=(order[0], order[1], order[2], order[3]))


def random_game(rng: random.Random) -> tuple[Game, list[DealEntry]]:
    """A finished four-kingdom game (an extra deal if the tie-break needs one)."""
    game = Game.start(RuleSet(), 0, ["a", "b", "c", "d"])
    entries = []
    while not game.finished:
        contract = rng.choice(game.available_contracts)
        entry = DealEntry((contract,), captures(rng, contract))
        if game.can(entry):
            game = game.record(entry)
            entries.append(entry)
    return game, entries


def add_games(circle_id: str, member_ids: list[int], count: int, rng: random.Random) -> None:
    """``count`` finished games of the circle, written in bulk with each seat's share and
    the members' sums, as the hooks would have kept them."""
    now = models.utcnow()
    sums = {m.id: m.sums for m in services.load_circle(circle_id).members}
    rows: dict[str, list[dict[str, Any]]] = {
        k: [] for k in ("games", "seats", "log", "links", "cs")
    }
    for _ in range(count):
        game, entries = random_game(rng)
        game_id, members = new_game_id(), rng.sample(member_ids, 4)
        rows["games"].append(
            {"id": game_id, "rules": RuleSet().to_dict(), "first_king": 0, "version": 1}
            | {"edit_token_hash": hash_token(game_id), "finished": True}
            | {"summary": summarize(game), "created_at": now, "updated_at": now}
        )
        rows["seats"] += [{"game_id": game_id, "seat": s, "name": f"p{s}"} for s in range(4)]
        rows["log"] += [
            {"game_id": game_id, "position": i, "kind": "deal", "payload": e.to_dict()}
            | {"created_at": now}
            for i, e in enumerate(entries)
        ]
        facts = game_facts(game)
        rows["links"].append(
            {"game_id": game_id, "circle_id": circle_id, "played_at": now}
            | {"finished": True, "facts": facts}
        )
        for s, m in enumerate(members):
            share = seat_share(facts, s, members)
            sums[m] = add(sums.get(m, {}), share)
            rows["cs"].append(
                {"game_id": game_id, "seat": s, "member_id": m, "share": share}
                | {"total": facts["totals"][s], "place": facts["places"][s]}
            )
    with write_transaction() as session:
        connection = session.connection()
        connection.execute(insert(models.Game.__table__), rows["games"])
        connection.execute(insert(models.Seat.__table__), rows["seats"])
        connection.execute(insert(models.LogEntry.__table__), rows["log"])
        connection.execute(insert(LINKS), rows["links"])
        connection.execute(insert(SEATS), rows["cs"])
        connection.execute(SET_SUMS, [{"of_member": m, "new_sums": s} for m, s in sums.items()])
        refresh_ratings(connection, circle_id)
        bump_version(connection, circle_id)


class Statements:
    """Counts the SQL statements sent to the database."""

    def __init__(self) -> None:
        self.count = 0
        event.listen(db.engine, "before_cursor_execute", self._count)

    def _count(self, *_args: Any) -> None:
        self.count += 1

    def of(self, action: Any) -> int:
        before = self.count
        action()
        return self.count - before


def timings(client: Any, url: str, runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        response = client.get(url)
        out.append(time.perf_counter() - start)
        assert response.status_code == 200, response.status_code
    return out


def p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def measure(app: Any, circle_id: str, member_id: int, label: str) -> dict[str, Any]:
    client = app.test_client()
    pages = {
        "player page": f"/circles/{circle_id}/members/{member_id}",
        "circle table": f"/circles/{circle_id}",
        # Every game was started this year: the filter reads every game's share.
        "player page, this year": f"/circles/{circle_id}/members/{member_id}?period=year",
        "circle table, this year": f"/circles/{circle_id}?period=year",
    }
    out: dict[str, Any] = {}
    counter = Statements()
    for name, url in pages.items():
        client.get(url)  # warm: the circle's version read once
        warm = timings(client, url, 40)
        cold = []
        for _ in range(8):
            app.extensions.pop(services.CACHE_KEY, None)
            cold += timings(client, url, 1)
        app.extensions.pop(services.CACHE_KEY, None)
        cold_statements = counter.of(lambda u=url: client.get(u))
        warm_statements = counter.of(lambda u=url: client.get(u))
        out[name] = (p(warm, 0.5), p(warm, 0.95), p(cold, 0.5), p(cold, 0.95))
        out[name + " statements"] = (cold_statements, warm_statements)
        print(
            f"  {label}, {name}: warm p50 {1000 * out[name][0]:.1f} ms, p95 "
            f"{1000 * out[name][1]:.1f} ms; cold p50 {1000 * out[name][2]:.1f} ms, p95 "
            f"{1000 * out[name][3]:.1f} ms; statements cold {cold_statements}, "
            f"warm {warm_statements}"
        )
    return out


def main() -> None:
    total = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(
            {
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(tmp) / 'circles.sqlite'}",
                "SECRET_KEY": "bench",
                "RATELIMIT_ENABLED": False,
            }
        )
        with app.app_context():
            db.create_all()
            circle, _token = services.create_circle("Bench", MEMBERS, True)
            ids = [m.id for m in circle.members]
            start = time.perf_counter()
            add_games(circle.id, ids, 100, rng)
            small = measure(app, circle.id, ids[0], "100 games")
            add_games(circle.id, ids, total - 100, rng)
            print(f"  ({total} games built in {time.perf_counter() - start:.1f} s)")
            large = measure(app, circle.id, ids[0], f"{total} games")
            rate = []
            for _ in range(3):
                begin = time.perf_counter()
                services.recompute_ratings(circle.id)
                rate.append(time.perf_counter() - begin)
            print(
                f"  recomputing every rating of {total} games: best {min(rate):.2f} s, "
                f"median {statistics.median(rate):.2f} s"
            )
            db.session.remove()
            db.engine.dispose()
    ok = all(large[n][1] < TARGET_PAGE_P95 and large[n][3] < TARGET_PAGE_P95 for n in PAGES)
    same = all(small[n + " statements"] == large[n + " statements"] for n in PAGES)
    ok = ok and same and min(rate) < TARGET_RATINGS
    print(f"  statements do not grow with the games: {same}")
    print("all targets met" if ok else "SOME TARGETS MISSED")


if __name__ == "__main__":
    main()
