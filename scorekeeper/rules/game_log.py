"""The deal log of a game and the records derived from it (R2, R8).

A game is stored as an append-only log of entries (docs/STYLE.md §6): a
:class:`DealEntry` for every deal played, a :class:`RedealEntry` for every
redeal or misdeal. Kings, totals and remaining contracts are derived by
replaying the log (:mod:`scorekeeper.rules.game`). Entries round-trip
through plain dicts, the form the web layer stores.

>>> entry = entry_from_dict({"contracts": ["trix"], "captures": {"trix_order": [2, 0, 3, 1]}})
>>> entry.contracts, entry.captures.trix_order
((<Contract.TRIX: 'trix'>,), (2, 0, 3, 1))
>>> entry_from_dict(entry.to_dict()) == entry
True
>>> entry_from_dict({"kind": "misdeal", "note": "a card showed"})
RedealEntry(kind='misdeal', seat=None, contract=None, note='a card showed', reason=None)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal

from scorekeeper.rules.captures import Captures, Seats4, is_seat
from scorekeeper.rules.contracts import ALL_CONTRACTS, Contract, canonical
from scorekeeper.rules.errors import IllegalError, MalformedError
from scorekeeper.rules.ruleset import KingdomOrder, RuleSet
from scorekeeper.rules.wire import only_keys, optional_seat, parse_contract_names

RedealKind = Literal["redeal", "misdeal"]
RedealReason = Literal["closed_suit"]
"""Why a deal is dealt again, besides an R8 claim: "closed_suit" (R7's "closed suit replays")."""


@dataclass(frozen=True)
class DealEntry:
    """One deal played: its contract(s) and what each player took.

    ``king`` is needed only on the first deal of a kingdom under the
    "seven_of_hearts" kingdom order: the seat dealt the 7♥ (R2).
    """

    contracts: tuple[Contract, ...]
    captures: Captures
    king: int | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "contracts": [c.value for c in self.contracts],
            "captures": self.captures.to_dict(),
        }
        if self.king is not None:
            out["king"] = self.king
        return out


@dataclass(frozen=True)
class RedealEntry:
    """A redeal claimed under R8 (``seat`` claimed it) or a misdeal; no contract is used up."""

    kind: RedealKind
    seat: int | None = None
    contract: Contract | None = None
    """The contract announced before the redeal, if any."""
    note: str = ""
    reason: RedealReason | None = None
    """None: an R8 claim (``seat``) or a misdeal; "closed_suit": a Trix deal void under R7."""

    def to_dict(self) -> dict[str, Any]:
        contract = None if self.contract is None else self.contract.value
        out = {"kind": self.kind, "seat": self.seat, "contract": contract, "note": self.note}
        if self.reason is not None:
            out["reason"] = self.reason
        return out


Entry = DealEntry | RedealEntry


@dataclass(frozen=True)
class DealRecord:
    """A deal as scored: ``n`` counts deals from 1 across the whole game."""

    n: int
    king: int
    contracts: tuple[Contract, ...]
    captures: Captures
    scores: Seats4
    dealer: int | None = None
    """Who dealt it, when the rule set's dealer is not the king (R2); else None."""

    def to_dict(self) -> dict[str, Any]:
        out = {
            "n": self.n,
            "king": self.king,
            "contracts": [c.value for c in self.contracts],
            "captures": self.captures.to_dict(),
            "scores": list(self.scores),
        }
        if self.dealer is not None:
            out["dealer"] = self.dealer
        return out


@dataclass(frozen=True)
class Kingdom:
    """One king's deals (R2). ``king`` is None only while a 7♥ kingdom awaits its first deal."""

    king: int | None
    deals: tuple[DealRecord, ...] = ()
    redeals: tuple[RedealEntry, ...] = ()
    zero_sum_ok: bool = True
    """False if the kingdom is finished, the rule set is zero-sum and it does not add up to 0
    (R11; every deal's own total is checked by ``score_deal``)."""
    team: tuple[int, int] | None = None
    """Under team kingdoms (R9.5), the team it belongs to: the king and his partner."""

    @cached_property
    def played(self) -> tuple[Contract, ...]:
        return canonical([c for deal in self.deals for c in deal.contracts])

    @cached_property
    def remaining(self) -> tuple[Contract, ...]:
        """The king's unplayed contracts, in the rulebook's order."""
        played = set(self.played)
        return tuple(c for c in ALL_CONTRACTS if c not in played)

    @property
    def finished(self) -> bool:
        return not self.remaining

    @cached_property
    def totals(self) -> Seats4:
        return sum_scores(deal.scores for deal in self.deals)

    def to_dict(self) -> dict[str, Any]:
        return {
            "king": self.king,
            "deals": [deal.to_dict() for deal in self.deals],
            "redeals": [redeal.to_dict() for redeal in self.redeals],
            "remaining": [c.value for c in self.remaining],
            "totals": list(self.totals),
            "zero_sum_ok": self.zero_sum_ok,
            **({} if self.team is None else {"team": list(self.team)}),
        }


