"""Trick play: legal cards, the trick winner, full replay and revoke rulings (R3, R9.4, R10).

The hot loop works on card indices and bit-set hands
(:mod:`scorekeeper.rules.trickplay`); this module is the Card-level face of
it, with the records' checks, the derived captures and R10's ruling.

>>> from scorekeeper.rules.cards import ALL_CARDS, parse_cards
>>> from scorekeeper.rules.contracts import Contract
>>> from scorekeeper.rules.ruleset import RuleSet
>>> hands = [[ALL_CARDS[i] for i in range(seat, 52, 4)] for seat in range(4)]
>>> tricks = [parse_cards(["2S", "2H", "4S", "5S"])]
>>> replay = replay_tricks(RuleSet(), [Contract.KING], 0, tricks, hands)
>>> replay.violations[0].as_dict()["message"]
'Seat 1 played 2♥ on trick 1 while holding 3 spades, and must follow suit.'
>>> replay.winners, replay.complete, replay.captures.tricks
((3,), False, (0, 0, 0, 1))
>>> replay.ruling
'Seat 1 revoked on trick 1 (played 2♥ holding a spade); under the standard penalty, seat 1 \
takes every trick from trick 1 on.'
>>> replay.ruled.king_of_hearts, replay.ruled.tricks
(Capture(taker=1, doubled_by=None), (0, 13, 0, 0))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper.rules.captures import Captures
from scorekeeper.rules.cards import ALL_CARDS, KING_OF_HEARTS, Card, Rank
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.errors import MalformedError, Problem
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.rules.rulings import (
    RULE_OF,
    Violation,
    captures_of,
    clean_sentence,
    revoke_sentence,
    ruled_captures,
    trick_counts,
    violation_of,
    you_params,
)
from scorekeeper.rules.trickplay import (
    IndexReplay,
    Plan,
    breaks_hearts,
    fault_code,
    first_leader,
    legal_mask,
    plan_for,
    replay_indices,
    trick_winner,
)

__all__ = [
    "TrickReplay",
    "Violation",
    "breaks_hearts",
    "first_leader",
    "illegal_reason",
    "legal_cards",
    "replay_indices",
    "replay_tricks",
    "trick_winner",
]

# Card -> index by table lookup: faster than the arithmetic on IntEnums in the conversion loops.
_INDEX = tuple(tuple(s * 13 + r - 2 if r >= 2 else -1 for r in range(15)) for s in range(4))
_BIT = tuple(tuple(1 << i if i >= 0 else 0 for i in row) for row in _INDEX)


@dataclass(frozen=True)
class TrickReplay:
    """What a trick record shows: its violations, captures and the captures to score."""

    violations: tuple[Violation, ...]
    complete: bool
    captures: Captures
    """From the completed tricks only; a K♥ or queen not yet taken leaves its field None."""
    ruled: Captures | None
    """The captures to score: R10's ruling on the first violation, else ``captures``
    when the deal is complete, else None."""
    ruling: str
    winners: tuple[int, ...]
    """The winner of each completed trick."""
    next_leader: int | None
    """Who leads the first trick not yet completed; None when all 13 are done."""
    to_play: int | None
    """Whose turn it is; None when all 13 tricks are done."""

    @property
    def legal(self) -> bool:
        return not self.violations

    def as_dict(self) -> dict[str, Any]:
        return {
            "legal": self.legal,
            "complete": self.complete,
            "violations": [v.as_dict() for v in self.violations],
            "captures": self.captures.to_dict(),
            "ruled": None if self.ruled is None else self.ruled.to_dict(),
            "ruling": self.ruling,
            "winners": list(self.winners),
            "next_leader": self.next_leader,
            "to_play": self.to_play,
        }


def legal_cards(
    rules: RuleSet,
    contracts: Sequence[Contract],
    hand: int,
    trick: Sequence[int],
    hearts_broken: bool,
) -> int:
    """The bit set of the cards of ``hand`` the next player may play (R3, R9.4, R10).

    >>> from scorekeeper.rules.cards import hand_mask, parse_cards, cards_of
    >>> hand = hand_mask(parse_cards(["AS", "KH", "7D", "2C"]))
    >>> rules = RuleSet(penalty_discard=True)
    >>> [str(c) for c in cards_of(legal_cards(rules, [Contract.KING], hand, [25], False))]
    ['KH']
    """
    return legal_mask(plan_for(rules, contracts), hand, trick, hearts_broken)


def illegal_reason(
    rules: RuleSet,
    contracts: Sequence[Contract],
    hand: int,
    trick: Sequence[int],
    hearts_broken: bool,
    card: int,
) -> Problem | None:
    """Why the player holding ``hand`` may not play ``card`` now, for the UI; None if he may.

    >>> from scorekeeper.rules.cards import hand_mask, parse_cards
    >>> hand = hand_mask(parse_cards(["AS", "9S", "3S", "2C"]))
    >>> illegal_reason(RuleSet(), [Contract.QUEENS], hand, [5], False, 39).message
    'You must follow suit: you hold 3 spades.'
    """
    pretty = ALL_CARDS[card].pretty
    if not hand >> card & 1:
        params = {"card": pretty, "variant": "you"}
        return Problem.of("card_not_held", rule="R1", **params)
    code = fault_code(plan_for(rules, contracts), hand, trick, hearts_broken, card)
    if code is None:
        return None
    plan = plan_for(rules, contracts)
    params = {"card": pretty, **you_params(code, hand, trick, plan)}
    return Problem.of(code, rule=RULE_OF[code], **params)


def replay_tricks(
    rules: RuleSet,
    contracts: Sequence[Contract],
    king: int,
    tricks: Sequence[Sequence[Card]],
    hands: Sequence[Sequence[Card]] | None = None,
    doubled: Sequence[Card] = (),
    *,
    names: Sequence[str] | None = None,
) -> TrickReplay:
    """Replay a trick record, find every violation and rule on the first (R10).

    ``tricks`` are cards in play order, leader first. Without ``hands`` all 13
    tricks must be complete. ``doubled`` are the cards exposed before play (R3,
    R4). ``names`` (by seat) only dress the messages. Raise
    :class:`MalformedError` when the record is impossible.
    """
    _check_setup(rules, contracts, king, doubled)
    index = _INDEX
    indices = [[index[c.suit][c.rank] for c in trick] for trick in tricks]
    masks = None if hands is None else [_hand_mask(seat, hand) for seat, hand in enumerate(hands)]
    found = replay_indices(rules, contracts, king, indices, masks)
    return _judge(rules, plan_for(rules, contracts), found, indices, doubled, names)


def _judge(
    rules: RuleSet,
    plan: Plan,
    found: IndexReplay,
    indices: list[list[int]],
    doubled: Sequence[Card],
    names: Sequence[str] | None,
) -> TrickReplay:
    """Captures, violations and R10's ruling from the hot loop's findings."""
    holders = {c.index: _holder(found.dealt, c) for c in doubled}
    captures = captures_of(plan, found.taken, trick_counts(found.winners), holders)
    complete = len(found.winners) == 13
    violations = tuple(violation_of(f, plan, indices, names) for f in found.faults)
    if violations:
        first = found.faults[0]
        ruled: Captures | None = ruled_captures(rules, plan, found, indices, holders)
        ruling = revoke_sentence(rules, first, indices[first.trick][0] // 13, names)
    else:
        ruled = captures if complete else None
        ruling = clean_sentence(len(found.winners))
    next_leader = None if complete else found.next_leader
    to_play = None if complete else found.to_play
    winners = tuple(found.winners)
    return TrickReplay(violations, complete, captures, ruled, ruling, winners, next_leader, to_play)


def _check_setup(
    rules: RuleSet, contracts: Sequence[Contract], king: int, doubled: Sequence[Card]
) -> None:
    if not contracts or not all(c.is_trick_contract for c in contracts):
        raise MalformedError.one(
            "not_trick_contracts",
            rule="R10",
            field="contracts",
        )
    if not (isinstance(king, int) and 0 <= king <= 3) or isinstance(king, bool):
        raise MalformedError.one(
            "bad_seat",
            rule="R1",
            field="king",
            value=repr(king),
            variant="king",
        )
    for i, card in enumerate(doubled):
        _check_doubled(rules, contracts, doubled, i, card)


def _check_doubled(
    rules: RuleSet, contracts: Sequence[Contract], doubled: Sequence[Card], i: int, card: Card
) -> None:
    field = f"doubled.{i}"
    if not rules.doubling:
        raise MalformedError.one(
            "doubling_off", rule="R9.1", field=field, card=card.pretty, variant="doubled"
        )
    king_ok = card == KING_OF_HEARTS and Contract.KING in contracts
    queen_ok = card.rank == Rank.QUEEN and Contract.QUEENS in contracts
    if not (king_ok or queen_ok):
        raise MalformedError.one(
            "not_doubleable",
            rule="R3" if card == KING_OF_HEARTS else "R4",
            field=field,
            card=card.pretty,
        )
    if card in doubled[:i]:
        raise MalformedError.one("doubled_twice", rule="R3", field=field, card=card.pretty)


def _hand_mask(seat: int, hand: Sequence[Card]) -> int:
    bits = _BIT
    mask = 0
    for card in hand:
        mask |= bits[card.suit][card.rank]
    if mask.bit_count() != len(hand):
        _repeat_in_hand(seat, hand)
    return mask


def _repeat_in_hand(seat: int, hand: Sequence[Card]) -> None:
    for i, card in enumerate(hand):
        if card in hand[:i]:
            raise MalformedError.one(
                "card_twice_in_hand",
                rule="R1",
                field=f"hands.{seat}",
                card=card.pretty,
                seat=seat,
            )


def _holder(dealt: Sequence[int], card: Card) -> int:
    return next(seat for seat, hand in enumerate(dealt) if hand >> card.index & 1)
