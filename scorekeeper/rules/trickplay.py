"""Trick play on ints and bit sets: legality and the replay hot loop (R3, R9.4, R10).

Cards are indices 0–51 (``suit * 13 + rank - 2``) and hands are 52-bit sets, so
"can he follow suit?" is one ``&``. Everything that depends only on the rule
set and the contracts is folded once into a :class:`Plan`. The public,
Card-level API is :mod:`scorekeeper.rules.tricks`.

>>> from scorekeeper.rules.cards import Card, hand_mask
>>> from scorekeeper.rules.contracts import Contract
>>> from scorekeeper.rules.ruleset import RuleSet
>>> plan = plan_for(RuleSet(), (Contract.DIAMONDS,))
>>> hand = hand_mask(Card.parse(t) for t in ("AS", "3S", "KH"))
>>> legal = legal_mask(plan, hand, [Card.parse("9S").index], False)
>>> [str(Card.from_index(i)) for i in indices_of(legal)]
['AS', '3S']
>>> trick_winner(2, [Card.parse(t).index for t in ("9S", "AH", "KS", "2S")])
0
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from scorekeeper.rules.cards import (
    ALL_CARDS,
    FULL_DECK,
    KING_OF_HEARTS,
    QUEENS_MASK,
    SUIT_MASKS,
    Suit,
    indices_of,
)
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.errors import MalformedError
from scorekeeper.rules.ruleset import HeartLead, RuleSet, Starter

__all__ = [
    "BROKEN_HEARTS",
    "IndexReplay",
    "MUST_DISCARD",
    "MUST_FOLLOW",
    "NO_HEART_LEAD",
    "Plan",
    "Fault",
    "breaks_hearts",
    "fault_code",
    "first_leader",
    "indices_of",
    "legal_mask",
    "plan_for",
    "replay_indices",
    "trick_winner",
]

HEARTS = SUIT_MASKS[Suit.HEARTS]
NOT_HEARTS = FULL_DECK ^ HEARTS
_HEART_LO, _HEART_HI = 13 * Suit.HEARTS, 13 * Suit.HEARTS + 13

MUST_FOLLOW = "must_follow_suit"
"""R10: a card of another suit while holding the suit led."""
NO_HEART_LEAD = "heart_lead_forbidden"
"""R3 "only_hearts": a heart led while holding another suit."""
BROKEN_HEARTS = "hearts_not_broken"
"""R3 "broken": a heart led before hearts were broken, while holding another suit."""
MUST_DISCARD = "must_discard_penalty"
"""R9.4: unable to follow, a non-penalty card discarded while holding a penalty card."""

_LEAD_FREE, _LEAD_ONLY_HEARTS, _LEAD_BROKEN = 0, 1, 2


class Plan(NamedTuple):
    """What a (rule set, contracts) pair means for trick play, precomputed."""

    lead_mode: int
    """0 hearts led freely, 1 "only_hearts", 2 "broken" (R3; only under King of Hearts)."""
    penalty: int
    """Cards a player unable to follow must discard if held (R9.4); 0 when the rule is off."""
    first_offset: int
    """0: the king leads trick 1; 1: the seat on his right (R10)."""
    contracts: tuple[Contract, ...]


class Fault(NamedTuple):
    """One illegal play found by the hot loop (cards and seats as ints)."""

    trick: int
    """0-based trick index."""
    seat: int
    card: int
    code: str
    hand: int
    """The player's hand just before the play."""


class IndexReplay(NamedTuple):
    """What :func:`replay_indices` found, still as ints and bit sets."""

    dealt: tuple[int, int, int, int]
    winners: list[int]
    taken: list[int]
    """Per seat, the cards of the completed tricks he won."""
    faults: list[Fault]
    next_leader: int
    """The leader of the first trick not completed (the last winner when all 13 are done)."""
    to_play: int
    """Whose turn it is (meaningful only when the deal is not complete)."""


