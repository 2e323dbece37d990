"""Partition search (R10): bounds shared by positions alike in the ranks that mattered.

Checked with it and without it against a memoised plain minimax on seeded random
positions of up to 5 cards per hand, and with it against the search without it on 6
cards per hand (too many for the minimax); then the pieces: regions and buckets.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from scorekeeper.rules.cards import Card, hand_mask
from scorekeeper.rules.claims.core import ALL_ON, mtd
from scorekeeper.rules.claims.partition import parts, region, region_cards, region_mask
from scorekeeper.rules.contracts import TRICK_CONTRACTS, Contract
from scorekeeper.rules.ruleset import Combination, HeartLead, RuleSet
from tests.rules.claims.helpers import SETUPS, memo_minimax, random_position, search_of, solve

NO_PARTITION = replace(ALL_ON, partition=False)
NO_PARTITION_NO_ORDER = replace(ALL_ON, partition=False, ordering=False)


def bits(text: str) -> int:
    return hand_mask(Card.parse(t) for t in text.split())


@pytest.mark.parametrize(("name", "rules", "contracts"), SETUPS, ids=[s[0] for s in SETUPS])
def test_r10_partition_search_agrees_with_minimax(
    name: str, rules: object, contracts: tuple
) -> None:
    rng = random.Random(f"partition {name}")
    for cards in (3, 4, 4, 5):
        pos = random_position(rng, rules, contracts, cards, mid=rng.random() < 0.5)  # type: ignore[arg-type]
        seat = rng.randrange(4)
        exact = memo_minimax(pos, seat)
        for claim in (exact, exact + 1, exact - 10):
            for options in (ALL_ON, NO_PARTITION, replace(ALL_ON, ordering=False)):
                result = solve(pos, seat, claim, options=options)
                assert (result.guaranteed, result.holds) == (exact, exact >= claim), options


K, Q, C = Contract.KING, Contract.QUEENS, Contract.COLLECTIONS
ANY = Combination.ANY
TWO_SPECIAL_HEARTS = [  # R9.6: the K♥ and the Q♥ both special, doubled or not (R9.1)
    ("r9_6_all_four", RuleSet(combination=ANY), TRICK_CONTRACTS),
    ("r9_6_king_queens", RuleSet(combination=ANY), (K, Q)),
    ("r9_6_king_queens_penalty_discard", RuleSet(combination=ANY, penalty_discard=True), (K, Q)),
    ("r9_8_inverted_king_queens", RuleSet(combination=ANY, inverted=True), (K, Q)),
    (
        "r3_hearts_broken_king_queens_collections",
        RuleSet(combination=ANY, heart_lead=HeartLead.BROKEN),
        (K, Q, C),
    ),
]


@pytest.mark.parametrize(
    ("name", "rules", "contracts"), TWO_SPECIAL_HEARTS, ids=[s[0] for s in TWO_SPECIAL_HEARTS]
)
def test_r9_6_two_special_hearts_agree_with_minimax(
    name: str, rules: RuleSet, contracts: tuple
) -> None:
    rng = random.Random(f"two special hearts {name}")
    for cards in (3, 4, 4, 5):
        pos = random_position(rng, rules, contracts, cards, mid=rng.random() < 0.3)
        seat = rng.randrange(4)
        exact = memo_minimax(pos, seat)
        for options in (ALL_ON, NO_PARTITION, replace(ALL_ON, table=False)):
            assert solve(pos, seat, None, options=options).guaranteed == exact, options


@pytest.mark.parametrize(("name", "rules", "contracts"), SETUPS, ids=[s[0] for s in SETUPS])
def test_r10_partition_search_agrees_on_six_cards(
    name: str, rules: object, contracts: tuple
) -> None:
    rng = random.Random(f"partition six {name}")
    for _ in range(3):
        pos = random_position(rng, rules, contracts, 6, mid=rng.random() < 0.3)  # type: ignore[arg-type]
        seat = rng.randrange(4)
        reference = solve(pos, seat, None, options=NO_PARTITION_NO_ORDER).guaranteed
        assert solve(pos, seat, None).guaranteed == reference
        assert solve(pos, seat, reference).holds is True
        assert solve(pos, seat, reference + 1).holds is False


def test_partition_search_saves_nodes_on_eight_cards() -> None:
    # Not a vacuous switch: on a deal cut at 8 cards the shared bounds cut the tree.
    name, rules, contracts = SETUPS[4]  # Collections: every trick counts
    pos = random_position(random.Random("partition nodes"), rules, contracts, 8, mid=False)
    nodes = {}
    for options in (ALL_ON, NO_PARTITION):
        search = search_of(pos, 0, options=options)
        low, high = search.bounds()
        mtd(search, low, high, high)
        nodes[options.partition] = search.nodes
    assert nodes[True] < nodes[False]


# --- the pieces --------------------------------------------------------------------------------


def test_region_counts_from_the_top_down_to_the_lowest_relevant_card() -> None:
    rem = bits("AS KS 9S 5S 2S KH 3H")
    kpack = region(rem, bits("5S 3H"))
    assert (kpack & 15, kpack >> 4 & 15, kpack >> 8 & 15) == (4, 2, 0)  # ♠ A K 9 5, ♥ K 3
    assert region_cards(rem, kpack) == bits("5S 3H")
    # The same region in a position alike up to rank: its 4th spade, its 2nd heart.
    other = bits("AS QS 8S 4S 3S AH 7H")
    assert region_cards(other, kpack) == bits("4S 7H")


def test_region_mask_covers_the_top_cards_of_each_suit_squeezed() -> None:
    rem = bits("AS KS 9S 5S 2S KH 3H")
    mask = region_mask(rem, region(rem, bits("9S")))
    assert mask == 0b11100  # spades: five in play, the top three


def test_positions_differing_below_the_region_share_a_bucket_and_the_region() -> None:
    # Seat 0 holds the 2♠ or the 4♠ (seat 1 the other): the A♠ K♠ region has the same holders.
    rem = bits("AS KS 4S 2S AH KH 4H 2H")
    a = [bits("AS 2S"), bits("KS 4S"), bits("AH 2H"), bits("KH 4H")]
    b = [bits("AS 4S"), bits("KS 2S"), bits("AH 2H"), bits("KH 4H")]
    pa, pb = parts(*a[:3], rem, 0), parts(*b[:3], rem, 0)
    assert pa[0] == pb[0]  # same suit lengths
    top_spades = region_mask(rem, region(rem, bits("KS")))
    assert [p & top_spades for p in pa[1:]] == [p & top_spades for p in pb[1:]]
    all_spades = region_mask(rem, region(rem, bits("2S")))
    assert pa[1] & all_spades != pb[1] & all_spades


def test_special_cards_places_are_part_of_the_bucket() -> None:
    rem = bits("KH QH 3H 2H")
    hands = [bits("KH"), bits("QH"), bits("3H")]
    assert parts(*hands, rem, bits("KH"))[0] != parts(*hands, rem, bits("QH"))[0]
