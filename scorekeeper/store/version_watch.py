"""Waiting until a game or a club night changes, for the pages that follow one live.

A phone following a game keeps one request open (a stream of server-sent
events) and its thread waits here until the version moves. Polling instead
cost every phone a request every 1.5 s, most of a busy server's work. One
thread per process learns of the changes for every waiting request:

- on PostgreSQL, from the version feed's notices
  (:mod:`scorekeeper.store.version_feed`): no query at all;
- on SQLite, or while the feed is not listening, by reading the versions of
  the followed games and events every :data:`SQLITE_EVERY` seconds
  (:data:`SQLITE_BUSY_EVERY` for a while after a change), and on SQLite only
  when ``PRAGMA data_version`` says another connection wrote.

A change wakes only the requests following that game or event. A wait that
times out reads the version once more, so a notice lost while the feed
reconnected delays an update, never loses it.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Iterable
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection, Engine

from scorekeeper.store import models
from scorekeeper.store.events import models as em
from scorekeeper.store.per_engine import PerEngine
from scorekeeper.store.version_feed import VersionFeed, feed_for
from scorekeeper.store.versions import current_version

log = logging.getLogger(__name__)

SQLITE_EVERY = 0.01
"""Seconds between two looks at SQLite's ``data_version`` (a few microseconds each), so a
deal reaches the phones on other workers within 10 ms."""
SQLITE_BUSY_EVERY = 0.005
BUSY_SECONDS = 2.0
"""For this long after a change, SQLite is looked at every :data:`SQLITE_BUSY_EVERY`
seconds: while tables are playing a look more costs nothing worth counting, and halves
the wait of the next deal; a quiet server keeps the slower pace."""
FALLBACK_EVERY = 0.5
"""Seconds between two reads on PostgreSQL while the feed is not listening."""
CHUNK = 500
"""Ids per ``IN (…)`` read (SQLite allows 999 parameters in old builds)."""
Key = tuple[str, str]
COLUMNS = {"game": (models.Game.id, models.Game.version), "event": (em.Event.id, em.Event.version)}


class _Waiter:
    __slots__ = ("seen", "woken", "version")

    def __init__(self, seen: int) -> None:
        self.seen = seen
        self.woken = threading.Event()
        self.version: int | None = None


class VersionWatch:
    """One process's waiting requests for one engine, and the thread that wakes them."""

    def __init__(self, engine: Engine, feed: VersionFeed | None) -> None:
        self.engine = engine
        self.feed = feed
        self._lock = threading.Lock()
        self._waiters: dict[Key, set[_Waiter]] = {}
        self._someone_waits = threading.Event()
        self._closed = threading.Event()
        if feed is not None:
            feed.listeners.append(self.announce)
        self._thread = threading.Thread(target=self._watch, name="version-watch", daemon=True)
        self._thread.start()

    @property
    def closed(self) -> bool:
        return self._closed.is_set()

    def wait(self, kind: str, ident: str, seen: int, timeout: float) -> int | None:
        """The version of ``kind``/``ident`` once it is not ``seen`` (or ``seen`` after
        ``timeout`` seconds); None if it no longer exists or the watch is closing."""
        key, waiter = (kind, ident), _Waiter(seen)
        self._add(key, waiter)
        try:
            current = current_version(self.engine, kind, ident)
            if current is None or current != seen or self.closed:
                return None if self.closed else current
            if waiter.woken.wait(timeout):
                return None if self.closed else waiter.version
            return current_version(self.engine, kind, ident)
        finally:
            self._remove(key, waiter)

    def announce(self, kind: str, ident: str, version: int | None) -> None:
        """``kind``/``ident`` is now at ``version`` (None: deleted): wake who waits for it."""
        with self._lock:
            self._wake((kind, ident), version)

    def _wake(self, key: Key, version: int | None) -> None:
        """(Called with the lock held.) Only those who have not seen ``version`` wake: a
        thread woken for nothing costs a switch, and every read would wake them all."""
        for waiter in self._waiters.get(key, ()):
            if waiter.seen != version and not waiter.woken.is_set():
                waiter.version = version
                waiter.woken.set()

    def close(self) -> None:
        """Every wait ends now, and every later one at once (the worker is stopping)."""
        self._closed.set()
        self._someone_waits.set()
        with self._lock:
            for waiters in self._waiters.values():
                for waiter in waiters:
                    waiter.woken.set()

    def _add(self, key: Key, waiter: _Waiter) -> None:
        with self._lock:
            self._waiters.setdefault(key, set()).add(waiter)
            self._someone_waits.set()

    def _remove(self, key: Key, waiter: _Waiter) -> None:
        with self._lock:
            waiters = self._waiters.get(key)
            if waiters is not None:
                waiters.discard(waiter)
                if not waiters:
                    del self._waiters[key]
            if not self._waiters:
                self._someone_waits.clear()

    # --- the watching thread -------------------------------------------------------------

    def _watch(self) -> None:
        while not self.closed:
            try:
                self._watch_once()
            except Exception as error:  # the database is away: try again shortly
                log.warning("version watch: %s", error)
                self._closed.wait(FALLBACK_EVERY)

    def _watch_once(self) -> None:
        """Look while anyone waits and the feed does not listen; a connection of the pool
        is held only meanwhile."""
        sqlite = self.engine.dialect.name == "sqlite"
        while not self.closed:
            self._someone_waits.wait()
            if self.feed is not None and self.feed.listening:
                self._closed.wait(FALLBACK_EVERY)  # the feed's notices announce
                continue
            with self.engine.connect() as connection:
                written, changed_at = None, -BUSY_SECONDS
                while self._should_look():
                    if not sqlite:
                        self._read(connection)
                    elif (now := _data_version(connection)) != written:
                        written, changed_at = now, time.monotonic()
                        self._read(connection)
                    self._closed.wait(pace(sqlite, time.monotonic() - changed_at))

    def _should_look(self) -> bool:
        listening = self.feed is not None and self.feed.listening
        return not self.closed and self._someone_waits.is_set() and not listening

    def _read(self, connection: Connection) -> None:
        """Read the followed versions; wake whoever has not seen one."""
        with self._lock:
            keys = list(self._waiters)
        by_kind: dict[str, list[str]] = {}
        for kind, ident in keys:
            by_kind.setdefault(kind, []).append(ident)
        found: dict[Key, int] = {}
        for kind, idents in by_kind.items():
            found.update(_versions(connection, kind, idents))
        connection.rollback()  # never hold a snapshot (it would keep SQLite's WAL growing)
        with self._lock:
            for key in keys:
                self._wake(key, found.get(key))


