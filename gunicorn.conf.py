"""gunicorn settings for production: ``gunicorn -c gunicorn.conf.py wsgi:app``.

Everything can be overridden from the environment (or on the command line,
which wins over this file):

- ``GUNICORN_BIND`` (or ``HOST`` + ``PORT``): where to listen; default
  ``127.0.0.1:8000``, behind a reverse proxy that terminates HTTPS.
- ``WEB_CONCURRENCY``: worker processes; default ``2 × cores + 1``, at most 8.
- ``GUNICORN_THREADS``: requests a worker runs at once, its *work slots* (default
  4); ``GUNICORN_TIMEOUT`` (default 30 s).
- ``LIVE_STREAMS``: event streams per worker (default 300; 0: pages poll instead),
  each on a thread of its own added to the request threads.
- ``CONNECTION_THREADS``: threads per worker for connections that wait on the
  network (default 64): a request's head and body arrive there, holding no work
  slot (:mod:`scorekeeper.web.server.bodies`).
- ``BODY_TIMEOUT``: seconds a request's head, and then its body, may take to
  arrive (default 10); a late body is answered 408, a late head is cut off.
- ``GUNICORN_ACCESS_LOG``: a file, ``-`` (stdout, the default) or empty (off). No
  line ever holds an edit token: query strings are left out, and the edit link's
  path is logged as ``/games/<id>/join/…`` (:class:`RedactingLogger`).
- ``GUNICORN_CONTROL_SOCKET``: a path for ``gunicornc`` (default: none).
- ``FORWARDED_ALLOW_IPS``: proxies whose ``X-Forwarded-*`` headers gunicorn
  trusts (default ``127.0.0.1``); see also the app's ``TRUSTED_PROXIES``.
- ``GUNICORN_CERTFILE`` and ``GUNICORN_KEYFILE``: a certificate (PEM, its chain
  after it) and its private key, to serve HTTPS without a proxy (default: plain
  HTTP). Phones keep games offline, install the app and hold the screen awake
  only on a secure context: HTTPS, or the phone's own ``localhost``.

The app is loaded once in the master (``preload_app``) and forked, which
saves memory and fails fast on a configuration error; database connections
are never shared across the fork (:func:`post_fork`). A worker dies the
moment its master does (Linux's parent-death signal, :func:`post_fork`), and
its PDF and claim processes within half a second of it: a killed master
leaves nothing running, holding the port or a CPU.

gunicorn's own limits say what the app says:

- a request's head: its line at most 4,094 bytes (``limit_request_line``; every
  address the app makes is far shorter), at most 100 header fields of at most
  8,190 bytes each (gunicorn's defaults, written out so that they stay);
- its head and its body each within ``BODY_TIMEOUT`` (the worker class
  :class:`scorekeeper.web.server.gthread.ThreadWorker` times the head, the app the
  body); its body at most ``MAX_CONTENT_LENGTH`` (256 KiB, a 413 past it), but for
  the backups' imports and a circle's restore, whose limits follow from the largest
  game and circle the app holds (``scorekeeper.web.server.bodies``);
- a kept-alive connection idle at most ``keepalive`` (5 s); a new one that
  sends nothing waits 5 s on a thread, then without one until ``keepalive``.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import re
from typing import Any

from gunicorn.glogging import Logger

MAX_WORKERS = 8
TOKEN_IN_PATH = re.compile(r"(/(?:join|direct)/)[^/?#\s\"]+")
"""The edit link ``/games/<id>/join/<token>`` and a club night's director link
``/events/<id>/direct/<token>``: the part after ``/join/`` or ``/direct/`` is the token."""


def redact(text: str) -> str:
    """``text`` with every edit link's token cut out: ``/games/abc/join/…``."""
    return TOKEN_IN_PATH.sub(r"\1…", text)


class RedactingLogger(Logger):  # type: ignore[misc]
    """gunicorn's logger, with edit tokens cut out of every access-log atom (the path, the
    request line, the Referer and any other header a format may name): whoever reads
    the logs must not be able to edit the games in them."""

    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        found: dict[str, Any] = super().atoms(resp, req, environ, request_time)
        return {key: redact(v) if isinstance(v, str) else v for key, v in found.items()}


