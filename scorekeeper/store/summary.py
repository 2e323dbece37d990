"""Small records about games: a deal's revisions and the home page's line for a game.

:func:`summarize` is stored with every write, so the home page lists games
without replaying them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from scorekeeper.rules.game import Game


@dataclass(frozen=True)
class DealRevision:
    """One write to a deal: when, what (record / edit / undo), from where, before and after.

    ``before``/``after`` are the deal as scored (``n``, ``king``,
    ``contracts``, ``captures``, ``scores``), or None.
    """

    at: datetime
    action: str
    source: str
    version: int
    before: dict[str, Any] | None
    after: dict[str, Any] | None


@dataclass(frozen=True)
class GameSummary:
    """A line of the home page's list of games."""

    id: str
    players: list[str]
    deals_played: int
    deals_total: int
    leaders: list[str]
    """Who is first (everyone tied for first); empty before the first deal."""
    totals: list[int]
    finished: bool
    updated_at: datetime
    created_at: datetime
    winner: str | None = None


def summarize(game: Game) -> dict[str, Any]:
    """The cached summary of a replayed game (stored on every write, read by the home page)."""
    leaders: list[int] = []
    if game.deals_played:
        for standing in game.standings:
            if standing.rank == 1:
                leaders.extend(standing.team or (standing.seat,))
    return {
        "deals_played": game.deals_played,
        "deals_total": game.deals_total,
        "totals": list(game.totals),
        "leaders": sorted(leaders),
        "winner": game.winner,
    }


def summary_of(
    game_id: str,
    players: list[str],
    summary: dict[str, Any],
    finished: bool,
    created_at: datetime,
    updated_at: datetime,
) -> GameSummary:
    """A :class:`GameSummary` from a stored summary."""
    winner = summary.get("winner")
    return GameSummary(
        id=game_id,
        players=players,
        deals_played=int(summary.get("deals_played", 0)),
        deals_total=int(summary.get("deals_total", 0)),
        leaders=[players[s] for s in summary.get("leaders", [])],
        totals=list(summary.get("totals", [0, 0, 0, 0])),
        finished=finished,
        updated_at=updated_at,
        created_at=created_at,
        winner=None if winner is None else players[winner],
    )
