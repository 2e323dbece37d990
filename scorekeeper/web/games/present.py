"""What the game page shows, computed once from the replayed game.

Views stay thin and templates stay dumb: this module turns a replayed
:class:`~scorekeeper.rules.game.Game` (and its log) into plain rows for the
scoreboard: kingdoms with their deals and redeals in the order they were
entered, subtotals with their zero-sum check, the leaders, and who deals.
Nothing here writes, and nothing here queries the database.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from scorekeeper.rules.captures import Captures
from scorekeeper.rules.contracts import TRICK_CONTRACTS, Contract
from scorekeeper.rules.game import Game, RedealEntry
from scorekeeper.rules.ruleset import Combination, Dealer, KingdomOrder, RuleSet, Values
from scorekeeper.rules.scoring import team_totals
from scorekeeper.text.rule_words import zero_sum_reasons
from scorekeeper.web.forms.rules import switch_values
from scorekeeper.web.games.kingdoms import KingdomView, kingdom_sections
from scorekeeper.web.offline.projection import leaders


@dataclass
class Board:
    """Everything the game page shows, derived from the game and its log."""

    game: Game
    kingdoms: list[KingdomView]
    extra: KingdomView | None
    leaders: set[int]
    zero_sum_reasons: list[str]
    team_totals: tuple[int, int] | None
    next_deal: int
    contracts: tuple[Contract, ...]
    choices: tuple[tuple[Contract, ...], ...]
    """What the king may announce next, one button each (one under a fixed order, R2;
    the four trick contracts as one under "all four at once", R9.6)."""
    combinable: tuple[Contract, ...]
    first_lead: int | None
    trix_first: int | None
    dealer: int | None = None
    """Who deals next, when the dealer is not always the king (R2); else None."""
    last_entry: EntryRef | None = None
    lead_names: list[str] = field(default_factory=list)
    """One entry per leading competitor (a team is ``Rana & Omar``)."""
    lead_total: int | None = None
    rule_lines: list[tuple[str, str]] = field(default_factory=list)
    """The house rules that differ from the standard ones: (switch, form value)."""
    values_changed: bool = False


def build_board(game: Game, log: Sequence[Any]) -> Board:
    """The scoreboard of ``game``; ``log`` is services' LogRow list (position, entry, n)."""
    views, extra = kingdom_sections(game, log)
    return Board(
        game=game,
        kingdoms=views,
        extra=extra,
        leaders=leaders(game),
        zero_sum_reasons=zero_sum_reasons(game.rules),
        team_totals=team_totals(game.totals) if game.rules.partnership else None,
        next_deal=game.deals_played + 1,
        contracts=game.available_contracts,
        choices=game.available_choices,
        combinable=combinable(game.rules, game.available_contracts),
        first_lead=game.first_to_play(TRICK_CONTRACTS[:1]),
        trix_first=game.first_to_play((Contract.TRIX,)),
        dealer=None if game.rules.dealer is Dealer.KING else game.current_dealer,
        last_entry=describe_entry(log[-1].entry, log[-1].n) if log else None,
        lead_names=lead_names(game),
        lead_total=game.standings[0].total if game.deals_played else None,
        rule_lines=rule_lines(game.rules),
        values_changed=game.rules.values != Values(),
    )


@dataclass(frozen=True)
class PlayedRow:
    """A line of the "contracts played" grid: a kingdom's king, and the deal that played
    each contract (by :data:`Contract` order; None where it is still to play)."""

    number: int
    king: int | None
    deals: tuple[int | None, ...]


def played_grid(kingdoms: Sequence[KingdomView]) -> list[PlayedRow]:
    """Kings by contracts, like the paper sheet: which deal played what (R2).

    >>> played_grid([])
    []
    """
    out = []
    for view in kingdoms:
        if view.number == 0:  # tie-break deals belong to no kingdom
            continue
        by_contract: dict[Contract, int] = {}
        for row in view.rows:
            deal = getattr(row, "deal", None)
            if deal is not None:
                by_contract.update(dict.fromkeys(deal.contracts, deal.n))
        out.append(PlayedRow(view.number, view.king, tuple(by_contract.get(c) for c in Contract)))
    return out


