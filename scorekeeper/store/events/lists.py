"""The club nights a browser knows, for its home page and ``/events``: one query.

Only nights whose ids the browser holds are listed (an event's id is what lets
people read it), so no one learns another club's night.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.store.events.services import EVENTS, ROUNDS
from scorekeeper.store.tokens import is_game_id


@dataclass(frozen=True)
class EventSummary:
    """A line of a browser's list of club nights."""

    id: str
    name: str
    created_at: datetime
    rounds: int
    drawn: int
    closed: bool


def list_events(ids: Collection[str]) -> list[EventSummary]:
    """The club nights among ``ids``, in the order of ``ids`` (most recent first)."""
    wanted = [i for i in ids if is_game_id(i)]
    if not wanted:
        return []
    drawn = (
        select(func.count())
        .select_from(ROUNDS)
        .where(ROUNDS.c.event_id == EVENTS.c.id)
        .scalar_subquery()
    )
    rows = db.session.execute(
        select(
            EVENTS.c.id,
            EVENTS.c.name,
            EVENTS.c.created_at,
            EVENTS.c.rounds,
            drawn.label("drawn"),
            EVENTS.c.closed,
        ).where(EVENTS.c.id.in_(wanted))
    ).all()
    found = {
        r.id: EventSummary(r.id, r.name, r.created_at, r.rounds, int(r.drawn), r.closed)
        for r in rows
    }
    return [found[i] for i in wanted if i in found]
