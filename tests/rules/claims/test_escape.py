"""The escape bound (R3, R4, R5, R9.4, R10): settling positions where the claimant keeps every
penalty card out of his tricks changes no answer.

A claimant who holds no penalty card can sometimes keep every one of them out
of his tricks for the rest of the deal whatever the others do: each suit of his
ducks under theirs, or can bring him none (:meth:`QuickBounds._escapes`). The
search then stops at once. Here the answers with and without it are compared
with a memoised plain minimax (up to 5 cards per hand) and with each other
(6 cards per hand), on random positions of the contracts where it applies,
and the bound is checked to have fired.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from scorekeeper.rules.cards import SUIT_MASKS, Suit
from scorekeeper.rules.claims import quick
from scorekeeper.rules.claims.core import ALL_ON
from scorekeeper.rules.claims.weights import claim_weights
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.ruleset import Combination, HeartLead, RuleSet
from tests.rules.claims.helpers import (
    D,
    K,
    Position,
    Q,
    memo_minimax,
    position,
    random_position,
    solve,
)

NO_ESCAPE = replace(ALL_ON, escape=False)
ANY = Combination.ANY
SETUPS = [
    ("r3_king_penalty_discard", RuleSet(penalty_discard=True), (K,)),
    ("r3_king", RuleSet(), (K,)),
    ("r3_king_hearts_broken", RuleSet(heart_lead=HeartLead.BROKEN, penalty_discard=True), (K,)),
    ("r4_queens_penalty_discard", RuleSet(penalty_discard=True), (Q,)),
    ("r4_queens", RuleSet(), (Q,)),
    ("r9_6_queens_diamonds", RuleSet(combination=ANY, penalty_discard=True), (Q, D)),
]


def penalty_out(
    rng: random.Random, rules: RuleSet, contracts: tuple[Contract, ...], cards: int, mid: bool
) -> tuple[Position, int]:
    """A random position with a penalty card still held, and a seat that holds none."""
    danger = claim_weights(rules, contracts, 0, {}).special | (
        SUIT_MASKS[Suit.DIAMONDS] if D in contracts else 0
    )
    while True:
        pos = random_position(rng, rules, contracts, cards, mid)
        seats = [s for s in range(4) if not pos.hands[s] & danger]
        if any(h & danger for h in pos.hands) and seats:
            return pos, rng.choice(seats)


ESCAPES: list[int] = []
"""The cards in play at each position the escape bound settled (while :func:`fired` is on)."""


@pytest.fixture
def fired(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The cards in play at each position the escape bound settled, in order."""
    count = ESCAPES
    count.clear()
    escapes = quick.QuickBounds._escapes

    def counted(self: quick.QuickBounds, hands: list[int], rem: int, leader: int) -> bool:
        answer = escapes(self, hands, rem, leader)
        if answer:
            count.append(rem.bit_count())
        return answer

    monkeypatch.setattr(quick.QuickBounds, "_escapes", counted)
    return count


def fired_positions(
    name: str, rules: RuleSet, contracts: tuple[Contract, ...], sizes: tuple[int, ...]
) -> list[tuple[Position, int]]:
    """Random positions where the bound settles something (at most 3, from 150 draws)."""
    rng, found = random.Random(f"escape {name} {sizes}"), []
    for _ in range(150):
        pos, seat = penalty_out(rng, rules, contracts, rng.choice(sizes), mid=rng.random() < 0.3)
        if solve(pos, seat, 0).decided and ESCAPES:
            found.append((pos, seat))
            if len(found) == 3:
                break
        ESCAPES.clear()
    ESCAPES.clear()
    return found


@pytest.mark.parametrize(("name", "rules", "contracts"), SETUPS, ids=[s[0] for s in SETUPS])
def test_r10_escape_bound_agrees_with_minimax(
    name: str, rules: RuleSet, contracts: tuple[Contract, ...], fired: list[int]
) -> None:
    found = fired_positions(name, rules, contracts, (3, 4, 4, 5))
    assert len(found) == 3  # the bound was exercised
    for pos, seat in found:
        exact = memo_minimax(pos, seat)
        for claim in (0, exact, exact + 1):
            for options in (ALL_ON, NO_ESCAPE):
                result = solve(pos, seat, claim, options=options)
                assert (result.guaranteed, result.holds) == (exact, exact >= claim), options


@pytest.mark.parametrize(("name", "rules", "contracts"), SETUPS, ids=[s[0] for s in SETUPS])
def test_r10_escape_bound_agrees_on_six_cards(
    name: str, rules: RuleSet, contracts: tuple[Contract, ...], fired: list[int]
) -> None:
    found = fired_positions(name, rules, contracts, (6,))
    assert found
    for pos, seat in found:
        reference = solve(pos, seat, None, options=NO_ESCAPE).guaranteed
        assert reference is not None
        assert solve(pos, seat, None).guaranteed == reference
        for claim in (0, reference, reference + 1):
            assert solve(pos, seat, claim).holds is (reference >= claim)


# --- golden cases ----------------------------------------------------------------------------


def test_r9_4_king_clean_suits_settle_at_once(fired: list[int]) -> None:
    # He can win the spades, but the K♥'s holder must follow to each: the K♥ never falls to him.
    rules = RuleSet(penalty_discard=True)
    hands = ["AS KS 2H", "3S 4S KH", "5S 6S 3H", "7S 8S 4H"]
    pos = position(hands, leader=1, contracts=(K,), rules=rules)
    assert solve(pos, 0, 0).holds is True
    assert memo_minimax(pos, 0) == 0
    assert fired and fired[0] == 12  # settled at the root


def test_r9_4_king_short_holder_does_not_settle(fired: list[int]) -> None:
    # The K♥'s holder holds one spade fewer than he does: void, he must discard it on a spade
    # the claimant wins, so the spades are not clean and the search must look.
    rules = RuleSet(penalty_discard=True)
    hands = ["AS KS 2H", "3S KH 5H", "4S 6S 3H", "7S 8S 4H"]
    pos = position(hands, leader=2, contracts=(K,), rules=rules)
    exact = memo_minimax(pos, 0)
    assert solve(pos, 0, 0).holds is (exact >= 0)
    assert not fired or fired[0] < 12
