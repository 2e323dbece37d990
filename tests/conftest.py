"""Shared fixtures: an app on in-memory SQLite, its client, and a browser."""

from __future__ import annotations

import os
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import text

from scorekeeper import create_app
from scorekeeper.extensions import db

TEST_CONFIG = {
    "TESTING": True,
    "SQLALCHEMY_DATABASE_URI": "sqlite://",
    "WTF_CSRF_ENABLED": False,
    "SECRET_KEY": "test-secret",
}


def skip_or_fail(reason: str) -> None:
    """Skip locally; under CI (CI=true) a missing prerequisite is a failure."""
    if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
        pytest.fail(f"{reason} (required under CI)")
    pytest.skip(reason)


@pytest.fixture
def test_database_url() -> str:
    """TEST_DATABASE_URL (a PostgreSQL server, started by scripts/test.sh)."""
    url = os.environ.get("TEST_DATABASE_URL", "")
    if not url:
        skip_or_fail("TEST_DATABASE_URL is not set (scripts/test.sh sets it)")
    return url


@contextmanager
def postgres_schema_app(
    make_app: Callable[..., Flask], url: str, *, tables: bool = True
) -> Iterator[Flask]:
    """An app on PostgreSQL in a fresh schema (dropped afterwards), inside its app context.

    ``tables`` creates the app's tables; without it the schema stays empty (migrations).
    """
    schema = f"test_{uuid.uuid4().hex[:12]}"
    options = {"connect_args": {"options": f"-csearch_path={schema}"}}
    app = make_app(SQLALCHEMY_DATABASE_URI=url, SQLALCHEMY_ENGINE_OPTIONS=options)
    with app.app_context():
        with db.engine.begin() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        if tables:
            db.create_all()
        try:
            yield app
        finally:
            db.session.remove()
            with db.engine.begin() as conn:
                conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
            db.engine.dispose()


@pytest.fixture
def make_app() -> Callable[..., Flask]:
    """``make_app(**overrides)``: a test app with extra settings."""

    def make(**overrides: Any) -> Flask:
        return create_app({**TEST_CONFIG, **overrides})

    return make


@contextmanager
def tables_of(app: Flask) -> Iterator[Flask]:
    """``app`` in its app context with its tables, dropped afterwards."""
    with app.app_context():
        db.create_all()
        yield app
        db.session.remove()
        db.drop_all()


@pytest.fixture
def app(make_app: Callable[..., Flask]) -> Iterator[Flask]:
    with tables_of(make_app()) as app:
        yield app


@pytest.fixture
def csrf_app(make_app: Callable[..., Flask]) -> Iterator[Flask]:
    """The test app with CSRF protection on, as in production (the tests' default is off)."""
    with tables_of(make_app(WTF_CSRF_ENABLED=True)) as app:
        yield app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def live_server(app: Flask) -> Iterator[str]:
    """Serve ``app`` on a free loopback port in a thread; yields its base URL."""
    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=5)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_app(
    request: pytest.FixtureRequest, make_app: Callable[..., Flask], tmp_path: Path
) -> Iterator[Flask]:
    """An app with the tables created, on a SQLite file or in a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        app = make_app(SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'app.sqlite'}")
        with app.app_context():
            db.create_all()
            yield app
            db.session.remove()
            db.engine.dispose()
        return
    url = request.getfixturevalue("test_database_url")
    with postgres_schema_app(make_app, url) as app:
        yield app
