"""Versions read straight from the engine, for answers decided before the app runs.

A phone or a board that polls with ``If-None-Match`` is answered 304 while the
version holds (:mod:`scorekeeper.web.live.unchanged`): one indexed lookup on a
pooled connection, outside any session or request context, or on PostgreSQL
no lookup at all while the database's notices keep this process told
(:mod:`scorekeeper.store.version_feed`). Every change to a game or an event
bumps its version in the database, so any process (any server sharing the
database) answers the same.
"""

from __future__ import annotations

from sqlalchemy import bindparam, select
from sqlalchemy.engine import Engine

from scorekeeper.store import models
from scorekeeper.store.events import models as em
from scorekeeper.store.tokens import is_game_id
from scorekeeper.store.version_feed import feed_for

STATEMENTS = {
    "game": select(models.Game.version).where(models.Game.id == bindparam("id")),
    "event": select(em.Event.version).where(em.Event.id == bindparam("id")),
}


def current_version(engine: Engine, kind: str, ident: str) -> int | None:
    """The version of the game or event ``ident`` (``kind``: ``game``/``event``), or None."""
    if not is_game_id(ident):
        return None
    feed = feed_for(engine)
    if feed is None:
        return _read(engine, kind, ident)
    return feed.version(kind, ident, lambda: _read(engine, kind, ident))


def _read(engine: Engine, kind: str, ident: str) -> int | None:
    autocommit = {"isolation_level": "AUTOCOMMIT"} if engine.dialect.name == "postgresql" else {}
    with engine.connect().execution_options(**autocommit) as conn:
        version = conn.execute(STATEMENTS[kind], {"id": ident}).scalar_one_or_none()
    return None if version is None else int(version)
