"""Club nights in the database: create an event, draw its rounds, read it with standings.

An event's id is shared to let people follow it; its director's token (256
bits, stored hashed like a game's edit token) lets the director draw rounds,
lock them, correct a table's deal and close the event. Each table of a round
is a normal game with its own edit token; its result reaches the event through
:mod:`scorekeeper.store.events.results` as its deals are written.

Errors: :class:`EventNotFound` (404), the engine's
:class:`~scorekeeper.rules.errors.RulesError` (422, or 409 for a state that
does not allow the change).
"""

from __future__ import annotations

import base64
import hmac
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask import current_app
from sqlalchemy import insert, select, update

from scorekeeper.extensions import db
from scorekeeper.rules.errors import IllegalError, StateError
from scorekeeper.rules.events.draw import DrawMethod, Round, Table, draw_round
from scorekeeper.rules.events.standings import (
    ByeRule,
    Byes,
    Ranking,
    Scoring,
    Standing,
    TableResult,
    Tally,
)
from scorekeeper.rules.events.tables import first_king_from_deal
from scorekeeper.rules.game_log import DealEntry
from scorekeeper.rules.ruleset import KingdomOrder, RuleSet
from scorekeeper.rules.scoring import zero_sum_report
from scorekeeper.store import games, models
from scorekeeper.store.cache import LRUCache
from scorekeeper.store.circles import services as circles
from scorekeeper.store.events import models as em
from scorekeeper.store.events.input import NewEvent, check_rotation_size, clean_event_players
from scorekeeper.store.events.results import DIRECTOR_SOURCE
from scorekeeper.store.tokens import (
    hash_matches,
    hash_token,
    is_game_id,
    new_edit_token,
    new_game_id,
)
from scorekeeper.store.transactions import reader, write_transaction

EVENTS = em.Event.__table__
PLAYERS = em.EventPlayer.__table__
ROUNDS = em.EventRound.__table__
TABLES = em.EventTable.__table__
CHANGES = em.EventChange.__table__


class EventNotFound(LookupError):
    """No club night with this id."""

    def __init__(self, event_id: object) -> None:
        super().__init__(f"no event {event_id!r}")
        self.event_id = event_id


# --- the circle seam -------------------------------------------------------------------------


def _link_to_circle(session: Any, circle_id: str, loaded: games.LoadedGame) -> None:
    """A table's game joins the event's circle, its players matched to members by name."""
    circles.link_new_game(session.connection(), circle_id, loaded)


# --- values ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class EventTableView:
    """A table of a round and its game's latest result."""

    round: int
    number: int
    game_id: str
    players: tuple[str, str, str, str]
    totals: tuple[int, int, int, int]
    trix_firsts: tuple[int, int, int, int]
    deals: int
    finished: bool
    version: int

    def result(self) -> TableResult:
        return TableResult(
            self.round,
            self.number,
            self.players,
            self.totals,
            self.trix_firsts,
            self.deals,
            self.finished,
        )


@dataclass(frozen=True)
class EventChangeView:
    """What the director changed in a round when a player left in the middle of it."""

    round: int
    kind: str
    """``replace`` (a substitute took the seat) or ``redraw`` (tables drawn again)."""
    player: str
    substitute: str | None
    table: int | None
    seat: int | None
    after_deals: int | None
    seed: str | None
    tables: tuple[int, ...]
    left_in: int | None = None
    """The round he left in, when earlier than this one: a round drawn before he left,
    whose seat went to someone sitting out, without the director asking."""


@dataclass(frozen=True)
class EventRoundView:
    number: int
    seed: str
    sitting_out: tuple[str, ...]
    locked: bool
    tables: tuple[EventTableView, ...]
    changes: tuple[EventChangeView, ...] = ()
    left_out: tuple[str, ...] = ()
    """Players not drawn in this round because they had left."""
    drawn_at: datetime | None = None
    """When it was drawn: its round clock starts then."""

    def as_round(self) -> Round:
        """The round as the draw sees it (for the next round's draw)."""
        tables = tuple(Table(t.number, t.players) for t in self.tables)
        return Round(self.number, self.seed, tables, self.sitting_out)

    @property
    def finished(self) -> bool:
        return all(t.finished for t in self.tables)


@dataclass(frozen=True)
class EventPlayerView:
    name: str
    joined_round: int
    left_round: int | None

    def present_in(self, number: int) -> bool:
        return self.joined_round <= number and (self.left_round is None or number < self.left_round)


