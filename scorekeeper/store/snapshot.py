"""What the services hand out: a loaded game, its log rows, and their errors.

Plain values (no database handles), so pages and the API can keep them
after the request's transaction ends.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from scorekeeper.rules.game import Game
from scorekeeper.rules.game_log import DealEntry, RedealEntry
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.text.locale import format_number, ngettext
from scorekeeper.text.locale import gettext as _


class GameNotFound(LookupError):
    """No game has this id (404)."""

    def __init__(self, game_id: str) -> None:
        super().__init__(_("There is no game at this address; check the link."))
        self.game_id = game_id


class DealNotFound(LookupError):
    """The game has no deal with this number (404)."""

    def __init__(self, n: int, deals_played: int) -> None:
        message = ngettext(
            "This game has no deal %(n)s; it has %(count)s deal so far.",
            "This game has no deal %(n)s; it has %(count)s deals so far.",
            deals_played,
            n=format_number(n),
            count=format_number(deals_played),
        )
        super().__init__(message)
        self.n = n


@dataclass
class LogRow:
    """One stored log entry, parsed. ``n`` is the deal number (None for a redeal)."""

    position: int
    kind: str
    entry: DealEntry | RedealEntry
    n: int | None
    created_at: datetime


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
    """

    def __init__(self, game_id: str, position: int | None, reason: str) -> None:
        if position is None:
            message = _(
                "This game's log cannot be replayed under the current rules engine: its house "
                "rules are refused (%(reason)s). Nothing was changed; its backup (JSON export) "
                "still has every deal.",
                reason=reason.rstrip("."),
            )
        else:
            message = _(
                "This game's log cannot be replayed under the current rules engine: entry "
                "%(number)s is refused (%(reason)s). Nothing was changed; its backup (JSON "
                "export) still has every deal.",
                number=format_number(position + 1),
                reason=reason.rstrip("."),
            )
        super().__init__(message)
        self.game_id = game_id
        self.position = position


class StaleVersion(Exception):
    """The caller's version is not the game's: someone else wrote first.

    ``loaded`` is the game as it is now; the message says what changed.
    """

    def __init__(self, loaded: LoadedGame, expected: int, message: str) -> None:
        super().__init__(message)
        self.loaded = loaded
        self.expected = expected
