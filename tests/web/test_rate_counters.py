"""The rate-limit counters in the database (``database://``): atomic, windowed, shared."""

from __future__ import annotations

import threading
import time
from typing import Any

from flask import Flask
from limits import parse
from limits.strategies import FixedWindowRateLimiter

from scorekeeper.extensions import db
from scorekeeper.store.rate_counters import DatabaseStorage


def test_counts_within_a_window_then_starts_again(db_app: Flask) -> None:
    storage = DatabaseStorage()
    assert storage.check()
    assert [storage.incr("k", 0.5) for _ in range(3)] == [1, 2, 3]
    assert storage.get("k") == 3 and storage.get_expiry("k") > time.time()
    time.sleep(0.6)
    assert storage.get("k") == 0
    assert storage.incr("k", 60) == 1  # a new window
    storage.clear("k")
    assert storage.get("k") == 0


def test_increments_from_many_threads_are_all_counted(db_app: Flask) -> None:
    storage = DatabaseStorage()
    errors: list[Any] = []

    def hit() -> None:
        with db_app.app_context():
            try:
                for _ in range(20):
                    storage.incr("shared", 60)
            except Exception as error:  # pragma: no cover - the assertion shows it
                errors.append(error)
            finally:
                db.session.remove()

    threads = [threading.Thread(target=hit) for _ in range(5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors and storage.get("shared") == 100


def test_a_limiter_over_it_refuses_past_the_limit(db_app: Flask) -> None:
    limiter = FixedWindowRateLimiter(DatabaseStorage())
    limit = parse("3/minute")
    assert [limiter.hit(limit, "a") for _ in range(4)] == [True, True, True, False]
    assert limiter.hit(limit, "b")
