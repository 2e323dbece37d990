"""The table tells positions apart that play alike but score differently (R3, R4, R9.6).

With King and Queens together (R9.6) the K♥ and the Q♥ are both special
cards of the hearts, worth different scores (and more when doubled, R9.1). Two
positions alike up to rank, one with the K♥ still in play and the other with
the Q♥ in its place, must not share a table entry.
"""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.rules.cards import Card, hand_mask
from scorekeeper.rules.claims.core import ALL_ON
from scorekeeper.rules.claims.partition import parts
from scorekeeper.rules.claims.weights import claim_weights
from scorekeeper.rules.contracts import TRICK_CONTRACTS, Contract
from scorekeeper.rules.ruleset import Combination, RuleSet
from tests.rules.claims.helpers import Position, memo_minimax, solve


def bits(text: str) -> int:
    return hand_mask(Card.parse(t) for t in text.split())


def test_r9_6_king_or_queen_of_hearts_in_the_same_place_are_different_positions() -> None:
    special = claim_weights(RuleSet(), (Contract.KING, Contract.QUEENS), 0, {}).special
    with_king = [bits("KH"), bits("JH"), bits("3H")]
    with_queen = [bits("QH"), bits("JH"), bits("3H")]
    rem_king, rem_queen = bits("KH JH 3H 2H"), bits("QH JH 3H 2H")
    assert parts(*with_king, rem_king, special)[1:] == parts(*with_queen, rem_queen, special)[1:]
    assert parts(*with_king, rem_king, special) != parts(*with_queen, rem_queen, special)


def test_r9_6_all_four_with_doubled_king_and_queen_agrees_with_minimax() -> None:
    # Found by a random search: the table once returned -170 here (the K♥ and Q♥ mixed up).
    rules = RuleSet(combination=Combination.ANY)
    pos = Position(
        rules,
        TRICK_CONTRACTS,
        [
            bits("7S QC 9C 6C 5C"),
            bits("JH AD 9D 5D TC"),
            bits("KS TS 6S 3H 8D"),
            bits("QS KH QH 7D 7C"),
        ],
        [
            bits("7S QC 9C 6C 5C"),
            bits("JH AD 9D 5D TC"),
            bits("KS TS 6S 3H 8D"),
            bits("QS KH QH 7D 7C"),
        ],
        [],
        3,
        True,
        bits("KH QH QD"),
    )
    assert memo_minimax(pos, 2) == -270
    for options in (ALL_ON, replace(ALL_ON, partition=False), replace(ALL_ON, table=False)):
        assert solve(pos, 2, None, options=options).guaranteed == -270
