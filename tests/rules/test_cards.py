"""Cards, suits, ranks and bit-set hands (R1, API.md "Notation")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.cards import (
    ALL_CARDS,
    FULL_DECK,
    KING_OF_HEARTS,
    QUEENS,
    QUEENS_MASK,
    SUIT_MASKS,
    Card,
    Rank,
    Suit,
    cards_of,
    format_cards,
    hand_mask,
    indices_of,
    parse_cards,
    suit_of,
)
from scorekeeper.rules.errors import MalformedError

cards = st.sampled_from(ALL_CARDS)


@pytest.mark.parametrize("text", ["TD", "td", "10D", "10d", "10♦", "T♦", "t♢", " 10D ", "Td", "tD"])
def test_r1_every_spelling_of_ten_of_diamonds(text: str) -> None:
    assert Card.parse(text) == Card(Suit.DIAMONDS, Rank.TEN)


@pytest.mark.parametrize(
    ("text", "canonical", "pretty"),
    [("KH", "KH", "K♥"), ("as", "AS", "A♠"), ("2♣", "2C", "2♣"), ("q♡", "QH", "Q♥")],
)
def test_r1_canonical_output(text: str, canonical: str, pretty: str) -> None:
    card = Card.parse(text)
    assert str(card) == canonical
    assert card.pretty == pretty


@given(cards)
def test_r1_parse_format_round_trip(card: Card) -> None:
    assert Card.parse(str(card)) == card
    assert Card.parse(card.pretty) == card
    assert Card.parse(str(card).lower()) == card
    assert eval(repr(card), {"Card": Card}) == card  # a repr you can paste back


@pytest.mark.parametrize("text", ["", "K", "1H", "11H", "KX", "ZZ", "KHH", "10", "♥K"])
def test_r1_not_a_card_is_malformed(text: str) -> None:
    with pytest.raises(MalformedError) as caught:
        Card.parse(text)
    problem = caught.value.problems[0]
    assert problem.code == "bad_card"
    assert problem.message.endswith(".")


@pytest.mark.parametrize("value", [None, 7, ["KH"], {"KH": 1}])
def test_r1_non_string_is_malformed(value: object) -> None:
    with pytest.raises(MalformedError) as caught:
        Card.parse(value)  # type: ignore[arg-type]
    assert caught.value.problems[0].code == "bad_card"


def test_r1_the_pack_has_52_distinct_cards_indexed_by_suit_and_rank() -> None:
    assert len(set(ALL_CARDS)) == 52
    assert [c.index for c in ALL_CARDS] == list(range(52))
    assert hand_mask(ALL_CARDS) == FULL_DECK
    assert ALL_CARDS[0] == Card.parse("2S") and ALL_CARDS[51] == Card.parse("AC")


def test_r1_suit_masks_partition_the_pack() -> None:
    assert sum(SUIT_MASKS) == FULL_DECK
    for suit in Suit:
        in_suit = [c for c in ALL_CARDS if c.bit & SUIT_MASKS[suit]]
        assert len(in_suit) == 13 and {c.suit for c in in_suit} == {suit}


def test_r1_a_higher_rank_is_a_higher_bit_within_a_suit() -> None:
    for suit in Suit:
        ranks = [Card(suit, r) for r in Rank]
        assert [c.index for c in ranks] == sorted(c.index for c in ranks)


@given(st.sets(cards))
def test_r1_hand_round_trip(hand: set[Card]) -> None:
    mask = hand_mask(hand)
    assert mask.bit_count() == len(hand)
    assert set(cards_of(mask)) == hand
    assert sorted(indices_of(mask), reverse=True) == list(indices_of(mask))
    assert all(suit_of(i) == ALL_CARDS[i].suit for i in indices_of(mask))


def test_r1_cards_of_sorts_spades_first_high_first() -> None:
    hand = parse_cards(["2C", "AS", "TH", "KS", "3D"])
    assert format_cards(cards_of(hand_mask(hand))) == ["AS", "KS", "TH", "3D", "2C"]


def test_r3_r4_penalty_cards() -> None:
    assert Card.parse("KH") == KING_OF_HEARTS
    assert format_cards(QUEENS) == ["QS", "QH", "QD", "QC"]
    assert hand_mask(QUEENS) == QUEENS_MASK


@pytest.mark.parametrize(
    ("text", "suit"),
    [("s", Suit.SPADES), ("♥", Suit.HEARTS), ("♢", Suit.DIAMONDS), ("C", Suit.CLUBS)],
)
def test_r1_suit_parse(text: str, suit: Suit) -> None:
    assert Suit.parse(text) is suit


def test_r1_bad_suit_and_rank() -> None:
    with pytest.raises(MalformedError):
        Suit.parse("X")
    with pytest.raises(MalformedError):
        Rank.parse("1")
    assert Rank.parse("10") is Rank.TEN
