"""The one game state a phone draws its offline screens from.

A phone shows a game from two sources: the log the server last sent, and the
entries waiting in its own outbox. Every offline screen (the game page's
heading, turn, contracts, totals, sheet, contracts grid and latest entry; a
deal form's number and king) is drawn from :func:`project`: that log, then
those entries, replayed by the engine, laid out in plain numbers and seats.
The words are the page's; only the facts come from here, so no screen can
disagree with another.

Like :mod:`scorekeeper.web.offline.phone`, this module travels to the phone
in the engine archive: it imports nothing but the standard library and
:mod:`scorekeeper.rules`. The server's own board (``scorekeeper.web.games.present``)
is computed from the same engine and must agree with it (tests/web/offline).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper.rules.contracts import TRICK_CONTRACTS, Contract
from scorekeeper.rules.game import DealRecord, Game
from scorekeeper.rules.game_log import DealEntry, Entry, Kingdom, RedealEntry
from scorekeeper.rules.ruleset import Dealer
from scorekeeper.rules.scoring import expected_total


@dataclass(frozen=True)
class Owned:
    """A log entry, and the outbox entry that made it (None: the server's)."""

    entry: Entry
    entry_id: str | None


def project(game: Game, log: Sequence[Owned], first_king_open: bool) -> dict[str, Any]:
    """Everything an offline screen shows about ``game``, replayed from ``log``."""
    over = not game.in_kingdoms and not game.needs_extra_deal
    king = None if first_king_open else game.current_king
    return {
        "next_deal": game.deals_played + 1,
        "deals_total": game.deals_total,
        "finished": game.finished,
        "over": over,
        "needs_extra_deal": game.needs_extra_deal,
        "kingdom": {
            "number": game.kingdom_index + 1,
            "total": game.rules.kingdom_count,
            "king": king,
            "team": _team(game.current_kingdom),
        },
        "dealer": None if game.rules.dealer is Dealer.KING else game.current_dealer,
        "first_lead": game.first_to_play(TRICK_CONTRACTS[:1]),
        "trix_first": game.first_to_play((Contract.TRIX,)),
        "choices": [] if over else [[c.value for c in g] for g in game.available_choices],
        "totals": list(game.totals),
        "team_totals": None if game.team_totals is None else list(game.team_totals),
        "leaders": sorted(leaders(game)),
        "sheet": sheet(game, [o.entry for o in log]),
        "played": played(game),
        "last": last_entry(log),
        "first_king_open": first_king_open,
    }


def _team(kingdom: Kingdom | None) -> list[int] | None:
    return None if kingdom is None or kingdom.team is None else list(kingdom.team)


def leaders(game: Game) -> set[int]:
    """The seats at rank 1 (both partners of a leading team); none before the first deal."""
    if not game.deals_played:
        return set()
    seats: set[int] = set()
    for standing in game.standings:
        if standing.rank == 1:
            seats |= set(standing.team or (standing.seat,))
    return seats


def last_entry(log: Sequence[Owned]) -> dict[str, Any] | None:
    """The latest entry as "Last entry" names it, and whose it is (``entry_id``: this phone's)."""
    if not log:
        return None
    last = log[-1]
    if isinstance(last.entry, RedealEntry):
        kind = "misdeal" if last.entry.kind == "misdeal" else "redeal"
        return {"kind": kind, "n": None, "contracts": [], "entry_id": last.entry_id}
    n = sum(1 for o in log if isinstance(o.entry, DealEntry))
    contracts = [c.value for c in last.entry.contracts]
    return {"kind": "deal", "n": n, "contracts": contracts, "entry_id": last.entry_id}


def sheet(game: Game, log: Sequence[Entry]) -> list[dict[str, Any]]:
    """The score sheet's sections: each kingdom's deals and redeals in the order entered,
    its totals and check (R11); the tie-break deals as section 0 (R12)."""
    deal_positions: dict[int, int] = {}
    redeal_positions: list[int] = []
    for position, entry in enumerate(log):
        if isinstance(entry, DealEntry):
            deal_positions[len(deal_positions) + 1] = position
        else:
            redeal_positions.append(position)
    redeals = iter(redeal_positions)
    sections = [
        _section(game, i + 1, k.king, k.deals, k.redeals, k, deal_positions, redeals)
        for i, k in enumerate(game.kingdoms)
    ]
    if game.extra_deals or game.extra_redeals:
        sections.append(
            _section(
                game,
                0,
                game.first_king,
                game.extra_deals,
                game.extra_redeals,
                None,
                deal_positions,
                redeals,
            )  # fmt: skip
        )
    return sections


def _section(
    game: Game,
    number: int,
    king: int | None,
    deals: Sequence[DealRecord],
    redeals: Sequence[RedealEntry],
    kingdom: Kingdom | None,
    deal_positions: dict[int, int],
    redeal_positions: Iterator[int],
) -> dict[str, Any]:
    rows = in_order(deals, redeals, deal_positions, redeal_positions)
    totals, expected, adds_up = checked(game, deals, kingdom)
    return {
        "number": number,
        "king": king,
        "team": _team(kingdom),
        "rows": [
            {"redeal": row.to_dict()} if isinstance(row, RedealEntry) else _deal_row(row)
            for _, row in rows
        ],
        "totals": list(totals),
        "finished": True if kingdom is None else kingdom.finished,
        "expected": expected,
        "adds_up": adds_up,
    }


Row = tuple[int, DealRecord | RedealEntry]


def in_order(
    deals: Sequence[DealRecord],
    redeals: Sequence[RedealEntry],
    deal_positions: dict[int, int],
    redeal_positions: Iterator[int],
) -> list[Row]:
    """A section's deals and redeals with their log positions, in the order they were
    entered (``redeal_positions`` is consumed section by section, as the game holds its
    redeals)."""
    rows: list[Row] = [(deal_positions.get(d.n, 0), d) for d in deals]
    rows += [(next(redeal_positions, 0), r) for r in redeals]
    rows.sort(key=lambda row: row[0])
    return rows


def checked(
    game: Game, deals: Sequence[DealRecord], kingdom: Kingdom | None
) -> tuple[tuple[int, int, int, int], int, bool]:
    """A section's totals, what they should add up to, and whether they do (R11)."""
    totals = kingdom.totals if kingdom is not None else sum_rows(d.scores for d in deals)
    expected = sum(expected_total(game.rules, d.contracts, d.captures) for d in deals)
    return totals, expected, sum(totals) == expected and (kingdom is None or kingdom.zero_sum_ok)


def _deal_row(deal: DealRecord) -> dict[str, Any]:
    return {
        "n": deal.n,
        "contracts": [c.value for c in deal.contracts],
        "scores": list(deal.scores),
    }


def sum_rows(rows: Any) -> tuple[int, int, int, int]:
    out = [0, 0, 0, 0]
    for row in rows:
        out = [a + b for a, b in zip(out, row, strict=True)]
    return (out[0], out[1], out[2], out[3])


def played(game: Game) -> list[dict[str, Any]]:
    """Kings by contracts, like the paper sheet: the deal that played each contract (R2),
    in :class:`Contract` order (None where it is still to play)."""
    rows = []
    for number, kingdom in enumerate(game.kingdoms, start=1):
        by_contract: dict[Contract, int] = {}
        for deal in kingdom.deals:
            by_contract.update(dict.fromkeys(deal.contracts, deal.n))
        deals = [by_contract.get(c) for c in Contract]
        rows.append({"number": number, "king": kingdom.king, "deals": deals})
    return rows
