"""The body first, then a work slot: a request runs only once its body has arrived.

A gunicorn worker (gthread) serves each connection on a thread of its pool,
and the app lets only ``GUNICORN_THREADS`` requests of a worker run at once
(its *work slots*, sized like its database pool). A request used to take its
slot before its body was read, and nothing timed the read out: a POST whose
body never came held a slot for good, and a few dozen of them stalled every
table. This WSGI middleware, around the whole app, changes the order:

1. **The body is read on the connection's own thread**, holding no work
   slot: at most its route's limit (``MAX_CONTENT_LENGTH``, or a larger one a
   route registered with :func:`set_route_limit`: the backup uploads; a longer
   body goes to the app, which answers its own 413 without reading it), each
   read waiting at most :data:`READ_IDLE_SECONDS` and the whole body at most
   ``BODY_TIMEOUT`` seconds (default 10), plus the time a body past
   ``MAX_CONTENT_LENGTH`` takes at :data:`UPLOAD_RATE_MIN` (a large upload from
   a slow phone). A body that does not arrive in time is answered **408** and
   the connection closed; it never takes a work slot. The whole deadline is
   kept by a timer that shuts the connection's reading side, because a socket
   timeout alone bounds one read, not a body trickled a byte at a time.
2. **Then a work slot**, and the app runs on the body in memory.

The connection threads are cheap (they wait on the network, with no database
connection and no CPU), so gunicorn.conf.py gives each worker
``CONNECTION_THREADS`` of them (default 64) on top of its work threads and its
stream threads. At most :data:`READERS_SHARE` of them read bodies at once; a
body beyond that is answered 503 at once, so that headers, bodiless requests
and the streams always find a thread; of those, at most :data:`LARGE_READERS`
read a body past ``MAX_CONTENT_LENGTH``, which bounds the memory bodies take.
Requests without a body (the pages, the polls, the streams) go straight to the
slots; a stream holds its slot only while it starts, its events are sent after
the app has returned.

Why this design (benchmarks/abuse.py measures it; its figures are in
benchmarks/README.md: with 40 half-sent bodies held, no page answered in 30 s
before, and the pages answer as without them now): more work threads alone
would only raise the number of slow bodies it takes to stall the tables, each
thread wanting a database connection; a proxy that buffers bodies (nginx's
default) protects only the servers that have one; an asynchronous server
would be a rewrite. A cheap thread waiting on the network keeps the app
synchronous and its database pool as it was.
"""

from __future__ import annotations

import contextlib
import html
import io
import json
import os
import socket
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from werkzeug.exceptions import HTTPException

from scorekeeper.web.server import workers
from scorekeeper.web.server.hardening import SECURITY_HEADERS

if TYPE_CHECKING:
    from flask import Flask

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

DEFAULT_BODY_TIMEOUT = 10.0
"""Seconds a request's whole body may take to arrive (``BODY_TIMEOUT``)."""
READ_IDLE_SECONDS = 5.0
"""Seconds one read of a body may wait for its next bytes."""
DEFAULT_CONNECTION_THREADS = 64
"""Threads per worker for connections that wait on the network (``CONNECTION_THREADS``)."""
READERS_SHARE = 0.75
"""The share of the connection threads that may read bodies at once."""
DEFAULT_WORK_THREADS = 4
"""Requests a worker runs at once (``GUNICORN_THREADS``)."""
UPLOAD_RATE_MIN = 128 * 1024
"""Bytes per second (about 1 Mbit/s) a body past ``MAX_CONTENT_LENGTH`` is given time for,
beyond ``BODY_TIMEOUT``: a 6 MB game backup has 55 seconds in all."""
LARGE_READERS = 4
"""Bodies past ``MAX_CONTENT_LENGTH`` (backup uploads, up to tens of MB) a worker reads at
once, so that its memory stays bounded; one more is answered 503."""
READ_STEP = 64 * 1024
BUSY_RETRY_SECONDS = 2
SETTINGS = {"BODY_TIMEOUT": float, "CONNECTION_THREADS": int}

