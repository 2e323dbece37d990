"""A player leaves in the middle of a club night's round: the director's two answers.

- :func:`replace_player`: a substitute (someone sitting out, a late arrival or a new
  name) takes the leaver's seat; the table's game goes on with the substitute's name
  in that seat. **The seat's result goes to whoever finishes it**: the table's result
  (totals, Trix firsts, place) counts for the substitute, and the leaver scores
  nothing for that round, as a player who sat it out.
- :func:`redraw_round`: the tables of the round that have not started (no deal
  recorded) are drawn again without the leaver, seeded like any draw; tables that
  started are kept as they are.

Either way the leaver is drawn no more from the next round on (a round already drawn
goes on without him too: :func:`_out_of_later_rounds`), until the director says he is
back (:func:`scorekeeper.store.events.services.add_player`). The change is kept with the round
(:class:`~scorekeeper.store.events.models.EventChange`) and all of it is one
transaction: refused (a closed event, a locked round, a player at no table…) nothing
is saved.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, func, insert, select, update

from scorekeeper.rules.errors import IllegalError, StateError
from scorekeeper.rules.events.draw import Round, not_seated, redraw_round, redraw_seed
from scorekeeper.rules.events.draw import replace_player as replace_in_round
from scorekeeper.store import games, models
from scorekeeper.store.circles import services as circles
from scorekeeper.store.events import services as events
from scorekeeper.store.events.input import clean_event_players
from scorekeeper.store.events.services import (
    CHANGES,
    PLAYERS,
    ROUNDS,
    TABLES,
    DrawnRound,
    EventRoundView,
    EventTableView,
    EventView,
)
from scorekeeper.store.transactions import write_transaction


def replace_player(event_id: str, number: int, leaving: str, substitute: str) -> EventView:
    """``substitute`` takes the seat of ``leaving`` at his table of round ``number``."""
    with write_transaction() as session:
        events.lock_event_row(session, event_id)
        event = events.load_event(event_id)
        drawn = _open_round(event, number)
        leaving = _player_name(event, leaving, "player")
        table = _table_of(drawn, leaving)
        if table.finished:
            raise StateError.one(
                "event_table_finished",
                field="player",
                table=table.number,
                player=leaving,
            )
        name = _substitute_name(session, event, number, substitute)
        version = event.version + 1
        _seat_substitute(session, event, drawn, table, leaving, name, version)
        _leaves(session, event, leaving, number + 1)
        _out_of_later_rounds(session, event, number, leaving, name, version)
        events.bump_event(session, event_id, version)
    return events.load_event(event_id)


def _seat_substitute(
    session: Any,
    event: EventView,
    drawn: EventRoundView,
    table: EventTableView,
    leaving: str,
    name: str,
    version: int,
    left_in: int | None = None,
) -> None:
    """``name`` takes the seat of ``leaving`` at ``table``; the round's changes say so."""
    changed = replace_in_round(drawn.as_round(), leaving, name)
    seat = table.players.index(leaving)
    _store_seats(session, event.id, changed, {table.number}, version)
    _set_sitting_out(session, event.id, changed)
    games.rename_seat(session, table.game_id, seat, name)
    if event.circle_id is not None:
        circles.relink_seat(session.connection(), event.circle_id, table.game_id, seat, name)
    _keep_change(
        session,
        event.id,
        round=drawn.number,
        kind="replace",
        player=leaving,
        substitute=name,
        table=table.number,
        seat=seat,
        after_deals=table.deals,
        game_id=table.game_id,
        left_in=left_in,
    )


def _out_of_later_rounds(
    session: Any, event: EventView, number: int, leaving: str, substitute: str, version: int
) -> None:
    """The rounds drawn after round ``number`` but before he left go on without him, so
    the director need not take him out by hand. Sitting out there, he is no longer listed;
    at a table that has not started, whoever sits that round out takes his seat (his
    substitute first), a change of that round like any replacement; at a table that
    started, or with nobody sitting out, he stays for the director to decide."""
    for later in event.drawn[number:]:
        if later.locked:
            continue
        if leaving in later.sitting_out:
            out = tuple(n for n in later.sitting_out if n != leaving)
            _set_sitting_out(session, event.id, Round(later.number, later.seed, (), out))
        else:
            table = next((t for t in later.tables if leaving in t.players), None)
            takers = sorted(later.sitting_out, key=lambda n: n != substitute)
            if table is None or table.deals > 0 or not takers:
                continue
            _seat_substitute(
                session, event, later, table, leaving, takers[0], version, left_in=number
            )
        _add_left_out(session, event.id, later, leaving)


def _add_left_out(session: Any, event_id: str, drawn: EventRoundView, name: str) -> None:
    """``name`` is listed among those the round goes on without, having left."""
    if name in drawn.left_out:
        return
    session.execute(
        update(ROUNDS)
        .where(ROUNDS.c.event_id == event_id, ROUNDS.c.number == drawn.number)
        .values(left_out=[*drawn.left_out, name])
    )