def _int_env(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    return int(raw) if raw.isdigit() and int(raw) > 0 else default


def default_workers() -> int:
    """``2 × cores + 1``, capped: each worker holds its own database pool."""
    return min(2 * multiprocessing.cpu_count() + 1, MAX_WORKERS)


bind = os.environ.get("GUNICORN_BIND") or (
    f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
)
workers = _int_env("WEB_CONCURRENCY", default_workers())
certfile = os.environ.get("GUNICORN_CERTFILE") or None
keyfile = os.environ.get("GUNICORN_KEYFILE") or None
# gthread, with a deadline for each request's head (slowloris).
worker_class = "scorekeeper.web.server.gthread.ThreadWorker"


def stream_threads() -> int:
    """Threads each worker keeps for live pages' event streams, on top of its request
    threads (``LIVE_STREAMS``, 0 for none): a waiting stream holds a thread, no CPU."""
    from scorekeeper.web.live.streams import streams_per_worker

    return streams_per_worker()


def connection_threads() -> int:
    """Threads each worker keeps for connections whose head or body is on its way
    (``CONNECTION_THREADS``): a waiting connection holds a thread, no work slot."""
    from scorekeeper.web.server.bodies import connection_threads

    return connection_threads()


threads = _int_env("GUNICORN_THREADS", 4) + stream_threads() + connection_threads()
timeout = _int_env("GUNICORN_TIMEOUT", 30)
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190
graceful_timeout = 30
keepalive = 5
# Recycle workers now and then (with jitter, so they do not all restart at once).
max_requests = 5000
max_requests_jitter = 500
preload_app = True
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")

accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-") or None  # "" turns it off
logger_class = RedactingLogger
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
# The path without its query string (%(U)s): links may carry tokens there; the edit
# link's token, in its path, is cut out by RedactingLogger.
# %(M)s is the request's duration in milliseconds.
access_log_format = '%(h)s "%(m)s %(U)s %(H)s" %(s)s %(B)s %(M)sms "%(a)s"'
proc_name = "scorekeeper"
# gunicornc's control socket: off unless GUNICORN_CONTROL_SOCKET names one (every
# instance would otherwise share $HOME/.gunicorn/gunicorn.ctl).
control_socket = os.environ.get("GUNICORN_CONTROL_SOCKET", "")
control_socket_disable = not control_socket


def stop_at_once_while_booting() -> None:
    """A worker that is told to stop before it has its own handlers ends at once.

    Until then it has the master's, which only queue a signal for a master that is not
    there: such a stop was lost, and the master waited ``graceful_timeout`` for the
    worker. It has served nothing yet, so TERM and INT may end it outright.
    """
    import signal

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, signal.SIG_DFL)


def post_fork(server: Any, worker: Any) -> None:
    """Each worker dies with its master, opens its own database connections (none
    inherited from the master) and starts its own PDF render process, which warms up
    while the worker serves.

    Without the parent-death signal a worker whose master was killed noticed it
    within a second, but then stopped gracefully: up to ``graceful_timeout`` while
    its streams ran on, its children searching and the port held.
    """
    from scorekeeper.extensions import db
    from scorekeeper.web.paper.renderer import RENDERER
    from scorekeeper.web.server.workers import die_with_parent

    stop_at_once_while_booting()
    die_with_parent(worker.ppid)

    app = worker.app.wsgi()  # loaded once in the master (preload_app)
    with app.app_context():
        for engine in db.engines.values():
            engine.dispose(close=False)
    if app.config.get("PDF_PREWARM", True):
        RENDERER.prewarm()


def post_worker_init(worker: Any) -> None:
    """A worker told to stop (SIGTERM) ends its event streams at once, so that it stops
    within moments instead of waiting for each stream's end; browsers reconnect."""
    import signal

    from scorekeeper.web.live.streams import close_streams

    stop = worker.handle_exit

    def handle_exit(sig: int, frame: Any) -> None:
        close_streams()
        stop(sig, frame)

    signal.signal(signal.SIGTERM, handle_exit)


def worker_exit(server: Any, worker: Any) -> None:
    """A stopping worker ends its process at once, with the exit status gunicorn gave it.

    Its state dies with it (every commit is already durable: the crash tests kill
    workers outright), so finalizing the interpreter would only free, page by page,
    the heap it shares with the master, copying each page first; on a busy machine
    that kept stopped workers alive for seconds, and the master waiting for them.
    """
    import logging
    import sys

    raised = sys.exc_info()[1]  # gunicorn calls this while its SystemExit unwinds
    code = raised.code if isinstance(raised, SystemExit) else 1
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code if isinstance(code, int) else 1)


def when_ready(server: Any) -> None:
    """Before the first fork: compile the templates and load the languages once in the
    master, so that no worker spends its first requests on it (:mod:`scorekeeper.web.server.warm`),
    then freeze the master's heap out of the garbage collector's sight (:func:`gc.freeze`)."""
    if server.cfg.preload_app:
        from scorekeeper.web.server.warm import warm_up

        server.log.info("Warmed up: %d templates compiled", warm_up(server.app.wsgi()))
    # Everything loaded so far lives as long as the server: keep it out of the collector.
    # Otherwise each worker's collections, above all the last one at its exit, walk the
    # whole inherited heap and copy every page of it (copy-on-write): five workers on two
    # cores took 30 s to exit after SIGTERM, and the master waited for them.
    gc.collect()
    gc.freeze()
