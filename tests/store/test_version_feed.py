"""PostgreSQL's version notices: an unchanged poll needs no query, and none is trusted blindly.

The feed (scorekeeper/store/version_feed.py) keeps each process told of every
game's and event's version by ``LISTEN``; these tests drive it against a real
PostgreSQL server and count the reads it still makes.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest
from flask import Flask
from sqlalchemy import update

from scorekeeper.extensions import db
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import games as services
from scorekeeper.store import models
from scorekeeper.store.version_feed import VersionFeed, feed_for
from scorekeeper.store.versions import current_version
from tests.conftest import postgres_schema_app

PLAYERS = ["Rana", "Sami", "Omar", "Lina"]


@pytest.fixture
def pg_app(make_app: Callable[..., Flask], test_database_url: str) -> Iterator[Flask]:
    with postgres_schema_app(make_app, test_database_url) as app:
        yield app


@pytest.fixture
def started() -> Iterator[Callable[[], VersionFeed]]:
    """Feeds on this test's engine, stopped afterwards (their connections closed)."""
    feeds: list[VersionFeed] = []

    def start() -> VersionFeed:
        feeds.append(VersionFeed(db.engine))
        return listening(feeds[-1])

    yield start
    for feed in feeds:
        feed.stop()


def listening(feed: VersionFeed) -> VersionFeed:
    deadline = time.monotonic() + 10
    while not feed._listening:
        assert time.monotonic() < deadline, "the feed never started listening"
        time.sleep(0.01)
    return feed


def eventually(check: Callable[[], bool]) -> None:
    deadline = time.monotonic() + 5
    while not check():
        assert time.monotonic() < deadline
        time.sleep(0.01)


class Reads:
    """A stand-in for the database read that counts its calls."""

    def __init__(self, engine, game_id: str) -> None:
        self.engine, self.game_id, self.count = engine, game_id, 0

    def __call__(self) -> int | None:
        self.count += 1
        with self.engine.connect() as conn:
            found = conn.execute(
                models.Game.__table__.select().where(models.Game.id == self.game_id)
            ).first()
        return None if found is None else int(found.version)


def set_version(game_id: str, version: int) -> None:
    with db.engine.begin() as conn:
        conn.execute(update(models.Game).where(models.Game.id == game_id).values(version=version))


def test_an_unchanged_game_is_answered_from_notices_without_a_query(pg_app: Flask, started) -> None:
    loaded, _token = services.create_game(PLAYERS, 0, RuleSet())
    feed = started()
    reads = Reads(db.engine, loaded.id)
    assert feed.version("game", loaded.id, reads) == loaded.version
    for _ in range(20):
        assert feed.version("game", loaded.id, reads) == loaded.version
    assert reads.count == 1  # read once, then told


def test_a_version_changed_by_another_connection_reaches_the_feed(pg_app: Flask, started) -> None:
    loaded, _token = services.create_game(PLAYERS, 0, RuleSet())
    feed = started()
    reads = Reads(db.engine, loaded.id)
    feed.version("game", loaded.id, reads)
    set_version(loaded.id, loaded.version + 3)  # another process's write, as far as it knows
    eventually(lambda: feed.version("game", loaded.id, reads) == loaded.version + 3)
    assert reads.count == 1


def test_a_deleted_game_is_forgotten(pg_app: Flask, started) -> None:
    loaded, _token = services.create_game(PLAYERS, 0, RuleSet())
    feed = started()
    reads = Reads(db.engine, loaded.id)
    feed.version("game", loaded.id, reads)
    with db.engine.begin() as conn:
        conn.execute(models.Seat.__table__.delete().where(models.Seat.game_id == loaded.id))
        conn.execute(models.Game.__table__.delete().where(models.Game.id == loaded.id))
    eventually(lambda: feed.version("game", loaded.id, reads) is None)


def test_versions_only_grow_a_late_read_never_hides_a_newer_notice(pg_app: Flask, started) -> None:
    feed = started()
    feed.heard("game abc 7")
    feed._versions.pop(("game", "abc"))
    assert feed.version("game", "abc", lambda: 5) == 5
    feed.heard("game abc 7")
    assert feed.version("game", "abc", lambda: 5) == 7
    feed.heard("game abc 6")  # an older notice, delivered late
    assert feed.version("game", "abc", lambda: 5) == 7


def test_while_not_listening_every_poll_reads_the_database(pg_app: Flask, started) -> None:
    loaded, _token = services.create_game(PLAYERS, 0, RuleSet())
    feed = started()
    feed._set_listening(False)  # as when its connection is lost
    reads = Reads(db.engine, loaded.id)
    for _ in range(3):
        assert feed.version("game", loaded.id, reads) == loaded.version
    assert reads.count == 3


def test_the_polls_path_uses_the_feed_on_postgresql(pg_app: Flask) -> None:
    loaded, _token = services.create_game(PLAYERS, 0, RuleSet())
    feed = feed_for(db.engine)
    assert feed is not None and feed is feed_for(db.engine)  # one a process
    assert current_version(db.engine, "game", loaded.id) == loaded.version


def test_sqlite_has_no_feed_a_poll_reads_the_database(app: Flask) -> None:
    loaded, _token = services.create_game(PLAYERS, 0, RuleSet())
    assert feed_for(db.engine) is None
    assert current_version(db.engine, "game", loaded.id) == loaded.version


def test_disposing_of_the_engine_stops_its_feed(pg_app: Flask) -> None:
    feed = listening(feed_for(db.engine))
    db.engine.dispose()
    eventually(lambda: not feed._thread.is_alive())
    assert feed_for(db.engine) is not feed  # a new one, for the engine's new connections
    feed_for(db.engine).stop()