@dataclass(frozen=True)
class EventView:
    """A club night as it is now: its settings, players, rounds, tables and results."""

    id: str
    name: str
    rules: RuleSet
    rounds: int
    round_kind: str
    scoring: Scoring
    places: tuple[int, int, int, int]
    partnership: bool
    seed: int
    circle_id: str | None
    version: int
    closed: bool
    players: tuple[EventPlayerView, ...]
    drawn: tuple[EventRoundView, ...]
    bye_rule: ByeRule = ByeRule()
    ranking: Ranking = Ranking.POINTS
    draw: DrawMethod = DrawMethod.AVOID_REPEATS
    round_minutes: int | None = None
    """The round clock's length, None without a clock (:mod:`.clock`)."""
    created_at: datetime | None = None
    """When the night was made (UTC): its date on the paper."""

    @property
    def zero_sum(self) -> bool:
        """Whether every game adds up to 0, so that totals compare across tables (R11)."""
        return zero_sum_report(self.rules)[0]

    @property
    def next_round(self) -> int:
        return len(self.drawn) + 1

    @property
    def all_drawn(self) -> bool:
        return len(self.drawn) >= self.rounds

    def present(self, number: int) -> list[str]:
        return [p.name for p in self.players if p.present_in(number)]

    def gone(self, number: int) -> list[str]:
        """Players not drawn in round ``number`` because they had left."""
        return [p.name for p in self.players if p.left_round is not None and p.left_round <= number]

    def player_who_left(self, name: str) -> EventPlayerView | None:
        """The player of this name (any case) who has left, if any."""
        wanted = str(name).strip().casefold()
        return next(
            (p for p in self.players if p.left_round is not None and p.name.casefold() == wanted),
            None,
        )

    def tally(self, rounds: Sequence[EventRoundView] | None = None) -> Tally:
        """Standings over ``rounds`` (all by default); everyone present counts from 0, a
        table once it :meth:`counts`, and a round's byes once the round is :meth:`under_way`."""
        chosen = self.drawn if rounds is None else rounds
        tally = Tally(self.scoring, self.places, bye_rule=self.bye_rule, ranking=self.ranking)
        if rounds is None:
            tally.enter(p.name for p in self.players)
        for drawn in chosen:
            if self.under_way(drawn):
                tally.sit_out(drawn.sitting_out)
            else:
                tally.enter(drawn.sitting_out)
            for table in drawn.tables:
                tally.enter(table.players)
                if self.counts(table):
                    tally.apply(table.result())
        return tally

    def counts(self, table: EventTableView) -> bool:
        """Whether a table's result is in the standings: once its game has a deal. A table
        just drawn scores nothing (four 0 totals would share the places, 1.5 points each
        under 3/2/1/0, before a card is played)."""
        return table.deals > 0

    def under_way(self, drawn: EventRoundView) -> bool:
        """Whether a round's byes count: once one of its tables counts. A bye scoring at the
        draw would move the sit-outs while the seated players wait for a deal."""
        return any(self.counts(table) for table in drawn.tables)

    def playing(self) -> dict[str, EventTableView]:
        """The players at a table whose game has not finished: the standings mark them (its
        result so far counts once it has a deal, as :attr:`Standing.provisional`)."""
        return {
            name: table
            for drawn in self.drawn
            for table in drawn.tables
            if not table.finished
            for name in table.players
        }

    def standings(self) -> list[Standing]:
        return self.tally().standings()

    def table_of_game(self, game_id: str) -> EventTableView | None:
        for drawn in self.drawn:
            for table in drawn.tables:
                if table.game_id == game_id:
                    return table
        return None


# --- reading ---------------------------------------------------------------------------------


def event_exists(event_id: str) -> bool:
    if not is_game_id(event_id):
        return False
    with reader() as read:
        return read.scalar(select(EVENTS.c.id).where(EVENTS.c.id == event_id)) is not None


def event_version(event_id: str) -> int:
    """The event's version (its ETag), from its row alone; :class:`EventNotFound`."""
    if not is_game_id(event_id):
        raise EventNotFound(event_id)
    with reader() as read:
        version = read.scalar(select(EVENTS.c.version).where(EVENTS.c.id == event_id))
    if version is None:
        raise EventNotFound(event_id)
    return int(version)


