"""Games in the database: load (replay the log), record, edit and undo deals.

Used by the JSON API and the HTML pages alike. A game's state is never
stored: every load replays its deal log through :mod:`scorekeeper.rules.game`
(docs/STYLE.md §6). Every write is one transaction (SQLite ``BEGIN IMMEDIATE``,
PostgreSQL ``SELECT … FOR UPDATE`` on the game's row): load, replay, verify,
append, bump the version, keep a revision, commit. On any error nothing is
written.

Errors: :class:`GameNotFound` / :class:`DealNotFound` (404),
:class:`StaleVersion` (412 in the API, 409 on pages), and the engine's
:class:`~scorekeeper.rules.errors.RulesError` (its ``status``: 422 or 409).

Exactly once: every write may carry an ``entry_id`` made by the phone. A write
repeated under the same id (a retry after a lost answer, an outbox replayed
twice) writes nothing and raises :class:`AlreadyWritten` with what the first
one did; the same id for a different write is a 409 (``entry_id_reused``).
"""

from __future__ import annotations

import dataclasses
import hmac
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session, selectinload

from scorekeeper.extensions import db
from scorekeeper.rules.errors import StateError
from scorekeeper.rules.game import Game
from scorekeeper.rules.game_log import DealEntry, RedealEntry
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import models
from scorekeeper.store.events import results as event_results
from scorekeeper.store.game_store import (
    ADD_GAME,
    ADD_SEATS,
    LOCK,
    Locked,
    Once,
    Write,
    append,
    apply_change,
    check_version,
    fetch_game,
    forget_head,
    head,
    load_game,
    remove_last,
    replace_entry,
    replay_edit,
    write,
)
from scorekeeper.store.input import check_storable, clean_players
from scorekeeper.store.played import check_played_at
from scorekeeper.store.positions import Position, PositionTaken, check_position
from scorekeeper.store.snapshot import (
    AlreadyWritten,
    DealNotFound,
    GameNotFound,
    LoadedGame,
    LogRow,
    StaleVersion,
)
from scorekeeper.store.summary import DealRevision, GameSummary, summarize, summary_of
from scorekeeper.store.tokens import (
    hash_matches,
    hash_token,
    is_game_id,
    new_edit_token,
    new_game_id,
)
from scorekeeper.store.transactions import write_transaction

__all__ = [
    "AlreadyWritten",
    "DealNotFound",
    "DealRevision",
    "GameNotFound",
    "GameSummary",
    "LoadedGame",
    "LogRow",
    "NewGameRows",
    "Position",
    "PositionTaken",
    "StaleVersion",
    "create_game",
    "delete_unplayed_game",
    "deal_revisions",
    "edit_deal",
    "game_exists",
    "list_games",
    "load_game",
    "new_game_rows",
    "recent_player_names",
    "rename_seat",
    "record_deal",
    "record_redeal",
    "replace_edit_token",
    "token_matches",
    "token_ref_matches",
    "undo_last",
]


# --- reading -----------------------------------------------------------------------------


def game_exists(game_id: str) -> bool:
    if not is_game_id(game_id):
        return False
    return db.session.scalar(select(models.Game.id).where(models.Game.id == game_id)) is not None


def token_matches(game_id: str, token: str) -> bool:
    """Whether ``token`` is this game's edit token (constant time; False for no such game).

    Reads the game's head, which a page that loads the game has read already.
    """
    try:
        _version, stored = head(game_id)
    except GameNotFound:
        hash_matches(hash_token(""), token)  # as long as a wrong token: no probing for ids
        return False
    return hash_matches(stored, token)


MIN_REF_LENGTH = 16
"""64 bits of the hash: a reference no one stumbles on."""


def token_ref_matches(game_id: str, ref: str) -> bool:
    """Whether ``ref`` (a prefix of a token's hash, as a session keeps it) is this game's
    current edit token's (constant time; False for no such game)."""
    try:
        _version, stored = head(game_id)
    except GameNotFound:
        return False
    if len(ref) < MIN_REF_LENGTH:
        return False
    return hmac.compare_digest(stored[: len(ref)].encode(), ref.encode("ascii", "replace"))


