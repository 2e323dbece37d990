"""The rate-limit counters in the database (``database://``): atomic, windowed, shared."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from limits import parse
from limits.storage import storage_from_string
from limits.strategies import FixedWindowRateLimiter

from scorekeeper.extensions import db
from scorekeeper.store.rate_counters import DatabaseStorage
from tests.conftest import postgres_schema_app


@pytest.fixture(params=["sqlite", "postgresql"])
def counting_app(
    request: pytest.FixtureRequest, make_app: Callable[..., Flask], tmp_path: Path
) -> Iterator[Flask]:
    if request.param == "sqlite":
        app = make_app(SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'limits.sqlite'}")
        with app.app_context():
            db.create_all()
            yield app
            db.session.remove()
            db.engine.dispose()
        return
    with postgres_schema_app(make_app, request.getfixturevalue("test_database_url")) as app:
        yield app


def test_the_scheme_names_the_database_storage() -> None:
    assert isinstance(storage_from_string("database://"), DatabaseStorage)


def test_counts_within_a_window_then_starts_again(counting_app: Flask) -> None:
    storage = DatabaseStorage()
    assert storage.check()
    assert [storage.incr("k", 0.5) for _ in range(3)] == [1, 2, 3]
    assert storage.get("k") == 3 and storage.get_expiry("k") > time.time()
    time.sleep(0.6)
    assert storage.get("k") == 0
    assert storage.incr("k", 60) == 1  # a new window
    storage.clear("k")
    assert storage.get("k") == 0


def test_increments_from_many_threads_are_all_counted(counting_app: Flask) -> None:
    storage = DatabaseStorage()
    errors: list[Any] = []

    def hit() -> None:
        with counting_app.app_context():
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


def test_a_limiter_over_it_refuses_past_the_limit(counting_app: Flask) -> None:
    limiter = FixedWindowRateLimiter(DatabaseStorage())
    limit = parse("3/minute")
    assert [limiter.hit(limit, "a") for _ in range(4)] == [True, True, True, False]
    assert limiter.hit(limit, "b")