def director_matches(event_id: str, token: str) -> bool:
    """Whether ``token`` is this event's director's token, or its co-director's (constant
    time): both have the director's rights."""
    hashes = director_hashes(event_id)
    if hashes is None:
        hash_matches(hash_token(""), token)  # as long as a wrong token: no probing for ids
        return False
    director, co_director = hashes
    return hash_matches(director, token) | (
        co_director is not None and hash_matches(co_director, token)
    )


def director_hashes(event_id: str) -> tuple[str, str | None] | None:
    """The hashes of the director's token and of the co-director's (None without one)."""
    if not is_game_id(event_id):
        return None
    with reader() as read:
        row = read.execute(
            select(EVENTS.c.director_token_hash, EVENTS.c.co_director_hash).where(
                EVENTS.c.id == event_id
            )
        ).first()
    return None if row is None else (str(row[0]), row[1])


def event_of_game(game_id: str) -> str | None:
    """The club night whose table plays this game, if any (one indexed lookup)."""
    if not is_game_id(game_id):
        return None
    with reader() as read:
        found = read.scalar(select(TABLES.c.event_id).where(TABLES.c.game_id == game_id))
    return None if found is None else str(found)


@dataclass(frozen=True)
class TableNotes:
    """What a game's page says of it as a club night's table."""

    first_king_open: bool
    """Its first deal names the first king, the player dealt the 7♥ (R2)."""
    seat_changes: tuple[EventChangeView, ...]
    """The substitutes who took a seat, oldest first."""
    place: TablePlace | None = None
    """Which night, round and table the game is (None: not a club night's table)."""


@dataclass(frozen=True)
class TablePlace:
    """A game's place in a club night: the night's id and name, the round, the table."""

    event_id: str
    event_name: str
    round: int
    table: int


NOTES_KEY = "scorekeeper.table_notes"


def table_notes(loaded: games.LoadedGame) -> TableNotes:
    """Kept by (game, version), so the four phones of a table that all fetch its page
    after a deal ask once: right in any process, because a game is a club night's table
    from its first version (drawn in the same transaction) and a substitute taking a
    seat moves the game's version. A miss costs one lookup, and one more for a table."""
    cache: LRUCache[tuple[str, int], TableNotes] = current_app.extensions.setdefault(
        NOTES_KEY, LRUCache(1024)
    )
    return cache.get_or_make((loaded.id, loaded.version), lambda: _read_table_notes(loaded))


def _read_table_notes(loaded: games.LoadedGame) -> TableNotes:
    place = table_place(loaded.id)
    if place is None:
        return TableNotes(False, ())
    return TableNotes(
        not loaded.log and first_king_from_deal(loaded.rules),
        tuple(seat_changes(loaded.id)),
        place,
    )


def table_place(game_id: str) -> TablePlace | None:
    """The night, round and table a game is played as, in one query (None: no night's)."""
    if not is_game_id(game_id):
        return None
    with reader() as read:
        row = read.execute(
            select(TABLES.c.event_id, EVENTS.c.name, TABLES.c.round, TABLES.c.number)
            .join(EVENTS, EVENTS.c.id == TABLES.c.event_id)
            .where(TABLES.c.game_id == game_id)
        ).first()
    return None if row is None else TablePlace(row[0], row[1], row[2], row[3])


def seat_changes(game_id: str) -> list[EventChangeView]:
    """The substitutes who took a seat at this table's game, oldest first."""
    if not is_game_id(game_id):
        return []
    with reader() as read:
        rows = read.execute(
            select(CHANGES).where(CHANGES.c.game_id == game_id).order_by(CHANGES.c.position)
        ).all()
    return [_change_view(c) for c in rows]


VIEWS_KEY = "scorekeeper.event_views"


def views() -> LRUCache[tuple[str, int], EventView]:
    """Events read before, by (id, version): every change bumps the version, so a hit is
    always right, in any process (only a miss costs the five queries)."""
    cache: LRUCache[tuple[str, int], EventView] = current_app.extensions.setdefault(
        VIEWS_KEY, LRUCache(64)
    )
    return cache