def replace_edit_token(game_id: str) -> str:
    """Revoke every edit link: a new edit token, shown this once and stored hashed.

    The old token (and so every phone and API client holding it) stops working
    at once; the game's version is unchanged (its content did not change).
    """
    token = new_edit_token()
    with write_transaction() as session:
        row = fetch_game(session, game_id, lock=True)
        row.edit_token_hash = hash_token(token)
    forget_head(game_id)
    return token


def deal_revisions(game_id: str, n: int) -> list[DealRevision]:
    """Every write to deal ``n``, oldest first (record, edits, undos and re-records)."""
    loaded = load_game(game_id)
    loaded.deal_row(n)  # DealNotFound if there is no such deal now
    rows = db.session.scalars(
        select(models.Revision)
        .where(models.Revision.game_id == game_id, models.Revision.n == n)
        .order_by(models.Revision.version)
    )
    return [DealRevision(r.at, r.action, r.source, r.version, r.before, r.after) for r in rows]


def list_games(
    limit: int = 200, ids: Collection[str] | None = None
) -> tuple[list[GameSummary], list[GameSummary]]:
    """(games in progress, finished games), most recently changed first.

    ``ids`` keeps only those games (the ones a browser knows). Reads the
    summaries cached on every write, so no game is replayed.
    """
    stmt = select(models.Game)
    if ids is not None:
        stmt = stmt.where(models.Game.id.in_(list(ids)))
    rows = db.session.scalars(
        stmt.options(selectinload(models.Game.seats))
        .order_by(models.Game.updated_at.desc(), models.Game.id)
        .limit(limit)
    )
    summaries = [
        summary_of(
            r.id, [s.name for s in r.seats], r.summary, r.finished, r.created_at, r.updated_at
        )
        for r in rows
    ]
    return [s for s in summaries if not s.finished], [s for s in summaries if s.finished]


def recent_player_names(limit: int = 12) -> list[str]:
    """Names from the most recently changed games, newest first, without repeats."""
    rows = db.session.execute(
        select(models.Seat.name)
        .join(models.Game)
        .order_by(models.Game.updated_at.desc(), models.Game.id, models.Seat.seat)
        .limit(limit * 8)
    )
    names: list[str] = []
    seen: set[str] = set()
    for (name,) in rows:
        if name.casefold() not in seen and len(names) < limit:
            seen.add(name.casefold())
            names.append(name)
    return names


# --- writing -----------------------------------------------------------------------------


@dataclass(frozen=True)
class NewGameRows:
    """A game ready to insert: its row, its seats, its state and its edit token (shown once)."""

    row: dict[str, Any]
    seats: list[dict[str, Any]]
    loaded: LoadedGame
    token: str

    def insert(self, session: Session) -> None:
        """Insert the game in the caller's transaction (a club night inserts its tables so)."""
        session.connection().execute(ADD_GAME, self.row)
        session.connection().execute(ADD_SEATS, self.seats)


def new_game_rows(
    players: list[str],
    first_king: int,
    rules: RuleSet,
    *,
    game_id: str | None = None,
    token: str | None = None,
) -> NewGameRows:
    """A new game (version 1) and its edit token, not yet stored (fresh id and token unless
    given: a club night derives each table's token from its director's)."""
    names = clean_players(players)
    game = Game.start(rules, first_king, names)
    game_id, token, now = game_id or new_game_id(), token or new_edit_token(), models.utcnow()
    row = {
        "id": game_id,
        "rules": rules.to_dict(),
        "first_king": first_king,
        "version": 1,
        "edit_token_hash": hash_token(token),
        "finished": game.finished,
        "summary": summarize(game),
        "created_at": now,
        "updated_at": now,
    }
    seats = [{"game_id": game_id, "seat": s, "name": name} for s, name in enumerate(names)]
    loaded = LoadedGame(
        id=game_id,
        version=1,
        created_at=now,
        updated_at=now,
        players=names,
        rules=rules,
        first_king=first_king,
        game=game,
        log=[],
    )
    return NewGameRows(row, seats, loaded, token)


