"""What the services hand out: a loaded game, its log rows, and their errors.

Plain values (no database handles), so pages and the API can keep them
after the request's transaction ends.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from scorekeeper.rules.errors import RulesError
from scorekeeper.rules.game import Game
from scorekeeper.rules.game_log import DealEntry, RedealEntry
from scorekeeper.rules.ruleset import RuleSet


class GameNotFound(LookupError):
    """No game has this id (404). Worded for players by :mod:`scorekeeper.text.refusals`."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"no game {game_id!r}")
        self.game_id = game_id


class DealNotFound(LookupError):
    """The game has no deal with this number (404)."""

    def __init__(self, n: int, deals_played: int) -> None:
        super().__init__(f"no deal {n}; {deals_played} played")
        self.n = n
        self.deals_played = deals_played


@dataclass
class LogRow:
    """One stored log entry, parsed. ``n`` is the deal number (None for a redeal)."""

    position: int
    kind: str
    entry: DealEntry | RedealEntry
    n: int | None
    created_at: datetime
    played_at: datetime | None = None
    """The phone's clock at Save, with its own UTC offset; None when none was sent."""

    @property
    def when_played(self) -> datetime:
        """When the deal was played: the phone's time at Save, else the time it was recorded."""
        return self.played_at or self.created_at


@dataclass(frozen=True)
class LoadedGame:
    """A stored game and its replay."""

    id: str
    version: int
    created_at: datetime
    updated_at: datetime
    players: list[str]
    rules: RuleSet
    first_king: int
    game: Game
    log: list[LogRow]

    def state(self) -> dict[str, Any]:
        """The API's game state: the engine's ``to_dict()`` with ``id`` and ``version``."""
        return {
            "id": self.id,
            "version": self.version,
            **self.game.to_dict(),
            "created_at": self.created_at.isoformat(),
            "updated_at": self.updated_at.isoformat(),
        }

    def deal_row(self, n: int) -> LogRow:
        """The log row of deal ``n``; :class:`DealNotFound` if there is none."""
        for row in self.log:
            if row.n == n:
                return row
        raise DealNotFound(n, self.game.deals_played)


class UnreplayableLog(RuntimeError):
    """A stored log that the current rules engine no longer replays (409, nothing written).

    Only a change of the engine (or a hand-edited database) can cause it; the
    game can still be exported, since the export reads the stored rows.
    ``position`` is the refused entry's (None: the house rules themselves).
    """

    def __init__(self, game_id: str, position: int | None, error: RulesError) -> None:
        where = "its rules" if position is None else f"entry {position + 1}"
        super().__init__(f"game {game_id}: {where} refused: {error}")
        self.game_id = game_id
        self.position = position
        self.error = error


@dataclass(frozen=True)
class Change:
    """One write another phone made: ``record``, ``edit``, ``undo`` or ``redeal``, with the
    entry as it was before and after (the stored revision)."""

    action: str
    before: Any
    after: Any


class StaleVersion(Exception):
    """The caller's version is not the game's: someone else wrote first.

    ``loaded`` is the game as it is now, ``changes`` what was written since
    ``expected`` (oldest first); ``race`` a write that lost at the very same moment.
    """

    def __init__(
        self,
        loaded: LoadedGame,
        expected: int,
        changes: Sequence[Change] = (),
        race: bool = False,
    ) -> None:
        super().__init__(f"version {expected} is stale: the game is at version {loaded.version}")
        self.loaded = loaded
        self.expected = expected
        self.changes = tuple(changes)
        self.race = race


class AlreadyWritten(Exception):
    """This very write (same entry id, same request) was made before: nothing is written
    again. ``loaded`` is the game as it is now; ``action`` and ``after`` are what that
    write did (its revision: the entry as it was then recorded, None for an undo)."""

    def __init__(self, loaded: LoadedGame, action: str, after: dict[str, Any] | None) -> None:
        super().__init__(f"already written: {action} (game at version {loaded.version})")
        self.loaded = loaded
        self.action = action
        self.after = after
