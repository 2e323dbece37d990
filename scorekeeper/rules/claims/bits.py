"""Bit-set helpers of the claim search: card lists, equivalent cards, squeezing to relative ranks.

A hand is a 52-bit set, card index ``suit * 13 + rank - 2`` (:mod:`.cards`).

>>> from scorekeeper.rules.cards import ALL_CARDS, Card, hand_mask
>>> def bits(*texts): return hand_mask(Card.parse(t) for t in texts)
>>> cards(bits("2S", "AS", "KH")) == [Card.parse(t).index for t in ("KH", "AS", "2S")]
True
>>> held, gone = bits("TS", "8S", "5S"), bits("9S")  # 10♠ and 8♠ are one card once 9♠ is gone
>>> rem = FULL_DECK ^ gone
>>> [str(ALL_CARDS[c]) for c in cards(representatives(held, held, rem, 0))]
['8S', '5S']
"""

from __future__ import annotations

from scorekeeper.rules.cards import FULL_DECK, SUIT_MASKS

__all__ = [
    "CARDS_OF",
    "NOT_ACES",
    "PEXT_HIGH",
    "PEXT_LOW",
    "POP7",
    "RANK",
    "SUIT_MASK_OF",
    "SUIT_OF",
    "card_at",
    "cards",
    "place_of",
    "representatives",
    "to_front",
]

NOT_ACES = FULL_DECK ^ sum(1 << (13 * s + 12) for s in range(4))
SUIT_OF = tuple(i // 13 for i in range(52))
RANK = tuple(i % 13 for i in range(52))
SUIT_MASK_OF = tuple(SUIT_MASKS[i // 13] for i in range(52))


def _pext_table(width: int) -> tuple[int, ...]:
    """``table[r << width | h]``: the bits of ``h`` at the positions of ``r``, packed
    together, for every ``r`` and ``h`` below ``2**width``. Row ``r`` is the row of ``r``
    without its lowest bit, shifted up, under that bit of ``h``: built in a few
    milliseconds, where packing each pair bit by bit took a tenth of every start-up.

    >>> _pext_table(3)[0b101 << 3 | 0b100]  # bits 0 and 2 of 0b100: 0, then 1
    2
    """
    size = 1 << width
    rows = [[0] * size]
    for r in range(1, size):
        low = (r & -r).bit_length() - 1
        rest = rows[r & (r - 1)]
        rows.append([(h >> low & 1) | rest[h] << 1 for h in range(size)])
    return tuple(packed for row in rows for packed in row)


# pext of a suit's 13 bits in two table look-ups: the low 7 bits, then the high 6
# (PEXT_LOW[in play low 7 << 7 | bits low 7] | PEXT_HIGH[in play high 6 << 6 | bits high 6]
# << POP7[in play low 7]).
PEXT_LOW = _pext_table(7)
PEXT_HIGH = _pext_table(6)
POP7 = tuple(r.bit_count() for r in range(128))


def _suit_cards(suit: int) -> tuple[tuple[int, ...], ...]:
    """A suit's cards, highest first, for each of its 8,192 sets: the top card, then the
    cards of the set without it."""
    table: list[tuple[int, ...]] = [()]
    for bits in range(1, 8192):
        top = bits.bit_length() - 1
        table.append((13 * suit + top, *table[bits ^ 1 << top]))
    return tuple(table)


CARDS_OF = tuple(_suit_cards(s) for s in range(4))
"""``CARDS_OF[suit][13 bits]``: the cards, highest first."""


def cards(mask: int) -> list[int]:
    """Card indices of a bit set, highest first (spades last: suits high to low)."""
    c0, c1, c2, c3 = CARDS_OF
    return [
        *c3[mask >> 39],
        *c2[mask >> 26 & 0x1FFF],
        *c1[mask >> 13 & 0x1FFF],
        *c0[mask & 0x1FFF],
    ]


def place_of(rem: int, card: int) -> int:
    """A card as (suit, how many cards in play rank above it): the same in equivalent positions."""
    return SUIT_OF[card] << 4 | ((rem & SUIT_MASK_OF[card]) >> card + 1).bit_count()


def card_at(rem: int, place: int) -> int:
    """The card in play at a :func:`place_of` place."""
    mask = rem & SUIT_MASKS[place >> 4]
    for _ in range(place & 15):
        mask ^= 1 << mask.bit_length() - 1
    return mask.bit_length() - 1


def to_front(moves: list[int], card: int) -> None:
    """Move ``card`` to the front of ``moves`` if it is there."""
    if card in moves and moves[0] != card:
        moves.remove(card)
        moves.insert(0, card)


def representatives(hand: int, legal: int, rem: int, special: int) -> int:
    """One card per run of equivalent cards: the lowest (see the module docstring).

    Adding the played cards to the hand's cards shifted up one rank makes each
    hand card's successor carry over played cards to the next card in play;
    a hand card so reached is not the lowest of its run.
    """
    played = (FULL_DECK ^ rem) & NOT_ACES
    plain = hand & ~special
    return legal & ~((played + ((plain & NOT_ACES) << 1)) & plain)
