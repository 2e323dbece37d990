"""What the paper of a club night reads beside its standings: the director's corrections
of its tables' deals, and the nights of a circle (for its season ladder).

A director's correction is a revision of a table's game written with
:data:`~scorekeeper.store.events.results.DIRECTOR_SOURCE` (the game's log keeps every
revision, so nothing more is stored for the paper): one query over the night's tables.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.store import models
from scorekeeper.store.events.results import DIRECTOR_SOURCE
from scorekeeper.store.events.services import EVENTS, TABLES, EventView, load_event
from scorekeeper.store.tokens import is_game_id

REVISIONS = models.Revision.__table__


@dataclass(frozen=True)
class DealSide:
    """A deal as one side of a correction shows it: its contracts and its four scores."""

    contracts: tuple[str, ...]
    scores: tuple[int, ...]

    @classmethod
    def of(cls, stored: Mapping[str, Any] | None) -> DealSide | None:
        if not stored or stored.get("kind", "deal") != "deal":
            return None
        contracts = tuple(str(c) for c in stored.get("contracts", ()))
        return cls(contracts, tuple(int(s) for s in stored.get("scores", ())))


@dataclass(frozen=True)
class Correction:
    """One write the director made to a table's game: where, which deal, what, when."""

    round: int
    table: int
    players: tuple[str, ...]
    n: int | None
    """The deal's number (None for a redeal)."""
    action: str
    """``edit`` (corrected), ``undo`` (taken back), ``record`` or ``redeal``."""
    at: datetime
    before: DealSide | None
    after: DealSide | None

    @property
    def changes(self) -> tuple[tuple[str, int, int], ...]:
        """Each seat whose score the write changed: (player, before, after)."""
        before = self.before.scores if self.before else (0, 0, 0, 0)
        after = self.after.scores if self.after else (0, 0, 0, 0)
        return tuple(
            (name, old, new)
            for name, old, new in zip(self.players, before, after, strict=False)
            if old != new
        )


def director_corrections(event: EventView) -> list[Correction]:
    """Every write the night's director made to its tables' games, oldest first."""
    if not is_game_id(event.id):
        return []
    rows = db.session.execute(
        select(
            TABLES.c.round,
            TABLES.c.number,
            TABLES.c.players,
            REVISIONS.c.n,
            REVISIONS.c.action,
            REVISIONS.c.at,
            REVISIONS.c.before,
            REVISIONS.c.after,
        )
        .join(REVISIONS, REVISIONS.c.game_id == TABLES.c.game_id)
        .where(TABLES.c.event_id == event.id, REVISIONS.c.source == DIRECTOR_SOURCE)
        .order_by(REVISIONS.c.at, TABLES.c.round, TABLES.c.number, REVISIONS.c.version)
    ).all()
    return [
        Correction(
            r.round,
            r.number,
            tuple(r.players),
            r.n,
            r.action,
            r.at,
            DealSide.of(r.before),
            DealSide.of(r.after),
        )
        for r in rows
    ]


def circle_nights(circle_id: str) -> list[EventView]:
    """The club nights linked to a circle, oldest first (each read as its page reads it)."""
    if not is_game_id(circle_id):
        return []
    ids = db.session.scalars(
        select(EVENTS.c.id)
        .where(EVENTS.c.circle_id == circle_id)
        .order_by(EVENTS.c.created_at, EVENTS.c.id)
    ).all()
    return [load_event(event_id) for event_id in ids]
