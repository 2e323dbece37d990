"""The claimant's discards (R10 move ordering): first from the suit a penalty card's holder is
short in, where a trick the claimant wins could bring him that card once the holder is void
(R3, R9.4).

Ordering changes no answer (the minimax cross-checks of ``test_core`` switch it
off and on); these cases pin down what it tries first.
"""

from __future__ import annotations

from scorekeeper.rules.claims.search import trick_search
from scorekeeper.rules.ruleset import RuleSet
from tests.rules.claims.helpers import K, Position, mask, memo_minimax, position, solve

# Seat 2 led the 3♦, seat 3 followed; the claimant (seat 0) is void in diamonds. Seat 1 holds
# the K♥ and one club against the claimant's two, but two spades against his two.
HANDS = ["AC 3C AS 2S", "9C KH 3S 4S", "2D 4C 5S", "5C 6S 7S"]


def king_position() -> Position:
    return position(HANDS, "3D 4D", 2, contracts=(K,), rules=RuleSet(penalty_discard=True))


def test_r3_claimant_discards_first_from_the_suit_the_king_holder_is_short_in() -> None:
    pos = king_position()
    search = trick_search(
        pos.rules, pos.contracts, pos.hands, pos.trick, pos.leader, 0, 0, False, float("inf")
    )
    legal = sorted((c for c in range(52) if pos.hands[0] >> c & 1), reverse=True)
    order = search._follow_order(0, legal, 0, pos.trick[0], 2)
    # The clubs, highest first, before the A♠ of a suit seat 1 outlasts him in.
    assert [1 << c for c in order] == [mask(t) for t in ("AC", "3C", "AS", "2S")]


def test_r3_discard_order_keeps_the_answer() -> None:
    pos = king_position()
    assert solve(pos, 0, None).guaranteed == memo_minimax(pos, 0)
