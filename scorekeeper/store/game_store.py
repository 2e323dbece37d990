"""The database side of the services: fetch, replay and write a game in one transaction.

A write (:func:`write`) locks the game (SQLite ``BEGIN IMMEDIATE``,
PostgreSQL ``SELECT … FOR UPDATE``), replays its log, checks the caller's
version, lets the caller change it, and commits: all or nothing. Every
write bumps the version, refreshes the cached summary and keeps a
:class:`~scorekeeper.store.models.Revision` (:func:`apply_change`).

Reads and writes start from the game's *head* (its version and edit-token
hash, one small query). When that version was replayed before
(:func:`replays`) nothing else is read; writes are then plain SQL
statements (insert, update, delete) with no ORM objects to build, so
recording a deal costs a handful of statements and no replay.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, TypeVar

from flask import current_app
from sqlalchemy import bindparam, delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, joinedload

from scorekeeper.extensions import db
from scorekeeper.rules.errors import Problem, RulesError, StateError, part
from scorekeeper.rules.game import Game
from scorekeeper.rules.game_log import DealEntry, Entry, entry_from_dict
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import models
from scorekeeper.store.cache import LRUCache
from scorekeeper.store.circles.hooks import game_changed as tell_circle
from scorekeeper.store.events import results as event_results
from scorekeeper.store.played import from_columns, to_columns
from scorekeeper.store.snapshot import (
    AlreadyWritten,
    Change,
    GameNotFound,
    LoadedGame,
    LogRow,
    StaleVersion,
    UnreplayableLog,
)
from scorekeeper.store.summary import summarize
from scorekeeper.store.tokens import is_game_id
from scorekeeper.store.transactions import write_transaction

T = TypeVar("T")


GAMES = models.Game.__table__
LOG = models.LogEntry.__table__
REVISIONS = models.Revision.__table__
HEADS: ContextVar[dict[str, tuple[int, str]] | None] = ContextVar("game_heads", default=None)
"""The heads read in the current unit of work (:func:`heads_remembered`), by game id."""

# The statements of reads and writes, built once (SQLAlchemy then reuses their compiled
# form) and run on the session's connection: plain SQL, no ORM objects to track.
HEAD = select(models.Game.version, models.Game.edit_token_hash).where(
    models.Game.id == bindparam("game_id")
)
LOCK = select(models.Game.version).where(models.Game.id == bindparam("game_id")).with_for_update()
ADD_GAME = insert(GAMES)
ADD_SEATS = insert(models.Seat.__table__)
ADD_ENTRY = insert(LOG)
SET_ENTRY = (
    update(LOG)
    .where(LOG.c.game_id == bindparam("of_game"), LOG.c.position == bindparam("at"))
    .values(payload=bindparam("new_payload", type_=LOG.c.payload.type))
)
REMOVE_ENTRY = delete(LOG).where(
    LOG.c.game_id == bindparam("of_game"), LOG.c.position == bindparam("at")
)
BUMP = (
    update(GAMES)
    .where(GAMES.c.id == bindparam("game_id"))
    .values(
        version=bindparam("new_version", type_=GAMES.c.version.type),
        updated_at=bindparam("now", type_=GAMES.c.updated_at.type),
        finished=bindparam("new_finished", type_=GAMES.c.finished.type),
        summary=bindparam("new_summary", type_=GAMES.c.summary.type),
    )
)
ADD_REVISION = insert(REVISIONS)


@dataclass(frozen=True)
class Once:
    """A write that a phone named (API.md "Exactly-once entries"): its id, and a hash of
    what it asks for, so that a repeat is told from another write under the same id."""

    entry_id: str
    request_hash: str

    @classmethod
    def of(cls, entry_id: str | None, action: str, **request: Any) -> Once | None:
        """``Once`` for a write named ``entry_id`` (None: an unnamed write)."""
        if entry_id is None:
            return None
        asked = json.dumps({"action": action, **request}, sort_keys=True, ensure_ascii=True)
        return cls(entry_id, hashlib.sha256(asked.encode()).hexdigest())


@dataclass
class Locked:
    """A game locked for writing, and its replay (the state the write starts from)."""

    loaded: LoadedGame
    once: Once | None = None
    """The id the write was given, kept with its revision."""
    written: list[LoadedGame] = field(default_factory=list)
    """The states this write produced, remembered once the transaction commits."""


class ReplayCache(LRUCache[tuple[str, int], LoadedGame]):
    """Replayed games by (id, version), the most recently used kept.

    Every write bumps a game's version, so (id, version) names exactly one
    state of its log: a hit is always right, in any process. Only committed
    states go in. A page after a write (the post/redirect/get) then costs
    one query for the game's head and no replay.
    """

    def __init__(self, size: int = 256) -> None:
        super().__init__(size)

    def state(self, game_id: str, version: int) -> LoadedGame | None:
        return self.get((game_id, version))

    def keep(self, loaded: LoadedGame) -> None:
        self.put((loaded.id, loaded.version), loaded)


REPLAYS_KEY = "scorekeeper.replays"


def replays() -> ReplayCache:
    """This app's replayed games (in ``app.extensions``, like its other caches)."""
    cache: ReplayCache = current_app.extensions.setdefault(REPLAYS_KEY, ReplayCache())
    return cache


