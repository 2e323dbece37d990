"""The database: games, their seats, the append-only deal log and its revisions.

Only what cannot be derived is stored (docs/STYLE.md §6): the players, the rule
set, the first king and the log of entries. Totals, kings and remaining
contracts come from replaying the log through :mod:`scorekeeper.rules.game`.
The one exception is :attr:`Game.summary` (and :attr:`Game.finished`), a
cache for the home page's list that every write recomputes from the replay.

Every type here works on SQLite and PostgreSQL alike.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import Mapped, mapped_column, relationship
from sqlalchemy.types import TypeDecorator

from scorekeeper.extensions import db
from scorekeeper.store import transactions as _transactions  # noqa: F401  (SQLite BEGIN handling)

NAME_LENGTH = 40
ID_LENGTH = 32
ENTRY_ID_LENGTH = 64
RATE_KEY_LENGTH = 255


def utcnow() -> datetime:
    """The current time, timezone-aware, in UTC."""
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp stored in UTC and always read back timezone-aware.

    SQLite keeps no timezone, PostgreSQL's ``timestamptz`` does; this makes
    both give the same aware ``datetime``.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("timestamps must be timezone-aware")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None or value.tzinfo is not None:
            return value
        return value.replace(tzinfo=UTC)


class Game(db.Model):  # type: ignore[name-defined,misc]
    """One game: who plays, under which house rules, and its write version."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    first_king: Mapped[int] = mapped_column(Integer)
    version: Mapped[int] = mapped_column(Integer, default=1)
    """Incremented by every write; the API's ETag."""
    edit_token_hash: Mapped[str] = mapped_column(String(64))
    """SHA-256 (hex) of the edit token; the token itself is never stored."""
    finished: Mapped[bool] = mapped_column(Boolean, default=False, index=True)
    """Cache of the replay's ``finished``, recomputed on every write."""
    summary: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    """Cache for the home page (deals played, totals, leaders), recomputed on every write."""
    rematch_id: Mapped[str | None] = mapped_column(String(ID_LENGTH), nullable=True)
    """The rematch started from this finished game, made once (``store.rematches``)."""
    rematch_seal: Mapped[str | None] = mapped_column(Text, nullable=True)
    """The rematch's edit token, sealed by the web layer: a second phone that may edit this
    game gets the rematch's edit rights too."""

    seats: Mapped[list[Seat]] = relationship(
        back_populates="game", order_by="Seat.seat", cascade="all, delete-orphan"
    )

    __table_args__ = (CheckConstraint("first_king BETWEEN 0 AND 3", name="ck_games_first_king"),)


class Seat(db.Model):  # type: ignore[name-defined,misc]
    """A player's name at a seat 0–3 (turn order, R1)."""

    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(
        String(ID_LENGTH), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))

    game: Mapped[Game] = relationship(back_populates="seats")

    __table_args__ = (CheckConstraint("seat BETWEEN 0 AND 3", name="ck_seats_seat"),)


class LogEntry(db.Model):  # type: ignore[name-defined,misc]
    """One entry of a game's deal log: a deal, a redeal or a misdeal.

    ``payload`` is the entry's dict (``DealEntry.to_dict()`` /
    ``RedealEntry.to_dict()``); ``position`` counts entries from 0.
    """

    __tablename__ = "log_entries"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(
        String(ID_LENGTH), ForeignKey("games.id", ondelete="CASCADE")
    )
    position: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(10))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    """When the server recorded it (a sync may come long after the deal was played)."""
    played_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    """The phone's clock at Save (API.md "Time played"), None when none was sent."""
    played_offset: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """That clock's offset from UTC in minutes, so the sheet shows the table's own time."""

    __table_args__ = (
        UniqueConstraint("game_id", "position", name="uq_log_entries_game_position"),
        CheckConstraint("position >= 0", name="ck_log_entries_position"),
        CheckConstraint("kind IN ('deal', 'redeal', 'misdeal')", name="ck_log_entries_kind"),
    )


class Revision(db.Model):  # type: ignore[name-defined,misc]
    """What one write did to one log position: the entry before and after.

    ``before``/``after`` are the entry as scored (deal number, king,
    contracts, captures, scores), or None when there was none.
    """

    __tablename__ = "revisions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(
        String(ID_LENGTH), ForeignKey("games.id", ondelete="CASCADE")
    )
    position: Mapped[int] = mapped_column(Integer)
    n: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The deal number the write concerned, None for a redeal."""
    action: Mapped[str] = mapped_column(String(10))
    version: Mapped[int] = mapped_column(Integer)
    """The game's version after this write."""
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    source: Mapped[str] = mapped_column(String(16))
    entry_id: Mapped[str | None] = mapped_column(String(ENTRY_ID_LENGTH), nullable=True)
    """The id a phone gave this write (API.md "Exactly-once entries"), None without one.

    Kept on the revision rather than the log entry: an undo deletes the entry, but a
    retried request must still find the write it repeats."""
    request_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """SHA-256 (hex) of what the request asked for, to tell a repeat from a reused id."""

    __table_args__ = (
        UniqueConstraint("game_id", "entry_id", name="uq_revisions_game_entry_id"),
        Index("ix_revisions_game_n", "game_id", "n"),
        Index("ix_revisions_game_version", "game_id", "version"),
        CheckConstraint(
            "action IN ('record', 'edit', 'undo', 'redeal')", name="ck_revisions_action"
        ),
    )


class RateCounter(db.Model):  # type: ignore[name-defined,misc]
    """One rate-limit counter (:mod:`scorekeeper.store.rate_counters`): in the database, so
    that every gunicorn worker counts the same requests."""

    __tablename__ = "rate_counters"

    key: Mapped[str] = mapped_column(String(RATE_KEY_LENGTH), primary_key=True)
    hits: Mapped[int] = mapped_column(Integer)
    expires_at: Mapped[float] = mapped_column(Float)
    """When the window ends, in seconds since the epoch."""

    __table_args__ = (Index("ix_rate_counters_expires_at", "expires_at"),)
