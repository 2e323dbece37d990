"""The database side of club nights: events, their players, rounds and tables.

Each table of a round is a normal game (:mod:`scorekeeper.store.models`); the
event keeps which game a table plays and the table's latest result (totals,
Trix firsts, deals played), refreshed by every write to that game
(:mod:`scorekeeper.store.events.results`). The standings are built from these
results, never by replaying the games.

Every type here works on SQLite and PostgreSQL alike.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
)
from sqlalchemy.orm import Mapped, mapped_column

from scorekeeper.extensions import db
from scorekeeper.store.models import ID_LENGTH, NAME_LENGTH, UTCDateTime, utcnow

EVENT_NAME_LENGTH = 80
SEED_LENGTH = 40


class Event(db.Model):  # type: ignore[name-defined,misc]
    """A club night: its players, rule set, how rounds are played and scored."""

    __tablename__ = "events"

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    name: Mapped[str] = mapped_column(String(EVENT_NAME_LENGTH))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The rule set every table's game is started with."""
    rounds: Mapped[int] = mapped_column(Integer)
    """Rounds planned."""
    round_kind: Mapped[str] = mapped_column(String(8))
    """``game`` (a whole game per round) or ``kingdom`` (one kingdom per round)."""
    scoring: Mapped[str] = mapped_column(String(8))
    places: Mapped[list[int]] = mapped_column(JSON)
    partnership: Mapped[bool] = mapped_column(Boolean)
    seed: Mapped[int] = mapped_column(Integer)
    circle_id: Mapped[str | None] = mapped_column(String(ID_LENGTH), nullable=True)
    director_token_hash: Mapped[str] = mapped_column(String(64))
    """SHA-256 (hex) of the director's token; the token itself is never stored."""
    co_director_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """SHA-256 (hex) of the co-director's token, None while there is no co-director link
    (never given, or revoked)."""
    co_director_seal: Mapped[str | None] = mapped_column(Text, nullable=True)
    """The director's token encrypted under a key derived from the co-director's token:
    only a holder of the co-director link can open it, to print the tables' links."""
    co_directors: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """How many co-director links were ever given: the current one is derived from the
    director's token and this count, so the director's page can show it again."""
    version: Mapped[int] = mapped_column(Integer, default=1)
    """Incremented by every change, a table's deal included: the event's ETag."""
    closed: Mapped[bool] = mapped_column(Boolean, default=False)
    byes: Mapped[str] = mapped_column(String(8), server_default="none")
    """What a round sat out is worth: ``average`` (of the player's own tables), ``fixed``
    (``bye_points``) or ``none`` (the nights created before this rule)."""
    bye_points: Mapped[int] = mapped_column(Integer, server_default="0")
    ranking: Mapped[str] = mapped_column(String(8), server_default="points")
    """``points``, or ``average``: points per table played."""
    draw: Mapped[str] = mapped_column(String(16), server_default="avoid_repeats")
    """How rounds are drawn: ``avoid_repeats``, ``swiss`` or ``rotation``
    (:class:`~scorekeeper.rules.events.draw.DrawMethod`)."""
    round_minutes: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """How long a round should take, set by the director: the board counts it down from
    each round's ``drawn_at`` (None: no round clock)."""

    __table_args__ = (
        CheckConstraint("round_kind IN ('game', 'kingdom')", name="ck_events_round_kind"),
        CheckConstraint("scoring IN ('totals', 'places')", name="ck_events_scoring"),
    )


class EventPlayer(db.Model):  # type: ignore[name-defined,misc]
    """A player of the event, in the order given; present from ``joined_round`` on."""

    __tablename__ = "event_players"

    event_id: Mapped[str] = mapped_column(
        String(ID_LENGTH), ForeignKey("events.id", ondelete="CASCADE"), primary_key=True
    )
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    joined_round: Mapped[int] = mapped_column(Integer, default=1)
    left_round: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The first round he is no longer drawn for, None while he plays on."""


class EventRound(db.Model):  # type: ignore[name-defined,misc]
    """A drawn round: the seed it was drawn with, who sat out, whether it is locked."""

    __tablename__ = "event_rounds"

    event_id: Mapped[str] = mapped_column(
        String(ID_LENGTH), ForeignKey("events.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seed: Mapped[str] = mapped_column(String(SEED_LENGTH))
    sitting_out: Mapped[list[str]] = mapped_column(JSON)
    left_out: Mapped[list[str] | None] = mapped_column(JSON, nullable=True)
    """Players not drawn in this round because they had left (None: drawn before this was
    kept)."""
    locked: Mapped[bool] = mapped_column(Boolean, default=False)
    drawn_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class EventTable(db.Model):  # type: ignore[name-defined,misc]
    """A table of a round: its game, its players in seat order and its latest result."""

    __tablename__ = "event_tables"

    event_id: Mapped[str] = mapped_column(
        String(ID_LENGTH), ForeignKey("events.id", ondelete="CASCADE"), primary_key=True
    )
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(
        String(ID_LENGTH), ForeignKey("games.id", ondelete="CASCADE"), unique=True
    )
    players: Mapped[list[str]] = mapped_column(JSON)
    totals: Mapped[list[int]] = mapped_column(JSON)
    """Per seat; in a partnership event each seat holds its team's total."""
    trix_firsts: Mapped[list[int]] = mapped_column(JSON)
    deals: Mapped[int] = mapped_column(Integer, default=0)
    finished: Mapped[bool] = mapped_column(Boolean, default=False)
    version: Mapped[int] = mapped_column(Integer)
    """The event's version when this result last changed (standings catch up from it)."""

    __table_args__ = (Index("ix_event_tables_event_version", "event_id", "version"),)


class EventChange(db.Model):  # type: ignore[name-defined,misc]
    """A change the director made to a drawn round when a player left in the middle of it:
    a substitute took his seat (``replace``) or the tables not started were drawn again
    without him (``redraw``)."""

    __tablename__ = "event_changes"

    event_id: Mapped[str] = mapped_column(
        String(ID_LENGTH), ForeignKey("events.id", ondelete="CASCADE"), primary_key=True
    )
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    round: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))
    player: Mapped[str] = mapped_column(String(NAME_LENGTH))
    """The player who left."""
    substitute: Mapped[str | None] = mapped_column(String(NAME_LENGTH), nullable=True)
    table: Mapped[int | None] = mapped_column(Integer, nullable=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    after_deals: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """Deals the table had played when the substitute sat down."""
    game_id: Mapped[str | None] = mapped_column(String(ID_LENGTH), nullable=True, index=True)
    """The table's game (a replacement), for its game page to tell who took over."""
    seed: Mapped[str | None] = mapped_column(String(SEED_LENGTH), nullable=True)
    """The re-draw's seed."""
    tables: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    """The tables a re-draw drew again."""
    left_in: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The round the player left in, when it is earlier than this change's: a round drawn
    before he left, whose seat the app gave to someone sitting out."""
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    __table_args__ = (
        CheckConstraint("kind IN ('replace', 'redraw')", name="ck_event_changes_kind"),
    )
