"""gunicorn.conf.py: sensible production defaults, each overridable from the environment."""

from __future__ import annotations

import multiprocessing
import runpy
from pathlib import Path
from typing import Any

import pytest

CONF = Path(__file__).resolve().parents[2] / "gunicorn.conf.py"
VARIABLES = (
    "GUNICORN_BIND",
    "HOST",
    "PORT",
    "WEB_CONCURRENCY",
    "GUNICORN_THREADS",
    "LIVE_STREAMS",
    "CONNECTION_THREADS",
    "GUNICORN_TIMEOUT",
    "GUNICORN_ACCESS_LOG",
    "GUNICORN_CONTROL_SOCKET",
)


def settings(monkeypatch: pytest.MonkeyPatch, **env: str) -> dict[str, Any]:
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(CONF))


def test_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    conf = settings(monkeypatch)
    assert conf["workers"] == min(2 * multiprocessing.cpu_count() + 1, 8)
    # 4 work threads, 300 for event streams and 64 for connections on their way
    worker = "scorekeeper.web.server.gthread.ThreadWorker"  # gthread, with a deadline for heads
    assert (conf["worker_class"], conf["threads"], conf["timeout"]) == (worker, 368, 30)
    assert (conf["limit_request_line"], conf["limit_request_fields"]) == (4094, 100)
    assert conf["bind"] == "127.0.0.1:8000" and conf["preload_app"] is True
    assert conf["accesslog"] == "-" and "%(U)s" in conf["access_log_format"]
    assert "%(r)s" not in conf["access_log_format"]  # no query strings (tokens) in logs
    assert conf["control_socket_disable"] is True


def test_environment_overrides(monkeypatch: pytest.MonkeyPatch) -> None:
    conf = settings(
        monkeypatch,
        HOST="0.0.0.0",
        PORT="9000",
        WEB_CONCURRENCY="3",
        GUNICORN_THREADS="8",
        GUNICORN_ACCESS_LOG="",
    )
    assert conf["bind"] == "0.0.0.0:9000"
    assert (conf["workers"], conf["threads"], conf["accesslog"]) == (3, 372, None)
    quiet = settings(monkeypatch, GUNICORN_THREADS="8", LIVE_STREAMS="0", CONNECTION_THREADS="8")
    assert quiet["threads"] == 16
    assert settings(monkeypatch, GUNICORN_BIND="unix:/run/sk.sock")["bind"] == "unix:/run/sk.sock"
    assert settings(monkeypatch, WEB_CONCURRENCY="lots")["workers"] >= 1  # ignored, default


def test_the_access_log_never_holds_an_edit_token(monkeypatch: pytest.MonkeyPatch) -> None:
    """The edit link's path is logged without its token (the path, the request line, the
    Referer: every atom a format may name)."""
    from datetime import timedelta
    from types import SimpleNamespace

    from gunicorn.config import Config

    conf = settings(monkeypatch)
    logger = conf["logger_class"](Config())
    token = "Zq3vJ8sLr0aYx5bPqN2kT7wMc1dHf4gE6uIo9pA_Bx"
    path = f"/games/abcDEF123456/join/{token}"
    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": path,
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_REFERER": f"https://example.org{path}",
    }
    request = SimpleNamespace(headers=[("REFERER", f"https://example.org{path}")])
    response = SimpleNamespace(status="200 OK", sent=10, headers=[])
    atoms = logger.atoms(response, request, environ, timedelta(milliseconds=5))
    assert token not in repr(atoms)
    assert atoms["U"] == "/games/abcDEF123456/join/…"
    assert conf["redact"]("/games/x/join/t/confirm?a=1") == "/games/x/join/…/confirm?a=1"


def _booting_worker(conf: str) -> None:
    """A worker as forked: the master's handler, which only queues a TERM, then post_fork's
    first step; a TERM must then end it."""
    import os
    import signal
    import time

    signal.signal(signal.SIGTERM, lambda sig, frame: None)
    runpy.run_path(conf)["stop_at_once_while_booting"]()
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(60)  # what is left of booting: a TERM lost here is a minute's wait


def test_a_worker_told_to_stop_while_it_boots_stops_at_once() -> None:
    import signal

    child = multiprocessing.get_context("fork").Process(target=_booting_worker, args=(str(CONF),))
    child.start()
    child.join(timeout=30)
    if child.is_alive():
        child.kill()
    assert child.exitcode == -signal.SIGTERM
