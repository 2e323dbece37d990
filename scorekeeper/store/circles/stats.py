"""A member's statistics: running sums of his games' shares, and what is shown from them.

Every statistic but the streaks is a sum over games, so each finished game
gives each of its members a share (:func:`seat_share`, from the game's
facts, :mod:`.facts`) and a member keeps the sum of his shares
(:func:`add`), added to or taken from whenever one of his games changes
(:mod:`.hooks`). :func:`from_sums` turns sums (and the games won, in order,
for the streaks) into the API's statistics; :func:`member_statistics` does
the same from the games themselves, the fresh computation the kept sums must
always equal. Pure functions: the same numbers come out whichever seat a
member sat at (tests/store/circles: a Hypothesis property).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from typing import Any

from scorekeeper.rules.contracts import ALL_CONTRACTS, Contract

SPARSE = ("kingdoms", "opponents")
"""Sums kept by key (a kingdom's score, another member): a key whose sums are all zero goes."""
DOUBLING = ("doubled", "bonus", "swallowed")


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


@dataclass(frozen=True)
class Result:
    """One finished game of a member: its order in the circle, his final total and place."""

    played_at: datetime
    game_id: str
    total: int
    place: int


def played(games: Iterable[GameRow], since: datetime | None = None) -> list[GameRow]:
    """The finished games (started at or after ``since``), oldest first."""
    rows = [g for g in games if g.finished and (since is None or g.played_at >= since)]
    return sorted(rows, key=lambda g: (g.played_at, g.game_id))


# --- one game's share, and sums of shares -----------------------------------------------------


def seat_share(facts: Mapping[str, Any], seat: int, members: Sequence[int]) -> dict[str, Any]:
    """What the game at ``seat`` adds to its member's sums (JSON-ready; keys are strings).

    A partnership game (R9.5) is one result per team: both partners add the team's total
    and place (the facts' ``totals`` and ``places``), and count it as a team game.

    >>> facts = {"totals": [250, -75, 0, -175], "places": [1, 2, 3, 4], "partnership": False,
    ...          "seats": [{"kingdoms": [250], "doubling": {}}] * 4}
    >>> share = seat_share(facts, 0, [7, 8, 9, 10])
    >>> share["games"], share["wins"], share["total_sq"], share["kingdoms"], share["opponents"]["8"]
    (1, 1, 62500, {'250': 1}, {'games': 1, 'above': 1, 'below': 0, 'partners': 0})
    """
    total, places = int(facts["totals"][seat]), facts["places"]
    row = facts["seats"][seat]
    contracts: dict[str, Any] = {}
    for contract in ALL_CONTRACTS:
        got = row.get(contract.value, {})
        keep = {k: got.get(k, 0) for k in ("deals", "taken", "points")}
        if contract is Contract.TRIX:
            keep["places"] = list(got.get("places", [0, 0, 0, 0]))
        contracts[contract.value] = keep
    kingdoms: dict[str, int] = {}
    for score in row.get("kingdoms", []):
        kingdoms[str(score)] = kingdoms.get(str(score), 0) + 1
    opponents: dict[str, Any] = {}
    for other_seat, other in enumerate(members):
        if other_seat == seat:
            continue
        partners = bool(facts.get("partnership")) and (other_seat - seat) % 2 == 0
        opponents[str(other)] = {
            "games": 1,
            "above": int(places[seat] < places[other_seat]),
            "below": int(places[seat] > places[other_seat]),
            "partners": int(partners),
        }
    doubled = row.get("doubling", {})
    return {
        "games": 1,
        "team_games": int(bool(facts.get("partnership"))),
        "wins": int(places[seat] == 1),
        "total": total,
        "total_sq": total * total,
        "contracts": contracts,
        "doubling": {k: doubled.get(k, 0) for k in DOUBLING},
        "kingdoms": kingdoms,
        "opponents": opponents,
    }


def add(sums: Mapping[str, Any], share: Mapping[str, Any], sign: int = 1) -> dict[str, Any]:
    """``sums`` plus (``sign`` 1) or minus (-1) ``share``: a new dict, nothing changed in place.

    >>> add({"games": 2, "kingdoms": {"50": 1}}, {"games": 1, "kingdoms": {"50": 1}}, -1)
    {'games': 1, 'kingdoms': {}}
    """
    out = dict(sums)
    for key, value in share.items():
        out[key] = _add_value(out.get(key), value, sign)
        if key in SPARSE:
            out[key] = {k: v for k, v in out[key].items() if not _is_zero(v)}
    return out


def _add_value(old: Any, value: Any, sign: int) -> Any:
    if isinstance(value, Mapping):
        base: dict[str, Any] = dict(old or {})
        for key, inner in value.items():
            base[key] = _add_value(base.get(key), inner, sign)
        return base
    if isinstance(value, list):
        base_list = list(old or [0] * len(value))
        return [a + sign * b for a, b in zip(base_list, value, strict=True)]
    return (old or 0) + sign * value


def _is_zero(value: Any) -> bool:
    if isinstance(value, Mapping):
        return all(_is_zero(v) for v in value.values())
    if isinstance(value, list):
        return all(v == 0 for v in value)
    return bool(value == 0)


def summed(shares: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The sums of ``shares`` (an empty dict for none)."""
    out: dict[str, Any] = {}
    for share in shares:
        out = add(out, share)
    return out


# --- what is shown ------------------------------------------------------------------------------


def from_sums(
    member_id: int, sums: Mapping[str, Any], wins: Sequence[bool], names: Mapping[int, str]
) -> dict[str, Any]:
    """The API's player statistics from his sums and his games won (True) or not, in order."""
    return {
        "member": member_id,
        **table_row(sums),
        "team_games": int(sums.get("team_games", 0)),
        "spread": _spread(sums),
        "per_contract": per_contract(sums),
        "doubling": {k: sums.get("doubling", {}).get(k, 0) for k in DOUBLING},
        "kingdoms": kingdoms(sums),
        "streaks": streaks(wins),
        "head_to_head": head_to_head(sums, names),
    }


def member_statistics(
    member_id: int, games: Sequence[GameRow], names: Mapping[int, str]
) -> dict[str, Any]:
    """The statistics computed afresh from ``games`` (finished, oldest first)."""
    mine = [(g, seat) for g in games if (seat := g.seat_of(member_id)) is not None]
    sums = summed(seat_share(g.facts, seat, g.members) for g, seat in mine)
    wins = [g.facts["places"][seat] == 1 for g, seat in mine]
    return from_sums(member_id, sums, wins, names)


def table_row(sums: Mapping[str, Any]) -> dict[str, Any]:
    """Games, wins, win rate and average total: one line of the circle's table."""
    games, wins, total = (int(sums.get(k, 0)) for k in ("games", "wins", "total"))
    return {
        "games": games,
        "wins": wins,
        "win_rate": round(wins / games, 4) if games else None,
        "average_total": round(total / games, 1) if games else None,
    }


def _spread(sums: Mapping[str, Any]) -> float | None:
    """The population standard deviation of his final totals, from their sum and squares."""
    games = int(sums.get("games", 0))
    if not games:
        return None
    total, squares = int(sums["total"]), int(sums["total_sq"])
    variance = Fraction(games * squares - total * total, games * games)
    return round(math.sqrt(variance), 1)


def per_contract(sums: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Per contract: deals played, cards (or tricks) taken, points per deal; Trix places."""
    out: dict[str, dict[str, Any]] = {}
    for contract in ALL_CONTRACTS:
        row = sums.get("contracts", {}).get(contract.value, {})
        deals, points = row.get("deals", 0), row.get("points", 0)
        average = round(points / deals, 1) if deals else None
        if contract is Contract.TRIX:
            places = list(row.get("places", [0, 0, 0, 0]))
            out[contract.value] = {"deals": deals, "places": places, "average": average}
        else:
            taken = row.get("taken", 0)
            out[contract.value] = {"deals": deals, "taken": taken, "average": average}
            out[contract.value]["taken_per_deal"] = round(taken / deals, 2) if deals else None
    return out


def kingdoms(sums: Mapping[str, Any]) -> dict[str, Any]:
    """His own total in each kingdom he was king of: how many, the best and the worst."""
    scores = {int(score): count for score, count in sums.get("kingdoms", {}).items()}
    if not scores:
        return {"count": 0, "best": None, "worst": None}
    return {"count": sum(scores.values()), "best": max(scores), "worst": min(scores)}


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


def head_to_head(sums: Mapping[str, Any], names: Mapping[int, str]) -> list[dict[str, Any]]:
    """Against each other member: games together, how often he finished above and below,
    and (partnership, R9.5) how often they were partners."""
    rows = [
        {"member": int(other), "name": names.get(int(other), ""), "games": row["games"]}
        | {"above": row["above"], "below": row["below"], "partners": row["partners"]}
        for other, row in sums.get("opponents", {}).items()
    ]
    return sorted(rows, key=lambda r: (-r["games"], r["name"].casefold(), r["member"]))


def running_totals(results: Sequence[Result]) -> list[int]:
    """His final totals added up game after game (the running-total chart)."""
    out: list[int] = []
    for result in results:
        out.append((out[-1] if out else 0) + result.total)
    return out
