"""Rate-limit counters in the app's own database: a storage for the ``limits`` library.

Flask-Limiter's default storage (``memory://``) counts in each process, so
under gunicorn every worker had its own counts: with five workers a limit of
60 writes a minute let about 300 through. These counters live in the
``rate_counters`` table that every worker (and every server on the same
database) shares, with no other service to run: on SQLite and PostgreSQL
alike, one statement increments a counter atomically (``INSERT … ON CONFLICT
DO UPDATE … RETURNING``), starting a new window when the old one has expired.

Each increment is its own short transaction on its own connection, apart
from the request's session, and on SQLite it takes its turn at the write
gate like any write (:mod:`scorekeeper.store.write_gate`). Expired rows are
swept now and then. ``RATELIMIT_STORAGE_URI=database://`` selects it (the
default); the library's other storages (``redis://…``) still work.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from limits.storage import Storage
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import SQLAlchemyError

from scorekeeper.extensions import db
from scorekeeper.store import write_gate
from scorekeeper.store.models import RATE_KEY_LENGTH
from scorekeeper.store.transactions import BEGIN_OPTION

SCHEME = "database"
SWEEP_CHANCE = 0.01
"""One increment in a hundred also deletes the expired counters."""

INCREMENT = text(
    "INSERT INTO rate_counters (key, hits, expires_at) VALUES (:key, :amount, :expires) "
    "ON CONFLICT (key) DO UPDATE SET "
    "hits = CASE WHEN rate_counters.expires_at <= :now THEN :amount "
    "ELSE rate_counters.hits + :amount END, "
    "expires_at = CASE WHEN rate_counters.expires_at <= :now THEN :expires "
    "ELSE rate_counters.expires_at END "
    "RETURNING hits"
)
READ = text("SELECT hits, expires_at FROM rate_counters WHERE key = :key")
SWEEP = text("DELETE FROM rate_counters WHERE expires_at <= :now")
DELETE = text("DELETE FROM rate_counters WHERE key = :key")
DELETE_ALL = text("DELETE FROM rate_counters")


class DatabaseStorage(Storage):
    """The ``limits`` storage ``database://``: fixed windows, counted in ``rate_counters``."""

    STORAGE_SCHEME = [SCHEME]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **_: Any) -> None:
        super().__init__(uri, wrap_exceptions=wrap_exceptions)

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return SQLAlchemyError

    def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        """Add ``amount`` to ``key``'s count (a new window of ``expiry`` s if none is open)."""
        now = time.time()
        params = {"key": _key(key), "amount": amount, "now": now, "expires": now + expiry}
        with _write() as conn:
            hits = conn.execute(INCREMENT, params).scalar_one()
            if random.random() < SWEEP_CHANCE:
                conn.execute(SWEEP, {"now": now})
        return int(hits)

    def get(self, key: str) -> int:
        row = self._row(key)
        return int(row[0]) if row is not None and row[1] > time.time() else 0

    def get_expiry(self, key: str) -> float:
        row = self._row(key)
        return float(row[1]) if row is not None else time.time()

    def check(self) -> bool:
        try:
            with db.engine.connect() as conn:
                conn.execute(text("SELECT 1 FROM rate_counters WHERE 1 = 0"))
        except SQLAlchemyError:
            return False
        return True

    def reset(self) -> int | None:
        with _write() as conn:
            return int(conn.execute(DELETE_ALL).rowcount)

    def clear(self, key: str) -> None:
        with _write() as conn:
            conn.execute(DELETE, {"key": _key(key)})

    def _row(self, key: str) -> Any:
        with db.engine.connect() as conn:
            row = conn.execute(READ, {"key": _key(key)}).first()
            conn.rollback()
        return row


@contextmanager
def _write() -> Iterator[Connection]:
    """A short write transaction of its own (on SQLite: at its turn, ``BEGIN IMMEDIATE``)."""
    engine = db.engine
    with write_gate.turn(engine), engine.connect() as conn:
        conn.execution_options(**{BEGIN_OPTION: "BEGIN IMMEDIATE"})
        with conn.begin():
            yield conn


def _key(key: str) -> str:
    """A key that fits the column (keys name an address and a game: short, but bounded)."""
    return key[:RATE_KEY_LENGTH]
