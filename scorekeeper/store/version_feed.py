"""Versions pushed by PostgreSQL, so that an unchanged poll needs no query at all.

Every phone at a table asks its game's version every 1.5 s; on PostgreSQL each
ask was a round trip to the database (and most of a poll's cost). Here the
database tells every app process instead: a trigger on ``games`` and
``events`` sends ``NOTIFY`` with the new version at each commit that changes
one, and each process keeps one connection that ``LISTEN``s and writes what
it hears into a bounded dict. A poll reads the dict; an id not in it is read
from the database once and remembered.

Nothing is trusted beyond what the database said: versions only grow (a
stored one is replaced by a larger one only), a deleted game or event is
forgotten, and while the listening connection is down (not yet opened after
a fork, or lost) the dict is emptied and every poll asks the database, as
on SQLite. Between a commit and its notice reaching another process a poll
may still be answered "unchanged"; the phone asks again 1.5 s later.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable
from typing import Any

from sqlalchemy import DDL, event
from sqlalchemy.engine import Engine

from scorekeeper.store import models
from scorekeeper.store.events import models as em
from scorekeeper.store.per_engine import PerEngine

log = logging.getLogger(__name__)

CHANNEL = "scorekeeper_versions"
REMEMBERED = 100_000
"""Ids remembered per process (a few MB): past it the dict starts again."""
RETRY_SECONDS = 1.0
WAIT_SECONDS = 5.0
"""How long the listener waits for a notice before checking it should still run."""

NOTIFY_FUNCTION = f"""
CREATE OR REPLACE FUNCTION scorekeeper_notify_version() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('{CHANNEL}', TG_ARGV[0] || ' ' || OLD.id || ' -');
    ELSIF TG_OP = 'INSERT' OR NEW.version IS DISTINCT FROM OLD.version THEN
        PERFORM pg_notify('{CHANNEL}', TG_ARGV[0] || ' ' || NEW.id || ' ' || NEW.version);
    END IF;
    RETURN NULL;
END
$$ LANGUAGE plpgsql
"""


def trigger_ddl(table: str, kind: str) -> str:
    return (
        f"CREATE TRIGGER {table}_notify_version AFTER INSERT OR UPDATE OR DELETE ON {table} "
        f"FOR EACH ROW EXECUTE FUNCTION scorekeeper_notify_version('{kind}')"
    )


TABLES = {"game": models.Game.__table__, "event": em.Event.__table__}


def _attach_triggers() -> None:
    """Tables made by ``create_all`` on PostgreSQL get the triggers (the migration adds them
    to existing databases)."""
    for kind, table in TABLES.items():
        for statement in (NOTIFY_FUNCTION, trigger_ddl(table.name, kind)):
            ddl = DDL(statement).execute_if(dialect="postgresql")  # type: ignore[no-untyped-call]
            event.listen(table, "after_create", ddl)


_attach_triggers()


class VersionFeed:
    """One process's versions as PostgreSQL announces them (see the module's text)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._versions: dict[tuple[str, str], int] = {}
        self._lock = threading.Lock()
        self._listening = False
        self._forgotten = 0
        """Counts forgettings: a read from the database is remembered only if none
        happened while it ran (it might be of a game deleted meanwhile)."""
        self._stopped = threading.Event()
        self._raw: Any = None
        self.listeners: list[Callable[[str, str, int | None], None]] = []
        """Told of every notice: kind, id and version (None: deleted)."""
        self._thread = threading.Thread(target=self._listen, name="version-feed", daemon=True)
        self._thread.start()

    def version(self, kind: str, ident: str, read: Callable[[], int | None]) -> int | None:
        """The version of ``kind``/``ident``: from the dict when the feed is listening,
        else from ``read()`` (the database), remembered for the next poll."""
        key = (kind, ident)
        with self._lock:
            if self._listening and key in self._versions:
                return self._versions[key]
            listening, forgotten = self._listening, self._forgotten
        found = read()
        if listening and found is not None:
            with self._lock:
                if self._listening and self._forgotten == forgotten:
                    self._store(key, found)
        return found

    def heard(self, payload: str) -> None:
        """One notice: ``"<kind> <id> <version>"``, or ``"<kind> <id> -"`` for a deletion."""
        kind, _sep, rest = payload.partition(" ")
        ident, _sep, raw = rest.partition(" ")
        version = int(raw) if raw.isdigit() else None
        with self._lock:
            if version is not None:
                self._store((kind, ident), version)
            else:
                self._versions.pop((kind, ident), None)
                self._forgotten += 1
        for listener in self.listeners:
            listener(kind, ident, version)

    @property
    def listening(self) -> bool:
        """Whether notices arrive (else every change must be read from the database)."""
        return self._listening

    def _store(self, key: tuple[str, str], version: int) -> None:
        if len(self._versions) >= REMEMBERED:
            self._versions.clear()
            self._forgotten += 1
        if version > self._versions.get(key, 0):
            self._versions[key] = version

    def _set_listening(self, listening: bool) -> None:
        with self._lock:
            self._listening = listening
            self._versions.clear()
            self._forgotten += 1

    def stop(self) -> None:
        """No more listening (the engine is being disposed of): its connection is closed."""
        self._stopped.set()
        self._set_listening(False)
        raw = self._raw
        if raw is not None:
            with contextlib.suppress(Exception):
                raw.close()

    def _listen(self) -> None:
        while not self._stopped.is_set():
            try:
                self._listen_once()
            except Exception as error:  # a lost connection: poll the database meanwhile
                if not self._stopped.is_set():
                    log.warning("version feed: %s; polls read the database until it is back", error)
            self._set_listening(False)
            self._stopped.wait(RETRY_SECONDS)

    def _listen_once(self) -> None:
        connection = self.engine.connect()
        connection.detach()  # this connection never goes back to the pool
        raw: Any = connection.connection.dbapi_connection
        self._raw = raw
        try:
            raw.rollback()
            raw.autocommit = True
            raw.execute(f"LISTEN {CHANNEL}")
            self._set_listening(not self._stopped.is_set())
            while not self._stopped.is_set():
                for notice in raw.notifies(timeout=WAIT_SECONDS):
                    self.heard(notice.payload)
                raw.execute("SELECT 1")  # a dead connection shows itself here
        finally:
            self._raw = None
            raw.close()


_FEEDS: PerEngine[VersionFeed] = PerEngine(VersionFeed, VersionFeed.stop)


def feed_for(engine: Engine) -> VersionFeed | None:
    """This process's feed for ``engine`` (started on first use, after any fork), or None
    where the database sends no notices (SQLite)."""
    if engine.dialect.name != "postgresql":
        return None
    return _FEEDS.get(engine)
