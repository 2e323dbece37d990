"""A game's kingdoms as both score sheets show them: the game page and the printed sheet.

Each kingdom (R2) lists its deals and redeals in the order they were entered,
with its totals and their check (R11: zero under a zero-sum rule set, else what
the rule set implies); the tie-break deals after the kingdoms (R12) come as one
more section, number 0. :mod:`scorekeeper.web.games.present` and
:mod:`scorekeeper.web.sheets.content` lay these out, each in its own way.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper.rules.game import DealRecord, Game, Kingdom, RedealEntry
from scorekeeper.web.offline.projection import checked, in_order


@dataclass
class DealRow:
    deal: DealRecord
    position: int
    """The entry's place in the log."""


@dataclass
class RedealRow:
    entry: RedealEntry
    position: int


@dataclass
class KingdomView:
    """One kingdom's rows, totals and check; ``number`` 0 is the tie-break (R12)."""

    number: int
    king: int | None
    rows: list[DealRow | RedealRow]
    totals: tuple[int, int, int, int]
    finished: bool
    expected: int
    """What the kingdom's deals should add up to (0 under a zero-sum rule set)."""
    adds_up: bool
    team: tuple[int, int] | None = None
    """Under team kingdoms, the team the kingdom belongs to (R9.5)."""
    remaining: int = 0
    """Contracts still to play in it (0 once finished, and for the tie-break)."""

    def deals(self) -> Iterator[DealRecord]:
        return (row.deal for row in self.rows if isinstance(row, DealRow))

    @property
    def key(self) -> tuple[Any, ...]:
        """Everything these lines show, for the game page's fragment cache (``cached``)."""
        rows = tuple(
            (row.deal.n, row.deal.contracts, row.deal.scores)
            if isinstance(row, DealRow)
            else row.entry
            for row in self.rows
        )
        return (
            self.number,
            self.king,
            self.totals,
            self.finished,
            self.expected,
            self.adds_up,
            self.team,
            self.remaining,
            rows,
        )


def kingdom_sections(
    game: Game, log: Sequence[Any]
) -> tuple[list[KingdomView], KingdomView | None]:
    """The kingdoms, and the tie-break section if there is one; ``log`` is the store's
    ``LogRow`` list (``position``, ``entry``, ``n``)."""
    deal_positions = {row.n: row.position for row in log if row.n is not None}
    redeal_positions = iter([row.position for row in log if isinstance(row.entry, RedealEntry)])
    views = [
        _view(game, i + 1, k.king, k.deals, k.redeals, k, deal_positions, redeal_positions)
        for i, k in enumerate(game.kingdoms)
    ]
    extra = None
    if game.extra_deals or game.extra_redeals:
        extra = _view(
            game, 0, game.first_king, game.extra_deals, game.extra_redeals, None,
            deal_positions, redeal_positions,
        )  # fmt: skip
    return views, extra


def _view(
    game: Game,
    number: int,
    king: int | None,
    deals: Sequence[DealRecord],
    redeals: Sequence[RedealEntry],
    kingdom: Kingdom | None,
    deal_positions: dict[int, int],
    redeal_positions: Iterator[int],
) -> KingdomView:
    rows: list[DealRow | RedealRow] = [
        RedealRow(row, position) if isinstance(row, RedealEntry) else DealRow(row, position)
        for position, row in in_order(deals, redeals, deal_positions, redeal_positions)
    ]
    totals, expected, adds_up = checked(game, deals, kingdom)
    if kingdom is None:
        return KingdomView(number, king, rows, totals, True, expected, adds_up)
    remaining = len(kingdom.remaining)
    return KingdomView(
        number, king, rows, totals, kingdom.finished, expected, adds_up, kingdom.team, remaining
    )
