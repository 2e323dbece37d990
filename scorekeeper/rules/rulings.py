"""Violations, R10's rulings on them, and the sentences that explain both (R3, R9.4, R10).

Helpers of :mod:`scorekeeper.rules.tricks`; they turn the hot loop's ints
(:class:`~scorekeeper.rules.trickplay.Fault`, bit sets of taken cards) into
the summary-entry :class:`Captures` and words a player at the table follows.

>>> from scorekeeper.rules.cards import Card
>>> fault = Fault(trick=4, seat=2, card=Card.parse("3S").index, code=MUST_FOLLOW, hand=0)
>>> revoke_sentence(RuleSet(), fault, Suit.HEARTS, ["Rana", "Sami", "Omar", "Lina"])
'Omar revoked on trick 5 (played 3♠ holding a heart); under the standard penalty, Omar takes \
every trick from trick 5 on.'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper.rules.captures import Capture, Captures
from scorekeeper.rules.cards import (
    ALL_CARDS,
    FULL_DECK,
    KING_OF_HEARTS,
    QUEENS,
    SUIT_MASKS,
    Card,
    Suit,
    cards_of,
)
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.errors import join_words, joined, part
from scorekeeper.rules.ruleset import RevokeRule, RuleSet
from scorekeeper.rules.trickplay import (
    BROKEN_HEARTS,
    MUST_DISCARD,
    MUST_FOLLOW,
    NO_HEART_LEAD,
    Fault,
    IndexReplay,
    Plan,
)

RULE_OF = {MUST_FOLLOW: "R10", NO_HEART_LEAD: "R3", BROKEN_HEARTS: "R3", MUST_DISCARD: "R9.4"}
"""The rule each kind of violation breaks."""
_SUIT_NAMES = ("spade", "heart", "diamond", "club")
_SUIT_COUNT_KEYS = ("word.spades", "word.hearts", "word.diamonds", "word.clubs")
"""Message parts for ``3 spades`` and so on (a plural template with ``count``)."""
_DIAMONDS = SUIT_MASKS[Suit.DIAMONDS]


@dataclass(frozen=True)
class Violation:
    """One illegal play: a revoke in the wide sense of R10."""

    rule: str
    trick: int
    """1-based."""
    seat: int
    card: Card
    code: str
    message: str

    def as_dict(self) -> dict[str, Any]:
        """The API's violation object (plus ``code``)."""
        return {
            "rule": self.rule,
            "trick": self.trick,
            "seat": self.seat,
            "card": str(self.card),
            "message": self.message,
            "code": self.code,
        }


def you_params(code: str, hand: int, trick: Sequence[int], plan: Plan) -> dict[str, Any]:
    """The params of the sentence telling the player why not, whose template key is
    ``<code>.you`` ("You must follow suit: you hold 3 spades.")."""
    params: dict[str, Any] = {"variant": "you"}
    if code == MUST_FOLLOW:
        suit = trick[0] // 13
        count = (hand & SUIT_MASKS[suit]).bit_count()
        params["held"] = part(_SUIT_COUNT_KEYS[suit], count=count)
    elif code == MUST_DISCARD:
        params["held"] = joined("and", (card.pretty for card in cards_of(hand & plan.penalty)))
    return params


def _count(mask: int, suit: int) -> str:
    n = mask.bit_count()
    return f"{n} {_SUIT_NAMES[suit]}{'s' if n != 1 else ''}"


def _card_list(mask: int) -> str:
    return join_words([card.pretty for card in cards_of(mask)])


def trick_counts(winners: Sequence[int]) -> tuple[int, int, int, int]:
    return (winners.count(0), winners.count(1), winners.count(2), winners.count(3))


def captures_of(
    plan: Plan, taken: Sequence[int], tricks: tuple[int, int, int, int], holders: dict[int, int]
) -> Captures:
    """The summary-entry captures of who took which cards (API.md)."""
    contracts = plan.contracts
    king = queens = diamonds = None
    if Contract.KING in contracts:
        king = _capture(taken, KING_OF_HEARTS.index, holders)
    if Contract.QUEENS in contracts:
        found = [_capture(taken, q.index, holders) for q in QUEENS]
        if all(found):
            queens = (found[0], found[1], found[2], found[3])
    if Contract.DIAMONDS in contracts:
        d = [(mask & _DIAMONDS).bit_count() for mask in taken]
        diamonds = (d[0], d[1], d[2], d[3])
    return Captures(king, queens, diamonds, tricks)  # type: ignore[arg-type]


