"""A typed play record: where the desk is used, and reading the card-by-card check's form.

:func:`read_record` turns the form (four hands, the tricks or the Trix
plays) into a :class:`PlayRecord`, with every problem next to its field;
:meth:`PlayRecord.body` is the same record as ``POST /api/v1/check/play``
takes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper.rules.cards import FULL_DECK, Card, cards_of
from scorekeeper.rules.contracts import ALL_CONTRACTS, Contract
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.rules.timeline import (
    masks,
    trick_rows,
)
from scorekeeper.store.snapshot import LoadedGame
from scorekeeper.text.disputes import gettext, ngettext
from scorekeeper.text.locale import isolate_name
from scorekeeper.text.messages import N_
from scorekeeper.web.disputes.input import Entered, card_text

DOUBLEABLE = ("KH", "QS", "QH", "QD", "QC")


@dataclass(frozen=True)
class Desk:
    """Where a dispute page is used: on its own, for a game, or for one of its deals."""

    rules: RuleSet
    names: tuple[str, ...]
    loaded: LoadedGame | None = None
    n: int | None = None
    """The recorded deal being checked."""
    contracts: tuple[Contract, ...] | None = None
    """Fixed by the deal being checked; None: chosen on the form."""
    king: int | None = None
    """Fixed by the deal or the game; None: chosen on the form."""
    dealer: int | None = None
    """Who dealt, when R2's dealer house rules make him another player than the king."""
    choices: tuple[Contract, ...] = ALL_CONTRACTS
    """The contracts the form offers when it asks."""


@dataclass(frozen=True)
class PlayRecord:
    """A deal as played, card by card (API.md ``check/play``)."""

    rules: RuleSet
    contracts: tuple[Contract, ...]
    king: int
    names: tuple[str, ...]
    hands: tuple[tuple[Card, ...], ...] | None
    doubled: tuple[Card, ...] = ()
    tricks: tuple[tuple[Card, ...], ...] = ()
    plays: tuple[Card | None, ...] = ()
    dealer: int | None = None
    """Who dealt, when not the king (R2); None: the king dealt."""

    @property
    def trix(self) -> bool:
        return self.contracts == (Contract.TRIX,)

    @property
    def first_seat(self) -> int:
        """The seat the first lead (R10) and the first Trix turn (R7) count from: the dealer."""
        return self.king if self.dealer is None else self.dealer

    def body(self) -> dict[str, Any]:
        """The record as ``POST /api/v1/check/play`` takes it."""
        body: dict[str, Any] = {
            "rules": self.rules.to_dict(),
            "contracts": [c.value for c in self.contracts],
            "king": self.king,
            "names": list(self.names),
        }
        if self.dealer is not None:
            body["dealer"] = self.dealer
        if self.hands is not None:
            body["hands"] = {str(s): [str(c) for c in hand] for s, hand in enumerate(self.hands)}
        if self.trix:
            body["plays"] = ["pass" if c is None else str(c) for c in self.plays]
        else:
            body["tricks"] = [[str(c) for c in trick] for trick in self.tricks]
            body["doubled"] = [str(c) for c in self.doubled]
        return body

    def fields(self) -> dict[str, str | list[str]]:
        """The record as the form's fields, to carry it to "Apply" (hidden inputs)."""
        out: dict[str, str | list[str]] = {"king": str(self.king)}
        out["contract"] = ",".join(c.value for c in self.contracts)
        for seat, hand in enumerate(self.hands or ((),) * 4):
            out[f"hands-{seat}"] = card_text(hand)
        out["tricks"] = "\n".join(card_text(trick) for trick in self.tricks)
        out["plays"] = card_text(self.plays)
        out["doubled"] = [str(c) for c in self.doubled]
        return out


# --- reading the form ------------------------------------------------------------------------


def read_record(entered: Entered, desk: Desk, need_play: bool = True) -> PlayRecord | None:
    """The record typed on the form; None (with errors on ``entered``) when it is unusable."""
    contracts = desk.contracts or _contracts(entered, desk)
    king = desk.king
    if king is None:
        king = entered.seat("king", gettext("Choose who was king and dealt this deal."))
    hands = read_hands(entered, desk.names)
    trix = contracts == (Contract.TRIX,)
    doubled = () if trix else _doubled(entered, contracts or ())
    tricks = () if trix else tuple(tuple(t) for t in entered.card_lines("tricks"))
    plays = tuple(entered.plays("plays")) if trix else ()
    if need_play and entered.ok and not (plays if trix else tricks):
        where, what = ("plays", _NO_PLAYS) if trix else ("tricks", _NO_TRICKS)
        entered.add(where, gettext(what))
    if not entered.ok or contracts is None or king is None:
        return None
    record = PlayRecord(
        desk.rules, contracts, king, desk.names, hands, doubled, tricks, plays, desk.dealer
    )
    if hands is not None and not trix:
        _check_holders(entered, record)
    return record if entered.ok else None


