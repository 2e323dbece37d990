"""The claim search's speed-ups change no answer (R10): each one off and on, against a minimax.

Every speed-up of :class:`~scorekeeper.rules.claims.core.SearchOptions` only
prunes or reorders the search. Here each is switched off in turn and the
answers compared with the search with everything on and with a memoised plain
minimax (every legal card, no pruning) on random positions of up to 6 cards
per hand, where an unmemoised minimax would take hours.
"""

from __future__ import annotations

import random
from dataclasses import fields, replace

import pytest

from scorekeeper.rules.claims.core import ALL_ON, SearchOptions
from scorekeeper.rules.ruleset import RuleSet
from tests.rules.claims.helpers import (
    ANY,
    SETUPS,
    K,
    Position,
    Q,
    memo_minimax,
    position,
    random_position,
    solve,
)

SPEEDUPS = [f.name for f in fields(SearchOptions)]


def variants() -> list[tuple[str, SearchOptions]]:
    """Everything on, each speed-up off alone, and everything off."""
    alone = [(f"no_{name}", replace(ALL_ON, **{name: False})) for name in SPEEDUPS]
    nothing = SearchOptions(**dict.fromkeys(SPEEDUPS, False))
    return [("all_on", ALL_ON), *alone, ("all_off", nothing)]


def check_every_variant(
    pos: Position, seat: int, exact: int, claim: int, *, alone: bool = False
) -> None:
    """Each variant's value and verdict are the minimax's (``alone``: leave out all-off)."""
    for name, options in variants()[: -1 if alone else None]:
        result = solve(pos, seat, claim, options=options)
        answer = (result.guaranteed, result.holds, result.decided)
        assert answer == (exact, exact >= claim, True), name


@pytest.mark.parametrize(("name", "rules", "contracts"), SETUPS, ids=[s[0] for s in SETUPS])
def test_r10_each_speedup_agrees_with_minimax(name: str, rules: RuleSet, contracts: tuple) -> None:
    rng = random.Random(name)
    for cards in (2, 3, 4, 4):
        pos = random_position(rng, rules, contracts, cards, mid=rng.random() < 0.5)
        seat = rng.randrange(4)
        exact = memo_minimax(pos, seat)
        check_every_variant(pos, seat, exact, exact + rng.choice([-10, 0, 1]))


@pytest.mark.parametrize("seed", range(2))
def test_r10_each_speedup_agrees_with_minimax_five_cards(seed: int) -> None:
    # The minimax's cost grows steeply: a few 5-card positions, mid-trick.
    name, rules, contracts = SETUPS[5 * seed]
    pos = random_position(random.Random(seed), rules, contracts, 5, mid=True)
    exact = memo_minimax(pos, seed)
    check_every_variant(pos, seed, exact, exact)


@pytest.mark.parametrize(("name", "rules", "contracts"), SETUPS, ids=[s[0] for s in SETUPS])
def test_r10_each_speedup_agrees_on_six_cards(name: str, rules: RuleSet, contracts: tuple) -> None:
    # Too big for the minimax: the search with everything on (checked against the
    # minimax above) is the reference, and each speed-up is switched off alone.
    rng = random.Random(f"six {name}")
    pos = random_position(rng, rules, contracts, 6, mid=False)
    seat = rng.randrange(4)
    reference = solve(pos, seat, None).guaranteed
    assert reference is not None
    check_every_variant(pos, seat, reference, reference + rng.choice([-10, 0, 1]), alone=True)


# --- quick bounds: golden cases ------------------------------------------------------------------


def test_r6_claimant_who_can_duck_every_trick_takes_none() -> None:
    # Off lead, his spades pair off below theirs (2 < 3, 5 < 6): he ducks each lead.
    pos = position(["2S 5S", "3S 6S", "7H 8H", "9H TH"], leader=1)
    assert solve(pos, 0, 0).guaranteed == 0 == memo_minimax(pos, 0)


def test_r9_8_inverted_signs_a_claimant_who_could_duck_still_takes_a_trick() -> None:
    # Inverted signs: he wants the tricks; 5♠ over the 3♠ wins one, though he could duck.
    pos = position(["2S 5S", "3S 6S", "7H 8H", "9H TH"], leader=1, rules=RuleSet(inverted=True))
    assert solve(pos, 0, 15).guaranteed == 15 == memo_minimax(pos, 0)


def test_r6_claimant_on_lead_loses_the_lead_then_ducks() -> None:
    # He leads the 9♠ under the 10♠ (seat 1 holds nothing lower), then ducks the hearts.
    pos = position(["9S 2H", "TS 3H", "JS 4H", "QS 5H"], leader=0)
    assert solve(pos, 0, 0).guaranteed == 0 == memo_minimax(pos, 0)


def test_r9_4_claimant_forced_to_discard_a_low_queen_cannot_count_on_ducking() -> None:
    # Under R9.4 a void claimant must discard a penalty card; the speed-ups must agree.
    rules = RuleSet(penalty_discard=True, combination=ANY)
    hands = ["QS KS AS", "3S 2C 3C", "4C 5C 6C", "7C 8C 9C"]
    pos = position(hands, leader=1, contracts=(K, Q), rules=rules)
    check_every_variant(pos, 0, memo_minimax(pos, 0), 0)