def _capture(taken: Sequence[int], index: int, holders: dict[int, int]) -> Capture | None:
    for seat, mask in enumerate(taken):
        if mask >> index & 1:
            return Capture(seat, holders.get(index))
    return None


def ruled_captures(
    rules: RuleSet, plan: Plan, found: IndexReplay, tricks: list[list[int]], holders: dict[int, int]
) -> Captures:
    """R10's ruling on the first violation: the offender takes the rest, or everything."""
    first = found.faults[0]
    counts = [0, 0, 0, 0]
    taken = [0, 0, 0, 0]
    if rules.revoke is RevokeRule.REMAINING:  # what others took before the revoke's trick stands
        for t in range(first.trick):
            winner = found.winners[t]
            counts[winner] += 1
            for card in tricks[t]:
                taken[winner] |= 1 << card
    counts[first.seat] += 13 - sum(counts)
    others = taken[0] | taken[1] | taken[2] | taken[3]
    taken[first.seat] |= FULL_DECK ^ others
    return captures_of(plan, taken, (counts[0], counts[1], counts[2], counts[3]), holders)


def _who(seat: int, names: Sequence[str] | None, start: bool = False) -> str:
    if names is not None:
        return names[seat]
    return f"{'Seat' if start else 'seat'} {seat}"


def violation_of(
    fault: Fault, plan: Plan, tricks: list[list[int]], names: Sequence[str] | None
) -> Violation:
    card = ALL_CARDS[fault.card]
    who, n = _who(fault.seat, names, start=True), fault.trick + 1
    led = tricks[fault.trick][0] // 13
    if fault.code == MUST_FOLLOW:
        held = _count(fault.hand & SUIT_MASKS[led], led)
        message = f"{who} played {card.pretty} on trick {n} while holding {held}, "
        message += "and must follow suit."
    elif fault.code == NO_HEART_LEAD:
        message = f"{who} led {card.pretty} on trick {n} while holding another suit; "
        message += "hearts may be led only by a player who holds nothing else."
    elif fault.code == BROKEN_HEARTS:
        message = f"{who} led {card.pretty} on trick {n} while holding another suit, "
        message += "before any heart had been discarded on another suit."
    else:
        held = _card_list(fault.hand & plan.penalty)
        message = f"{who} discarded {card.pretty} on trick {n} while holding {held}; "
        message += "a player who cannot follow suit must discard a penalty card."
    return Violation(RULE_OF[fault.code], n, fault.seat, card, fault.code, message)


def revoke_sentence(rules: RuleSet, first: Fault, led: int, names: Sequence[str] | None) -> str:
    card = ALL_CARDS[first.card].pretty
    who, n = _who(first.seat, names), first.trick + 1
    what = {
        MUST_FOLLOW: f"played {card} holding a {_SUIT_NAMES[led]}",
        NO_HEART_LEAD: f"led {card} holding another suit",
        BROKEN_HEARTS: f"led {card} before hearts were broken",
        MUST_DISCARD: f"discarded {card} holding a penalty card",
    }[first.code]
    opening = f"{_who(first.seat, names, start=True)} revoked on trick {n} ({what}); "
    if rules.revoke is RevokeRule.REMAINING:
        return opening + f"under the standard penalty, {who} takes every trick from trick {n} on."
    return opening + (
        f"under the house rule “whole”, the deal is scored as if {who} had taken all 13 tricks: "
        f"{who} is charged the whole contract and a doubling bonus still goes to the card's holder."
    )


def clean_sentence(done: int) -> str:
    if done == 13:
        return "All 13 tricks were played legally; the captures stand as played."
    return f"No revoke so far: {done} of 13 tricks are complete and the deal is not finished."
