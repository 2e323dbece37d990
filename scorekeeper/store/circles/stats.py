"""A member's statistics, added up from the facts of the circle's finished games.

Pure functions over :class:`GameRow` values (the facts each game's replay
gave, :mod:`.facts`), so the same numbers come out whichever seat a member
sat at (tests/store/circles: a Hypothesis property).
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from scorekeeper.rules.contracts import ALL_CONTRACTS, Contract


@dataclass(frozen=True)
class GameRow:
    """One game of a circle: when it started, the member at each seat, and its facts."""

    game_id: str
    played_at: datetime
    finished: bool
    members: tuple[int, int, int, int]
    facts: dict[str, Any]

    def seat_of(self, member_id: int) -> int | None:
        return self.members.index(member_id) if member_id in self.members else None


def played(games: Iterable[GameRow], since: datetime | None = None) -> list[GameRow]:
    """The finished games (started at or after ``since``), oldest first."""
    rows = [g for g in games if g.finished and (since is None or g.played_at >= since)]
    return sorted(rows, key=lambda g: (g.played_at, g.game_id))


def member_statistics(
    member_id: int, games: Sequence[GameRow], names: dict[int, str]
) -> dict[str, Any]:
    """The API's player statistics over ``games`` (finished, oldest first)."""
    mine = [(g, seat) for g in games if (seat := g.seat_of(member_id)) is not None]
    totals = [g.facts["totals"][seat] for g, seat in mine]
    wins = [g.facts["places"][seat] == 1 for g, seat in mine]
    return {
        "member": member_id,
        "games": len(mine),
        "wins": sum(wins),
        "win_rate": round(sum(wins) / len(mine), 4) if mine else None,
        "average_total": _mean(totals),
        "spread": round(statistics.pstdev(totals), 1) if totals else None,
        "per_contract": per_contract(mine),
        "doubling": doubling(mine),
        "kingdoms": kingdoms(mine),
        "streaks": streaks(wins),
        "head_to_head": head_to_head(member_id, mine, names),
    }


def _mean(values: Sequence[float]) -> float | None:
    return round(sum(values) / len(values), 1) if values else None


def per_contract(mine: Sequence[tuple[GameRow, int]]) -> dict[str, dict[str, Any]]:
    """Per contract: deals played, cards (or tricks) taken, points per deal; Trix places."""
    out: dict[str, dict[str, Any]] = {}
    for contract in ALL_CONTRACTS:
        rows = [g.facts["seats"][seat][contract.value] for g, seat in mine]
        deals = sum(r["deals"] for r in rows)
        points = sum(r["points"] for r in rows)
        average = round(points / deals, 1) if deals else None
        if contract is Contract.TRIX:
            places = [sum(r["places"][i] for r in rows) for i in range(4)]
            out[contract.value] = {"deals": deals, "places": places, "average": average}
        else:
            taken = sum(r["taken"] for r in rows)
            out[contract.value] = {"deals": deals, "taken": taken, "average": average}
            out[contract.value]["taken_per_deal"] = round(taken / deals, 2) if deals else None
    return out


def doubling(mine: Sequence[tuple[GameRow, int]]) -> dict[str, int]:
    """Cards doubled (R3, R4), the bonus points they won, and those he took himself."""
    rows = [g.facts["seats"][seat]["doubling"] for g, seat in mine]
    return {key: sum(r[key] for r in rows) for key in ("doubled", "bonus", "swallowed")}


def kingdoms(mine: Sequence[tuple[GameRow, int]]) -> dict[str, Any]:
    """His own total in each kingdom he was king of: how many, the best and the worst."""
    scores = [s for g, seat in mine for s in g.facts["seats"][seat]["kingdoms"]]
    if not scores:
        return {"count": 0, "best": None, "worst": None}
    return {"count": len(scores), "best": max(scores), "worst": min(scores)}


def streaks(wins: Sequence[bool]) -> dict[str, int]:
    """The longest runs of games won and of games not won, in order.

    >>> streaks([True, True, False, True, False, False, False])
    {'wins': 2, 'losses': 3}
    """
    best = {True: 0, False: 0}
    run, last = 0, None
    for won in wins:
        run = run + 1 if won == last else 1
        last = won
        best[won] = max(best[won], run)
    return {"wins": best[True], "losses": best[False]}


def head_to_head(
    member_id: int, mine: Sequence[tuple[GameRow, int]], names: dict[int, str]
) -> list[dict[str, Any]]:
    """Against each other member: games together, how often he finished above and below,
    and (partnership, R9.5) how often they were partners."""
    rows: dict[int, dict[str, Any]] = {}
    for game, seat in mine:
        places = game.facts["places"]
        for other_seat, other in enumerate(game.members):
            if other == member_id:
                continue
            row = rows.setdefault(
                other,
                {"member": other, "name": names.get(other, ""), "games": 0, "above": 0}
                | {"below": 0, "partners": 0},
            )
            row["games"] += 1
            partners = game.facts["partnership"] and (other_seat - seat) % 2 == 0
            row["partners"] += int(partners)
            row["above"] += int(places[seat] < places[other_seat])
            row["below"] += int(places[seat] > places[other_seat])
    return sorted(rows.values(), key=lambda r: (-r["games"], r["name"].casefold(), r["member"]))


def running_totals(member_id: int, games: Sequence[GameRow]) -> list[int]:
    """His final totals added up game after game (the running-total chart)."""
    out: list[int] = []
    for game in games:
        seat = game.seat_of(member_id)
        if seat is not None:
            out.append((out[-1] if out else 0) + game.facts["totals"][seat])
    return out


def table_row(member_id: int, games: Sequence[GameRow]) -> dict[str, Any]:
    """Games, wins, win rate and average total: one line of the circle's table."""
    mine = [(g, seat) for g in games if (seat := g.seat_of(member_id)) is not None]
    wins = sum(1 for g, seat in mine if g.facts["places"][seat] == 1)
    totals = [g.facts["totals"][seat] for g, seat in mine]
    return {
        "games": len(mine),
        "wins": wins,
        "win_rate": round(wins / len(mine), 4) if mine else None,
        "average_total": _mean(totals),
    }