# Marked for pybabel (N_), translated where they are shown (gettext(what)).
_NO_TRICKS = N_("Enter the tricks: one line per trick, its cards in play order, leader first.")
_NO_PLAYS = N_("Enter the plays: every turn in order, a card or “pass”.")


def _check_holders(entered: Entered, record: PlayRecord) -> None:
    """A card typed in the wrong seat's place: say who held it (the engine says "seat 2")."""
    assert record.hands is not None
    rows = trick_rows(record.rules, record.contracts, record.first_seat, record.tricks)
    dealt, seen = masks(record.hands), 0
    held = list(dealt)
    for row in rows:
        for seat, card in row.plays:
            if seen & card.bit:
                return  # played twice: the engine's own message says where
            if not held[seat] & card.bit:
                holder = next(s for s in range(4) if dealt[s] & card.bit)
                message = gettext(
                    "Trick %(trick)d: %(player)s plays %(card)s, but %(holder)s held it. Type "
                    "each trick's cards in play order, starting with its leader (here %(leader)s).",
                    trick=row.number,
                    player=isolate_name(record.names[seat]),
                    card=card.pretty,
                    holder=isolate_name(record.names[holder]),
                    leader=isolate_name(record.names[row.leader]),
                )
                entered.add("tricks", message)
                return
            held[seat] &= ~card.bit
            seen |= card.bit


def _contracts(entered: Entered, desk: Desk) -> tuple[Contract, ...] | None:
    raw = entered.text("contract")
    chosen = tuple(c for c in desk.choices if c.value in raw.split(","))
    if not chosen or len(chosen) != len(raw.split(",")):
        entered.add("contract", gettext("Choose the contract that was announced."))
        return None
    return chosen


def _doubled(entered: Entered, contracts: Sequence[Contract]) -> tuple[Card, ...]:
    values = [v for v in entered.all("doubled") if v in DOUBLEABLE]
    if len(values) != len(entered.all("doubled")):
        entered.add("doubled", gettext("Choose among the cards listed."))
    return tuple(Card.parse(v) for v in values)


def read_hands(entered: Entered, names: Sequence[str]) -> tuple[tuple[Card, ...], ...] | None:
    """The four hands (None: all left blank); three full hands give the fourth."""
    typed = [entered.cards(f"hands-{seat}") for seat in range(4)]
    if not any(typed):
        return None
    _repeats(entered, typed, names)
    blank = [seat for seat in range(4) if not typed[seat]]
    if len(blank) == 1 and all(len(typed[s]) == 13 for s in range(4) if s != blank[0]):
        taken = sum(c.bit for hand in typed for c in hand)
        typed[blank[0]] = cards_of(FULL_DECK & ~taken)
    for seat, hand in enumerate(typed):
        if len(hand) != 13:
            entered.add(f"hands-{seat}", _hand_size(names[seat], len(hand)))
    return tuple(tuple(hand) for hand in typed)


def _repeats(entered: Entered, typed: list[list[Card]], names: Sequence[str]) -> None:
    owner: dict[Card, int] = {}
    for seat, hand in enumerate(typed):
        for card in hand:
            if card in owner:
                entered.add(f"hands-{seat}", _repeat(card, seat, owner[card], names))
            owner[card] = seat


def _repeat(card: Card, seat: int, other: int, names: Sequence[str]) -> str:
    if other == seat:
        return gettext("%(card)s is typed twice.", card=card.pretty)
    return gettext(
        "%(card)s is in %(other)s's hand too.", card=card.pretty, other=isolate_name(names[other])
    )


def _hand_size(player: str, count: int) -> str:
    if count == 0:
        return gettext(
            "Enter %(player)s's 13 cards too, or leave all four hands blank when every card "
            "was played.",
            player=isolate_name(player),
        )
    return ngettext(
        "%(player)s's hand has %(num)d card; each player is dealt 13.",
        "%(player)s's hand has %(num)d cards; each player is dealt 13.",
        count,
        player=isolate_name(player),
    )


def play_field(path: str | None) -> str:
    """The form field an engine problem's ``field`` concerns (``hands.2`` -> ``hands-2``)."""
    parts = (path or "").split(".")
    if parts[0] == "hands" and len(parts) > 1:
        return f"hands-{parts[1]}"
    if parts[0] in ("tricks", "plays", "doubled", "king"):
        return parts[0]
    return "contract" if parts[0] == "contracts" else ""
