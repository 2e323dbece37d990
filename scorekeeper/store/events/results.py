"""A table's result flows into its club night as the table's game is written.

:func:`game_written` runs inside every write to a game (one transaction,
:func:`scorekeeper.store.game_store.apply_change`). For a game that is no
event's table it costs one indexed lookup. For a table it refuses the write
when the round is locked or the event closed (unless the director makes it),
bumps the event's version and stores the table's new result: a few rows, in
time proportional to the change and never to the event's size.
"""

from __future__ import annotations

from sqlalchemy import bindparam, select, update
from sqlalchemy.orm import Session

from scorekeeper.rules.errors import StateError
from scorekeeper.rules.events.tables import first_king_from_deal
from scorekeeper.rules.game import Game
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store.events import models as em

DIRECTOR_SOURCE = "director"
"""The source a director's correction is written and logged with."""

EVENTS = em.Event.__table__
ROUNDS = em.EventRound.__table__
TABLES = em.EventTable.__table__

TABLE_OF_GAME = (
    select(TABLES.c.event_id, TABLES.c.round, EVENTS.c.closed, ROUNDS.c.locked)
    .join(EVENTS, EVENTS.c.id == TABLES.c.event_id)
    .join(ROUNDS, (ROUNDS.c.event_id == TABLES.c.event_id) & (ROUNDS.c.number == TABLES.c.round))
    .where(TABLES.c.game_id == bindparam("game_id"))
)
BUMP_EVENT = (
    update(EVENTS).where(EVENTS.c.id == bindparam("of_event")).values(version=EVENTS.c.version + 1)
)
IS_TABLE = select(TABLES.c.game_id).where(TABLES.c.game_id == bindparam("game_id"))
EVENT_VERSION = select(EVENTS.c.version).where(EVENTS.c.id == bindparam("event_id"))
SET_RESULT = (
    update(TABLES)
    .where(TABLES.c.game_id == bindparam("of_game"))
    .values(
        totals=bindparam("new_totals", type_=TABLES.c.totals.type),
        trix_firsts=bindparam("new_firsts", type_=TABLES.c.trix_firsts.type),
        deals=bindparam("new_deals", type_=TABLES.c.deals.type),
        finished=bindparam("new_finished", type_=TABLES.c.finished.type),
        version=bindparam("new_version", type_=TABLES.c.version.type),
    )
)


def seat_totals(game: Game) -> list[int]:
    """The totals the standings use: per seat, or each seat's team total (R9.5)."""
    teams = game.team_totals
    if teams is None:
        return list(game.totals)
    return [teams[0], teams[1], teams[0], teams[1]]


def game_written(session: Session, game_id: str, game: Game, source: str) -> None:
    """Refresh the event's result for this game's table, if it is one (same transaction)."""
    conn = session.connection()
    row = conn.execute(TABLE_OF_GAME, {"game_id": game_id}).first()
    if row is None:
        return
    event_id, round_number, closed, locked = row
    if source != DIRECTOR_SOURCE:
        refuse_if_frozen(bool(closed), bool(locked), int(round_number))
    conn.execute(BUMP_EVENT, {"of_event": event_id})
    version = conn.execute(EVENT_VERSION, {"event_id": event_id}).scalar_one()
    conn.execute(
        SET_RESULT,
        {
            "of_game": game_id,
            "new_totals": seat_totals(game),
            "new_firsts": list(game.trix_first_places),
            "new_deals": game.deals_played,
            "new_finished": game.finished,
            "new_version": version,
        },
    )


def refuse_if_frozen(closed: bool, locked: bool, round_number: int) -> None:
    """409: only the director may still change a table of a locked round or closed event."""
    if closed:
        raise StateError.one(
            "event_closed",
            field="event",
        )
    if locked:
        raise StateError.one(
            "event_round_locked",
            field="event",
            n=round_number,
        )


def first_king_open(session: Session, game_id: str, rules: RuleSet) -> bool:
    """Whether this game is a club night's table whose first king is still to be found.

    The draw seats a table before its first deal, so it cannot know who will be dealt the
    7♥ (R2): the table's first deal names him. Only an agreed kingdom order fixes the
    first king beforehand.
    """
    if not first_king_from_deal(rules):
        return False
    return session.connection().execute(IS_TABLE, {"game_id": game_id}).first() is not None
