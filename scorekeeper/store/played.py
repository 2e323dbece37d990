"""When a deal was played: the phone's clock at Save (API.md "Time played").

A phone may sync a deal long after it was played (offline, a weak network); the
deal's history and the score sheet show when it was played, not when it reached
the server. The time comes as ISO 8601 with its UTC offset
(``2026-12-03T21:42:05+03:00``) and is kept in UTC beside that offset, so that the
sheet prints it as the table's own clock read it.

Bounds, for a clock that is wrong rather than a little off:

- at most :data:`AHEAD` after the server's clock (a phone a little fast is fine);
- at least :data:`EARLY` before the game was created, no earlier (a phone a little slow).

>>> played = parse_played_at("2026-12-03T21:42:05+03:00")
>>> to_columns(played)[1], from_columns(*to_columns(played)) == played
(180, True)
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from scorekeeper.rules.errors import IllegalError, MalformedError

AHEAD = timedelta(minutes=10)
"""How far ahead of the server's clock a phone's clock may be."""
EARLY = timedelta(minutes=10)
"""How long before the game's creation a deal may say it was played (a slow clock)."""
MAX_OFFSET = timedelta(hours=14)
"""The widest UTC offset of any time zone (UTC+14, Kiribati)."""
FIELD = "played_at"


def parse_played_at(raw: object) -> datetime:
    """An ISO 8601 date and time with its UTC offset; 422 (``bad_played_at``) otherwise."""
    moment: datetime | None = None
    if isinstance(raw, str) and len(raw) <= 40:
        try:
            moment = datetime.fromisoformat(raw)
        except ValueError:
            moment = None
    offset = moment.utcoffset() if moment is not None else None
    if moment is None or offset is None or abs(offset) > MAX_OFFSET:
        shown = repr(raw) if len(repr(raw)) <= 60 else repr(raw)[:57] + "…"
        raise MalformedError.one(
            "bad_played_at",
            field=FIELD,
            value=shown,
        )
    return moment


def check_played_at(played: datetime, created_at: datetime, now: datetime) -> None:
    """422 (``played_at_out_of_range``) for a time past :data:`AHEAD` of ``now`` or more
    than :data:`EARLY` before the game was created: the phone's clock is wrong."""
    shown = played.isoformat(timespec="minutes")
    if played > now + AHEAD:
        minutes = int(AHEAD.total_seconds() // 60)
        raise IllegalError.one(
            "played_at_out_of_range",
            field=FIELD,
            played=shown,
            minutes=minutes,
            variant="future",
        )
    if played < created_at - EARLY:
        created = created_at.astimezone(UTC).isoformat(timespec="minutes")
        raise IllegalError.one(
            "played_at_out_of_range",
            field=FIELD,
            played=shown,
            created=created,
            variant="early",
        )


def to_columns(played: datetime | None) -> tuple[datetime | None, int | None]:
    """(the moment in UTC, its offset in minutes), as the log keeps them."""
    if played is None:
        return None, None
    offset = played.utcoffset() or timedelta()
    return played.astimezone(UTC), int(offset.total_seconds() // 60)


def from_columns(at: datetime | None, offset: int | None) -> datetime | None:
    """The moment as the phone's clock read it (its own offset), from what the log keeps."""
    if at is None:
        return None
    return at.astimezone(timezone(timedelta(minutes=offset or 0)))
