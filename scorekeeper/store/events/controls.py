"""The director's ways back, and a second pair of hands, for a club night.

- :func:`reopen_event`: a closed night is open again (its rounds, tables and
  results are as they were when it closed).
- :func:`undo_draw`: the last round's draw is undone while none of its tables
  has a deal: its games are deleted (their links stop working) and the round can
  be drawn again, with whoever arrived or left since.
- The **co-director's link** gives a second device the director's rights; the
  director gives it (:func:`give_co_director`) and can revoke it
  (:func:`revoke_co_director`). Its token is derived from the director's token
  and a count of the links given, so the director's page can show it again, and
  revoking (or giving a new one) makes the old one worthless. Only its hash is
  stored, with the director's token sealed under a key derived from it
  (:func:`acting_token`): the co-director's pages print the tables' links,
  which derive from the director's token.

All of it is one transaction each; refused, nothing is saved.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass
from typing import Any

from cryptography.fernet import Fernet, InvalidToken
from sqlalchemy import delete, select, update

from scorekeeper.rules.errors import Problem, StateError
from scorekeeper.store.events import changes as event_changes
from scorekeeper.store.events import services as events
from scorekeeper.store.events.services import CHANGES, EVENTS, PLAYERS, ROUNDS, EventView
from scorekeeper.store.tokens import hash_matches, hash_token, is_game_id
from scorekeeper.store.transactions import reader, write_transaction


def reopen_event(event_id: str) -> EventView:
    """A closed club night is open again: rounds can be drawn and tables play on."""
    with write_transaction() as session:
        events.lock_event_row(session, event_id)
        event = events.load_event(event_id)
        if event.closed:
            session.execute(update(EVENTS).where(EVENTS.c.id == event_id).values(closed=False))
            events.bump_event(session, event_id, event.version + 1)
    return events.load_event(event_id)


def undo_draw(event_id: str, number: int) -> EventView:
    """Undo the draw of round ``number``, the last drawn, while none of its tables has a
    deal: its tables and their games go, and the round is the next to draw again.

    Players added, or marked as leaving, "from the next round on" after this round was
    drawn are taken to mean this round, which is the next one again.
    """
    with write_transaction() as session:
        events.lock_event_row(session, event_id)
        event = events.load_event(event_id)
        events.refuse_closed(event)
        drawn = events.drawn_round(event, number)
        if number != len(event.drawn):
            message = (
                f"Only the last round drawn can be undone; round {len(event.drawn)} has been "
                f"drawn after round {number}."
            )
            params = {"n": number, "last": len(event.drawn)}
            raise StateError([Problem("event_undo_not_last", message, None, "round", params)])
        started = [t.number for t in drawn.tables if t.deals > 0]
        if started:
            shown = ", ".join(str(n) for n in started)
            message = (
                f"Round {number}'s draw cannot be undone: a deal has been recorded at "
                f"table {shown}."
            )
            facts: dict[str, Any] = {"n": number, "tables": shown}
            raise StateError([Problem("event_round_started", message, None, "round", facts)])
        for table in drawn.tables:
            event_changes.drop_table(session, event, table)
        where = (ROUNDS.c.event_id == event_id, ROUNDS.c.number == number)
        session.execute(delete(ROUNDS).where(*where))
        session.execute(
            delete(CHANGES).where(CHANGES.c.event_id == event_id, CHANGES.c.round == number)
        )
        for column in (PLAYERS.c.joined_round, PLAYERS.c.left_round):
            session.execute(
                update(PLAYERS)
                .where(PLAYERS.c.event_id == event_id, column == number + 1)
                .values({column.name: number})
            )
        events.bump_event(session, event_id, event.version + 1)
    return events.load_event(event_id)


# --- the co-director -------------------------------------------------------------------------


def co_director_token(director_token: str, count: int) -> str:
    """The co-director's token of the ``count``-th link given, from the director's token.

    >>> a, b = co_director_token("d" * 43, 1), co_director_token("d" * 43, 2)
    >>> len(a), a != b
    (43, True)
    """
    message = f"co-director:{count}".encode()
    digest = hmac.new(director_token.encode(), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")


def _sealer(co_token: str) -> Fernet:
    """Authenticated encryption under a key only the co-director's token gives."""
    key = hashlib.sha256(b"scorekeeper: co-director seal:" + co_token.encode()).digest()
    return Fernet(base64.urlsafe_b64encode(key))


def give_co_director(event_id: str, director_token: str) -> str:
    """A new co-director's token (the previous one, if any, stops working)."""
    with write_transaction() as session:
        events.lock_event_row(session, event_id)
        row = session.execute(
            select(EVENTS.c.co_directors, EVENTS.c.version).where(EVENTS.c.id == event_id)
        ).one()
        count = int(row.co_directors or 0) + 1
        token = co_director_token(director_token, count)
        seal = _sealer(token).encrypt(director_token.encode()).decode("ascii")
        session.execute(
            update(EVENTS)
            .where(EVENTS.c.id == event_id)
            .values(
                co_director_hash=hash_token(token),
                co_director_seal=seal,
                co_directors=count,
            )
        )
        events.bump_event(session, event_id, int(row.version) + 1)
    return token


def revoke_co_director(event_id: str) -> EventView:
    """The co-director's link stops working (on every device that opened it)."""
    with write_transaction() as session:
        events.lock_event_row(session, event_id)
        event = events.load_event(event_id)
        session.execute(
            update(EVENTS)
            .where(EVENTS.c.id == event_id)
            .values(co_director_hash=None, co_director_seal=None)
        )
        events.bump_event(session, event_id, event.version + 1)
    return events.load_event(event_id)


@dataclass(frozen=True)
class CoDirector:
    """The current co-director's link, as the director's page shows it."""

    token: str
    count: int


def current_co_director(event_id: str, director_token: str) -> CoDirector | None:
    """The co-director's token now valid, derived again from the director's; None without."""
    if not is_game_id(event_id):
        return None
    with reader() as read:
        row = read.execute(
            select(EVENTS.c.co_director_hash, EVENTS.c.co_directors).where(EVENTS.c.id == event_id)
        ).first()
    if row is None or row[0] is None:
        return None
    token = co_director_token(director_token, int(row[1]))
    return CoDirector(token, int(row[1])) if hash_matches(str(row[0]), token) else None


@dataclass(frozen=True)
class Directing:
    """Who ``token`` makes its holder, and the director's token his pages derive links from."""

    director_token: str
    co_director: bool
    """True for the co-director's link: every right but giving or revoking that link."""


def acting_token(event_id: str, token: str) -> Directing | None:
    """What ``token`` makes its holder on this event: the director, the co-director (the
    director's token opened from its seal), or nothing (None)."""
    hashes = events.director_hashes(event_id)
    if hashes is None:
        hash_matches(hash_token(""), token)  # as long as a wrong token: no probing for ids
        return None
    director, co_director = hashes
    if hash_matches(director, token):
        return Directing(token, co_director=False)
    if co_director is None or not hash_matches(co_director, token):
        return None
    with reader() as read:
        seal = read.scalar(select(EVENTS.c.co_director_seal).where(EVENTS.c.id == event_id))
    try:
        opened = _sealer(token).decrypt(str(seal).encode("ascii")).decode()
    except (InvalidToken, UnicodeError):
        return None
    return Directing(opened, co_director=True)
