"""What each card of a trick contract is worth to a claimant (R3–R6, R9.1, R9.7, R9.8).

The claim search (:mod:`.search`) scores a trick from the claimant's
side only: per card, what he scores if he takes it and what he scores if
another player does (the bonus for his own doubled card), plus what a trick
costs him in Collections. Signs are already applied (R9.8).

>>> from scorekeeper.rules.cards import Card, cards_of
>>> w = claim_weights(RuleSet(), [Contract.DIAMONDS, Contract.QUEENS], 0, {})
>>> w.win[Card.parse("QD").index], w.win[Card.parse("2D").index], w.trick
(-35, -10, 0)
>>> [str(c) for c in cards_of(w.special)]
['QS', 'QH', 'QD', 'QC']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from scorekeeper.rules.cards import KING_OF_HEARTS, QUEENS, Suit
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.ruleset import RuleSet

__all__ = ["Weights", "claim_weights", "doubled_holders_of"]


class Weights(NamedTuple):
    """What each card is worth to the claimant, with signs (R3–R6, R9.1, R9.7, R9.8)."""

    win: tuple[int, ...]
    """Per card index: the claimant's score for taking it himself."""
    lose: tuple[int, ...]
    """Per card index: his score when another player takes it (his doubled card's bonus)."""
    trick: int
    """His score per trick taken (Collections)."""
    special: int
    """Cards that score unlike the 2 of their suit: never merged with their neighbours."""
    groups: tuple[tuple[int, int, int], ...]
    """(cards, least, most) per kind of scoring card: the bounds of what is left to score."""


def claim_weights(
    rules: RuleSet, contracts: Sequence[Contract], seat: int, holders: Mapping[int, int]
) -> Weights:
    """The claimant's per-card scores; ``holders`` maps doubled cards still in play to holders.

    >>> w = claim_weights(RuleSet(), [Contract.KING], 1, {KING_OF_HEARTS.index: 1})
    >>> w.win[KING_OF_HEARTS.index], w.lose[KING_OF_HEARTS.index], w.trick
    (-75, 75, 0)
    >>> claim_weights(RuleSet(), [Contract.KING], 2, {KING_OF_HEARTS.index: 1}).win[24]
    -150
    """
    win, lose = [0] * 52, [0] * 52
    values = rules.values
    if Contract.KING in contracts:
        _doubleable(rules, seat, holders, KING_OF_HEARTS.index, values.king, win, lose)
    if Contract.QUEENS in contracts:
        for queen in QUEENS:
            _doubleable(rules, seat, holders, queen.index, values.queen, win, lose)
    if Contract.DIAMONDS in contracts:
        for index in range(13 * Suit.DIAMONDS, 13 * Suit.DIAMONDS + 13):
            win[index] -= values.diamond
    trick = -values.trick if Contract.COLLECTIONS in contracts else 0
    sign = rules.sign  # R9.8: every score negated; the claimant maximises his signed score
    win, lose = [sign * w for w in win], [sign * w for w in lose]
    special = sum(1 << i for i in range(52) if (win[i], lose[i]) != _two_of(win, lose, i))
    return Weights(tuple(win), tuple(lose), sign * trick, special, _groups(win, lose))


def _doubleable(
    rules: RuleSet,
    seat: int,
    holders: Mapping[int, int],
    index: int,
    value: int,
    win: list[int],
    lose: list[int],
) -> None:
    """A K♥ or queen: plain, doubled by another, or doubled by the claimant (R3, R4)."""
    holder = holders.get(index) if rules.doubling else None
    if holder is None:
        win[index] -= value
    elif holder != seat:
        win[index] -= 2 * value
    else:
        win[index] -= rules.doubled_self_capture.multiplier * value
        lose[index] += value


def _two_of(win: list[int], lose: list[int], index: int) -> tuple[int, int]:
    two = index - index % 13  # no contract makes a 2 special
    return (win[two], lose[two])


def _groups(win: list[int], lose: list[int]) -> tuple[tuple[int, int, int], ...]:
    kinds: dict[tuple[int, int], int] = {}
    for i in range(52):
        if win[i] or lose[i]:
            kind = (min(win[i], lose[i], 0), max(win[i], lose[i], 0))
            kinds[kind] = kinds.get(kind, 0) | 1 << i
    return tuple((mask, low, high) for (low, high), mask in kinds.items())


def doubled_holders_of(
    doubled: int, hands: Sequence[int], trick: Sequence[int], leader: int
) -> dict[int, int]:
    """Who holds each doubled card still in play: a hand, or the seat that played it now.

    A doubled card played in an earlier trick no longer matters and is left out.

    >>> doubled_holders_of(1 << 24, [0, 1 << 24, 0, 0], [], 0), doubled_holders_of(1 << 24, \
[0, 0, 0, 0], [5, 24], 3)
    ({24: 1}, {24: 0})
    """
    holders: dict[int, int] = {}
    for index in range(52):
        if doubled >> index & 1:
            for seat, hand in enumerate(hands):
                if hand >> index & 1:
                    holders[index] = seat
            if index in trick:
                holders[index] = (leader + list(trick).index(index)) & 3
    return holders
