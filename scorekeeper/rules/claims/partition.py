"""Partition search: one table entry for all positions alike in the ranks that mattered.

After a search of a position, the *relevant* cards are known: each card that
won a trick by rank (another card of the led suit was played to it) somewhere
in the proof, and the claimant's scoring cards. In each suit the *region* is
every card in play from the lowest relevant one up; the cards below it only
ever lost, or won unopposed, so which hand holds which of them does not
matter, only how many each hand holds. The table entry is then valid for
every position with the same suit lengths in each hand and the same holders
of the region's cards (the idea of Ginsberg's partition search, as in DDS).

Regions are counted from the top of each suit (``kpack``: 4 bits a suit), so
that an entry fits every position alike up to rank. :func:`parts` gives a
position as its bucket (suit lengths, special cards' places) and its hands
squeezed to relative ranks suit by suit; together they are the exact table's key.

>>> from scorekeeper.rules.cards import Card, hand_mask
>>> def bits(*texts): return hand_mask(Card.parse(t) for t in texts)
>>> rem = bits("AS", "9S", "5S", "2S", "KH")
>>> kpack = region(rem, bits("9S"))  # the 9♠ won a trick by rank: A♠ and 9♠ are the region
>>> kpack & 15, kpack >> 8 & 15
(2, 0)
>>> region_cards(rem, kpack) == bits("9S")
True
"""

from __future__ import annotations

from scorekeeper.rules.claims.bits import PEXT_HIGH, PEXT_LOW, POP7

__all__ = ["parts", "region", "region_cards", "region_mask"]


def _kth_row(bits: int) -> tuple[int, ...]:
    """For a suit's 13 bits: the bit of the k-th highest card, k = 0..13 (0 when fewer)."""
    ones = [1 << r for r in range(12, -1, -1) if bits >> r & 1]
    return (0, *ones, *([0] * (13 - len(ones))))


_KTH = tuple(_kth_row(bits) for bits in range(8192))
"""``_KTH[suit bits][k]``: the k-th highest card of the suit (one bit), k from 1."""


def region(rem: int, relevant: int) -> int:
    """Per suit, how many cards in play rank at or above the lowest relevant one (4 bits each)."""
    kpack = 0
    for s in (39, 26, 13, 0):
        kpack <<= 4
        t = relevant >> s & 0x1FFF
        if t:
            kpack |= (rem >> s & 0x1FFF & -(t & -t)).bit_count()
    return kpack


def region_cards(rem: int, kpack: int) -> int:
    """The lowest card of each suit's region in this position (a :func:`region` inverse)."""
    if not kpack:
        return 0
    kth, cards = _KTH, 0
    for s in (0, 13, 26, 39):
        k = kpack & 15
        if k:
            cards |= kth[rem >> s & 0x1FFF][k] << s
        kpack >>= 4
    return cards


def region_mask(rem: int, kpack: int) -> int:
    """The region as a mask over :func:`parts`' squeezed hands: the top k of each suit."""
    mask = 0
    for s in (0, 13, 26, 39):
        k = kpack & 15
        if k:
            n = (rem >> s & 0x1FFF).bit_count()
            mask |= ((1 << n) - (1 << (n - k))) << s
        kpack >>= 4
    return mask


def parts(h0: int, h1: int, h2: int, rem: int, special: int) -> tuple[int, int, int, int]:
    """(bucket, s0, s1, s2): suit lengths of each hand, the special cards' places among
    the cards in play and which they are, then the first three hands squeezed to relative
    ranks, suit by suit
    (13 bits each; seat 3 holds the rest). Two positions alike up to rank give the same.

    >>> from scorekeeper.rules.cards import Card, hand_mask
    >>> def bits(*texts): return hand_mask(Card.parse(t) for t in texts)
    >>> parts(bits("3S"), bits("4S"), bits("5S"), bits("3S", "4S", "5S", "6S"), 0)[1:]
    (1, 2, 4)
    >>> parts(bits("2S"), bits("4S"), bits("5S"), bits("2S", "4S", "5S", "6S"), 0)[1:]
    (1, 2, 4)
    """
    low, high, pop = PEXT_LOW, PEXT_HIGH, POP7  # pext, inlined: searches squeeze many positions
    bucket = s0 = s1 = s2 = 0
    for s in (39, 26, 13, 0):
        r = rem >> s & 0x1FFF
        rl, rh, up = (r & 127) << 7, (r >> 7) << 6, pop[r & 127]
        a, b, c, d = h0 >> s & 0x1FFF, h1 >> s & 0x1FFF, h2 >> s & 0x1FFF, special >> s & r
        a = low[rl | a & 127] | high[rh | a >> 7] << up
        b = low[rl | b & 127] | high[rh | b >> 7] << up
        c = low[rl | c & 127] | high[rh | c >> 7] << up
        s0, s1, s2 = s0 << 13 | a, s1 << 13 | b, s2 << 13 | c
        bucket = (
            bucket << 16 | r.bit_count() << 12 | a.bit_count() << 8 | b.bit_count() << 4
        ) | c.bit_count()
        if d:
            d = low[rl | d & 127] | high[rh | d >> 7] << up
        bucket = bucket << 13 | d
    # Which special cards are still in play, too: their places alone would not tell the
    # K♥ from the Q♥ (both special in King and Queens together, worth different scores).
    return bucket << 52 | rem & special, s0, s1, s2