def team_of(rules: RuleSet, king: int | None) -> tuple[int, int] | None:
    """The team a kingdom belongs to under team kingdoms (R9.5): partners sit opposite.

    >>> team_of(RuleSet(partnership=True, team_kingdoms=True), 3), team_of(RuleSet(), 3)
    ((1, 3), None)
    """
    if not rules.team_kingdoms or king is None:
        return None
    return (king % 2, king % 2 + 2)


def sum_scores(rows: Any) -> Seats4:
    """Per-seat sums of some rows of four scores.

    >>> sum_scores([(1, 2, 3, 4), (10, 20, 30, 40)])
    (11, 22, 33, 44)
    """
    a = b = c = d = 0
    for row in rows:
        a, b, c, d = a + row[0], b + row[1], c + row[2], d + row[3]
    return (a, b, c, d)


def entry_from_dict(data: object) -> Entry:
    """Parse a stored or posted log entry; one with a ``kind`` is a redeal."""
    if not isinstance(data, Mapping):
        raise MalformedError.one("entry_shape", field="deal")
    if "kind" in data:
        return _redeal_from_dict(data)
    return _deal_from_dict(data)


def _deal_from_dict(data: Mapping[str, Any]) -> DealEntry:
    only_keys(data, {"contracts", "captures", "king"}, "a deal")
    contracts = parse_contract_names(data.get("contracts"))
    return DealEntry(
        contracts, Captures.from_dict(data.get("captures")), optional_seat(data, "king")
    )


def _redeal_from_dict(data: Mapping[str, Any]) -> RedealEntry:
    only_keys(data, {"kind", "seat", "contract", "note", "reason"}, "a redeal")
    kind = data["kind"]
    if kind not in ("redeal", "misdeal"):
        raise MalformedError.one(
            "redeal_kind",
            rule="R8",
            field="kind",
            value=repr(kind),
        )
    contract = data.get("contract")
    note = data.get("note", "")
    if not isinstance(note, str):
        raise MalformedError.one("note_shape", rule="R8", field="note")
    parsed = None if contract is None else Contract.parse(contract)
    reason = data.get("reason")
    if reason not in (None, "closed_suit"):
        raise MalformedError.one(
            "redeal_reason",
            rule="R7",
            field="reason",
            value=repr(reason),
        )
    return RedealEntry(kind, optional_seat(data, "seat"), parsed, note, reason)


def check_players(names: Sequence[str]) -> tuple[str, str, str, str]:
    """Four distinct, non-empty player names, stripped (R1)."""
    if isinstance(names, str) or len(names) != 4:
        count = 1 if isinstance(names, str) else len(names)
        raise IllegalError.one(
            "players_count",
            rule="R1",
            field="players",
            count=count,
        )
    for seat, name in enumerate(names):
        if not isinstance(name, str) or not name.strip():
            raise MalformedError.one(
                "player_name",
                rule="R1",
                field=f"players.{seat}",
                seat=seat,
                number=seat + 1,
            )
    cleaned = [name.strip() for name in names]
    for seat, name in enumerate(cleaned):
        if name.casefold() in [n.casefold() for n in cleaned[:seat]]:
            raise IllegalError.one(
                "player_name_twice",
                rule="R1",
                field=f"players.{seat}",
                seat=seat,
                name=name,
            )
    return (cleaned[0], cleaned[1], cleaned[2], cleaned[3])


def check_first_king(rules: RuleSet, first_king: int, names: Sequence[str]) -> None:
    """A seat 0–3, and under a custom kingdom order the order's first seat (R2)."""
    if not is_seat(first_king):
        raise MalformedError.one(
            "bad_seat",
            rule="R2",
            field="first_king",
            value=repr(first_king),
            variant="first_king",
        )
    order = rules.king_order
    if rules.kingdom_order is KingdomOrder.CUSTOM and order is not None and order[0] != first_king:
        raise IllegalError.one(
            "first_king_not_in_order",
            rule="R2",
            field="first_king",
            king_order=list(order),
            first_king=first_king,
            first_name=names[order[0]],
            given_name=names[first_king],
        )


def check_redeal_shape(entry: RedealEntry) -> None:
    """A redeal entry built in code (not parsed) still needs a known kind and seat (R8)."""
    if entry.kind not in ("redeal", "misdeal"):
        raise MalformedError.one(
            "redeal_kind",
            rule="R8",
            field="kind",
            value=repr(entry.kind),
            variant="built",
        )
    if entry.seat is not None and not is_seat(entry.seat):
        raise MalformedError.one(
            "bad_seat",
            rule="R1",
            field="seat",
            value=repr(entry.seat),
            variant="redeal_seat",
        )