def load_event(event_id: str) -> EventView:
    """The event, its rounds and its tables' results: its version (one query), then, unless
    that version was read before, four more; no game is ever replayed."""
    if not is_game_id(event_id):
        raise EventNotFound(event_id)
    session = db.session()
    row = session.execute(select(EVENTS).where(EVENTS.c.id == event_id)).first()
    if row is None:
        raise EventNotFound(event_id)
    cached = views().get((event_id, row.version))
    if cached is not None:
        return cached
    players = session.execute(
        select(PLAYERS).where(PLAYERS.c.event_id == event_id).order_by(PLAYERS.c.position)
    ).all()
    rounds = session.execute(
        select(ROUNDS).where(ROUNDS.c.event_id == event_id).order_by(ROUNDS.c.number)
    ).all()
    tables = session.execute(
        select(TABLES)
        .where(TABLES.c.event_id == event_id)
        .order_by(TABLES.c.round, TABLES.c.number)
    ).all()
    changes = session.execute(
        select(CHANGES).where(CHANGES.c.event_id == event_id).order_by(CHANGES.c.position)
    ).all()
    view = _view(row, players, rounds, tables, changes)
    views().put((event_id, view.version), view)
    return view


def _four(values: Sequence[Any]) -> tuple[Any, Any, Any, Any]:
    return (values[0], values[1], values[2], values[3])


def _change_view(c: Any) -> EventChangeView:
    return EventChangeView(
        c.round,
        c.kind,
        c.player,
        c.substitute,
        c.table,
        c.seat,
        c.after_deals,
        c.seed,
        tuple(c.tables or ()),
        c.left_in,
    )


def _view(
    row: Any,
    players: Sequence[Any],
    rounds: Sequence[Any],
    tables: Sequence[Any],
    changes: Sequence[Any] = (),
) -> EventView:
    by_round: dict[int, list[EventTableView]] = {}
    for t in tables:
        by_round.setdefault(t.round, []).append(
            EventTableView(
                t.round,
                t.number,
                t.game_id,
                _four(t.players),
                _four(t.totals),
                _four(t.trix_firsts),
                t.deals,
                t.finished,
                t.version,
            )
        )
    changed: dict[int, list[EventChangeView]] = {}
    for c in changes:
        changed.setdefault(c.round, []).append(_change_view(c))
    drawn = tuple(
        EventRoundView(
            r.number,
            r.seed,
            tuple(r.sitting_out),
            r.locked,
            tuple(by_round.get(r.number, [])),
            tuple(changed.get(r.number, [])),
            tuple(r.left_out or ()),
            r.drawn_at,
        )
        for r in rounds
    )
    return EventView(
        id=row.id,
        name=row.name,
        rules=RuleSet.from_dict(row.rules),
        rounds=row.rounds,
        round_kind=row.round_kind,
        scoring=Scoring(row.scoring),
        places=_four(row.places),
        partnership=row.partnership,
        seed=row.seed,
        circle_id=row.circle_id,
        version=row.version,
        closed=row.closed,
        players=tuple(EventPlayerView(p.name, p.joined_round, p.left_round) for p in players),
        drawn=drawn,
        bye_rule=ByeRule(Byes(row.byes), row.bye_points),
        ranking=Ranking(row.ranking),
        draw=DrawMethod(row.draw),
        round_minutes=row.round_minutes,
        created_at=row.created_at,
    )


# --- writing ---------------------------------------------------------------------------------


def create_event(new: NewEvent) -> tuple[EventView, str]:
    """A new event and its director's token, shown this once and stored hashed."""
    players = new.players
    if new.circle is not None:
        circle = circles.load_circle(new.circle)
        circles.check_room_for(circle, players)
        players = players or clean_event_players([m.name for m in circle.members])
        if new.draw == DrawMethod.ROTATION.value:
            check_rotation_size(len(players))
    token, event_id = new_edit_token(), new_game_id()
    row = {
        "id": event_id,
        "name": new.name,
        "created_at": models.utcnow(),
        "rules": new.rules.to_dict(),
        "rounds": new.rounds,
        "round_kind": new.round_kind,
        "scoring": new.scoring,
        "places": list(new.places),
        "partnership": new.partnership,
        "seed": new.seed,
        "circle_id": new.circle,
        "director_token_hash": hash_token(token),
        "co_directors": 0,
        "byes": new.byes,
        "bye_points": new.bye_points,
        "ranking": new.ranking,
        "draw": new.draw,
        "version": 1,
        "closed": False,
    }
    rows = [
        {"event_id": event_id, "position": i, "name": name, "joined_round": 1}
        for i, name in enumerate(players)
    ]
    with write_transaction() as session:
        session.connection().execute(insert(EVENTS), row)
        if rows:
            session.connection().execute(insert(PLAYERS), rows)
    return load_event(event_id), token


