"""Words and small records about a game's history: revisions, stale versions, summaries.

Helpers of :mod:`scorekeeper.services`; nothing here touches the database.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from scorekeeper.rules.contracts import Contract, describe
from scorekeeper.rules.errors import Problem, RulesError, StateError
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


def deal_label(names: Sequence[str], entry: dict[str, Any] | None) -> str:
    """``Sami's King of Hearts`` for a stored deal dict (``a redeal`` for a redeal)."""
    if entry is None:
        return "an entry"
    if entry.get("kind") in ("redeal", "misdeal"):
        return f"a {entry['kind']}"
    contracts = describe(tuple(Contract(c) for c in entry.get("contracts", [])))
    king = entry.get("king")
    return contracts if king is None else f"{names[king]}'s {contracts}"


def change_sentence(names: Sequence[str], action: str, before: Any, after: Any) -> str:
    """One sentence saying what a write did, for a stale-version message."""
    if action == "record" and after is not None:
        return f"Deal {after['n']} was already recorded: {deal_label(names, after)}."
    if action == "redeal" and after is not None:
        return f"{deal_label(names, after).capitalize()} was already recorded."
    if action == "edit" and after is not None:
        return f"Deal {after['n']} was changed: {deal_label(names, after)}."
    if action == "undo" and before is not None:
        if before.get("n") is None:
            return f"{deal_label(names, before).capitalize()} was undone."
        return f"Deal {before['n']} ({deal_label(names, before)}) was undone."
    return "The game was changed."


def stale_message(
    names: Sequence[str], expected: int, current: int, changes: Sequence[tuple[str, Any, Any]]
) -> str:
    """Why ``expected`` is stale: what changed since, and what to do."""
    if not changes:
        return (
            f"Version {expected} is not a version of this game; it is at version {current}. "
            "Reload it and try again."
        )
    sentences = [change_sentence(names, *change) for change in changes[-3:]]
    more = len(changes) - 3
    if more > 0:
        sentences.insert(0, f"{more} earlier change{'s' if more > 1 else ''}, then:")
    return (
        " ".join(sentences) + f" The game is now at version {current}, not {expected}; "
        "reload it and check before saving again."
    )


def breaks_later(n: int, later: str, error: RulesError, field_prefix: str) -> StateError:
    """An edit of deal ``n`` refused because a later entry no longer replays (409)."""
    problems = [
        Problem(
            "edit_breaks_later_deal",
            f"Changing deal {n} this way would break {later}: {p.message}",
            p.rule,
            field_prefix if p.field is None else f"{field_prefix}.{p.field}",
            {**_without_variant(p.params), "n": n, "later": later, "reason_code": p.code}
            | {"reason": {"part": p.key, "params": p.params}},
        )
        for p in error.problems
    ]
    return StateError(problems)


def _without_variant(params: dict[str, Any]) -> dict[str, Any]:
    """The later problem's params, minus its template variant (``reason`` keeps it whole)."""
    return {k: v for k, v in params.items() if k != "variant"}