def rename_seat(session: Session, game_id: str, seat: int, name: str) -> None:
    """In the caller's transaction: the player at ``seat`` is now ``name`` (a club night's
    substitute). The game's version moves on, so every phone and cache sees the name."""
    connection = session.connection()
    connection.execute(LOCK, {"game_id": game_id})
    seats = models.Seat.__table__
    connection.execute(
        update(seats).where(seats.c.game_id == game_id, seats.c.seat == seat).values(name=name)
    )
    games = models.Game.__table__
    connection.execute(
        update(games)
        .where(games.c.id == game_id)
        .values(version=games.c.version + 1, updated_at=models.utcnow())
    )
    forget_head(game_id)


def delete_unplayed_game(session: Session, game_id: str) -> None:
    """In the caller's transaction: remove a game that no deal was recorded in (a club
    night's table drawn again); its seats, log and revisions go with it."""
    connection = session.connection()
    connection.execute(LOCK, {"game_id": game_id})
    for table in (models.Revision, models.LogEntry, models.Seat):
        column = table.__table__.c.game_id
        connection.execute(delete(table.__table__).where(column == game_id))
    connection.execute(delete(models.Game.__table__).where(models.Game.__table__.c.id == game_id))
    forget_head(game_id)


def create_game(players: list[str], first_king: int, rules: RuleSet) -> tuple[LoadedGame, str]:
    """A new game (version 1) and its edit token, shown this once and stored hashed."""
    new = new_game_rows(players, first_king, rules)
    with write_transaction() as session:
        new.insert(session)
    return new.loaded, new.token


def record_deal(
    game_id: str,
    entry: DealEntry,
    expected_version: int | None = None,
    source: str = "page",
    entry_id: str | None = None,
    *,
    position: Position | None = None,
    played_at: datetime | None = None,
) -> tuple[LoadedGame, int]:
    """Append a deal; returns the new state and the deal's number ``n``.

    ``position``: the deal number (and king) the entry was typed for. When another
    write took it meanwhile, :class:`PositionTaken` (409), checked before the version
    so that the scorer is asked "the same deal?" rather than shown the next deal's form.
    ``played_at``: the phone's clock at Save, kept with the entry (422 if absurd).
    """
    once = Once.of(entry_id, "record", entry=entry.to_dict())

    def change(session: Session, locked: Locked) -> tuple[LoadedGame, int]:
        if position is not None:
            check_position(session, locked.loaded, position, entry)
            check_version(session, locked.loaded, expected_version)
        _check_played(locked.loaded, played_at)
        if not locked.loaded.log:
            locked.loaded = _seven_of_hearts_king(session, locked.loaded, entry)
        game = locked.loaded.game.record(entry)
        record = game.deals[-1]
        after = {"kind": "deal", **record.to_dict()}
        loaded = append(session, locked, entry, game, record.n, source, "record", after, played_at)
        return loaded, record.n

    # With a position, the version is checked after it (in ``change``).
    return write(game_id, None if position else expected_version, change, once)


def _check_played(loaded: LoadedGame, played_at: datetime | None) -> None:
    if played_at is not None:
        check_played_at(played_at, loaded.created_at, models.utcnow())


def record_redeal(
    game_id: str,
    entry: RedealEntry,
    expected_version: int | None = None,
    source: str = "page",
    entry_id: str | None = None,
    *,
    played_at: datetime | None = None,
) -> LoadedGame:
    """Append a redeal or misdeal (R8): no contract is used up (``played_at`` as for a deal)."""
    check_storable(entry.note, "note")
    once = Once.of(entry_id, "redeal", entry=entry.to_dict())

    def change(session: Session, locked: Locked) -> LoadedGame:
        _check_played(locked.loaded, played_at)
        game = locked.loaded.game.record(entry)
        after = {**entry.to_dict(), "n": None}
        return append(session, locked, entry, game, None, source, "redeal", after, played_at)

    return write(game_id, expected_version, change, once)


