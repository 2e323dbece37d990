"""Random deals played out with random legal cards, for tests and benchmarks (R10).

Everything is driven by a caller's seeded :class:`random.Random`, so a deal is
reproducible from its seed. Hands are bit sets, tricks lists of card indices.

>>> import random
>>> from scorekeeper.rules.contracts import Contract
>>> from scorekeeper.rules.ruleset import RuleSet
>>> hands, tricks = random_deal(random.Random(7), RuleSet(), [Contract.KING], 0)
>>> [h.bit_count() for h in hands], len(tricks)
([13, 13, 13, 13], 13)
>>> sorted(card for trick in tricks for card in trick) == list(range(52))
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

from scorekeeper.rules.cards import ALL_CARDS, FULL_DECK, Card, hand_mask, indices_of
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.rules.trickplay import (
    Plan,
    breaks_hearts,
    first_leader,
    legal_mask,
    plan_for,
    trick_winner,
)
from scorekeeper.rules.trix import first_player, frontier

Revoke = tuple[int, int, int]
"""(1-based trick, seat, card index) of an illegal play."""


def deal_hands(rng: random.Random) -> list[int]:
    """Four random hands of 13 cards, as bit sets."""
    pack = list(range(52))
    rng.shuffle(pack)
    hands = [0, 0, 0, 0]
    for i, card in enumerate(pack):
        hands[i // 13] |= 1 << card
    return hands


def random_deal(
    rng: random.Random, rules: RuleSet, contracts: Sequence[Contract], king: int
) -> tuple[list[int], list[list[int]]]:
    """Deal, then play all 13 tricks with random legal cards: ``(hands, tricks)``."""
    hands = deal_hands(rng)
    tricks, _ = _play_out(rng, plan_for(rules, contracts), king, hands, None)
    return hands, tricks


class CutDeal(NamedTuple):
    """A random deal stopped before its end: what a claim is made from."""

    king: int
    dealt: list[int]
    """The four hands as dealt."""
    hands: list[int]
    """What each player still holds (the current trick's cards already out)."""
    trick: list[int]
    """The current trick's cards so far, in play order."""
    leader: int
    """Who led the current trick."""
    hearts_broken: bool


def random_cut_deal(
    rng: random.Random, rules: RuleSet, contracts: Sequence[Contract], cards: int, mid: bool
) -> CutDeal:
    """A random legal deal of ``contracts`` by a random king, with ``cards`` tricks to go.

    With ``mid``, a random 0–3 cards of the next trick are already played.

    >>> cut = random_cut_deal(random.Random(3), RuleSet(), [Contract.QUEENS], 4, mid=False)
    >>> [h.bit_count() for h in cut.hands], cut.trick
    ([4, 4, 4, 4], [])
    """
    king = rng.randrange(4)
    dealt, tricks = random_deal(rng, rules, contracts, king)
    leader, broken, hands = first_leader(plan_for(rules, contracts), king), False, list(dealt)
    for trick in tricks[: 13 - cards]:
        for i, card in enumerate(trick):
            hands[(leader + i) & 3] ^= 1 << card
        broken = broken or breaks_hearts(trick)
        leader = trick_winner(leader, trick)
    current = tricks[13 - cards][: rng.randrange(4)] if mid else []
    for i, card in enumerate(current):
        hands[(leader + i) & 3] ^= 1 << card
    return CutDeal(king, dealt, hands, current, leader, broken)


def random_revoke_deal(
    rng: random.Random, rules: RuleSet, contracts: Sequence[Contract], king: int, after: int = 0
) -> tuple[list[int], list[list[int]], Revoke]:
    """Like :func:`random_deal`, with exactly one illegal play.

    At the first turn from play number ``after`` (0–51) on where the player
    holds both legal and illegal cards, he plays a random illegal one; every
    other play is legal. Deals again until that happens.
    """
    for _ in range(1000):
        hands = deal_hands(rng)
        tricks, revoke = _play_out(rng, plan_for(rules, contracts), king, hands, after)
        if revoke is not None:
            return hands, tricks, revoke
    raise ValueError(f"no chance to revoke from play {after} on in 1000 deals")


def _play_out(
    rng: random.Random, plan: Plan, king: int, dealt: list[int], revoke_after: int | None
) -> tuple[list[list[int]], Revoke | None]:
    hands = list(dealt)
    leader, broken = first_leader(plan, king), False
    tricks: list[list[int]] = []
    revoke: Revoke | None = None
    for t in range(13):
        trick: list[int] = []
        for i in range(4):
            seat = (leader + i) & 3
            legal = legal_mask(plan, hands[seat], trick, broken)
            choices = legal
            wants_revoke = revoke is None and revoke_after is not None and t * 4 + i >= revoke_after
            if wants_revoke and hands[seat] & ~legal:
                choices = hands[seat] & ~legal & FULL_DECK
            card = rng.choice(list(indices_of(choices)))
            if choices != legal:
                revoke = (t + 1, seat, card)
            trick.append(card)
            hands[seat] ^= 1 << card
        tricks.append(trick)
        broken = broken or breaks_hearts(trick)
        leader = trick_winner(leader, trick)
    return tricks, revoke


def random_trix(
    rng: random.Random, rules: RuleSet, king: int
) -> tuple[tuple[list[Card], ...], list[Card | None]]:
    """A random deal and a random legal Trix game on it (for tests and benchmarks).

    >>> from scorekeeper.rules.cards import Rank
    >>> hands, plays = random_trix(random.Random(1), RuleSet(), 0)
    >>> [len(h) for h in hands], plays[0] is None or plays[0].rank == Rank.JACK
    ([13, 13, 13, 13], True)
    """
    deck = list(ALL_CARDS)
    rng.shuffle(deck)
    hands = tuple(sorted(deck[13 * s : 13 * s + 13]) for s in range(4))
    masks = [hand_mask(h) for h in hands]
    seat, played, out, plays = first_player(rules, king), 0, 0, []
    while out < 3:
        legal = frontier(played) & masks[seat]
        card = ALL_CARDS[rng.choice(list(indices_of(legal)))] if legal else None
        if card is not None:
            played |= card.bit
            masks[seat] ^= card.bit
            out += not masks[seat]
        plays.append(card)
        seat = (seat + 1) & 3
        while not masks[seat]:
            seat = (seat + 1) & 3
    return hands, plays
