"""Redeal claims before play (R8): the engine checks a claim from the whole hand.

King of Hearts: a hand whose hearts are only the K♥, only the A♥, or exactly
K♥ + A♥ may ask for a redeal (and, under the house rule
``redeal_long_hearts``, five or more hearts including the K♥).  Trix: all
four 2s, or three 2s and the 3 of the fourth suit.  No other contract has a
redeal claim; a misdeal (exposed cards, wrong counts) is another matter.

>>> from .cards import parse_cards
>>> hand = parse_cards("KH AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S".split())
>>> verdict = check_redeal(RuleSet(), Contract.KING, hand)
>>> verdict.eligible, verdict.code
(True, 'only_king_of_hearts')
>>> verdict.reason
'Your only heart is the K♥: you may ask for a redeal (R8).'
>>> check_redeal(RuleSet(), Contract.QUEENS, hand).eligible
False
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from scorekeeper.rules.cards import SUIT_MASKS, Card, Rank, Suit, cards_of, hand_mask
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.errors import MalformedError, StateError
from scorekeeper.rules.ruleset import RuleSet

REDEALS_IN_A_ROW_MAX = 20
"""Redeals and misdeals one deal may have before it is played. RULES.md sets no limit (R8
lets a hand claim a redeal each time it qualifies); no table deals the same deal twenty
times, and without a limit one game could grow without end and outgrow its own backup."""

_KH = Card(Suit.HEARTS, Rank.KING).bit
_AH = Card(Suit.HEARTS, Rank.ACE).bit
_TWOS = tuple(Card(s, Rank.TWO) for s in Suit)
_THREES = tuple(Card(s, Rank.THREE) for s in Suit)
_WORDS = ("no", "one", "two", "three", "four")


@dataclass(frozen=True)
class RedealVerdict:
    """Whether a hand may ask for a redeal, with a stable code and a sentence for the table."""

    eligible: bool
    code: str
    reason: str

    def as_dict(self) -> dict[str, object]:
        """The API's answer fields (``eligible``, ``reason``), plus ``code``."""
        return {"eligible": self.eligible, "reason": self.reason, "code": self.code}


def check_redeal(rules: RuleSet, contract: Contract, hand: Sequence[Card]) -> RedealVerdict:
    """Check a redeal claim (R8) for ``hand`` when ``contract`` has been announced.

    Raise :class:`MalformedError` (field ``hand``) unless the hand is 13 distinct cards.
    """
    mask = _hand_of_thirteen(hand)
    if contract is Contract.KING:
        return _king_of_hearts(rules, mask)
    if contract is Contract.TRIX:
        return _trix(mask)
    return RedealVerdict(
        False,
        "no_redeal_for_contract",
        f"Redeal claims exist only for King of Hearts and Trix, not {contract.label} (R8); "
        "a misdeal is another matter: the same dealer deals again.",
    )


def _hand_of_thirteen(hand: Sequence[Card]) -> int:
    mask = hand_mask(hand)
    if len(hand) == 13 and mask.bit_count() == 13:
        return mask
    twice = sorted(card for card, n in Counter(hand).items() if n > 1)
    if twice:
        names = " ".join(c.pretty for c in twice)
        raise MalformedError.one(
            "hand_card_twice",
            rule="R1",
            field="hand",
            cards=[str(c) for c in twice],
            listed=names,
        )
    raise MalformedError.one(
        "hand_size",
        rule="R1",
        field="hand",
        count=len(hand),
        variant="hand",
    )


def _pretty(mask: int) -> str:
    return " ".join(c.pretty for c in cards_of(mask))


def _king_of_hearts(rules: RuleSet, mask: int) -> RedealVerdict:
    hearts = mask & SUIT_MASKS[Suit.HEARTS]
    if hearts == _KH:
        return _yes("only_king_of_hearts", "Your only heart is the K♥")
    if hearts == _AH:
        return _yes("only_ace_of_hearts", "Your only heart is the A♥")
    if hearts == _KH | _AH:
        return _yes("king_and_ace_of_hearts", "Your only hearts are the K♥ and A♥")
    count = hearts.bit_count()
    long_with_king = count >= 5 and hearts & _KH
    if long_with_king and rules.redeal_long_hearts:
        return _yes("long_hearts_with_king", f"You hold {count} hearts including the K♥")
    need = "a redeal needs the K♥ or A♥ alone, or exactly K♥ and A♥"
    if long_with_king:
        need += " (the house rule for 5+ hearts with the K♥ is off)"
    held = f"You hold {count} hearts ({_pretty(hearts)})" if count else "You hold no hearts"
    if count == 1:
        held = f"Your only heart is the {_pretty(hearts)}"
    return RedealVerdict(False, "hearts_not_eligible", f"{held}; {need}.")


def _trix(mask: int) -> RedealVerdict:
    twos = [c for c in _TWOS if mask & c.bit]
    if len(twos) == 4:
        return _yes("four_twos", "You hold all four 2s")
    need = "a redeal needs all four 2s, or three 2s and the 3 of the fourth suit"
    if len(twos) == 3:
        missing = next(s for s in Suit if not mask & _TWOS[s].bit)
        three = _THREES[missing]
        held = "You hold three 2s (" + " ".join(c.pretty for c in twos) + ")"
        if mask & three.bit:
            return _yes("three_twos_and_three", f"{held} and the {three.pretty}")
        return RedealVerdict(
            False, "twos_not_eligible", f"{held} but not the {three.pretty}; {need}."
        )
    held = f"You hold {_WORDS[len(twos)]} 2s"
    if len(twos) == 1:
        held = f"You hold one 2 ({twos[0].pretty})"
    elif twos:
        held += " (" + " ".join(c.pretty for c in twos) + ")"
    return RedealVerdict(False, "twos_not_eligible", f"{held}; {need}.")


def _yes(code: str, held: str) -> RedealVerdict:
    return RedealVerdict(True, code, f"{held}: you may ask for a redeal (R8).")


def check_redeals_in_a_row(in_a_row: int, deal_number: int) -> None:
    """Refuse one more redeal of deal ``deal_number`` once it was dealt again
    :data:`REDEALS_IN_A_ROW_MAX` times (``in_a_row``: its redeals and misdeals so far).

    >>> check_redeals_in_a_row(19, 3)
    >>> check_redeals_in_a_row(20, 3)
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.StateError: Deal 3 was dealt again 20 times, the most one deal \
may be; record the deal as it is played (or undo the last redeal).
    """
    if in_a_row < REDEALS_IN_A_ROW_MAX:
        return
    raise StateError.one(
        "too_many_redeals",
        rule="R8",
        field="kind",
        n=deal_number,
        count=in_a_row,
    )