def _seven_of_hearts_king(session: Session, loaded: LoadedGame, first: DealEntry) -> LoadedGame:
    """A club night's table names its first king with its first deal: the player dealt the
    7♥ (R2), whom the draw could not know. Any other game keeps the first king it has."""
    king = first.king
    if king is None or king == loaded.first_king or not isinstance(king, int):
        return loaded
    if not 0 <= king <= 3 or not event_results.first_king_open(session, loaded.id, loaded.rules):
        return loaded
    games = models.Game.__table__
    session.connection().execute(
        update(games).where(games.c.id == loaded.id).values(first_king=king)
    )
    game = Game.start(loaded.rules, king, loaded.players)
    return dataclasses.replace(loaded, first_king=king, game=game)


def edit_deal(
    game_id: str,
    n: int,
    entry: DealEntry,
    expected_version: int | None,
    source: str = "page",
    entry_id: str | None = None,
) -> LoadedGame:
    """Replace deal ``n`` and re-validate the whole log.

    A change that breaks a later entry is refused (:class:`StateError`, 409,
    naming the later deal and the reason) and nothing changes.
    """
    once = Once.of(entry_id, "edit", n=n, entry=entry.to_dict())

    def change(session: Session, locked: Locked) -> LoadedGame:
        loaded = locked.loaded
        target = loaded.deal_row(n)
        if target.entry == entry:
            return loaded  # nothing to change, nothing to write
        entries = [row.entry for row in loaded.log]
        entries[target.position] = entry
        before = {"kind": "deal", **loaded.game.deals[n - 1].to_dict()}
        if target.position == 0:
            loaded = _seven_of_hearts_king(session, loaded, entry)
        game = replay_edit(loaded, entries, target.position, n)
        locked.loaded = loaded
        replace_entry(session, locked, target.position, entry)
        after = {"kind": "deal", **game.deals[n - 1].to_dict()}
        log = list(loaded.log)
        log[target.position] = dataclasses.replace(target, entry=entry)
        return apply_change(
            session, locked, game, log, Write(target.position, n, "edit", before, after), source
        )

    return write(game_id, expected_version, change, once)


def undo_last(
    game_id: str,
    expected_version: int | None,
    source: str = "page",
    entry_id: str | None = None,
) -> LoadedGame:
    """Remove the last log entry (a deal or a redeal); 409 if there is none.

    Named by ``entry_id``, the undo asks for the version it undoes (``expected_version``),
    so that a retried undo is told from a second one.
    """
    once = Once.of(entry_id, "undo", version=expected_version)

    def change(session: Session, locked: Locked) -> LoadedGame:
        loaded = locked.loaded
        if not loaded.log:
            raise StateError.one("nothing_to_undo")
        last = loaded.log[-1]
        if last.n is None:
            before = {**last.entry.to_dict(), "n": None}
        else:
            before = {"kind": "deal", **loaded.game.deals[last.n - 1].to_dict()}
        remove_last(session, locked)
        log = loaded.log[:-1]
        game = Game.replay(loaded.rules, loaded.first_king, loaded.players, [r.entry for r in log])
        return apply_change(
            session, locked, game, log, Write(last.position, last.n, "undo", before, None), source
        )

    return write(game_id, expected_version, change, once)


def asks_first_king(loaded: LoadedGame) -> bool:
    """Whether this game is a club night's table before its first entry, whose first deal
    names the first king: the player dealt the 7♥ (R2)."""
    if loaded.log:
        return False
    return event_results.first_king_open(db.session(), loaded.id, loaded.rules)


def names_first_king_by_deal(loaded: LoadedGame) -> bool:
    """Whether this game is a club night's table whose first deal names (or, corrected,
    changes) the first king (R2), whatever has been recorded since: for the phone."""
    return event_results.first_king_open(db.session(), loaded.id, loaded.rules)


def game_state(loaded: LoadedGame) -> dict[str, Any]:
    """The API's game state, with ``first_king_open``: a club night's table whose first
    king is still to be named by its first deal, the player dealt the 7♥ (R2)."""
    return {**loaded.state(), "first_king_open": asks_first_king(loaded)}