@dataclass(frozen=True)
class DrawnTable:
    """A table of a new round, with its game's edit token (shown this once)."""

    number: int
    players: tuple[str, str, str, str]
    game_id: str
    edit_token: str


@dataclass(frozen=True)
class DrawnRound:
    number: int
    seed: str
    tables: tuple[DrawnTable, ...]
    sitting_out: tuple[str, ...]
    left_out: tuple[str, ...] = ()
    """Players not drawn because they had left."""
    still_playing: tuple[int, ...] = ()
    """The tables of the round before whose game had not finished when this one was drawn."""


def table_token(director_token: str, game_id: str) -> str:
    """A table's edit token, derived from the director's token and the table's game.

    Nothing more is stored than for any game (the token's hash), yet the director can
    print a table's edit link (its card, its QR code) again at any time.

    >>> len(table_token("d" * 43, "g" * 16)), table_token("a", "g") != table_token("b", "g")
    (43, True)
    """
    digest = hmac.new(director_token.encode(), f"table:{game_id}".encode(), "sha256").digest()
    return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")


def draw_next_round(event_id: str, director_token: str) -> DrawnRound:
    """Draw the next round and start every table's game, all in one transaction.

    ``director_token`` (already checked by the caller) derives each table's edit token.
    """
    with write_transaction() as session:
        lock_event_row(session, event_id)
        event = load_event(event_id)
        refuse_closed(event)
        if event.all_drawn:
            raise StateError.one(
                "event_all_rounds_drawn",
                field="rounds",
                count=event.rounds,
            )
        drawn = draw_next(event)
        tables = start_tables(session, event, drawn, director_token)
        version = event.version + 1
        session.connection().execute(
            insert(ROUNDS),
            {
                "event_id": event_id,
                "number": drawn.number,
                "seed": drawn.seed,
                "sitting_out": list(drawn.sitting_out),
                "left_out": event.gone(drawn.number),
                "locked": False,
                "drawn_at": models.utcnow(),
            },
        )
        rows = [table_row(event_id, drawn.number, t, version) for t in tables]
        session.connection().execute(insert(TABLES), rows)
        bump_event(session, event_id, version)
    left_out = tuple(event.gone(drawn.number))
    playing = (
        tuple(t.number for t in event.drawn[-1].tables if not t.finished) if event.drawn else ()
    )
    return DrawnRound(drawn.number, drawn.seed, tuple(tables), drawn.sitting_out, left_out, playing)


def draw_next(event: EventView) -> Round:
    """The event's next round, drawn by its method (a Swiss draw by the standings now)."""
    history = [r.as_round() for r in event.drawn]
    standings = [line.player for line in event.standings()] if event.drawn else []
    return draw_round(
        event.present(event.next_round),
        history,
        event.seed,
        partnership=event.partnership,
        method=event.draw,
        standings=standings,
    )


def start_tables(
    session: Any, event: EventView, drawn: Round, director_token: str
) -> list[DrawnTable]:
    first_king = first_king_seat(event.rules)
    tables = []
    for table in drawn.tables:
        game_id = new_game_id()
        token = table_token(director_token, game_id)
        new = games.new_game_rows(
            list(table.seats), first_king, event.rules, game_id=game_id, token=token
        )
        new.insert(session)
        if event.circle_id is not None:
            _link_to_circle(session, event.circle_id, new.loaded)
        tables.append(DrawnTable(table.number, table.seats, new.loaded.id, new.token))
    return tables


def first_king_seat(rules: RuleSet) -> int:
    """Seat 0, or the first of a custom kingdom order (as a new game's default)."""
    if rules.kingdom_order is KingdomOrder.CUSTOM and rules.king_order:
        return rules.king_order[0]
    return 0


def table_row(event_id: str, number: int, table: DrawnTable, version: int) -> dict[str, Any]:
    return {
        "event_id": event_id,
        "round": number,
        "number": table.number,
        "game_id": table.game_id,
        "players": list(table.players),
        "totals": [0, 0, 0, 0],
        "trix_firsts": [0, 0, 0, 0],
        "deals": 0,
        "finished": False,
        "version": version,
    }


