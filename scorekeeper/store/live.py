"""Live updates: a game's version without replaying it, and what its last write did.

Phones showing a game poll ``GET /games/<id>/version`` (and API clients
``GET /api/v1/games/<id>``) with ``If-None-Match``. An unchanged game is
answered from the ``version`` column alone (:func:`game_version`, one
indexed lookup, no replay), so polling every 1.5 s costs a 304 and almost
nothing on the server. Only when the version moved is the last revision
read, so that the page can say in words what changed (:func:`live_state`).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from scorekeeper.store import models
from scorekeeper.store.snapshot import Change, GameNotFound
from scorekeeper.store.tokens import is_game_id
from scorekeeper.store.transactions import reader


@dataclass(frozen=True)
class LiveState:
    """What a polling phone needs: the version, and the last change (to be said in words)."""

    version: int
    deals_played: int
    finished: bool
    names: list[str]
    change: Change | None


def game_version(game_id: str) -> int:
    """The game's version (its ETag), read from its row alone; :class:`GameNotFound`."""
    if not is_game_id(game_id):
        raise GameNotFound(game_id)
    with reader() as read:
        version = read.scalar(select(models.Game.version).where(models.Game.id == game_id))
    if version is None:
        raise GameNotFound(game_id)
    return int(version)


def live_state(game_id: str) -> LiveState:
    """The version, the cached summary and the last change, without replaying the log."""
    if not is_game_id(game_id):
        raise GameNotFound(game_id)
    with reader() as read:
        row = read.execute(
            select(models.Game.version, models.Game.summary, models.Game.finished).where(
                models.Game.id == game_id
            )
        ).first()
        if row is None:
            raise GameNotFound(game_id)
        names = list(
            read.scalars(
                select(models.Seat.name)
                .where(models.Seat.game_id == game_id)
                .order_by(models.Seat.seat)
            )
        )
        last = read.execute(
            select(models.Revision.action, models.Revision.before, models.Revision.after)
            .where(models.Revision.game_id == game_id)
            .order_by(models.Revision.version.desc())
            .limit(1)
        ).first()
    version, summary, finished = row
    change = None if last is None else Change(*last)
    deals = int((summary or {}).get("deals_played", 0))
    return LiveState(version, deals, bool(finished), names, change)
