"""gunicorn's threaded worker, with a deadline for each request's head.

gunicorn (gthread) waits up to 5 s for a new connection's first bytes on a
thread of its pool, then parks it; but once the first bytes are in, it reads
the request line and the headers with no time limit at all. A client that
sends its headers a byte every few seconds (slowloris) holds a thread for as
long as it likes, and enough of them fill the pool. This worker gives every
request's head ``BODY_TIMEOUT`` seconds (default 10, as its body gets in
:mod:`scorekeeper.web.server.bodies`), counted from the moment a thread takes the
connection: past it, a watch thread shuts the connection's reading side, the
blocked read ends, and gunicorn closes the connection as one whose client went
away. Nothing else of gthread changes.

``worker_class = "scorekeeper.web.server.gthread.ThreadWorker"`` in gunicorn.conf.py.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from typing import Any

from gunicorn.workers import gthread  # type: ignore[import-untyped]  # no type information

from scorekeeper.web.server.bodies import config_from_env

WATCH_SECONDS = 0.5
"""How often the watch looks for heads past their deadline."""


class HeadDeadlines:
    """The heads being read by this worker's threads, each with its deadline."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._lock = threading.Lock()
        self._due: dict[int, tuple[float, socket.socket]] = {}

    def arm(self, sock: socket.socket) -> None:
        """This thread starts reading a head from ``sock``."""
        with self._lock:
            self._due[threading.get_ident()] = (time.monotonic() + self.seconds, sock)

    def disarm(self) -> None:
        """This thread has the whole head (or gave the connection up)."""
        with self._lock:
            self._due.pop(threading.get_ident(), None)

    def cut_late(self, now: float) -> int:
        """Shut the reading side of every head past its deadline; how many."""
        with self._lock:
            late = [ident for ident, (due, _) in self._due.items() if due <= now]
            for ident in late:
                _, sock = self._due.pop(ident)
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RD)
        return len(late)

    def watch(self, every: float = WATCH_SECONDS) -> None:
        """Cut late heads, forever (a daemon thread of the worker)."""
        while True:
            time.sleep(every)
            self.cut_late(time.monotonic())


class ThreadWorker(gthread.ThreadWorker):  # type: ignore[misc]
    """gthread, with a deadline for each request's line and headers."""

    def init_process(self) -> None:
        self.heads = HeadDeadlines(float(config_from_env({})["BODY_TIMEOUT"]))
        threading.Thread(target=self.heads.watch, name="head-deadlines", daemon=True).start()
        super().init_process()

    def handle(self, conn: Any) -> Any:
        self.heads.arm(conn.sock)
        try:
            return super().handle(conn)
        finally:
            self.heads.disarm()

    def handle_request(self, req: Any, conn: Any) -> Any:
        self.heads.disarm()  # the head is in: the app's own limits apply from here
        return super().handle_request(req, conn)
