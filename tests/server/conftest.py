"""A real server for the tests: the app under gunicorn (gunicorn.conf.py) on loopback.

``serve(database_url)`` starts the app under gunicorn on a free 127.0.0.1 port
(tests/server/serving.py) and stops it after the test. ``sqlite_url`` and
``postgres_url`` give each test a fresh database with the schema created.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.serving import Server, create_schema, fresh_database, start_server


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'server.sqlite'}"
    create_schema(url)
    return url


@pytest.fixture
def postgres_url(test_database_url: str) -> Iterator[str]:
    """A fresh PostgreSQL database (dropped afterwards) on the test server."""
    with fresh_database(test_database_url) as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest) -> str:
    """Each test twice: on a SQLite file and on PostgreSQL."""
    name = "sqlite_url" if request.param == "sqlite" else "postgres_url"
    return str(request.getfixturevalue(name))


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """``serve(database_url, workers=3)``: a running server, stopped after the test."""
    servers: list[Server] = []

    def start(database_url: str, **options: Any) -> Server:
        server = start_server(database_url, tmp_path / f"gunicorn-{len(servers)}.log", **options)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()