SLOW_BODY = (
    "The request's body did not arrive within %(seconds)s seconds, so nothing was saved. "
    "Check the connection and send it again."
)
CUT_BODY = "The request's body stopped before its end, so nothing was saved. Send it again."
TOO_MANY_BODIES = (
    "The server is receiving too many requests at once; nothing was saved. Try again in a moment."
)


def config_from_env(overrides: dict[str, Any]) -> dict[str, Any]:
    """``BODY_TIMEOUT`` (seconds) and ``CONNECTION_THREADS`` from the environment."""
    settings: dict[str, Any] = {
        "BODY_TIMEOUT": DEFAULT_BODY_TIMEOUT,
        "CONNECTION_THREADS": DEFAULT_CONNECTION_THREADS,
    }
    settings.update(workers.settings_from_env(SETTINGS, overrides))
    return {key: value for key, value in settings.items() if key not in overrides}


def connection_threads() -> int:
    """The connection threads gunicorn.conf.py adds to each worker's pool."""
    return int(config_from_env({})["CONNECTION_THREADS"])


def work_threads() -> int:
    """The requests a gunicorn worker runs at once (``GUNICORN_THREADS``, default 4)."""
    raw = os.environ.get("GUNICORN_THREADS", "").strip()  # as gunicorn.conf.py reads it
    return int(raw) if raw.isdigit() and int(raw) > 0 else DEFAULT_WORK_THREADS


class Refused(Exception):
    """The body cannot be used: answered by the middleware itself, with no work slot."""

    def __init__(self, status: str, message: str, headers: Iterable[tuple[str, str]] = ()) -> None:
        super().__init__(message)
        self.status, self.message, self.headers = status, message, list(headers)


LimitOf = Callable[[dict[str, Any]], int | None]
"""The body limit of a request's route, from its environ."""


class BodyFirst:
    """The middleware: the body read within its limits, then one of ``size`` work slots.

    ``max_length`` is every route's limit, unless ``limit_of`` names a request's own
    (a backup upload's); either way a body past it goes to the app unread (its 413).
    """

    def __init__(
        self,
        wsgi: WSGIApp,
        size: int,
        body_timeout: float = DEFAULT_BODY_TIMEOUT,
        max_length: int | None = None,
        readers: int = DEFAULT_CONNECTION_THREADS,
        limit_of: LimitOf | None = None,
    ) -> None:
        self.wsgi = wsgi
        self.body_timeout = body_timeout
        self.max_length = max_length
        self.limit_of = limit_of
        self._slots = threading.BoundedSemaphore(max(1, size))
        self._readers = threading.BoundedSemaphore(max(1, readers))
        self._large_readers = threading.BoundedSemaphore(LARGE_READERS)

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        if has_body(environ):
            try:
                self._receive(environ)
            except Refused as refusal:
                return refusal_answer(environ, start_response, refusal)
        with self._slots:
            environ[WORK_SLOT] = self._slots
            return self.wsgi(environ, start_response)

    def _receive(self, environ: dict[str, Any]) -> None:
        """Read the body into memory, on this thread, within the limits; :class:`Refused`."""
        length = declared_length(environ)
        limit = self.limit_of(environ) if self.limit_of is not None else self.max_length
        if length is not None and limit is not None and length > limit:
            return  # the app refuses it (413) without reading it
        large = self.max_length is not None and (length or limit or 0) > self.max_length
        with _one_of(self._readers), _one_of(self._large_readers if large else None):
            body = read_body(environ, limit, self.deadline_of(length, limit))
        environ["wsgi.input"] = io.BytesIO(body)
        environ["CONTENT_LENGTH"] = str(len(body))
        environ.pop("HTTP_TRANSFER_ENCODING", None)  # the body is whole now, of that length

    def deadline_of(self, length: int | None, limit: int | None) -> float:
        """Seconds the whole body may take: ``BODY_TIMEOUT``, and for a body past
        ``MAX_CONTENT_LENGTH`` (its declared length, or its route's limit when chunked)
        the time its extra bytes take at :data:`UPLOAD_RATE_MIN`.

        >>> BodyFirst(None, 1, 10, 256 * 1024).deadline_of(1024 * 1024 + 256 * 1024, None)
        18.0
        """
        expected = length if length is not None else limit
        if expected is None or self.max_length is None or expected <= self.max_length:
            return self.body_timeout
        return self.body_timeout + (expected - self.max_length) / UPLOAD_RATE_MIN


