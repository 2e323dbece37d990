"""The end of the game (R12): standings, the winner and the tie-break.

Players (or, under partnership R9.5, the two teams 0+2 and 1+3) are ranked by
total; equal totals share a rank. Under inverted signs (R9.8) the lowest total
wins. A tie for first is broken by the rule set's ``tiebreak``: the side with
more Trix first places wins ("trix_wins"), and if that still ties, or at once
under "extra_deal", an extra deal is needed.

>>> out = decide(RuleSet(), (120, -40, 120, -200), (2, 1, 1, 1), over=True)
>>> out.winner, out.decided_by, [s.rank for s in out.standings]
(0, 'trix_first_places', [1, 1, 3, 4])
>>> decide(RuleSet(), (100, 100, -100, -100), (2, 2, 1, 0), over=True).tied
(0, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper.rules.ruleset import RuleSet, Tiebreak

Side = tuple[int, ...]
"""The seats of one competitor: one seat, or a team of two partners."""


@dataclass(frozen=True)
class Standing:
    """One competitor's place: ``seat`` is the player (or a team's lower seat)."""

    seat: int
    total: int
    rank: int
    team: tuple[int, int] | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "total": self.total, "rank": self.rank}
        if self.team is not None:
            out["team"] = list(self.team)
        return out


@dataclass(frozen=True)
class Outcome:
    """Who stands where, and, once play is over, who won or who is still tied."""

    standings: tuple[Standing, ...]
    winner: int | None = None
    """The winning seat (a team's lower seat under partnership), once decided."""
    winning_team: tuple[int, int] | None = None
    tied: tuple[int, ...] = ()
    """Seats tied for first that an extra deal must separate."""
    decided_by: str | None = None
    """``"total"``, ``"trix_first_places"`` or ``"extra_deal"``."""

    @property
    def needs_extra_deal(self) -> bool:
        return bool(self.tied)


def sides(rules: RuleSet) -> tuple[Side, ...]:
    """The competitors: four players, or the two teams of R9.5.

    >>> sides(RuleSet(partnership=True))
    ((0, 2), (1, 3))
    """
    if rules.partnership:
        return ((0, 2), (1, 3))
    return ((0,), (1,), (2,), (3,))


def standings(rules: RuleSet, totals: Sequence[int]) -> tuple[Standing, ...]:
    """Rank the competitors by total; equal totals share a rank ("1, 1, 3, 4").

    >>> [(s.seat, s.rank) for s in standings(RuleSet(inverted=True), (-50, 20, -50, 80))]
    [(0, 1), (2, 1), (1, 3), (3, 4)]
    """
    rows = [(side, sum(totals[s] for s in side)) for side in sides(rules)]
    rows.sort(key=lambda row: (-rules.sign * row[1], row[0]))
    out: list[Standing] = []
    for index, (side, total) in enumerate(rows):
        tied_above = index > 0 and rows[index - 1][1] == total
        rank = out[-1].rank if tied_above else index + 1
        team = (side[0], side[1]) if len(side) == 2 else None
        out.append(Standing(side[0], total, rank, team))
    return tuple(out)


def decide(
    rules: RuleSet,
    totals: Sequence[int],
    trix_firsts: Sequence[int],
    *,
    over: bool,
    extra_deals: int = 0,
) -> Outcome:
    """Standings, and when play is ``over``, the winner or the seats still tied (R12).

    ``trix_firsts`` counts, per seat, the Trix deals in which he went out first.
    """
    table = standings(rules, totals)
    if not over:
        return Outcome(table)
    leaders = [_side_of(rules, s.seat) for s in table if s.rank == 1]
    how = "extra_deal" if extra_deals else "total"
    if len(leaders) > 1 and rules.tiebreak is Tiebreak.TRIX_WINS:
        leaders = _most_trix_firsts(leaders, trix_firsts)
        how = "trix_first_places"
    if len(leaders) > 1:
        return Outcome(table, tied=tuple(sorted(s for side in leaders for s in side)))
    winner = leaders[0]
    team = (winner[0], winner[1]) if len(winner) == 2 else None
    return Outcome(table, winner[0], team, decided_by=how)


def _side_of(rules: RuleSet, seat: int) -> Side:
    return next(side for side in sides(rules) if seat in side)


def _most_trix_firsts(leaders: list[Side], trix_firsts: Sequence[int]) -> list[Side]:
    """The tied sides with the most Trix first places (a team counts both partners)."""
    counts = [sum(trix_firsts[s] for s in side) for side in leaders]
    best = max(counts)
    return [side for side, count in zip(leaders, counts, strict=True) if count == best]
