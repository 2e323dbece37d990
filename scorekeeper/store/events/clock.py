"""A club night's round clock: how long a round should take, set by the director.

The length is kept on the night (``events.round_minutes``) and every round keeps the
moment it was drawn (``event_rounds.drawn_at``): the board counts the current round
down from its draw, so changing the length in the middle of a round moves its end at
once, and a round drawn later starts its own count. No clock (None) is the default.

>>> parse_round_minutes("45"), parse_round_minutes(""), parse_round_minutes(None)
(45, None, None)
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import update

from scorekeeper.rules.errors import MalformedError
from scorekeeper.store.events import services as events
from scorekeeper.store.events.services import EVENTS, EventRoundView, EventView
from scorekeeper.store.transactions import write_transaction

ROUND_MINUTES_MAX = 600
WARNING_MINUTES = 5
"""The board warns this long before a round's time is up (or from the half of a round
shorter than twice this)."""


def parse_round_minutes(raw: object) -> int | None:
    """A length in whole minutes, 1 to 600 (a number, or its digits as a form sends them);
    empty (or None) for no clock."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    minutes: object = raw
    if isinstance(raw, str) and raw.strip().isascii() and raw.strip().isdigit():
        minutes = int(raw.strip())
    if isinstance(minutes, bool) or not isinstance(minutes, int):
        minutes = 0
    if not 1 <= minutes <= ROUND_MINUTES_MAX:
        raise MalformedError.one(
            "event_number",
            field="round_minutes",
            what="round_minutes",
            low=1,
            high=ROUND_MINUTES_MAX,
        )
    return minutes


def set_round_clock(event_id: str, minutes: int | None) -> EventView:
    """Set (or, with None, remove) the night's round length; the board follows at once."""
    with write_transaction() as session:
        events.lock_event_row(session, event_id)
        event = events.load_event(event_id)
        events.refuse_closed(event)
        if event.round_minutes != minutes:
            session.execute(
                update(EVENTS).where(EVENTS.c.id == event_id).values(round_minutes=minutes)
            )
            events.bump_event(session, event_id, event.version + 1)
    return events.load_event(event_id)


def round_ends_at(event: EventView, drawn: EventRoundView) -> datetime | None:
    """When round ``drawn``'s time is up, under the night's clock (None: no clock)."""
    if event.round_minutes is None or drawn.drawn_at is None:
        return None
    return drawn.drawn_at + timedelta(minutes=event.round_minutes)


def warning_seconds(minutes: int) -> int:
    """How long before the end the board warns: 5 minutes, or half of a short round."""
    return min(WARNING_MINUTES * 60, minutes * 30)
