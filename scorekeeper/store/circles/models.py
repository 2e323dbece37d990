"""The tables of circles: the group, its members, its games' seats and its ratings.

A circle's games stay ordinary games (:mod:`scorekeeper.store.models`); a
circle only links them (:class:`CircleGame`) and says which member sat at
each seat (:class:`CircleSeat`). What the statistics need of a game is
derived from its replayed log and kept beside the link (``facts``) and, per
seat, as the share it adds to its member's running sums (``share``), which
the member keeps (``sums``); every write to a game refreshes them
(:mod:`.hooks`), so that a player's page reads one row of sums and replays
nothing. Ratings are recomputed from the games'
final orders and kept as a history (:class:`RatingPoint`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from scorekeeper.extensions import db
from scorekeeper.store.models import ID_LENGTH, NAME_LENGTH, UTCDateTime, utcnow

CIRCLE_NAME_LENGTH = 60
COLOUR_LENGTH = 7
EMOJI_LENGTH = 16


class Circle(db.Model):  # type: ignore[name-defined,misc]
    """A group of players who play together; its links work like a game's."""

    __tablename__ = "circles"

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    name: Mapped[str] = mapped_column(String(CIRCLE_NAME_LENGTH))
    edit_token_hash: Mapped[str] = mapped_column(String(64))
    """SHA-256 (hex) of the circle's edit token; the token itself is never stored."""
    ratings: Mapped[bool] = mapped_column(Boolean, default=False)
    """Whether the circle keeps ratings (opt-in)."""
    rules: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    """The circle's usual house rules (a rule set's dict): a new game's default."""
    version: Mapped[int] = mapped_column(Integer, default=1)
    """Bumped whenever a member, a link or one of its games changes: the caches' key."""
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Member(db.Model):  # type: ignore[name-defined,misc]
    """A player of a circle: a name (any script), and an optional colour or emoji."""

    __tablename__ = "circle_members"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    circle_id: Mapped[str] = mapped_column(
        String(ID_LENGTH), ForeignKey("circles.id", ondelete="CASCADE")
    )
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    name_key: Mapped[str] = mapped_column(String(4 * NAME_LENGTH))
    """The name case-folded: two members of a circle never share it."""
    colour: Mapped[str | None] = mapped_column(String(COLOUR_LENGTH), nullable=True)
    emoji: Mapped[str | None] = mapped_column(String(EMOJI_LENGTH), nullable=True)
    mu: Mapped[float | None] = mapped_column(Float, nullable=True)
    """The current rating (after the circle's last finished game), None before any."""
    sigma: Mapped[float | None] = mapped_column(Float, nullable=True)
    sums: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    """The sums of his finished games' shares (:mod:`.stats`), kept by every write to them."""
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    __table_args__ = (
        UniqueConstraint("circle_id", "name_key", name="uq_circle_members_name"),
        Index("ix_circle_members_circle", "circle_id"),
    )


class CircleGame(db.Model):  # type: ignore[name-defined,misc]
    """A game played in a circle (a game belongs to at most one circle)."""

    __tablename__ = "circle_games"

    game_id: Mapped[str] = mapped_column(
        String(ID_LENGTH), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    circle_id: Mapped[str] = mapped_column(
        String(ID_LENGTH), ForeignKey("circles.id", ondelete="CASCADE")
    )
    played_at: Mapped[datetime] = mapped_column(UTCDateTime)
    """When the game started: the order of the circle's history."""
    finished: Mapped[bool] = mapped_column(Boolean, default=False)
    facts: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    """What the statistics need of the game (:mod:`.facts`), from its replay."""

    __table_args__ = (Index("ix_circle_games_circle", "circle_id", "played_at"),)


class CircleSeat(db.Model):  # type: ignore[name-defined,misc]
    """Which member sat at one seat of a circle's game."""

    __tablename__ = "circle_seats"

    game_id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    member_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("circle_members.id", ondelete="CASCADE")
    )
    total: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The seat's final total, once the game is finished."""
    place: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The seat's place in the final order (1 first), once the game is finished."""
    share: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """What the finished game adds to the member's sums (:func:`.stats.seat_share`)."""

    __table_args__ = (
        ForeignKeyConstraint(
            ["game_id", "seat"],
            ["seats.game_id", "seats.seat"],
            ondelete="CASCADE",
            name="fk_circle_seats_seat",
        ),
        ForeignKeyConstraint(
            ["game_id"], ["circle_games.game_id"], ondelete="CASCADE", name="fk_circle_seats_game"
        ),
        Index("ix_circle_seats_member", "member_id"),
    )


class RatingPoint(db.Model):  # type: ignore[name-defined,misc]
    """A member's rating after one finished game of the circle (the rating's history)."""

    __tablename__ = "circle_ratings"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    circle_id: Mapped[str] = mapped_column(
        String(ID_LENGTH), ForeignKey("circles.id", ondelete="CASCADE")
    )
    member_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("circle_members.id", ondelete="CASCADE")
    )
    game_id: Mapped[str] = mapped_column(
        String(ID_LENGTH), ForeignKey("games.id", ondelete="CASCADE")
    )
    sequence: Mapped[int] = mapped_column(Integer)
    """The game's place in the circle's history of finished games, from 1."""
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)

    __table_args__ = (Index("ix_circle_ratings_member", "circle_id", "member_id", "sequence"),)