def load_game(game_id: str) -> LoadedGame:
    """The game with this id, replayed from its log; :class:`GameNotFound`.

    One query (the game's head) when its current version was replayed
    before (:func:`replays`); two more and a replay otherwise.
    """
    session = db.session()
    version, _hash = head(game_id)
    cached = replays().state(game_id, version)
    if cached is not None:
        return cached
    loaded = replay_stored(fetch_game(session, game_id, lock=False), fetch_log(session, game_id))
    replays().keep(loaded)
    return loaded


@contextmanager
def heads_remembered() -> Iterator[None]:
    """Within it, :func:`head` reads each game's head once.

    The web layer wraps each request in it: a page loads the game and checks the
    browser's edit token, and both need only the game row's two columns. Outside it
    (scripts, tests, an app context that outlives its request) every call reads.
    """
    token = HEADS.set({})
    try:
        yield
    finally:
        HEADS.reset(token)


def head(game_id: str) -> tuple[int, str]:
    """(version, edit-token hash) of the game; :class:`GameNotFound`."""
    heads = HEADS.get()
    if heads is not None and game_id in heads:
        return heads[game_id]
    if not is_game_id(game_id):
        raise GameNotFound(game_id)
    row = db.session().connection().execute(HEAD, {"game_id": game_id}).first()
    if row is None:
        raise GameNotFound(game_id)
    found = (int(row[0]), str(row[1]))
    if heads is not None:
        heads[game_id] = found
    return found


def forget_head(game_id: str) -> None:
    """After a write, the next :func:`head` reads the database again."""
    heads = HEADS.get()
    if heads is not None:
        heads.pop(game_id, None)


def fetch_game(session: Session, game_id: str, *, lock: bool) -> models.Game:
    if not is_game_id(game_id):
        raise GameNotFound(game_id)
    stmt = (
        select(models.Game).where(models.Game.id == game_id).options(joinedload(models.Game.seats))
    )
    if lock:  # PostgreSQL: writers of one game queue here (a no-op on SQLite)
        stmt = stmt.with_for_update(of=models.Game).execution_options(populate_existing=True)
    row = session.execute(stmt).unique().scalar_one_or_none()
    if row is None:
        raise GameNotFound(game_id)
    return row


def fetch_log(session: Session, game_id: str) -> list[models.LogEntry]:
    stmt = (
        select(models.LogEntry)
        .where(models.LogEntry.game_id == game_id)
        .order_by(models.LogEntry.position)
    )
    return list(session.scalars(stmt))


def replay_stored(row: models.Game, entries: Sequence[models.LogEntry]) -> LoadedGame:
    """Replay the stored log; :class:`UnreplayableLog` if the engine now refuses an entry."""
    players = [seat.name for seat in row.seats]
    try:
        rules = RuleSet.from_dict(row.rules)
        game = Game.start(rules, row.first_king, players)
    except RulesError as error:
        raise UnreplayableLog(row.id, None, error) from error
    log: list[LogRow] = []
    for stored in entries:
        try:
            entry = entry_from_dict(stored.payload)
            game = game.record(entry)
        except RulesError as error:
            raise UnreplayableLog(row.id, stored.position, error) from error
        n = game.deals_played if isinstance(entry, DealEntry) else None
        played = from_columns(stored.played_at, stored.played_offset)
        log.append(LogRow(stored.position, stored.kind, entry, n, stored.created_at, played))
    return LoadedGame(
        id=row.id,
        version=row.version,
        created_at=row.created_at,
        updated_at=row.updated_at,
        players=players,
        rules=rules,
        first_king=row.first_king,
        game=game,
        log=log,
    )


