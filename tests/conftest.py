"""Shared fixtures and the run's set-up: an app on in-memory SQLite, its client, and a browser.

The set-up (``pytest_configure``):

- **A temporary folder per pytest process.** Each process, and so each xdist
  worker, points ``TMPDIR`` at a folder of its own, removed at the end. The
  PDF and claim slots and the servers' sockets live under it, so parallel
  workers never share a slot.
- **Hypothesis profiles.** ``HYPOTHESIS_PROFILE=dev`` (the default off CI) runs
  a few random examples per property, for a quick loop; ``ci`` (the default
  under ``CI=true``) runs the full counts, derandomized, so that a landing
  never fails on a draw no one can replay. Tests size their own counts with
  :func:`tests.common.examples`.
- **Markers that cannot be forgotten.** A test that asks for a served app or a
  browser must carry the marker (``served``, ``browser``), or the run stops;
  the claim search's tests are marked ``solver`` by where they live. The quick
  tier (``scripts/test.sh --quick``) leaves all three out by their markers.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, settings
from sqlalchemy import text

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.store.cache import LRUCache
from tests.common import HYPOTHESIS_PROFILE, on_ci

TEST_CONFIG = {
    "TESTING": True,
    "SQLALCHEMY_DATABASE_URI": "sqlite://",
    "WTF_CSRF_ENABLED": False,
    "SECRET_KEY": "test-secret",
}


settings.register_profile(
    "ci",
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "dev", deadline=None, print_blob=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(HYPOTHESIS_PROFILE)

MARKER_OF_FIXTURE = {"serve": "served", "browser": "browser"}
"""A test that uses one of these fixtures must carry its marker."""
SOLVER_TESTS = (
    "tests/rules/claims/",
    "tests/web/disputes/test_claim_exact.py",
    "tests/web/disputes/test_claim_progress.py",
    "tests/web/disputes/test_pool.py",
)
"""Where the claim search's tests live, its own and those that run it in solver processes
with long waits: each is marked ``solver``."""


def pytest_configure(config: pytest.Config) -> None:
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-tests-"))
    os.environ["TMPDIR"] = str(folder)
    tempfile.tempdir = None  # gettempdir() reads TMPDIR again
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid.startswith(SOLVER_TESTS):
            item.add_marker(pytest.mark.solver)
    unmarked = [
        f"{item.nodeid} uses the {fixture!r} fixture but is not marked {marker!r}"
        for item in items
        for fixture, marker in MARKER_OF_FIXTURE.items()
        if fixture in getattr(item, "fixturenames", ()) and not item.get_closest_marker(marker)
    ]
    if unmarked:
        raise pytest.UsageError("\n".join(unmarked))


def skip_or_fail(reason: str) -> None:
    """Skip locally; under CI (CI=true) a missing prerequisite is a failure."""
    if on_ci():
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


@dataclass
class SharedApp:
    """The run's one default app, and what it was like before any test touched it."""

    app: Flask
    config: dict[str, Any]
    extensions: frozenset[str]

    def empty(self) -> None:
        """Back to as it was made: no rows, no cached pages, replays or limits, the same
        settings. A test that changed a setting leaves nothing behind for the next."""
        db.session.remove()
        with db.engine.begin() as conn:
            for table in reversed(db.metadata.sorted_tables):
                conn.execute(table.delete())
        for name, value in list(self.app.extensions.items()):
            if isinstance(value, LRUCache):
                value.clear()
            elif name not in self.extensions:  # made on first use: made again
                del self.app.extensions[name]
        limiter = self.app.extensions["scorekeeper_limiter"]
        if limiter.enabled:  # a limiter turned off has no counts to forget
            limiter.reset()
        if self.app.config != self.config:
            self.app.config.clear()
            self.app.config.update(self.config)


@pytest.fixture(scope="session")
def shared_app() -> SharedApp:
    """One app on in-memory SQLite for the whole run (each xdist worker has its own):
    building an app compiles every URL rule, which costs more than most tests."""
    app = create_app(dict(TEST_CONFIG))
    with app.app_context():
        db.create_all()
    return SharedApp(app, dict(app.config), frozenset(app.extensions))


@pytest.fixture
def app(shared_app: SharedApp) -> Iterator[Flask]:
    """The default app, in its app context, emptied after the test."""
    with shared_app.app.app_context():
        try:
            yield shared_app.app
        finally:
            shared_app.empty()


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
