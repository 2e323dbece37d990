"""Server-sent events: a page follows a game over one open request instead of polling.

``GET /games/<id>/stream`` answers ``text/event-stream``: the game's version at
once (also after a reconnection: the page compares it with the one it shows),
then each new version as soon as this process hears of it
(:mod:`scorekeeper.store.version_watch`), and a comment line every
:data:`HEARTBEAT_SECONDS` so that proxies keep an idle stream open. After
:data:`STREAM_SECONDS` at most (at least three quarters of it, at random: phones
that connected together, as a club night's do when a server restarts, must not
all reconnect together again each time) the stream ends and the browser's
``EventSource`` reconnects a second later: a worker recycled after its share of requests waits
for its streams no longer than that (one told to stop ends them at once). A
phone is between two streams about 2% of the time; whatever changed meanwhile
comes as the next stream's first event.

Each open stream holds a request thread of its worker while it waits (no CPU).
gunicorn.conf.py gives every worker :data:`DEFAULT_STREAMS` threads for streams
on top of its request threads, and each worker lets at most that many
streams open at once: a stream beyond them is answered 503 at once, and the page
polls instead (static/live.js), so streams can never take the threads the
other requests need. Nor can the other requests take the stream threads: the
work slots (:class:`scorekeeper.web.server.bodies.BodyFirst`) let a worker run only as
many of them at once as it has request threads, as before streams (its
database pool is sized for them); a stream holds its slot only while it starts.
"""

from __future__ import annotations

import random
import select
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

from flask import Flask, Response, current_app, request

from scorekeeper.extensions import db
from scorekeeper.store import version_watch
from scorekeeper.web.server import workers

DEFAULT_STREAMS = 300
"""Streams per worker (``LIVE_STREAMS``); 0 turns them off (every page polls)."""
STREAM_SECONDS = 55.0
SHORTEST_SHARE = 0.75
"""A stream lasts between this share of its seconds and all of them, at random."""
HEARTBEAT_SECONDS = 12.0
RETRY_MILLISECONDS = 1000
"""How long a browser waits before reconnecting a stream that ended or broke."""
STREAM_SLOTS = "scorekeeper.live_streams"
SETTINGS = {"LIVE_STREAMS": int, "LIVE_STREAM_SECONDS": float}
"""``LIVE_STREAM_SECONDS``: shorter streams behind a proxy that limits how long an answer lasts."""


class StreamsFull(Exception):
    """Every stream this worker may hold is open: the page polls instead."""


def config_from_env(overrides: dict[str, Any]) -> dict[str, Any]:
    """``LIVE_STREAMS`` (0 or more) and ``LIVE_STREAM_SECONDS`` from the environment."""
    settings = {"LIVE_STREAMS": DEFAULT_STREAMS}
    settings.update(workers.settings_from_env(SETTINGS, overrides, frozenset({"LIVE_STREAMS"})))
    return {key: value for key, value in settings.items() if key not in overrides}


def streams_per_worker() -> int:
    """The stream threads gunicorn.conf.py adds to each worker's request threads."""
    return int(config_from_env({})["LIVE_STREAMS"])


def version_stream(kind: str, ident: str, version: int) -> Response:
    """The stream of ``kind``/``ident`` (known to exist, at ``version``); :class:`StreamsFull`."""
    slots: threading.BoundedSemaphore = current_app.extensions[STREAM_SLOTS]
    if current_app.config["LIVE_STREAMS"] <= 0 or not slots.acquire(blocking=False):
        raise StreamsFull()
    watch = version_watch.watch_for(db.engine)
    seconds = float(current_app.config.get("LIVE_STREAM_SECONDS", STREAM_SECONDS))
    events = _Stream(watch, kind, ident, version, slots, seconds)
    events.peer = request.environ.get("gunicorn.socket")
    response = Response(events, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache, private"
    response.headers["X-Accel-Buffering"] = "no"  # a proxy must pass each event at once
    return response


class _Stream:
    """The events of one stream; its slot is given back when the server closes it (WSGI
    ``close()``), whether it ran to its end, the phone went away, or it never started."""

    def __init__(
        self,
        watch: version_watch.VersionWatch,
        kind: str,
        ident: str,
        version: int,
        slots: threading.BoundedSemaphore,
        seconds: float,
    ) -> None:
        self.watch, self.kind, self.ident = watch, kind, ident
        self.version, self.seconds = version, seconds
        self._slots: threading.BoundedSemaphore | None = slots
        self.peer: socket.socket | None = None
        """The phone's connection, where the server says (gunicorn): to notice it closed."""

    def __iter__(self) -> Iterator[bytes]:
        yield f"retry: {RETRY_MILLISECONDS}\n\n".encode()
        seen = self.version
        yield _event(seen)  # the page compares it with its own (it may have missed one)
        deadline = time.monotonic() + self.seconds * random.uniform(SHORTEST_SHARE, 1.0)
        while (left := deadline - time.monotonic()) > 0:
            found = self.watch.wait(self.kind, self.ident, seen, min(HEARTBEAT_SECONDS, left))
            if found is None:
                return  # gone, or the worker is stopping: the browser reconnects
            if found != seen:
                seen = found
                yield _event(seen)
            elif _closed(self.peer):
                return
            else:
                yield b": still here\n\n"

    def close(self) -> None:
        slots, self._slots = self._slots, None
        if slots is not None:
            slots.release()


def _closed(peer: socket.socket | None) -> bool:
    """Whether the phone closed its end: its side of the stream is readable and at its end
    (a write would only fail on the second try, a heartbeat later)."""
    if peer is None:
        return False
    try:
        readable, _, _ = select.select([peer], [], [], 0)
        return bool(readable) and peer.recv(1, socket.MSG_PEEK) == b""
    except (OSError, ValueError):
        return True


def _event(version: int) -> bytes:
    return f"id: {version}\nevent: version\ndata: {version}\n\n".encode()


def close_streams() -> None:
    """End every stream of this process now: its worker is stopping."""
    version_watch.close_all()


def init_app(app: Flask) -> None:
    """The worker's stream slots; made in the master (preload) and free there, so each
    worker forks its own."""
    size = int(app.config.get("LIVE_STREAMS", DEFAULT_STREAMS))
    app.extensions[STREAM_SLOTS] = threading.BoundedSemaphore(max(size, 1))
