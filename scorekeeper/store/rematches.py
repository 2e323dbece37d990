"""A finished game's rematch, made once: the finished game remembers the rematch's id and
its edit token, sealed by the web layer, so that a second tap on Rematch, or a second phone
tapping it at the same moment, opens the same new game instead of another one.

One write transaction with the finished game's row locked (PostgreSQL ``FOR UPDATE``,
SQLite ``BEGIN IMMEDIATE``): of two requests at once, the second waits, then finds the
rematch the first made.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select, update

from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import models
from scorekeeper.store.game_store import lock_game
from scorekeeper.store.games import new_game_rows
from scorekeeper.store.transactions import write_transaction

GAMES = models.Game.__table__


@dataclass(frozen=True)
class Rematch:
    game_id: str
    """The rematch's id."""
    sealed_token: str
    """Its edit token as the web layer sealed it (the finished game's record of it)."""
    created: bool
    """Whether this call made it (False: an earlier call had)."""


def start_rematch(
    game_id: str,
    players: list[str],
    first_king: int,
    rules: RuleSet,
    token: str,
    sealed_token: str,
) -> Rematch:
    """The rematch of ``game_id``: the one already made, or a new game with ``token`` as its
    edit token (``sealed_token`` is kept with the finished game). :class:`GameNotFound` when
    there is no game ``game_id``."""
    with write_transaction() as session:
        lock_game(session, game_id)
        conn = session.connection()
        made = conn.execute(
            select(GAMES.c.rematch_id, GAMES.c.rematch_seal).where(GAMES.c.id == game_id)
        ).one()
        if made.rematch_id and made.rematch_seal:
            still_there = conn.execute(
                select(GAMES.c.id).where(GAMES.c.id == made.rematch_id)
            ).scalar_one_or_none()
            if still_there is not None:
                return Rematch(made.rematch_id, made.rematch_seal, created=False)
        new = new_game_rows(players, first_king, rules, token=token)
        new.insert(session)
        conn.execute(
            update(GAMES)
            .where(GAMES.c.id == game_id)
            .values(rematch_id=new.loaded.id, rematch_seal=sealed_token)
        )
    return Rematch(new.loaded.id, sealed_token, created=True)