def plan_for(rules: RuleSet, contracts: Sequence[Contract]) -> Plan:
    """The :class:`Plan` of a rule set and contracts (memoised; the replay loops call it often)."""
    key = tuple(contracts)
    last = _LAST_PLAN.entry
    if last[0] is rules and last[1] == key:
        return last[2]
    plan = _make_plan(rules, key)
    _LAST_PLAN.entry = (rules, key, plan)  # one attribute swap: atomic, safe across threads
    return plan


def _make_plan(rules: RuleSet, contracts: tuple[Contract, ...]) -> Plan:
    lead_mode = _LEAD_FREE
    if Contract.KING in contracts:
        lead_mode = {HeartLead.FREE: 0, HeartLead.ONLY_HEARTS: 1, HeartLead.BROKEN: 2}[
            rules.heart_lead
        ]
    penalty = 0
    if rules.penalty_discard:  # R9.4: the penalty cards of every contract played
        if Contract.KING in contracts:
            penalty |= KING_OF_HEARTS.bit
        if Contract.DIAMONDS in contracts:
            penalty |= SUIT_MASKS[Suit.DIAMONDS]
        if Contract.QUEENS in contracts:
            penalty |= QUEENS_MASK
    offset = 1 if rules.first_lead is Starter.RIGHT_OF_KING else 0
    return Plan(lead_mode, penalty, offset, contracts)


class _LastPlan:
    """The last plan made. A replay asks for the same rules and contracts deal after deal,
    and comparing by identity is cheaper than hashing a rule set for an LRU cache."""

    __slots__ = ("entry",)

    def __init__(self) -> None:
        self.entry: tuple[RuleSet | None, tuple[Contract, ...], Plan] = (
            None,
            (),
            Plan(0, 0, 0, ()),
        )


_LAST_PLAN = _LastPlan()


def first_leader(plan: Plan, king: int) -> int:
    """Who leads trick 1: the king, or the seat on his right (R10).

    ``king`` is whoever dealt: under R2's dealer house rules, the dealer.

    >>> from scorekeeper.rules.contracts import Contract
    >>> from scorekeeper.rules.ruleset import RuleSet, Starter
    >>> first_leader(plan_for(RuleSet(first_lead=Starter.RIGHT_OF_KING), (Contract.KING,)), 3)
    0
    """
    return (king + plan.first_offset) & 3


def trick_winner(leader: int, cards: Sequence[int]) -> int:
    """The seat whose card is the highest of the suit led; no trumps (R1, R10).

    ``cards`` are in play order, ``leader`` first; seats follow in turn order.

    >>> trick_winner(3, [0, 12, 11, 51])  # 2♠ led, A♠ second: seat 0
    0
    """
    lead = cards[0]
    low = lead - lead % 13
    best, position = lead, 0
    for i, card in enumerate(cards):
        if low <= card < low + 13 and card > best:
            best, position = card, i
    return (leader + position) & 3


def breaks_hearts(cards: Sequence[int]) -> bool:
    """Whether a trick breaks hearts: a heart discarded on another suit (R3 "broken").

    >>> breaks_hearts([0, 13]), breaks_hearts([13, 14])
    (True, False)
    """
    lead_is_heart = _HEART_LO <= cards[0] < _HEART_HI
    return not lead_is_heart and any(_HEART_LO <= c < _HEART_HI for c in cards)


