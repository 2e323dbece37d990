"""Move ordering for the trick-contract claim search: the likely best card first.

Alpha-beta cuts off sooner when the best move comes first. Under normal
signs the claimant wants to lose tricks and the others want him to win
them; under inverted signs (R9.8) each order is reversed.
"""

from __future__ import annotations

from scorekeeper.rules.cards import FULL_DECK, SUIT_MASKS
from scorekeeper.rules.claims.bits import RANK, SUIT_MASK_OF, SUIT_OF

__all__ = ["MoveOrder"]


class MoveOrder:
    """Ordering heuristics, mixed into :class:`~scorekeeper.rules.claims.tree.TrickTree`."""

    hands: list[int]
    trick: list[int]
    leader: int
    seat: int
    avoid: bool
    ordering: bool
    win: tuple[int, ...]
    win_cards: int
    trick_value: int

    # --- move ordering --------------------------------------------------------------------

    def _lead_order(self, leader: int, cards: list[int]) -> list[int]:
        """Claimant: low leads first (he wants to lose tricks). Defenders: low, in his suits."""
        if not self.ordering:
            return cards
        if leader == self.seat:
            hands = self.hands
            others = (hands[0] | hands[1] | hands[2] | hands[3]) ^ hands[leader]

            mine = hands[leader]
            danger = self._danger()

            def exposure(c: int) -> int:
                # Safe leads first: one of the others must beat the card, or it wins
                # a trick nothing that scores can fall on. Short suits first: void,
                # he discards. Then leads the others may beat, few cards below.
                mask = SUIT_MASK_OF[c]
                suit = others & mask
                length = (mine & mask).bit_count() * 4
                if not suit >> c and not danger & mask:
                    return length
                if self._beaten(c):
                    return 32 + length
                below = (suit & ((1 << c) - 1)).bit_count()
                return (64 if suit >> c else 128) + length + below

            cards.sort(key=exposure)
        else:
            hands = self.hands
            mine = hands[self.seat]
            theirs = (hands[0] | hands[1] | hands[2] | hands[3]) ^ mine

            danger = self._danger()

            def ducks(c: int) -> int:
                # Forcing leads first: under all his cards of the suit, in a trick that
                # may be loaded; then suits where he has few cards under the others' top.
                suit = SUIT_MASK_OF[c]
                if not mine & suit:
                    return 64 + RANK[c]
                if 1 << c < mine & suit & -(mine & suit) and (danger & suit or self.win[c]):
                    return -1
                top = (theirs & suit).bit_length() - 1
                return (mine & suit & ((1 << top) - 1)).bit_count() * 4 + RANK[c] // 4

            cards.sort(key=ducks)
        if not self.avoid:
            cards.reverse()
        return cards

    def _shortfalls(self) -> list[int]:
        """Per suit, how many more cards of it the claimant holds than the shortest holder of
        a scoring card (void in it, that player may drop the card on a trick he wins)."""
        hands, seat, scoring = self.hands, self.seat, self.win_cards
        mine = hands[seat]
        holders = [hands[s] for s in range(4) if s != seat and hands[s] & scoring]
        short = [0, 0, 0, 0]
        if holders:
            for suit, mask in enumerate(SUIT_MASKS):
                if mine & mask:
                    held = min((h & mask).bit_count() for h in holders)
                    short[suit] = max(0, (mine & mask).bit_count() - held)
        return short

    def _beaten(self, card: int) -> bool:
        """Must one of the others beat the claimant's lead (all his cards of the suit higher)?"""
        mask, hands, below = SUIT_MASK_OF[card], self.hands, (1 << card) - 1
        for seat in range(4):
            held = hands[seat] & mask
            if seat != self.seat and held and not held & below:
                return True
        return False

    def _danger(self) -> int:
        """The suits a trick won by the claimant may bring him a score in: a scoring
        card of the others' is in the suit, or its holder lacks the suit (and discards)."""
        if self.trick_value:
            return FULL_DECK
        hands, scoring, danger = self.hands, self.win_cards, 0
        for seat in range(4):
            hand = hands[seat]
            if seat != self.seat and hand & scoring:
                for mask in SUIT_MASKS:
                    if not hand & mask or hand & mask & scoring:
                        danger |= mask
        return danger

    def _follow_order(
        self, player: int, cards: list[int], follow: int, top: int, top_seat: int
    ) -> list[int]:
        """Claimant: duck under the winning card, or dump his worst card. Defenders: the reverse."""
        if len(cards) < 2 or not self.ordering:
            return cards
        seat, trick = self.seat, self.trick
        claimant_played = (seat - self.leader) & 3 < len(trick)
        win = self.win
        if follow:
            his = self.hands[seat] & SUIT_MASK_OF[top]
            if player == seat or claimant_played and top_seat == seat:
                below = [c for c in cards if c < top]
                below.sort(key=win.__getitem__)  # scoring cards first, where they fall to another
                above = [c for c in cards if c > top]
                if player != seat:
                    cards = below + above[::-1]
                else:
                    cards = below + (above if len(trick) == 3 else above[::-1])
            elif not claimant_played and his:
                cards.reverse()  # low cards first: leave him the trick
                lowest = his & -his
                if any(win[c] and 1 << c < lowest for c in cards):  # a scoring card he must take
                    cards.sort(key=lambda c: 0 if win[c] and 1 << c < lowest else 1)
        else:
            loads = player == seat or top_seat == seat or not claimant_played
            if player == seat and self.avoid and not self.trick_value:
                short = self._shortfalls()
                cards.sort(key=lambda c: win[c] * 256 - short[SUIT_OF[c]] * 16 - RANK[c])
            elif loads:
                cards.sort(key=lambda c: win[c] * 16 - RANK[c])
        if not self.avoid:
            cards.reverse()
        return cards
