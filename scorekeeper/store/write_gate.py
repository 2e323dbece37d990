"""Writers of one SQLite file take turns before ``BEGIN IMMEDIATE``.

SQLite lets one writer in at a time; the others wait in its busy handler,
which sleeps between attempts (1, 2, 5, … up to 100 ms). Under load those
sleeps, not the writes, make the slow requests: a writer can sleep 100 ms
for a lock that was free after 5. So writers first queue here:

- threads of one process on a :class:`threading.Lock` (woken at once);
- processes (gunicorn workers) on an exclusive ``flock`` of
  ``<database>-writer.lock``, polled every millisecond or so.

Then ``BEGIN IMMEDIATE`` finds the database free. Both waits give up after
:data:`WAIT_SECONDS` (SQLite's busy timeout) with the same "database is
locked" error, answered 503 by :mod:`scorekeeper.web.errors`. Other programs
opening the file do not know this gate; SQLite's own lock still protects
the data from them. PostgreSQL and in-memory databases need no gate.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext

from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError

WAIT_SECONDS = 5.0
"""How long a writer waits for its turn (SQLite's ``busy_timeout`` is 5 s too)."""
POLL_SECONDS = (0.0005, 0.004)
"""The first and the longest pause between two tries of the file lock."""

_gates: dict[str, WriteGate] = {}
_gates_lock = threading.Lock()


class WriteGate:
    """The turn of the writers of one database file."""

    def __init__(self, database: str) -> None:
        self.path = f"{database}-writer.lock"
        self.threads = threading.Lock()
        self._fd: int | None = None
        self._pid = 0

    @contextmanager
    def turn(self) -> Iterator[None]:
        """Hold the gate (this thread, then this process) for one write."""
        deadline = time.monotonic() + WAIT_SECONDS
        if not self.threads.acquire(timeout=WAIT_SECONDS):
            raise locked("other writers of this process")
        try:
            fd = self._file()
            self._flock(fd, deadline)
            try:
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            self.threads.release()

    def _file(self) -> int:
        """This process's own descriptor: one inherited across a fork would share the lock."""
        if self._fd is None or self._pid != os.getpid():
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            self._pid = os.getpid()
        return self._fd

    @staticmethod
    def _flock(fd: int, deadline: float) -> None:
        pause, longest = POLL_SECONDS
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise locked("other processes") from None
                time.sleep(pause)
                pause = min(pause * 2, longest)


def locked(whom: str) -> OperationalError:
    """The error SQLite itself gives after its busy timeout (a 503 for the client)."""
    reason = f"database is locked (waited {WAIT_SECONDS:g} s for {whom})"
    return OperationalError("BEGIN IMMEDIATE", {}, sqlite3.OperationalError(reason))


def file_of(engine: Engine) -> str | None:
    """The SQLite database file behind ``engine``, or None (PostgreSQL, in memory)."""
    if engine.dialect.name != "sqlite":
        return None
    database = engine.url.database or ""
    if database in ("", ":memory:") or database.startswith("file:"):
        return None
    return os.path.abspath(database)


def turn(engine: Engine) -> AbstractContextManager[None]:
    """The write turn for ``engine``'s database (nothing to wait for outside SQLite files)."""
    database = file_of(engine)
    if database is None:
        return nullcontext()
    with _gates_lock:
        gate = _gates.get(database) or _gates.setdefault(database, WriteGate(database))
    return gate.turn()
