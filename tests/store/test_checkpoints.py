"""SQLite's checkpoints (scorekeeper/store/checkpoints.py): never inside a request's commit,
and the log is still copied back, by a thread of the process."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from flask import Flask
from sqlalchemy import text

from scorekeeper.extensions import db
from scorekeeper.store.checkpoints import CHECKPOINT_EVERY, checkpointer_for


def test_a_commit_never_checkpoints_and_the_thread_copies_the_log_back(
    make_app: Callable[..., Flask], tmp_path: Path
) -> None:
    app = make_app(SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'game.sqlite'}")
    with app.app_context():
        db.create_all()
        with db.engine.begin() as connection:
            assert connection.execute(text("PRAGMA wal_autocheckpoint")).scalar() == 0
            connection.execute(text("CREATE TABLE filler (x BLOB)"))
        for _ in range(30):  # past SQLite's 1,000 pages, where a commit would checkpoint
            with db.engine.begin() as connection:
                connection.execute(text("INSERT INTO filler VALUES (randomblob(200000))"))
        wal = tmp_path / "game.sqlite-wal"
        assert wal.stat().st_size > 4_000_000  # no commit copied the log back
        checkpointer = checkpointer_for(db.engine)
        deadline = time.monotonic() + 20 * CHECKPOINT_EVERY
        while time.monotonic() < deadline:  # the thread's own checkpoints, every second
            last = checkpointer.last
            if last is not None and last[1] > 1000 and last[2] == last[1]:
                break
            time.sleep(CHECKPOINT_EVERY / 10)
        assert last is not None and last[1] > 1000 and last[2] == last[1], last
