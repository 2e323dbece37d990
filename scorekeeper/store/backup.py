"""Back up a game as JSON and restore it as a new game (format: :mod:`.backup_format`).

The export reads the stored rows as they are, without replaying them, so a
game whose log the current engine refuses can still be saved. The import
checks the whole file and replays its log through the rules engine before
writing anything, then writes the game, its log and its revisions in one
transaction under a new id and a new edit token.

Round trip: ``export(import(export(g)))`` equals ``export(g)`` except for
``id`` (the new game's) and ``exported_at`` (the moment of the export).
Versions, revisions (with the entry ids phones gave them) and every
timestamp (``created_at``, ``updated_at``, each entry's and revision's) are
kept as they were.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from scorekeeper.extensions import db
from scorekeeper.store import models
from scorekeeper.store.backup_format import (
    FORMAT,
    FORMAT_VERSION,
    Backup,
    parse_backup,
    revision_dict,
    timestamp,
)
from scorekeeper.store.game_store import (
    ADD_ENTRY,
    ADD_GAME,
    ADD_REVISION,
    ADD_SEATS,
    fetch_game,
    fetch_log,
    load_game,
)
from scorekeeper.store.played import from_columns, to_columns
from scorekeeper.store.snapshot import LoadedGame
from scorekeeper.store.summary import summarize
from scorekeeper.store.tokens import hash_token, new_edit_token, new_game_id
from scorekeeper.store.transactions import write_transaction

__all__ = ["export_game", "import_game", "write_backup"]


def export_game(game_id: str) -> dict[str, Any]:
    """The game as a backup file (a JSON-ready dict); :class:`GameNotFound`."""
    session = db.session()
    row = fetch_game(session, game_id, lock=False)
    entries = fetch_log(session, game_id)
    revisions = _revisions(session, game_id)
    log = [_log_dict(entry, revisions) for entry in entries]
    undone = [r for r in revisions if r["position"] >= len(entries)]
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "exported_at": timestamp(models.utcnow()),
        "id": row.id,
        "version": row.version,
        "created_at": timestamp(row.created_at),
        "updated_at": timestamp(row.updated_at),
        "players": [seat.name for seat in row.seats],
        "first_king": row.first_king,
        "rules": row.rules,
        "log": log,
        "undone": undone,
    }


def _revisions(session: Session, game_id: str) -> list[dict[str, Any]]:
    rows = session.scalars(
        select(models.Revision)
        .where(models.Revision.game_id == game_id)
        .order_by(models.Revision.version)
    )
    return [
        revision_dict(
            r.position,
            r.version,
            r.action,
            r.n,
            r.at,
            r.source,
            r.before,
            r.after,
            r.entry_id,
            r.request_hash,
        )
        for r in rows
    ]


def _log_dict(entry: models.LogEntry, revisions: list[dict[str, Any]]) -> dict[str, Any]:
    item = {
        "position": entry.position,
        "kind": entry.kind,
        "entry": entry.payload,
        "created_at": timestamp(entry.created_at),
    }
    played = from_columns(entry.played_at, entry.played_offset)
    if played is not None:  # with the phone's own offset, as it was sent
        item["played_at"] = played.isoformat()
    return {**item, "revisions": [r for r in revisions if r["position"] == entry.position]}


def import_game(data: object) -> tuple[LoadedGame, str]:
    """Restore a backup as a new game: (the game, its new edit token).

    Raises :class:`~scorekeeper.rules.errors.MalformedError` (422) naming what
    is wrong with the file; then nothing is written.
    """
    backup = parse_backup(data)
    with write_transaction() as session:
        game_id, token = write_backup(session, backup)
    return load_game(game_id), token


def write_backup(session: Session, backup: Backup) -> tuple[str, str]:
    """Write a checked backup as a new game in the caller's transaction: (its id, its new
    edit token). A circle's restore writes all its games so, in its one transaction."""
    token, game_id = new_edit_token(), new_game_id()
    connection = session.connection()
    # The game's row first: its seats, log and revisions refer to it.
    connection.execute(ADD_GAME, _game_row(backup, game_id, token))
    connection.execute(ADD_SEATS, _seat_rows(backup, game_id))
    if backup.log:
        connection.execute(ADD_ENTRY, _log_rows(backup, game_id))
    if backup.revisions:
        connection.execute(ADD_REVISION, _revision_rows(backup, game_id))
    return game_id, token


def _game_row(backup: Backup, game_id: str, token: str) -> dict[str, Any]:
    return {
        "id": game_id,
        "rules": backup.rules.to_dict(),
        "first_king": backup.first_king,
        "version": backup.version,
        "edit_token_hash": hash_token(token),
        "finished": backup.game.finished,
        "summary": summarize(backup.game),
        "created_at": backup.created_at,
        "updated_at": backup.updated_at,
    }


def _seat_rows(backup: Backup, game_id: str) -> list[dict[str, Any]]:
    return [{"game_id": game_id, "seat": s, "name": n} for s, n in enumerate(backup.players)]


def _log_rows(backup: Backup, game_id: str) -> list[dict[str, Any]]:
    return [
        {
            "game_id": game_id,
            "position": position,
            "kind": item.kind,
            "payload": item.entry.to_dict(),
            "created_at": item.created_at,
            **dict(zip(("played_at", "played_offset"), to_columns(item.played_at), strict=True)),
        }
        for position, item in enumerate(backup.log)
    ]


def _revision_rows(backup: Backup, game_id: str) -> list[dict[str, Any]]:
    return [
        {
            "game_id": game_id,
            "position": r.position,
            "n": r.n,
            "action": r.action,
            "version": r.version,
            "before": r.before,
            "after": r.after,
            "at": r.at,
            "source": r.source,
            "entry_id": r.entry_id,  # a phone's retry of it is still answered, not written
            "request_hash": r.request_hash,
        }
        for r in backup.revisions
    ]
