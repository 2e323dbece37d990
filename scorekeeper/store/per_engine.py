"""One helper object per database engine in each process, for the threads that follow
the database (:mod:`scorekeeper.store.version_feed`, :mod:`scorekeeper.store.version_watch`)
or keep it (:mod:`scorekeeper.store.checkpoints`).

Made on first use, so that after gunicorn's fork each worker makes its own: a thread
or a connection is never inherited across the fork. Stopped when its engine is
disposed of (a worker's start, a test's end).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

from sqlalchemy import event
from sqlalchemy.engine import Engine

T = TypeVar("T")


class PerEngine(Generic[T]):
    """``get(engine)``: this process's ``T`` for ``engine``."""

    def __init__(self, make: Callable[[Engine], T], stop: Callable[[T], None]) -> None:
        self._make, self._stop = make, stop
        self._made: dict[int, tuple[int, Engine, T]] = {}
        self._lock = threading.Lock()

    def get(self, engine: Engine) -> T:
        key = id(engine)
        with self._lock:
            found = self._made.get(key)
            # An id can be reused by a later engine, and a dict is inherited by a fork.
            if found is None or found[0] != os.getpid() or found[1] is not engine:
                found = self._made[key] = (os.getpid(), engine, self._make(engine))
                event.listen(engine, "engine_disposed", lambda _engine: self._forget(key))
        return found[2]

    def here(self) -> list[T]:
        """Every one this process made and has not stopped."""
        with self._lock:
            return [made for pid, _engine, made in self._made.values() if pid == os.getpid()]

    def _forget(self, key: int) -> None:
        with self._lock:
            found = self._made.pop(key, None)
        if found is not None and found[0] == os.getpid():
            self._stop(found[2])