@contextlib.contextmanager
def _one_of(readers: threading.BoundedSemaphore | None) -> Iterator[None]:
    """Hold one of ``readers`` while the body is read; 503 at once when none is free."""
    if readers is not None and not readers.acquire(blocking=False):
        raise Refused(
            "503 Service Unavailable", TOO_MANY_BODIES, [("Retry-After", str(BUSY_RETRY_SECONDS))]
        )
    try:
        yield
    finally:
        if readers is not None:
            readers.release()


WORK_SLOT = "scorekeeper.work_slot"
"""The environ key of the work slots a request holds one of (:class:`BodyFirst`)."""


@contextlib.contextmanager
def work_slot_lent() -> Iterator[None]:
    """Give this request's work slot back while it only waits (for a render process, say),
    and take one again before it goes on: a waiting request holds none of the slots
    the other tables' requests need. The request must hold no database connection
    meanwhile (the pool is sized for the slots): the caller closes its session first."""
    from flask import has_request_context, request

    slots = request.environ.get(WORK_SLOT) if has_request_context() else None
    if slots is None:  # not under BodyFirst (a test's app without it)
        yield
        return
    slots.release()
    try:
        yield
    finally:
        slots.acquire()


def has_body(environ: dict[str, Any]) -> bool:
    """Whether the request says it sends a body (a length above 0, or chunks)."""
    if "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower():
        return True
    return (declared_length(environ) or 0) > 0


def declared_length(environ: dict[str, Any]) -> int | None:
    """The body's ``Content-Length``, or None (chunked, or none given)."""
    raw = str(environ.get("CONTENT_LENGTH") or "").strip()
    return int(raw) if raw.isdigit() else None


def read_body(environ: dict[str, Any], limit: int | None, seconds: float) -> bytes:
    """The whole body, or its first ``limit + 1`` bytes if it is longer (the app then
    answers 413); :class:`Refused`: 408 when it does not arrive within ``seconds``, 400
    when the client stopped sending it."""
    sock: socket.socket | None = environ.get("gunicorn.socket")
    wanted = declared_length(environ)
    late = threading.Event()
    timer = _cut_reading_at(sock, seconds, late)
    previous = _set_timeout(sock, min(READ_IDLE_SECONDS, seconds))
    try:
        body = _read_up_to(environ["wsgi.input"], _cap(wanted, limit))
    except Exception as error:  # a read timed out, the reading side was cut, a bad chunk
        _stop_reading(sock)  # the rest is never read: the connection closes after the answer
        if late.is_set() or isinstance(error, TimeoutError):
            raise _slow(seconds) from error
        raise Refused("400 Bad Request", CUT_BODY) from error
    finally:
        if timer is not None:
            timer.cancel()
        _set_timeout(sock, previous)
    whole = (wanted is not None and len(body) >= wanted) or (
        limit is not None and len(body) > limit
    )
    if late.is_set() and not whole:  # cut at the deadline (chunks cannot tell: refused too)
        raise _slow(seconds)
    if wanted is not None and not whole:  # the client closed before its end
        raise Refused("400 Bad Request", CUT_BODY)
    return body


def _cap(wanted: int | None, limit: int | None) -> int | None:
    """How much of the body to read: its declared length, or one byte past the limit."""
    caps = [n for n in (wanted, None if limit is None else limit + 1) if n is not None]
    return min(caps) if caps else None


