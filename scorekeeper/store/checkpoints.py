"""SQLite's checkpoints off the requests' path.

In WAL mode SQLite copies its log back into the database file (a checkpoint) once
the log passes 1,000 pages, inside whichever commit crossed the line, and that
request waits for it: about one deal in a hundred, up to 0.9 s each on the test
machine (the p99 of a club night's deals: 903 ms with it, 60 ms without). So the
app's connections never checkpoint (``wal_autocheckpoint=0``, in
:data:`scorekeeper.extensions.SQLITE_PRAGMAS`) and one thread per process and
database does, every :data:`CHECKPOINT_EVERY` seconds, ``PASSIVE``: it never waits
for a reader or a writer, and copies what it can. Made when the process first
connects to a database file (:mod:`scorekeeper.store.per_engine`: after gunicorn's
fork, each worker its own), stopped when the engine is disposed of.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine

from scorekeeper.store.per_engine import PerEngine
from scorekeeper.store.write_gate import file_of

log = logging.getLogger(__name__)

CHECKPOINT_EVERY = 1.0


class Checkpointer:
    """The thread that checkpoints one SQLite database file for this process."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.last: tuple[int, int, int] | None = None
        """What the thread's last checkpoint said (:meth:`checkpoint`)."""
        self._closed = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sqlite-checkpoint", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._closed.wait(CHECKPOINT_EVERY):
            try:
                self.last = self.checkpoint()
            except Exception as error:  # the file is away or busy: try again later
                log.warning("sqlite checkpoint: %s", error)

    def checkpoint(self) -> tuple[int, int, int]:
        """One passive checkpoint: (busy, pages in the log, pages copied back)."""
        with self.engine.connect() as connection:
            raw: Any = connection.connection.dbapi_connection
            busy, logged, copied = raw.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            connection.rollback()
        return int(busy), int(logged), int(copied)

    def close(self) -> None:
        self._closed.set()


_CHECKPOINTERS: PerEngine[Checkpointer] = PerEngine(Checkpointer, Checkpointer.close)


@event.listens_for(Engine, "engine_connect")
def _start_checkpoints(connection: Connection) -> None:
    engine = connection.engine
    if file_of(engine) is not None:  # a SQLite file (an in-memory database has no log)
        _CHECKPOINTERS.get(engine)


def checkpointer_for(engine: Engine) -> Checkpointer:
    """This process's checkpointer for a SQLite file's engine (made if not yet)."""
    return _CHECKPOINTERS.get(engine)