def lock_event_row(session: Any, event_id: str) -> None:
    """Lock the event's row (PostgreSQL; SQLite's write lock is held already)."""
    if not is_game_id(event_id):
        raise EventNotFound(event_id)
    found = session.execute(
        select(EVENTS.c.version).where(EVENTS.c.id == event_id).with_for_update()
    ).first()
    if found is None:
        raise EventNotFound(event_id)


def bump_event(session: Any, event_id: str, version: int) -> None:
    session.execute(update(EVENTS).where(EVENTS.c.id == event_id).values(version=version))


def refuse_closed(event: EventView) -> None:
    if event.closed:
        raise StateError.one(
            "event_closed",
            field="event",
        )


def drawn_round(event: EventView, number: int) -> EventRoundView:
    """Round ``number`` of the event, or the refusal naming how many have been drawn."""
    if not 1 <= number <= len(event.drawn):
        raise IllegalError.one(
            "event_no_such_round",
            field="round",
            n=number,
            count=len(event.drawn),
        )
    return event.drawn[number - 1]


def lock_round(event_id: str, number: int, locked: bool = True) -> EventView:
    """Lock (or unlock) a round: its tables' games take no more writes but the director's."""
    with write_transaction() as session:
        lock_event_row(session, event_id)
        event = load_event(event_id)
        refuse_closed(event)
        drawn_round(event, number)
        session.execute(
            update(ROUNDS)
            .where(ROUNDS.c.event_id == event_id, ROUNDS.c.number == number)
            .values(locked=locked)
        )
        bump_event(session, event_id, event.version + 1)
    return load_event(event_id)


def close_event(event_id: str) -> EventView:
    """Close the event: every round is final (the director may still correct a deal)."""
    with write_transaction() as session:
        lock_event_row(session, event_id)
        event = load_event(event_id)
        session.execute(update(EVENTS).where(EVENTS.c.id == event_id).values(closed=True))
        bump_event(session, event_id, event.version + 1)
    return load_event(event_id)


def add_player(event_id: str, name: str) -> EventView:
    """A late arrival, or a player who left and is back: drawn from the next round on."""
    with write_transaction() as session:
        lock_event_row(session, event_id)
        event = load_event(event_id)
        refuse_closed(event)
        if event.player_who_left(name) is not None:
            _comes_back(session, event, str(name))
            bump_event(session, event_id, event.version + 1)
            return load_event(event_id)
        names = clean_event_players([p.name for p in event.players] + [name])
        session.execute(
            insert(PLAYERS),
            {
                "event_id": event_id,
                "position": len(event.players),
                "name": names[-1],
                "joined_round": event.next_round,
            },
        )
        bump_event(session, event_id, event.version + 1)
    return load_event(event_id)


def _comes_back(session: Any, event: EventView, name: str) -> None:
    """A player who left is present again: drawn from the next round on (the rounds he
    missed count as sat out, so he is not the first to sit out again)."""
    back = event.player_who_left(name)
    assert back is not None  # the caller found him
    session.execute(
        update(PLAYERS)
        .where(PLAYERS.c.event_id == event.id, PLAYERS.c.name == back.name)
        .values(left_round=None, joined_round=max(back.joined_round, event.next_round))
    )


def player_leaves(event_id: str, name: str) -> EventView:
    """A player who leaves is drawn no more from the next round on (his results stay)."""
    with write_transaction() as session:
        lock_event_row(session, event_id)
        event = load_event(event_id)
        refuse_closed(event)
        position = next(
            (
                i
                for i, p in enumerate(event.players)
                if p.name.casefold() == str(name).casefold() and p.left_round is None
            ),
            None,
        )
        if position is None:
            raise IllegalError.one(
                "event_not_a_player",
                field="name",
                player=str(name),
            )
        session.execute(
            update(PLAYERS)
            .where(PLAYERS.c.event_id == event_id, PLAYERS.c.position == position)
            .values(left_round=event.next_round)
        )
        bump_event(session, event_id, event.version + 1)
    return load_event(event_id)


def correct_deal(
    event_id: str, game_id: str, n: int, entry: DealEntry, expected: int | None
) -> games.LoadedGame:
    """The director corrects deal ``n`` of a table's game, logged as the director's."""
    event = load_event(event_id)
    if event.table_of_game(game_id) is None:
        raise games.GameNotFound(game_id)
    return games.edit_deal(game_id, n, entry, expected, source=DIRECTOR_SOURCE)