GAME_WRITES_MAX = 1000
"""The most writes (deals, redeals, corrections, undos) one game keeps: its history, and so
its backup, is bounded, and whatever the app holds its import takes back
(:data:`scorekeeper.store.backup_format.IMPORT_BYTES_MAX`). A whole game is 20 deals; even
20 redeals before each (the rules engine's cap) and a correction to each leave room."""


def check_room(version: int) -> None:
    """Refuse a write to a game at ``version`` once it kept :data:`GAME_WRITES_MAX` writes."""
    if version <= GAME_WRITES_MAX:
        return
    raise StateError.one(
        "game_full",
        field=None,
        max=GAME_WRITES_MAX,
    )


def write(
    game_id: str,
    expected: int | None,
    change: Callable[[Session, Locked], T],
    once: Once | None = None,
) -> T:
    """Run ``change`` on the locked, replayed game in one transaction (all or nothing).

    A write named ``once`` that was made before is not made again:
    :class:`AlreadyWritten` (with what it wrote), or a 409 if the id was used for
    another write. That is asked under the game's lock, so two copies of one request
    sent at once still write once.
    """
    try:
        with write_transaction() as session:
            version = _lock(session, game_id)
            loaded = replays().state(game_id, version) or replay_stored(
                fetch_game(session, game_id, lock=False), fetch_log(session, game_id)
            )
            if once is not None:
                refuse_repeat(session, loaded, once)
            check_version(session, loaded, expected)
            locked = Locked(loaded, once)
            result = change(session, locked)
        forget_head(game_id)
        for state in locked.written:  # committed: later reads need not replay
            replays().keep(state)
        return result
    except IntegrityError:
        # Only a writer bypassing the lock could get here; report it as a race.
        forget_head(game_id)
        loaded = load_game(game_id)
        raise StaleVersion(loaded, expected or loaded.version, race=True) from None


def check_version(session: Session, loaded: LoadedGame, expected: int | None) -> None:
    """:class:`StaleVersion` (with what changed since) if ``expected`` is not the version."""
    if expected is not None and expected != loaded.version:
        raise StaleVersion(loaded, expected, changes_since(session, loaded, expected))


def refuse_repeat(session: Session, loaded: LoadedGame, once: Once) -> None:
    """:class:`AlreadyWritten` if ``once`` was written before; 409 if its id was used for
    a different write; nothing if the id is new."""
    stored = session.execute(
        select(models.Revision.action, models.Revision.after, models.Revision.request_hash).where(
            models.Revision.game_id == loaded.id, models.Revision.entry_id == once.entry_id
        )
    ).first()
    if stored is None:
        return
    action, after, request_hash = stored
    if request_hash != once.request_hash:
        raise StateError.one(
            "entry_id_reused",
            field="entry_id",
            entry_id=once.entry_id,
        )
    raise AlreadyWritten(loaded, str(action), after)


def lock_game(session: Session, game_id: str) -> int:
    """The game's version, its row locked for this transaction (see :func:`_lock`)."""
    return _lock(session, game_id)


def _lock(session: Session, game_id: str) -> int:
    """The game's version, its row locked for this transaction; :class:`GameNotFound`.

    On PostgreSQL writers of one game queue here (``FOR UPDATE``); on SQLite the
    transaction's ``BEGIN IMMEDIATE`` already holds the database's write lock.
    """
    version = session.connection().execute(LOCK, {"game_id": game_id}).scalar_one_or_none()
    if version is None:
        raise GameNotFound(game_id)
    return int(version)


def changes_since(session: Session, loaded: LoadedGame, expected: int) -> list[Change]:
    """The writes after version ``expected``, oldest first (none if it is not a past version)."""
    if expected >= loaded.version:
        return []
    revisions = session.scalars(
        select(models.Revision)
        .where(models.Revision.game_id == loaded.id, models.Revision.version > expected)
        .order_by(models.Revision.version)
    ).all()
    return [Change(r.action, r.before, r.after) for r in revisions]


def replay_edit(loaded: LoadedGame, entries: list[Entry], position: int, n: int) -> Game:
    """Replay with deal ``n`` replaced; the edit's own error, or a 409 naming the later entry."""
    game = Game.start(loaded.rules, loaded.first_king, loaded.players)
    for index, entry in enumerate(entries):
        try:
            game = game.record(entry)
        except RulesError as error:
            if index == position:
                raise
            raise breaks_later(n, entry_name(loaded.log, index), error) from None
    return game