def redraw(event_id: str, number: int, leaving: str, director_token: str) -> DrawnRound:
    """Draw round ``number`` again without ``leaving``, for its tables not yet started.

    The answer lists only the tables drawn again, with their games' edit tokens.
    """
    with write_transaction() as session:
        events.lock_event_row(session, event_id)
        event = events.load_event(event_id)
        drawn = _open_round(event, number)
        if number != len(event.drawn):
            raise StateError.one(
                "event_redraw_not_last",
                field="round",
                n=number,
                last=len(event.drawn),
            )
        leaving = _player_name(event, leaving, "player")
        _table_of(drawn, leaving)
        started = [t.number for t in drawn.tables if t.deals > 0]
        history = [r.as_round() for r in event.drawn[: number - 1]]
        seed = redraw_seed(drawn.as_round(), 1 + sum(c.kind == "redraw" for c in drawn.changes))
        again = redraw_round(
            drawn.as_round(), history, leaving, started, seed, partnership=event.partnership
        )
        fresh = [t for t in again.tables if t.number not in started]
        for table in drawn.tables:
            if table.number not in started:
                drop_table(session, event, table)
        version = event.version + 1
        new_round = Round(number, seed, tuple(fresh), again.sitting_out)
        tables = events.start_tables(session, event, new_round, director_token)
        if tables:
            rows = [events.table_row(event_id, number, t, version) for t in tables]
            session.connection().execute(insert(TABLES), rows)
        _set_sitting_out(session, event_id, again)
        _leaves(session, event, leaving, number)
        _add_left_out(session, event_id, drawn, leaving)
        _keep_change(
            session,
            event_id,
            round=number,
            kind="redraw",
            player=leaving,
            seed=seed,
            tables=[t.number for t in fresh],
        )
        events.bump_event(session, event_id, version)
    left_out = (*drawn.left_out, leaving)
    return DrawnRound(number, seed, tuple(tables), again.sitting_out, left_out)


# --- checks ----------------------------------------------------------------------------------


def _open_round(event: EventView, number: int) -> EventRoundView:
    """Round ``number``, if it can still change: drawn, not locked, the event not closed."""
    events.refuse_closed(event)
    drawn = events.drawn_round(event, number)
    if drawn.locked:
        raise StateError.one(
            "event_round_locked",
            field="event",
            n=number,
        )
    return drawn


def _player_name(event: EventView, name: object, field: str) -> str:
    """The event's spelling of a player's name (matched regardless of case)."""
    wanted = str(name).strip().casefold()
    for player in event.players:
        if player.name.casefold() == wanted:
            return player.name
    raise IllegalError.one(
        "event_not_a_player",
        field=field,
        player=str(name),
    )


def _table_of(drawn: EventRoundView, name: str) -> EventTableView:
    for table in drawn.tables:
        if name in table.players:
            return table
    raise not_seated(name, drawn.number)


def _substitute_name(session: Any, event: EventView, number: int, raw: object) -> str:
    """The substitute's name: a player of the event who has not left (a late arrival then
    plays from this round on), or a new name, who joins the event now."""
    wanted = str(raw if raw is not None else "").strip().casefold()
    for position, player in enumerate(event.players):
        if player.name.casefold() != wanted:
            continue
        if player.left_round is not None:
            raise IllegalError.one(
                "event_player_left",
                field="substitute",
                player=player.name,
            )
        if player.joined_round > number:
            session.execute(
                update(PLAYERS)
                .where(PLAYERS.c.event_id == event.id, PLAYERS.c.position == position)
                .values(joined_round=number)
            )
        return player.name
    name = clean_event_players([raw])[0]
    session.execute(
        insert(PLAYERS),
        {
            "event_id": event.id,
            "position": len(event.players),
            "name": name,
            "joined_round": number,
        },
    )
    return name


# --- writes ----------------------------------------------------------------------------------


def _store_seats(
    session: Any, event_id: str, drawn: Round, numbers: set[int], version: int
) -> None:
    for table in drawn.tables:
        if table.number in numbers:
            session.execute(
                update(TABLES)
                .where(
                    TABLES.c.event_id == event_id,
                    TABLES.c.round == drawn.number,
                    TABLES.c.number == table.number,
                )
                .values(players=list(table.seats), version=version)
            )


def _set_sitting_out(session: Any, event_id: str, drawn: Round) -> None:
    session.execute(
        update(ROUNDS)
        .where(ROUNDS.c.event_id == event_id, ROUNDS.c.number == drawn.number)
        .values(sitting_out=list(drawn.sitting_out))
    )


def _leaves(session: Any, event: EventView, name: str, from_round: int) -> None:
    """``name`` is drawn no more from round ``from_round`` on."""
    for position, player in enumerate(event.players):
        if player.name == name and (player.left_round or from_round + 1) > from_round:
            session.execute(
                update(PLAYERS)
                .where(PLAYERS.c.event_id == event.id, PLAYERS.c.position == position)
                .values(left_round=from_round)
            )


def drop_table(session: Any, event: EventView, table: EventTableView) -> None:
    """A table drawn again: its game (no deal in it) goes, with its place in the circle."""
    session.execute(delete(TABLES).where(TABLES.c.game_id == table.game_id))
    if event.circle_id is not None:
        circles.unlink_unplayed_game(session.connection(), event.circle_id, table.game_id)
    games.delete_unplayed_game(session, table.game_id)


def _keep_change(session: Any, event_id: str, **change: Any) -> None:
    position = session.execute(
        select(func.count()).select_from(CHANGES).where(CHANGES.c.event_id == event_id)
    ).scalar_one()
    session.execute(
        insert(CHANGES),
        {"event_id": event_id, "position": position, "at": models.utcnow(), **change},
    )
