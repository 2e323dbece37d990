"""Quick bounds of the trick-contract claim search: tricks that can no longer change hands.

At the start of a trick, some positions are settled without a search: the
claimant on lead with every suit higher than the others' cards of it takes
every trick; a claimant who can lose every trick left (under normal signs the
best he can hope for) takes none. Sound whatever the others do, so the
search returns the value at once (:class:`~.core.SearchOptions` ``quick_bounds``).

>>> from scorekeeper.rules.cards import hand_mask, parse_cards
>>> def hand(text): return hand_mask(parse_cards(text.split()))
>>> class Toy(QuickBounds):
...     seat, avoid, lead_mode, broken, penalty = 0, True, 0, 0, 0
>>> toy = Toy()
>>> toy.hands = [hand("2S 5S"), hand("3S 6S"), hand("7H 8H"), hand("9H TH")]
>>> toy._ducks_all(toy.hands[0], hand("3S 6S 7H 8H 9H TH"))  # 2 < 3 and 5 < 6
True
>>> toy._ducks_all(hand("2S 7S"), hand("3S 6S"))  # the 7♠ wins once the 3♠ and 6♠ are gone
False
"""

from __future__ import annotations

from scorekeeper.rules.cards import FULL_DECK, SUIT_MASKS, Suit
from scorekeeper.rules.claims.bits import cards

__all__ = ["QuickBounds"]

NOT_HEARTS = FULL_DECK ^ SUIT_MASKS[Suit.HEARTS]


class QuickBounds:
    """Settled positions, mixed into :class:`~.tree.TrickTree`."""

    hands: list[int]
    seat: int
    avoid: bool
    lead_mode: int
    broken: int
    penalty: int
    win: tuple[int, ...]
    lose: tuple[int, ...]
    win_cards: int
    lose_cards: int
    trick_value: int
    rel: int

    def _settled(self, hands: list[int], rem: int, leader: int) -> int | None:
        """The value when no trick can change hands any more, else None (quick bounds).

        On lead, each of the claimant's suits higher than all the others' cards
        of that suit: every lead of his wins, so he takes every trick. Off lead
        (:meth:`_ducks_all`), or on lead with a card they must beat
        (:meth:`_loses_lead`): he can take none, the most he can hope for.
        Sets :attr:`rel` (:mod:`.partition`): his lowest card of each suit when
        he takes all (the others' cards below it may be anywhere), else the
        whole of each suit he holds (his suits' low cards decide the ducking).
        """
        mine = hands[self.seat]
        theirs = rem ^ mine
        if leader == self.seat:
            if self._takes_all(mine, theirs):
                win = self.win
                tricks = (rem.bit_count() + 3) >> 2
                self.rel = sum(mine & suit & -(mine & suit) for suit in SUIT_MASKS)
                return self.trick_value * tricks + sum(win[c] for c in cards(rem & self.win_cards))
            if not self.avoid or not self._loses_lead(mine, theirs):
                return None
        elif not self.avoid or not self._ducks_all(mine, theirs):
            return None  # under R9.8 he wants tricks: that he could duck them all is no value
        lose = self.lose
        self.rel = sum(rem & suit & -(rem & suit) for suit in SUIT_MASKS if mine & suit)
        return sum(lose[c] for c in cards(rem & self.lose_cards))

    @staticmethod
    def _takes_all(mine: int, theirs: int) -> bool:
        """On lead, is each of the claimant's suits higher than all the others' cards of it?"""
        for suit in SUIT_MASKS:
            c = mine & suit
            if c and theirs & suit >= c & -c:
                return False
        return True

    def _loses_lead(self, mine: int, theirs: int) -> bool:
        """On lead, can the claimant lose this trick and then every other (:meth:`_ducks_all`)?

        He leads a card that one of the others must beat (all that player's cards
        of the suit higher); the cards they play to it only make ducking easier.
        """
        hands, seat = self.hands, self.seat
        legal = mine if self.lead_mode == 0 or self.broken else mine & NOT_HEARTS or mine
        for suit in SUIT_MASKS:
            card = (legal & suit).bit_length() - 1  # his highest: the rest still pair off
            if card < 0:
                continue
            below = (1 << card) - 1
            for other in range(4):
                held = hands[other] & suit
                if other != seat and held and not held & below:
                    if self._ducks_all(mine ^ 1 << card, theirs):
                        return True
                    break
        return False

    def _ducks_all(self, mine: int, theirs: int) -> bool:
        """Off lead, can the claimant lose every trick left, whatever the others do?

        He can if, in each suit, his i-th lowest card is below their i-th
        lowest: he follows with his lowest card under their lead, each such
        trick costs them at least the card led, and he discards the top of a
        suit (under R9.4, the top penalty card: so his penalty cards must be the
        top of their suit). He never wins a trick, so he never leads.
        """
        penalty = self.penalty
        for suit in SUIT_MASKS:
            c, d = mine & suit, theirs & suit
            p = c & penalty
            if p and c & ~penalty > p & -p:
                return False
            while c and d:
                low = c & -c
                if low > d & -d:
                    return False
                c ^= low
                d &= d - 1
        return True