@dataclass(frozen=True)
class EntryName:
    """A log entry as an edit's refusal names it: a message part, and the field of its
    problems."""

    part: dict[str, Any]
    field: str


def entry_name(log: Sequence[LogRow], index: int) -> EntryName:
    """``deal 9`` (``deals.9``), or ``the redeal after deal 8`` (``log.9``) for a redeal."""
    row = log[index]
    if row.n is not None:
        return EntryName(part("word.deal_n", n=row.n), f"deals.{row.n}")
    kind = "misdeal" if row.kind == "misdeal" else "redeal"
    before = [r.n for r in log[:index] if r.n is not None]
    if before:
        return EntryName(part(f"word.{kind}_after", n=before[-1]), f"log.{index}")
    return EntryName(part(f"word.first_{kind}"), f"log.{index}")


def breaks_later(n: int, later: EntryName, error: RulesError) -> StateError:
    """An edit of deal ``n`` refused because a later entry no longer replays (409)."""
    problems = [
        Problem.from_params(
            "edit_breaks_later_deal",
            p.rule,
            later.field if p.field is None else f"{later.field}.{p.field}",
            {k: v for k, v in p.params.items() if k != "variant"}
            | {"n": n, "later": later.part, "reason_code": p.code}
            | {"reason": {"part": p.key, "params": p.params}},
        )
        for p in error.problems
    ]
    return StateError(problems)


def append(
    session: Session,
    locked: Locked,
    entry: Entry,
    game: Game,
    n: int | None,
    source: str,
    action: str,
    after: dict[str, Any],
    played: datetime | None = None,
) -> LoadedGame:
    """Add ``entry`` at the end of the log (``played``: the phone's clock at Save)."""
    position = len(locked.loaded.log)
    now = models.utcnow()
    kind = "deal" if isinstance(entry, DealEntry) else entry.kind
    played_at, played_offset = to_columns(played)
    session.connection().execute(
        ADD_ENTRY,
        {
            "game_id": locked.loaded.id,
            "position": position,
            "kind": kind,
            "payload": entry.to_dict(),
            "created_at": now,
            "played_at": played_at,
            "played_offset": played_offset,
        },
    )
    log = [*locked.loaded.log, LogRow(position, kind, entry, n, now, played)]
    revision = Write(position, n, action, None, after)
    return apply_change(session, locked, game, log, revision, source, now)


def replace_entry(session: Session, locked: Locked, position: int, entry: Entry) -> None:
    """Store ``entry`` in place of the log entry at ``position`` (an edit)."""
    params = {"of_game": locked.loaded.id, "at": position, "new_payload": entry.to_dict()}
    session.connection().execute(SET_ENTRY, params)


def remove_last(session: Session, locked: Locked) -> None:
    """Delete the last log entry (an undo)."""
    position = locked.loaded.log[-1].position
    session.connection().execute(REMOVE_ENTRY, {"of_game": locked.loaded.id, "at": position})


@dataclass(frozen=True)
class Write:
    """One write to the log, as its revision keeps it: where, what and the entry either side."""

    position: int
    n: int | None
    """The deal's number; None for a redeal."""
    action: str
    """``record``, ``redeal``, ``edit`` or ``undo``."""
    before: dict[str, Any] | None
    after: dict[str, Any] | None


def apply_change(
    session: Session,
    locked: Locked,
    game: Game,
    log: list[LogRow],
    change: Write,
    source: str,
    now: datetime | None = None,
) -> LoadedGame:
    """Bump the version, refresh the cached summary, keep a revision; the new state."""
    now = now or models.utcnow()
    old = locked.loaded
    check_room(old.version)
    version = old.version + 1
    bump = {"game_id": old.id, "new_version": version, "now": now}
    bump.update(new_finished=game.finished, new_summary=summarize(game))
    session.connection().execute(BUMP, bump)
    event_results.game_written(session, old.id, game, source)  # a club night's table
    session.connection().execute(
        ADD_REVISION,
        {
            "game_id": old.id,
            "position": change.position,
            "n": change.n,
            "action": change.action,
            "version": version,
            "before": change.before,
            "after": change.after,
            "at": now,
            "source": source[:16],  # a label from code ("api", "page"), never user input
            "entry_id": locked.once.entry_id if locked.once else None,
            "request_hash": locked.once.request_hash if locked.once else None,
        },
    )
    new = replace(old, version=version, updated_at=now, game=game, log=log)
    tell_circle(session, new)  # a circle's game: its statistics and ratings follow
    locked.written.append(new)
    return new
