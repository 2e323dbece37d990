"""Quick bounds of the trick-contract claim search: tricks that can no longer change hands.

At the start of a trick, some positions are settled without a search: the
claimant on lead with every suit higher than the others' cards of it takes
every trick; a claimant who can lose every trick left (under normal signs the
best he can hope for) takes none; so does one who holds no penalty card and
can keep every one out of the tricks he wins (:meth:`QuickBounds._escapes`,
``escape``). Sound whatever the others do, so the search returns the value at
once (:class:`~.core.SearchOptions` ``quick_bounds``).

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
    trick: list[int]
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
    escape: bool
    danger: int
    """The cards that cost the claimant if he takes them (none may gain him anything)."""
    escape_forced: bool
    """R9.4 binds every holder of a danger card: void, he must discard a penalty card."""

    def _in_play(self) -> int:
        """The cards still in play: held, or in the current trick."""
        h = self.hands
        rem = h[0] | h[1] | h[2] | h[3]
        for card in self.trick:
            rem |= 1 << card
        return rem

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
            ducks = self.avoid and self._loses_lead(mine, theirs)
        else:  # under R9.8 he wants tricks: that he could duck them all is no value
            ducks = self.avoid and self._ducks_all(mine, theirs)
        if ducks:
            self.rel = sum(rem & suit & -(rem & suit) for suit in SUIT_MASKS if mine & suit)
        elif not self.escape or not self._escapes(hands, rem, leader):
            return None
        return self._untaken(rem)

    def _untaken(self, rem: int) -> int:
        """What he makes of the cards in ``rem`` by taking none of them: his own doubled
        cards' bonus when another takes them (under normal signs, the most he can make)."""
        lose = self.lose
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
            c = mine & suit
            p = c & penalty
            if p and c & ~penalty > p & -p:
                return False
            if not self._ducks(c, theirs & suit):
                return False
        return True

    def _escapes(self, hands: list[int], rem: int, leader: int) -> bool:
        """Can the claimant, holding no danger card, keep every danger card out of his tricks?

        (At a trick's start; only where tricks themselves score nothing and no card
        gains him anything, so that the value is then what he gets by losing every
        trick.) Each suit he holds must be, for the rest of the deal:

        - *duck*: his i-th lowest card below the others' i-th lowest (as in
          :meth:`_ducks_all`): he plays his lowest to their leads and loses each;
        - or *clean*: a trick of it he wins can hold no danger card. Each danger
          card of the suit outranks all his cards of it, and each holder of a
          danger card of another suit outlasts him in the suit (under R9.4 such a
          holder sheds nothing but penalty cards, so his other cards of the suit
          go only to its tricks, one a trick, as the claimant's do: he follows
          suit to every trick of it the claimant can win, and cannot discard).
          Without R9.4 a suit is clean only if every danger card left is in it.

        Void, the claimant discards the top of a duck suit or any card of a
        clean one, which keeps both. He wins tricks only in suits that are clean
        but not duck; after such a trick (or if he leads now) he leads, and each
        card of his must then be a safe lead: a clean card, or his lowest of a
        duck suit every danger holder outlasts him in (someone follows, above him).
        """
        seat, danger, penalty = self.seat, rem & self.danger, self.penalty
        mine = hands[seat]
        if mine & (danger | penalty):
            return False
        if not danger:
            self.rel = 0
            return True
        theirs = rem ^ mine
        holders = [hands[s] for s in range(4) if s != seat and hands[s] & danger]
        forced = self.escape_forced
        on_lead, unled = leader == seat, False  # unled: a duck suit he could not lead safely
        ducked = cleaned = 0  # the suits that are duck, and those that are clean and duck
        for suit in SUIT_MASKS:
            c = mine & suit
            if not c:
                continue
            n = c.bit_count()
            outside = [h for h in holders if h & danger & ~suit]
            clean = not danger & suit & ((1 << c.bit_length()) - 1) and (
                not outside or forced and self._outlast(outside, suit, n)
            )
            duck = self._ducks(c, theirs & suit)
            if clean:
                if duck:
                    cleaned |= suit
                else:
                    on_lead = True  # he may have to win a trick of it, then lead
            elif duck:
                ducked |= suit
                unled = unled or not (forced and self._outlast(holders, suit, n))
            else:
                return False
        if on_lead and unled:
            return False
        # What the answer stood on (:mod:`.partition`; the danger cards are special, so always
        # in it, and the counts are the bucket's): the ranks of the duck suits, and those of the
        # clean ones that duck too if their ducking kept him off lead.
        if unled:
            ducked |= cleaned
        self.rel = sum(rem & suit & -(rem & suit) for suit in SUIT_MASKS if ducked & suit)
        return True

    def _outlast(self, holders: list[int], suit: int, n: int) -> bool:
        """Does each of these hands hold at least ``n`` cards of the suit that are no penalty?"""
        keep = suit & ~self.penalty
        return all((h & keep).bit_count() >= n for h in holders)

    @staticmethod
    def _ducks(c: int, d: int) -> bool:
        """In a suit: is his i-th lowest card (``c``) below the others' i-th lowest (``d``)?"""
        while c and d:
            low = c & -c
            if low > d & -d:
                return False
            c ^= low
            d &= d - 1
        return True