def _read_up_to(stream: Any, cap: int | None) -> bytes:
    """``stream`` read to its end, or to ``cap`` bytes."""
    chunks: list[bytes] = []
    size = 0
    while cap is None or size < cap:
        chunk = stream.read(READ_STEP if cap is None else min(READ_STEP, cap - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _slow(seconds: float) -> Refused:
    return Refused("408 Request Timeout", SLOW_BODY % {"seconds": f"{seconds:g}"})


def _cut_reading_at(
    sock: socket.socket | None, seconds: float, late: threading.Event
) -> threading.Timer | None:
    """A timer that ends the body's reads at its deadline: the blocked read returns at
    once, as at the end of the body, and ``late`` says why."""
    if sock is None:
        return None

    def cut() -> None:
        late.set()
        _stop_reading(sock)

    timer = threading.Timer(seconds, cut)
    timer.daemon = True
    timer.start()
    return timer


def _stop_reading(sock: socket.socket | None) -> None:
    """Shut the connection's reading side; the answer can still be written."""
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RD)


def _set_timeout(sock: socket.socket | None, seconds: float | None) -> float | None:
    """Set ``sock``'s timeout; the one it had."""
    if sock is None:
        return None
    previous = sock.gettimeout()
    with contextlib.suppress(OSError):
        sock.settimeout(seconds)
    return previous


def refusal_answer(
    environ: dict[str, Any], start_response: Callable[..., Any], refusal: Refused
) -> list[bytes]:
    """The refusal as the API's JSON error under ``/api/``, a short page elsewhere."""
    if str(environ.get("PATH_INFO", "")).startswith("/api/"):
        errors = [{"rule": None, "field": None, "message": refusal.message}]
        body = json.dumps({"ok": False, "errors": errors}).encode()
        kind = "application/json"
    else:
        title = html.escape(refusal.status.split(" ", 1)[1])
        page = (
            f'<!doctype html><html lang="en"><meta charset="utf-8"><title>{title}</title>'
            f"<h1>{title}</h1><p>{html.escape(refusal.message)}</p></html>"
        )
        body, kind = page.encode(), "text/html; charset=utf-8"
    headers = [
        ("Content-Type", kind),
        ("Content-Length", str(len(body))),
        ("Cache-Control", "no-store"),
        *SECURITY_HEADERS.items(),
        *refusal.headers,
    ]
    start_response(refusal.status, headers)
    return [body]


def readers_of(connections: int) -> int:
    """How many of ``connections`` threads may read bodies at once (at least 1).

    >>> readers_of(64)
    48
    """
    return max(1, int(connections * READERS_SHARE))


ROUTE_LIMITS = "scorekeeper.body_limits"
"""The app's ``extensions`` key of its routes' own body limits (endpoint: bytes)."""


def set_route_limit(app: Flask, endpoint: str, limit: int) -> None:
    """Let ``endpoint`` take bodies of up to ``limit`` bytes: read whole, within the
    deadline, before a work slot (the route sets ``request.max_content_length`` too)."""
    app.extensions.setdefault(ROUTE_LIMITS, {})[endpoint] = limit


def route_limit_of(app: Flask) -> LimitOf:
    """The body limit of a request, found by matching its path to the app's routes:
    its route's own (:func:`set_route_limit`), else ``MAX_CONTENT_LENGTH``."""
    default: int | None = app.config.get("MAX_CONTENT_LENGTH")

    def limit_of(environ: dict[str, Any]) -> int | None:
        limits: dict[str, int] = app.extensions.get(ROUTE_LIMITS, {})
        if not limits:
            return default
        try:
            endpoint, _args = app.url_map.bind_to_environ(environ).match(
                method=environ.get("REQUEST_METHOD")
            )
        except HTTPException:  # no such route, another method, a redirect: the app answers
            return default
        return limits.get(str(endpoint), default)

    return limit_of


def init_app(app: Flask) -> None:
    """The body-first middleware around the whole app, with this worker's work slots;
    made in the master (preload) and free there, so each worker forks its own."""
    app.wsgi_app = BodyFirst(  # type: ignore[method-assign]
        app.wsgi_app,
        work_threads(),
        body_timeout=float(app.config.get("BODY_TIMEOUT", DEFAULT_BODY_TIMEOUT)),
        max_length=app.config.get("MAX_CONTENT_LENGTH"),
        readers=readers_of(int(app.config.get("CONNECTION_THREADS", DEFAULT_CONNECTION_THREADS))),
        limit_of=route_limit_of(app),
    )
