"""Cards, suits and ranks, and hands as 52-bit sets (R1).

A card's *index* is ``suit * 13 + (rank - 2)``, so each suit owns a block of
13 consecutive bits and "can he follow suit?" is a single ``&`` with
:data:`SUIT_MASKS`.  Within a suit a higher bit is a higher card.

>>> Card.parse("10♦") == Card.parse("TD") == Card.parse("td")
True
>>> str(Card.parse("10♦"))
'TD'
>>> Card.parse("QS")
Card.parse('QS')
>>> format_cards(cards_of(hand_mask([Card.parse("2C"), Card.parse("AS")])))
['AS', '2C']
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache

from scorekeeper.rules.errors import MalformedError


class Suit(enum.IntEnum):
    """The four suits, in the order of the API's card notation."""

    SPADES = 0
    """Spades, ``S`` (♠)."""
    HEARTS = 1
    """Hearts, ``H`` (♥): the K♥ contract's suit (R3)."""
    DIAMONDS = 2
    """Diamonds, ``D`` (♦): the Diamonds contract's suit (R5)."""
    CLUBS = 3
    """Clubs, ``C`` (♣)."""

    @property
    def letter(self) -> str:
        return "SHDC"[self]

    @property
    def symbol(self) -> str:
        return "♠♥♦♣"[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse ``S``/``s``/``♠`` and so on."""
        key = text.strip().upper()
        for suit in cls:
            if key in (suit.letter, suit.symbol, "♤♡♢♧"[suit]):
                return suit
        raise MalformedError.one("bad_suit", text=text)


class Rank(enum.IntEnum):
    """Ranks 2 to Ace; no trumps, Ace high in every suit (R1)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    """The Jack opens a Trix row (R7)."""
    QUEEN = 12
    """Queens are the penalty cards of the Queens contract (R4)."""
    KING = 13
    ACE = 14

    @property
    def letter(self) -> str:
        return "23456789TJQKA"[self - 2]

    @classmethod
    def parse(cls, text: str) -> Rank:
        key = text.strip().upper()
        if key == "10":
            key = "T"
        index = "23456789TJQKA".find(key) if len(key) == 1 else -1
        if index < 0:
            raise MalformedError.one("bad_rank", text=text)
        return cls(index + 2)


@dataclass(frozen=True, order=True)
class Card:
    """One card of the 52-card pack, immutable and hashable."""

    suit: Suit
    rank: Rank
    index: int = field(init=False, repr=False, compare=False)
    """``suit * 13 + rank - 2``: the card's bit in a hand (stored: the replay reads it often)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", self.suit * 13 + self.rank - 2)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``TD``, ``10D``, ``10♦``, ``td``; raise :class:`MalformedError`."""
        card = CARD_BY_TEXT.get(text) if isinstance(text, str) else None
        if card is not None:  # the common case: canonical text, no parsing
            return card
        if not isinstance(text, str):
            raise MalformedError.one(
                "bad_card",
                text=str(text),
                value=repr(text),
                variant="not_text",
            )
        return _parse_card(text.strip())

    @property
    def bit(self) -> int:
        return 1 << self.index

    @classmethod
    def from_index(cls, index: int) -> Card:
        return ALL_CARDS[index]

    @property
    def pretty(self) -> str:
        """A card for people: ``10♦``."""
        rank = "10" if self.rank == Rank.TEN else self.rank.letter
        return rank + self.suit.symbol

    def __str__(self) -> str:
        return self.rank.letter + self.suit.letter

    def __repr__(self) -> str:
        return f"Card.parse('{self}')"


@cache
def _parse_card(text: str) -> Card:
    if len(text) < 2:
        raise MalformedError.one("bad_card", text=text, variant="short")
    try:
        return Card(Suit.parse(text[-1]), Rank.parse(text[:-1]))
    except MalformedError:
        raise MalformedError.one("bad_card", text=text) from None


ALL_CARDS: tuple[Card, ...] = tuple(Card(Suit(i // 13), Rank(i % 13 + 2)) for i in range(52))
"""Every card, by index."""

CARD_BY_TEXT: dict[str, Card] = {
    text: card for card in ALL_CARDS for text in (str(card), str(card).lower())
}
"""Canonical and lower-case spellings, for parsing without work."""

FULL_DECK = (1 << 52) - 1
SUIT_MASKS: tuple[int, int, int, int] = tuple(0x1FFF << (13 * s) for s in range(4))  # type: ignore[assignment]
"""Bit mask of each suit's 13 cards, indexed by :class:`Suit`."""

KING_OF_HEARTS = Card(Suit.HEARTS, Rank.KING)
QUEENS: tuple[Card, ...] = tuple(Card(s, Rank.QUEEN) for s in Suit)
QUEENS_MASK = sum(q.bit for q in QUEENS)


def suit_of(index: int) -> int:
    """The suit of a card index (fast path for the replay loops)."""
    return index // 13


def hand_mask(cards: Iterable[Card]) -> int:
    """The bit set of some cards."""
    mask = 0
    for card in cards:
        mask |= card.bit
    return mask


def indices_of(mask: int) -> Iterator[int]:
    """Card indices in a bit set, highest first."""
    while mask:
        top = mask.bit_length() - 1
        yield top
        mask ^= 1 << top


def cards_of(mask: int) -> list[Card]:
    """The cards of a bit set, spades first and high cards first within a suit."""
    found = [ALL_CARDS[i] for i in indices_of(mask)]
    return sorted(found, key=lambda c: (c.suit, -c.rank))


def format_cards(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def parse_cards(texts: Iterable[str]) -> list[Card]:
    return [Card.parse(t) for t in texts]
