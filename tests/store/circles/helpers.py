"""Deals for the circles' tests: short games whose numbers are worked out by hand."""

from __future__ import annotations

from typing import Any

from scorekeeper.rules.captures import Captures
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.game_log import DealEntry, RedealEntry
from scorekeeper.store import games

KH = "king_of_hearts"


def deal(contracts: list[str], **captures: Any) -> DealEntry:
    return DealEntry(tuple(Contract(c) for c in contracts), Captures.from_dict(captures))


def queens(takers: list[int], doubled: list[int | None] | None = None) -> dict[str, Any]:
    doubled = doubled or [None] * 4
    return {
        q: {"taker": t, "doubled_by": d}
        for q, t, d in zip(["QS", "QH", "QD", "QC"], takers, doubled, strict=True)
    }


# One kingdom (king: seat 0), every contract alone. Hand-computed scores per seat:
#   trix  order 0,1,2,3           -> +200 +150 +100  +50
#   king  K♥ taken by 1, doubled by 0 -> +75 −150 0 0   (R3: 2×75 from the taker, 75 to the holder)
#   queens 1,2,3,3 (none doubled) ->   0  −25  −25  −50
#   diamonds 1,2,3,7              -> −10  −20  −30  −70
#   collections 1,2,3,7           -> −15  −30  −45 −105
#   totals                        -> 250  −75    0 −175
SHORT_GAME = [
    deal(["trix"], trix_order=[0, 1, 2, 3]),
    deal(["king"], king_of_hearts={"taker": 1, "doubled_by": 0}),
    deal(["queens"], queens=queens([1, 2, 3, 3])),
    deal(["diamonds"], diamonds=[1, 2, 3, 7]),
    deal(["collections"], tricks=[1, 2, 3, 7]),
]
SHORT_TOTALS = [250, -75, 0, -175]


def play(game_id: str, entries: list[DealEntry | RedealEntry]) -> None:
    for entry in entries:
        if isinstance(entry, RedealEntry):
            games.record_redeal(game_id, entry)
        else:
            games.record_deal(game_id, entry)