def pace(sqlite: bool, since_change: float) -> float:
    """Seconds until the next look: on SQLite faster for a while after a change."""
    if not sqlite:
        return FALLBACK_EVERY
    return SQLITE_BUSY_EVERY if since_change < BUSY_SECONDS else SQLITE_EVERY


def _data_version(connection: Connection) -> int:
    """SQLite's count of commits by other connections, asked of the driver directly: no
    transaction around it, a few microseconds (through SQLAlchemy, a hundred times more)."""
    raw: Any = connection.connection.dbapi_connection
    return int(raw.execute("PRAGMA data_version").fetchone()[0])


def _versions(connection: Connection, kind: str, idents: list[str]) -> Iterable[tuple[Key, int]]:
    id_column, version_column = COLUMNS[kind]
    for start in range(0, len(idents), CHUNK):
        chunk = idents[start : start + CHUNK]
        rows = connection.execute(select(id_column, version_column).where(id_column.in_(chunk)))
        for ident, version in rows:
            yield (kind, str(ident)), int(version)


_WATCHES: PerEngine[VersionWatch] = PerEngine(
    lambda engine: VersionWatch(engine, feed_for(engine)), VersionWatch.close
)


def watch_for(engine: Engine) -> VersionWatch:
    """This process's watch for ``engine`` (started on first use, after any fork)."""
    return _WATCHES.get(engine)


def close_all() -> None:
    """End every wait in this process (its worker is stopping): the streams close."""
    for watch in _WATCHES.here():
        with contextlib.suppress(Exception):
            watch.close()
