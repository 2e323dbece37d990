"""A deal typed for a position: its game, its deal number and its king.

Two scorers at one table may type the same deal at once. Each deal form (and
each API or sync entry that says so) names the position it was typed for;
when another write took that position meanwhile, the deal is refused
(:class:`PositionTaken`, a 409) with the entry that holds the position, and is
**never** recorded as the next deal by itself: recording it there is the
scorer's explicit choice ("Mine is the next deal"), sent again for the new
position. A retry of the very same entry (same ``entry_id``) is answered with
what it wrote before it ever gets here, so a phone never meets its own entry
as "the other" one.

Codes (API.md): ``deal_already_recorded`` when deal ``n`` is recorded now;
``position_moved`` when the game moved otherwise (a deal undone, another king).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from scorekeeper.rules.captures import is_seat
from scorekeeper.rules.errors import MalformedError, Problem, RulesError, StateError
from scorekeeper.rules.game_log import DealEntry, DealRecord
from scorekeeper.rules.scoring import score_deal
from scorekeeper.rules.wire import only_keys
from scorekeeper.store import models
from scorekeeper.store.snapshot import LoadedGame

FIELD = "position"
MAX_DEAL = 400
"""Far past any game's last deal (a game has at most a few dozen, tie-breaks included)."""


@dataclass(frozen=True)
class Position:
    """Where a deal was typed: deal ``n`` of game ``game``, ``king`` king (None: not known)."""

    n: int
    king: int | None = None
    game: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"n": self.n, "king": self.king}


@dataclass(frozen=True)
class Holder:
    """The entry that holds a position: the deal as scored, and who recorded it when."""

    deal: DealRecord
    source: str
    """``page``, ``offline``, ``api``, ``check`` or ``director`` (the revision's source)."""
    recorded_at: datetime
    played_at: datetime | None
    entry_id: str | None
    """The id its phone gave it: a phone tells its own entries from another's by it."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "deal": self.deal.to_dict(),
            "source": self.source,
            "recorded_at": self.recorded_at.isoformat(),
            "played_at": None if self.played_at is None else self.played_at.isoformat(),
            "entry_id": self.entry_id,
        }


class PositionTaken(StateError):
    """The position a deal was typed for is not the game's next one any more (409).

    ``loaded`` is the game as it is now; ``holder`` the entry at the position (None
    when the position is not recorded: a deal undone, another king); ``entry`` the
    refused deal, ``same`` whether it says what the holder says, ``scores`` its
    scores, and ``next_problems`` why it could not be the next deal either (empty: it can).
    """

    def __init__(
        self,
        problems: list[Problem],
        loaded: LoadedGame,
        position: Position,
        holder: Holder | None,
        entry: DealEntry,
    ) -> None:
        super().__init__(problems)
        self.loaded, self.position, self.holder, self.entry = loaded, position, holder, entry
        self.scores = _scores(loaded, entry)
        self.same = holder is not None and _same(holder.deal, entry)
        self.next_problems = _next_problems(loaded, entry)

    @property
    def next_position(self) -> Position:
        """The position the game is at now: where "Mine is the next deal" would record it."""
        game = self.loaded.game
        return Position(game.deals_played + 1, game.current_king, self.loaded.id)

    def details(self) -> dict[str, Any]:
        """What the API's 409 carries beside its errors, for the phone's "the same deal?"."""
        return {
            "position": self.position.to_dict(),
            "other": None if self.holder is None else self.holder.to_dict(),
            "mine": {
                **self.entry.to_dict(),
                "scores": None if self.scores is None else list(self.scores),
            },
            "same": self.same,
            "next": {
                **self.next_position.to_dict(),
                "valid": not self.next_problems,
                "problems": [p.as_dict() for p in self.next_problems],
            },
        }


def parse_position(raw: object) -> Position:
    """``{"n": 10, "king": 1?, "game": "…"?}``; 422 (``bad_position``) otherwise."""
    if not isinstance(raw, Mapping):
        raise _bad("shape")
    only_keys(raw, {"n", "king", "game"}, "a position")
    n, king, game = raw.get("n"), raw.get("king"), raw.get("game")
    if not (isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= MAX_DEAL):
        raise _bad("n")
    if king is not None and not is_seat(king):
        raise _bad("king")
    if game is not None and not isinstance(game, str):
        raise _bad("game")
    return Position(n, king, game)


def _bad(variant: str) -> MalformedError:
    return MalformedError([Problem.of("bad_position", field=FIELD, variant=variant, max=MAX_DEAL)])


def check_position(
    session: Session, loaded: LoadedGame, position: Position, entry: DealEntry
) -> None:
    """Nothing if ``position`` is the game's next deal; else :class:`PositionTaken`."""
    game = loaded.game
    following = game.deals_played + 1
    king_now = game.current_king
    other_game = position.game is not None and position.game != loaded.id
    other_king = position.king is not None and king_now is not None and position.king != king_now
    if position.n == following and not other_king and not other_game:
        return
    holder = _holder(session, loaded, position.n) if position.n < following else None
    raise PositionTaken(_problems(loaded, position, holder), loaded, position, holder, entry)


def _problems(loaded: LoadedGame, position: Position, holder: Holder | None) -> list[Problem]:
    n, following = position.n, loaded.game.deals_played + 1
    if holder is not None:
        return [Problem.of("deal_already_recorded", rule="R2", field=FIELD, n=n)]
    king_now = loaded.game.current_king
    if position.n == following and position.king is not None and king_now is not None:
        typed, now = loaded.players[position.king], loaded.players[king_now]
        params = {"n": n, "typed": typed, "king": now, "variant": "king"}
        return [Problem.of("position_moved", rule="R2", field=FIELD, **params)]
    return [Problem.of("position_moved", rule="R2", field=FIELD, n=n, next=following)]


def _holder(session: Session, loaded: LoadedGame, n: int) -> Holder | None:
    """Deal ``n`` as it stands, and the write that recorded it (the last ``record`` of it)."""
    deal = next((d for d in loaded.game.deals if d.n == n), None)
    if deal is None:
        return None
    revision = session.execute(
        select(models.Revision.source, models.Revision.at, models.Revision.entry_id)
        .where(
            models.Revision.game_id == loaded.id,
            models.Revision.n == n,
            models.Revision.action == "record",
        )
        .order_by(models.Revision.version.desc())
        .limit(1)
    ).first()
    row = loaded.deal_row(n)
    if revision is None:  # a game restored without its history
        return Holder(deal, "page", row.created_at, row.played_at, None)
    source, at, entry_id = revision
    return Holder(deal, str(source), at, row.played_at, entry_id)


def _same(deal: DealRecord, entry: DealEntry) -> bool:
    """Whether the entry says what the recorded deal says (contracts and captures)."""
    return tuple(deal.contracts) == tuple(entry.contracts) and deal.captures == entry.captures


def _scores(loaded: LoadedGame, entry: DealEntry) -> tuple[int, int, int, int] | None:
    try:
        return score_deal(loaded.rules, entry.contracts, entry.captures, loaded.players)
    except RulesError:
        return None


def _next_problems(loaded: LoadedGame, entry: DealEntry) -> list[Problem]:
    """Why the entry could not be recorded as the game's next deal (empty: it could)."""
    try:
        loaded.game.verify(entry)
    except RulesError as error:
        return list(error.problems)
    return []
