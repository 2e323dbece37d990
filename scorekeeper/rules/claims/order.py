"""Move ordering for the trick-contract claim search: the likely best card first.

Alpha-beta cuts off sooner when the best move comes first. Under normal
signs the claimant wants to lose tricks and the others want him to win
them; under inverted signs (R9.8) each order is reversed.
"""

from __future__ import annotations

from scorekeeper.rules.claims.bits import RANK, SUIT_MASK_OF

__all__ = ["MoveOrder"]


class MoveOrder:
    """Ordering heuristics, mixed into :class:`~.claim_search.TrickSearch`."""

    hands: list[int]
    trick: list[int]
    leader: int
    seat: int
    avoid: bool
    ordering: bool
    win: tuple[int, ...]

    # --- move ordering --------------------------------------------------------------------

    def _lead_order(self, leader: int, cards: list[int]) -> list[int]:
        """Claimant: low leads first (he wants to lose tricks). Defenders: low, in his suits."""
        if not self.ordering:
            return cards
        if leader == self.seat:
            hands = self.hands
            others = (hands[0] | hands[1] | hands[2] | hands[3]) ^ hands[leader]

            def exposure(c: int) -> int:
                # Safe leads first: defenders above the card, few below to duck with.
                suit = others & SUIT_MASK_OF[c]
                below = (suit & ((1 << c) - 1)).bit_count()
                return (0 if suit >> c else 64) + below * 4 + RANK[c] // 4

            cards.sort(key=exposure)
        else:
            hands = self.hands
            mine = hands[self.seat]
            theirs = (hands[0] | hands[1] | hands[2] | hands[3]) ^ mine

            def ducks(c: int) -> int:
                # Forcing leads first: suits where he has few cards under the defenders' top.
                suit = SUIT_MASK_OF[c]
                if not mine & suit:
                    return 64 + RANK[c]
                top = (theirs & suit).bit_length() - 1
                return (mine & suit & ((1 << top) - 1)).bit_count() * 4 + RANK[c] // 4

            cards.sort(key=ducks)
        if not self.avoid:
            cards.reverse()
        return cards

    def _follow_order(
        self, player: int, cards: list[int], follow: int, top: int, top_seat: int
    ) -> list[int]:
        """Claimant: duck under the winning card, or dump his worst card. Defenders: the reverse."""
        if len(cards) < 2 or not self.ordering:
            return cards
        seat, trick = self.seat, self.trick
        claimant_played = (seat - self.leader) & 3 < len(trick)
        if follow:
            below = [c for c in cards if c < top]
            above = [c for c in cards if c > top]
            if player == seat:
                cards = below + (above if len(trick) == 3 else above[::-1])
            elif not claimant_played and self.hands[seat] & SUIT_MASK_OF[top]:
                cards.reverse()  # low cards first: leave him the trick
            elif top_seat == seat:
                cards = below + above[::-1]
        else:
            loads = player == seat or top_seat == seat or not claimant_played
            win = self.win
            if loads:
                cards.sort(key=lambda c: win[c] * 16 - RANK[c])
        if not self.avoid:
            cards.reverse()
        return cards
