"""Waiting for a version to move (scorekeeper/store/version_watch.py), on SQLite and on
PostgreSQL: a write through another connection wakes the wait for its game only; a
wait that hears nothing ends with the version it had; a deleted game and a closing
watch end the wait."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
from flask import Flask
from sqlalchemy import update

from scorekeeper.extensions import db
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import games as services
from scorekeeper.store import models
from scorekeeper.store.version_watch import (
    BUSY_SECONDS,
    FALLBACK_EVERY,
    SQLITE_BUSY_EVERY,
    SQLITE_EVERY,
    VersionWatch,
    pace,
    watch_for,
)

PLAYERS = ["Rana", "Sami", "Omar", "Lina"]


@pytest.fixture
def watch(db_app: Flask) -> Iterator[VersionWatch]:
    with db_app.app_context():
        yield watch_for(db.engine)


def new_game() -> tuple[str, int]:
    loaded, _token = services.create_game(PLAYERS, 0, RuleSet())
    return loaded.id, loaded.version


def set_version_later(game_id: str, version: int, after: float) -> threading.Thread:
    """Another connection's write, ``after`` seconds from now."""
    engine = db.engine

    def write() -> None:
        time.sleep(after)
        with engine.begin() as conn:
            values = {"version": version}
            conn.execute(update(models.Game).where(models.Game.id == game_id).values(**values))

    thread = threading.Thread(target=write)
    thread.start()
    return thread


Waiter = tuple[threading.Thread, list[int | None]]


def wait_in_background(watch: VersionWatch, game_id: str, version: int) -> Waiter:
    """A wait of an hour in a thread of its own: only a change (or a bug) ends it."""
    answers: list[int | None] = []
    thread = threading.Thread(
        target=lambda: answers.append(watch.wait("game", game_id, version, timeout=3600)),
        daemon=True,
    )
    thread.start()
    return thread, answers


def test_a_write_on_another_connection_wakes_the_wait_at_once(watch: VersionWatch) -> None:
    game_id, version = new_game()
    writer = set_version_later(game_id, version + 1, after=0.3)
    waiter, answers = wait_in_background(watch, game_id, version)
    waiter.join(30)  # woken by the write, not by the hour's timeout
    assert answers == [version + 1]
    writer.join()


def test_a_write_to_another_game_does_not_end_the_wait(watch: VersionWatch) -> None:
    (followed, version), (other, other_version) = new_game(), new_game()
    waiter, answers = wait_in_background(watch, followed, version)
    set_version_later(other, other_version + 1, after=0.0).join()
    time.sleep(0.3)  # time enough for a wrong wake-up to show
    assert waiter.is_alive() and answers == []
    set_version_later(followed, version + 1, after=0.0).join()
    waiter.join(30)
    assert answers == [version + 1]


def test_a_wait_for_a_version_already_gone_by_answers_at_once(watch: VersionWatch) -> None:
    game_id, version = new_game()
    waiter, answers = wait_in_background(watch, game_id, version - 1)
    waiter.join(30)
    assert answers == [version]


def test_an_unknown_game_ends_the_wait(watch: VersionWatch) -> None:
    assert watch.wait("game", "nosuchgame123456", 1, timeout=10) is None


def test_closing_the_watch_ends_every_wait(watch: VersionWatch) -> None:
    game_id, version = new_game()
    answers: list[int | None] = []
    waiter = threading.Thread(
        target=lambda: answers.append(watch.wait("game", game_id, version, timeout=30))
    )
    waiter.start()
    time.sleep(0.2)
    watch.close()
    waiter.join(timeout=5)  # the wait's own timeout is 30 s
    assert answers == [None]
    assert watch.wait("game", game_id, version, timeout=30) is None  # and every later one


def test_sqlite_is_looked_at_twice_as_often_for_a_while_after_a_change() -> None:
    """While tables play, the next deal waits at most 5 ms for the look; a quiet server
    keeps looking every 10 ms, and PostgreSQL's notices need no look at all."""
    assert pace(True, 0.0) == pace(True, BUSY_SECONDS - 0.01) == SQLITE_BUSY_EVERY == 0.005
    assert pace(True, BUSY_SECONDS) == pace(True, 3600.0) == SQLITE_EVERY == 0.01
    assert pace(False, 0.0) == FALLBACK_EVERY
