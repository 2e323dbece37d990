"""Claims and redeal claims: reading their forms, and laying out a defeating line.

:func:`read_claim` turns the claim form (the cards still held, the trick in
progress or the Trix layout, the claimant and what he claims) into the body
of ``POST /api/v1/check/claim``; :func:`line_of_play` gives the engine's
defeating line back with a seat on every card, trick by trick or turn by turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper.rules.cards import Card, Rank, Suit, hand_mask
from scorekeeper.rules.contracts import ALL_CONTRACTS, Contract
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.rules.trickplay import trick_winner
from scorekeeper.text.disputes import gettext
from scorekeeper.web.disputes.input import Entered
from scorekeeper.web.disputes.record import DOUBLEABLE
from scorekeeper.web.forms import SEATS

DEFAULT_SECONDS = 20
MAX_SECONDS = 25
"""The page's limit: a search must end within a web worker's 30 s timeout."""
LOW_RANKS = tuple(r.letter for r in Rank if r <= Rank.JACK)
HIGH_RANKS = tuple(r.letter for r in Rank if r >= Rank.JACK)


@dataclass(frozen=True)
class Preset:
    """A claim as players say it, for one contract."""

    key: str
    contract: Contract


PRESETS = (
    Preset("no_more_tricks", Contract.COLLECTIONS),
    Preset("no_king", Contract.KING),
    Preset("out_first", Contract.TRIX),
)


def preset_score(preset: Preset, rules: RuleSet) -> int:
    """The least score a preset claims: 0, or the first place's Trix award."""
    if preset.contract is Contract.TRIX:
        return rules.sign * rules.values.trix[0]
    return 0


# --- reading the claim form ------------------------------------------------------------------


def read_claim(entered: Entered, rules: RuleSet, names: Sequence[str]) -> dict[str, Any] | None:
    """The claim as ``check_claim`` takes it; None (errors on ``entered``) when unusable."""
    contract = entered.contract("contract", ALL_CONTRACTS)
    hands = [entered.cards(f"hands-{seat}") for seat in range(4)]
    seat = entered.seat("claimant", gettext("Choose who makes the claim."))
    score = _claimed_score(entered, rules, contract)
    seconds = entered.number(
        "time_limit",
        1,
        MAX_SECONDS,
        gettext("Enter a time limit from 1 to %(max)d seconds.", max=MAX_SECONDS),
        DEFAULT_SECONDS,
    )
    if contract is None:
        return None
    body: dict[str, Any] = {
        "rules": rules.to_dict(),
        "contracts": [contract.value],
        "names": list(names),
        "hands": {str(s): [str(c) for c in hand] for s, hand in enumerate(hands)},
        "claim": {"seat": seat, "min_score": score},
        "time_limit": seconds,
    }
    if contract is Contract.TRIX:
        body.update(_trix_position(entered))
    else:
        body.update(_trick_position(entered))
    return body if entered.ok else None


def _claimed_score(entered: Entered, rules: RuleSet, contract: Contract | None) -> int | None:
    key = entered.text("preset")
    if key:
        preset = next((p for p in PRESETS if p.key == key), None)
        if preset is None or (contract is not None and preset.contract is not contract):
            entered.add("preset", gettext("This claim does not fit the contract; choose another."))
            return None
        return preset_score(preset, rules)
    score = entered.number("min_score", -10_000, 10_000, gettext("Enter a whole number of points."))
    if score is None or score != int(score):
        if not entered.errors_of("min_score"):
            entered.add("min_score", gettext("Say the least score claimed, or choose a claim."))
        return None
    return int(score)


def _trick_position(entered: Entered) -> dict[str, Any]:
    doubled = [v for v in entered.all("doubled") if v in DOUBLEABLE]
    return {
        "current_trick": [str(c) for c in entered.cards("current_trick")],
        "leader": entered.seat("leader", gettext("Choose who led the trick in progress.")),
        "doubled": doubled,
        "hearts_broken": entered.text("hearts_broken") == "on",
    }


def _trix_position(entered: Entered) -> dict[str, Any]:
    layout: dict[str, list[str]] = {}
    for suit in Suit:
        row = f"layout-{suit.letter}"
        low, high = entered.text(f"{row}-low"), entered.text(f"{row}-high")
        if not low and not high:
            continue
        if low not in LOW_RANKS or high not in HIGH_RANKS:
            entered.add(
                row,
                gettext("Choose both ends of this row, or neither if it is not opened."),
            )
            continue
        layout[suit.letter] = [low + suit.letter, high + suit.letter]
    out = [int(v) for v in (entered.text(f"out-{i}") for i in range(3)) if v in SEATS]
    if len(set(out)) != len(out):
        entered.add("out", gettext("Name each player who is out once."))
    return {
        "layout": layout,
        "to_play": entered.seat("to_play", gettext("Choose whose turn it is.")),
        "out": out,
    }


def claim_field(path: str | None) -> str:
    """The form field a claim problem's ``field`` concerns."""
    parts = (path or "").split(".")
    head = parts[0]
    if head == "hands" and len(parts) > 1:
        return f"hands-{parts[1]}"
    if head == "layout" and len(parts) > 1:
        return f"layout-{parts[1].upper()[:1]}"
    if head == "claim":
        return "claimant" if parts[-1] == "seat" else "min_score"
    fields = ("current_trick", "leader", "doubled", "hearts_broken", "to_play", "out", "time_limit")
    if head in fields:
        return head
    return "contract" if head == "contracts" else ""


# --- the defeating line ----------------------------------------------------------------------


@dataclass(frozen=True)
class LineStep:
    seat: int
    card: Card | None
    """None: a Trix pass."""
    before: bool = False
    """Already on the table when the claim was made."""


@dataclass(frozen=True)
class LineTrick:
    leader: int
    steps: tuple[LineStep, ...]
    winner: int | None


def trick_line(leader: int, current: Sequence[str], line: Sequence[str]) -> list[LineTrick]:
    """The line trick by trick: the trick in progress first, then each trick with its winner."""
    out: list[LineTrick] = []
    steps = [LineStep((leader + i) % 4, Card.parse(c), True) for i, c in enumerate(current)]
    for text in line:
        steps.append(LineStep((leader + len(steps)) % 4, Card.parse(text)))
        if len(steps) == 4:
            winner = trick_winner(leader, [s.card.index for s in steps if s.card])
            out.append(LineTrick(leader, tuple(steps), winner))
            leader, steps = winner, []
    if steps:
        out.append(LineTrick(leader, tuple(steps), None))
    return out


def trix_line(to_play: int, hands: Sequence[Sequence[str]], line: Sequence[str]) -> list[LineStep]:
    """The Trix line turn by turn; players whose hands are empty are skipped (R7)."""
    held = [hand_mask(Card.parse(c) for c in hand) for hand in hands]
    seat, out = to_play, []
    for text in line:
        card = None if text == "pass" else Card.parse(text)
        out.append(LineStep(seat, card))
        if card is not None:
            held[seat] &= ~card.bit
        for step in range(1, 5):
            if held[(seat + step) % 4]:
                seat = (seat + step) % 4
                break
    return out
