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
    assert (conf["worker_class"], conf["threads"], conf["timeout"]) == ("gthread", 4, 30)
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
    assert (conf["workers"], conf["threads"], conf["accesslog"]) == (3, 8, None)
    assert settings(monkeypatch, GUNICORN_BIND="unix:/run/sk.sock")["bind"] == "unix:/run/sk.sock"
    assert settings(monkeypatch, WEB_CONCURRENCY="lots")["workers"] >= 1  # ignored, default