def legal_mask(plan: Plan, hand: int, trick: Sequence[int], hearts_broken: bool) -> int:
    """The cards of ``hand`` the next player may play on ``trick`` (R3, R9.4, R10).

    >>> from scorekeeper.rules.ruleset import HeartLead
    >>> plan = plan_for(RuleSet(heart_lead=HeartLead.ONLY_HEARTS), (Contract.KING,))
    >>> legal_mask(plan, 0b11 << 13 | 1, [], False) == 1  # 2♥ 3♥ 2♠: must lead the spade
    True
    """
    if trick:
        follow = hand & SUIT_MASKS[trick[0] // 13]
        if follow:
            return follow
        return hand & plan.penalty or hand
    if plan.lead_mode == _LEAD_FREE or (plan.lead_mode == _LEAD_BROKEN and hearts_broken):
        return hand
    return hand & NOT_HEARTS or hand


def fault_code(
    plan: Plan, hand: int, trick: Sequence[int], hearts_broken: bool, card: int
) -> str | None:
    """Why playing ``card`` (held in ``hand``) on ``trick`` is illegal, as a code; None if legal."""
    if legal_mask(plan, hand, trick, hearts_broken) >> card & 1:
        return None
    if not trick:
        return NO_HEART_LEAD if plan.lead_mode == _LEAD_ONLY_HEARTS else BROKEN_HEARTS
    return MUST_FOLLOW if hand & SUIT_MASKS[trick[0] // 13] else MUST_DISCARD


def replay_indices(
    rules: RuleSet,
    contracts: Sequence[Contract],
    king: int,
    tricks: Sequence[Sequence[int]],
    hands: Sequence[int] | None = None,
) -> IndexReplay:
    """Replay a trick record of card indices, checking every play (the fast path).

    ``hands`` are the four dealt hands as bit sets; when None every card must
    have been played and the hands follow from the record. Raise
    :class:`MalformedError` for an impossible record; report rule breaks as
    :class:`Fault` values and carry on.
    """
    plan = plan_for(rules, contracts)
    leader = (king + plan.first_offset) & 3
    _check_shape(tricks)
    dealt = _derive_hands(tricks, leader) if hands is None else _check_hands(hands)
    return _play(plan, leader, tricks, dealt)


def _play(
    plan: Plan, leader: int, tricks: Sequence[Sequence[int]], dealt: tuple[int, int, int, int]
) -> IndexReplay:
    # The hot loop: ints and masks only; anything unusual leaves it for a cold helper.
    hands = list(dealt)
    lead_mode, penalty = plan.lead_mode, plan.penalty
    taken = [0, 0, 0, 0]
    winners: list[int] = []
    faults: list[Fault] = []
    broken = False
    seat = leader
    for t, trick in enumerate(tricks):
        lead = trick[0]
        suit_mask = SUIT_MASKS[lead // 13]
        if lead_mode and _HEART_LO <= lead < _HEART_HI and not broken:
            hand = hands[leader]
            if hand & NOT_HEARTS and hand >> lead & 1:
                code = NO_HEART_LEAD if lead_mode == _LEAD_ONLY_HEARTS else BROKEN_HEARTS
                faults.append(Fault(t, leader, lead, code, hand))
        seat = winner = leader
        best, played = lead, 0
        for card in trick:
            bit = 1 << card
            hand = hands[seat]
            if not hand & bit:
                _not_held(tricks, t, seat, card)
            if bit & suit_mask:
                if card > best:
                    best, winner = card, seat
            elif hand & suit_mask:
                faults.append(Fault(t, seat, card, MUST_FOLLOW, hand))
            elif penalty & hand and not penalty & bit:
                faults.append(Fault(t, seat, card, MUST_DISCARD, hand))
            hands[seat] = hand ^ bit
            played |= bit
            seat = (seat + 1) & 3
        if len(trick) == 4:
            taken[winner] |= played
            winners.append(winner)
            leader = seat = winner
            if lead_mode == _LEAD_BROKEN and played & HEARTS and not suit_mask & HEARTS:
                broken = True
    return IndexReplay(dealt, winners, taken, faults, leader, seat)


def _check_shape(tricks: Sequence[Sequence[int]]) -> None:
    if len(tricks) > 13:
        raise MalformedError.one(
            "too_many_tricks",
            rule="R10",
            field="tricks",
            count=len(tricks),
        )
    last = len(tricks) - 1
    for t, trick in enumerate(tricks):
        n = len(trick)
        if n == 4:
            continue
        if n == 0:
            _shape_error(t, "empty_trick")
        if n > 4:
            _shape_error(t, "trick_too_long", n)
        if t != last:
            _shape_error(t, "trick_incomplete", n)


def _shape_error(t: int, code: str, count: int = 0) -> None:
    raise MalformedError.one(code, rule="R10", field=f"tricks.{t}", trick=t + 1, count=count)


def _not_held(tricks: Sequence[Sequence[int]], t: int, seat: int, card: int) -> None:
    pretty = ALL_CARDS[card].pretty
    for earlier in range(t + 1):
        if card in tricks[earlier] and (earlier < t or list(tricks[t]).count(card) > 1):
            raise MalformedError.one(
                "card_twice",
                rule="R1",
                field=f"tricks.{t}",
                card=pretty,
                trick=t + 1,
                first=earlier + 1,
            )
    raise MalformedError.one(
        "card_not_held",
        rule="R1",
        field=f"tricks.{t}",
        card=pretty,
        trick=t + 1,
        seat=seat,
    )


def _check_hands(hands: Sequence[int]) -> tuple[int, int, int, int]:
    if len(hands) == 4:
        h0, h1, h2, h3 = hands
        sizes = (h0.bit_count(), h1.bit_count(), h2.bit_count(), h3.bit_count())
        if sizes == (13, 13, 13, 13) and h0 | h1 | h2 | h3 == FULL_DECK:
            return (h0, h1, h2, h3)
    raise _bad_hands(hands)


def _bad_hands(hands: Sequence[int]) -> MalformedError:
    if len(hands) != 4:
        return _hands_error("hands_count", "hands", count=len(hands))
    for seat, hand in enumerate(hands):
        if hand.bit_count() != 13 or hand & ~FULL_DECK:
            n = hand.bit_count()
            return _hands_error("hand_size", f"hands.{seat}", seat=seat, count=n)
    for seat in range(1, 4):
        for other in range(seat):
            common = hands[seat] & hands[other]
            if common:
                card = ALL_CARDS[next(indices_of(common))]
                params = {"seat": seat, "other": other, "card": card.pretty}
                return _hands_error("hands_overlap", f"hands.{seat}", **params)
    raise AssertionError("unreachable: 4 disjoint hands of 13 cover the pack")


def _hands_error(code: str, field: str, **params: object) -> MalformedError:
    error = MalformedError.one(code, rule="R1", field=field, **params)
    assert isinstance(error, MalformedError)
    return error


def _derive_hands(tricks: Sequence[Sequence[int]], leader: int) -> tuple[int, int, int, int]:
    if len(tricks) != 13 or len(tricks[-1]) != 4:
        raise MalformedError.one(
            "record_incomplete",
            rule="R10",
            field="tricks",
            played=_count(tricks),
        )
    hands = [0, 0, 0, 0]
    seen = 0
    for a, b, c, d in tricks:  # unrolled: this runs before every replay without hands
        hands[leader] |= 1 << a
        hands[(leader + 1) & 3] |= 1 << b
        hands[(leader + 2) & 3] |= 1 << c
        hands[(leader + 3) & 3] |= 1 << d
        seen |= 1 << a | 1 << b | 1 << c | 1 << d
        low = a - a % 13
        best, position = a, 0
        if low <= b < low + 13 and b > best:
            best, position = b, 1
        if low <= c < low + 13 and c > best:
            best, position = c, 2
        if low <= d < low + 13 and d > best:
            position = 3
        leader = (leader + position) & 3
    if seen != FULL_DECK:  # 52 plays cover the pack only if no card was played twice
        _first_repeat(tricks)
    return (hands[0], hands[1], hands[2], hands[3])


def _first_repeat(tricks: Sequence[Sequence[int]]) -> None:
    seen = 0
    for t, trick in enumerate(tricks):
        for card in trick:
            if seen >> card & 1:
                _not_held(tricks, t, -1, card)
            seen |= 1 << card


def _count(tricks: Sequence[Sequence[int]]) -> int:
    return sum(len(trick) for trick in tricks)