def rematch_start(rules: RuleSet, first_king: int) -> tuple[int, RuleSet]:
    """The first king and the rules of a rematch: the next king on the right, or under an
    agreed order the order's next seat, the order turned by one (R2).

    >>> rematch_start(RuleSet(), 3)[0]
    0
    >>> first, rules = rematch_start(RuleSet.from_dict({"kingdom_order": "custom",
    ...     "king_order": [2, 0, 3, 1]}), 2)
    >>> first, rules.king_order
    (0, (0, 3, 1, 2))
    """
    order = rules.king_order
    if rules.kingdom_order is KingdomOrder.CUSTOM and order:
        turned = (order[1], order[2], order[3], order[0])
        return turned[0], replace(rules, king_order=turned)
    return (first_king + 1) % 4, rules


def lead_names(game: Game) -> list[str]:
    """The leading player(s), or team(s) as ``Rana & Omar``; none before the first deal."""
    if not game.deals_played:
        return []
    names = game.names
    return [
        f"{names[s.team[0]]} & {names[s.team[1]]}" if s.team else names[s.seat]
        for s in game.standings
        if s.rank == 1
    ]


def rule_lines(rules: RuleSet) -> list[tuple[str, str]]:
    """(switch, value) of every switch whose value is not the standard one."""
    standard = switch_values(RuleSet())
    return [(k, v) for k, v in switch_values(rules).items() if standard[k] != v]


def combinable(rules: RuleSet, remaining: Sequence[Contract]) -> tuple[Contract, ...]:
    """The trick contracts the king may pick to combine in one deal now (R9.6), or ().

    Under "all four at once" there is nothing to pick: the four are one of the choices.
    """
    tricks = tuple(c for c in remaining if c in TRICK_CONTRACTS)
    if rules.combination is not Combination.ANY or len(tricks) < 2:
        return ()
    return tricks


@dataclass(frozen=True)
class EntryRef:
    """A log entry as the sentences about it name it: ``deal 7: King of Hearts``, ``a misdeal``.

    Each sentence is written whole for each ``kind`` (templates, flash messages), so that
    it can be translated as one sentence.
    """

    kind: str
    """``deal``, ``redeal`` or ``misdeal``."""
    n: int | None = None
    contracts: tuple[Contract, ...] = ()


def describe_entry(entry: Any, n: int | None) -> EntryRef:
    """What names a log entry: its kind, and for a deal its number and contracts."""
    if isinstance(entry, RedealEntry):
        return EntryRef("misdeal" if entry.kind == "misdeal" else "redeal")
    return EntryRef("deal", n, tuple(entry.contracts))


def parse_contracts(values: Sequence[str]) -> tuple[Contract, ...] | None:
    """``["king,queens"]`` or ``["king", "queens"]`` -> contracts; None if any is unknown."""
    words = [w.strip() for value in values for w in value.split(",") if w.strip()]
    known = {c.value: c for c in Contract}
    if any(w not in known for w in words):
        return None
    chosen = {known[w] for w in words}
    return tuple(c for c in Contract if c in chosen)


@dataclass
class RevisionSide:
    """A deal as stored in a revision (before or after a write)."""

    contracts: tuple[Contract, ...]
    captures: Captures
    scores: list[int]


@dataclass
class RevisionView:
    at: Any
    action: str
    source: str
    before: RevisionSide | None
    after: RevisionSide | None


def revision_views(revisions: Sequence[Any]) -> list[RevisionView]:
    """services' DealRevision records, with their deals parsed for display."""
    return [
        RevisionView(r.at, r.action, r.source, revision_side(r.before), revision_side(r.after))
        for r in revisions
    ]


def revision_side(stored: dict[str, Any] | None) -> RevisionSide | None:
    if not stored or stored.get("kind", "deal") != "deal":
        return None
    contracts = tuple(Contract(c) for c in stored.get("contracts", []))
    captures = Captures.from_dict(stored.get("captures", {}))
    return RevisionSide(contracts, captures, list(stored.get("scores", [])))
