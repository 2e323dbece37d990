"""Claims in Trix: an exact search of the race to empty one's hand (R7, R9.7, R9.8).

The claimant's score is his Trix award from the final finishing order; the
players already out keep their places. He maximises it, the three others
together minimise it. A player with a legal card must play one; a player
without one passes, so a pass is never a choice. The value of a position
depends only on the hands and whose turn it is (the layout is every card not
held), so the table needs no path.

>>> from scorekeeper.rules.cards import ALL_CARDS, SUIT_MASKS, Suit, hand_mask, parse_cards
>>> def hand(text): return hand_mask(parse_cards(text.split()))
>>> layout = Layout(hand_mask(parse_cards(["JS", "JH", "JD", "JC"])))
>>> rest = hand_mask(parse_cards(["JS", "JH", "JD", "JC", "QS", "TS", "QH", "TH"]))
>>> hands = [hand("QS TS"), hand("QH TH"), 0, 0]
>>> hands[2] = (FULL_DECK ^ rest) & SUIT_MASKS[Suit.DIAMONDS]
>>> hands[3] = (FULL_DECK ^ rest) & ~SUIT_MASKS[Suit.DIAMONDS]
>>> result = solve_trix_claim(RuleSet(), layout, hands, 0, [], 0, 200)
>>> result.holds, result.guaranteed
(True, 200)
>>> result = solve_trix_claim(RuleSet(), layout, hands, 0, [], 1, 200)
>>> result.holds, result.guaranteed, [str(ALL_CARDS[c]) for c in result.line[:3] if c]
(False, 150, ['QS', 'QH', 'QD'])
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from scorekeeper.rules.cards import FULL_DECK
from scorekeeper.rules.claims.core import (
    CHECK_EVERY,
    INFINITY,
    ClaimResult,
    SearchTimeout,
    adjudicate,
    deadline_after,
)
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.rules.trix import Layout, frontier

__all__ = ["TrixSearch", "solve_trix_claim"]

TABLE_LIMIT = 2_000_000
"""Entries the table may hold before it is cleared."""


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        top = mask.bit_length() - 1
        out.append(top)
        mask ^= 1 << top
    return out


class TrixSearch:
    """Fail-soft alpha-beta over the claimant's Trix award."""

    def __init__(
        self,
        rules: RuleSet,
        hands: Sequence[int],
        to_play: int,
        out: Sequence[int],
        seat: int,
        deadline: float,
    ) -> None:
        self.awards = tuple(rules.sign * v for v in rules.values.trix)
        self.hands = list(hands)
        self.to_play, self.seat, self.deadline = to_play, seat, deadline
        self.placed = list(out).index(seat) if seat in out else None
        self.nodes = 0
        self.table: dict[int, tuple[int, int]] = {}
        # The claimant finishes in a place from (players out) to 4th: what that can be worth.
        self.ranges = tuple((min(self.awards[k:]), max(self.awards[k:])) for k in range(4))

    # --- the driver's interface ---------------------------------------------------------

    def bounds(self) -> tuple[int, int]:
        if self.placed is not None:
            return self.awards[self.placed], self.awards[self.placed]
        return self.ranges[self._out_count()]

    def value(self, alpha: int, beta: int) -> int:
        """The root's fail-soft value; the position is restored even on a timeout."""
        if self.placed is not None:
            return self.awards[self.placed]
        saved = (list(self.hands), self.to_play)
        try:
            return self._node(alpha, beta)
        except SearchTimeout:
            self.hands[:], self.to_play = saved
            raise

    def defeating_line(
        self, target: int, deadline: float, exact: int | None = None
    ) -> list[int | None]:
        """Turns to the end of the deal (None = a forced pass) keeping the claimant below
        ``target``: the principal variation when ``exact`` is known, else a refutation."""
        self.deadline = deadline
        line: list[int | None] = []
        try:
            while self._out_count() < 3:
                card = self._line_move(target if exact is None else exact + 1, exact)
                self._apply(card)
                line.append(card)
        except SearchTimeout:
            pass
        return line

    # --- the search -----------------------------------------------------------------------

    def _out_count(self) -> int:
        return sum(1 for hand in self.hands if not hand)

    def _next(self, seat: int) -> int:
        hands = self.hands
        seat = (seat + 1) & 3
        while not hands[seat]:
            seat = (seat + 1) & 3
        return seat

    def _node(self, alpha: int, beta: int) -> int:
        hands = self.hands
        h0, h1, h2, h3 = hands
        player = self.to_play
        legal = frontier(FULL_DECK ^ (h0 | h1 | h2 | h3)) & hands[player]
        if not legal:  # a forced pass (R7): no choice, no table entry
            self.to_play = self._next(player)
            try:
                return self._node(alpha, beta)
            finally:
                self.to_play = player
        out = (not h0) + (not h1) + (not h2) + (not h3)
        low, high = self.ranges[out]
        key = ((((h0 << 52 | h1) << 52 | h2) << 52 | h3) << 2) | player
        entry = self.table.get(key)
        if entry is not None:
            low, high = entry
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        self.nodes += 1
        if not self.nodes & CHECK_EVERY:
            if time.monotonic() > self.deadline:
                raise SearchTimeout
            if len(self.table) > TABLE_LIMIT:
                self.table.clear()
        a = alpha if alpha > low else low
        b = beta if beta < high else high
        best = self._loop(player, self._order(player, legal), out, a, b)
        if best <= a:
            high = best
        elif best >= b:
            low = best
        else:
            low = high = best
        self.table[key] = (low, high)
        return best

    def _loop(self, player: int, moves: list[int], out: int, a: int, b: int) -> int:
        hands, seat, awards = self.hands, self.seat, self.awards
        hand = hands[player]
        maximise = player == seat
        best = -INFINITY if maximise else INFINITY
        for card in moves:
            left = hand ^ 1 << card
            if left:
                v = self._child(player, left, a, b)
            elif player == seat:
                v = awards[out]  # he goes out: his place is fixed
            elif out == 2:
                v = awards[3]  # the third player goes out: he is last
            else:
                v = self._child(player, left, a, b)
            if maximise:
                if v > best:
                    best = v
                    if v > a:
                        a = v
            elif v < best:
                best = v
                if v < b:
                    b = v
            if a >= b:
                break
        return best

    def _child(self, player: int, left: int, a: int, b: int) -> int:
        hands = self.hands
        hand = hands[player]
        hands[player] = left
        self.to_play = self._next(player)
        v = self._node(a, b)
        hands[player], self.to_play = hand, player
        return v

    def _order(self, player: int, legal: int) -> list[int]:
        """Going out first; then the cards that open most for the mover's side, least for
        the other side (the claimant's cards count against the defenders and vice versa)."""
        moves = _cards(legal)
        if len(moves) < 2:
            return moves
        hands, seat = self.hands, self.seat
        hand = hands[player]
        played = FULL_DECK ^ (hands[0] | hands[1] | hands[2] | hands[3])
        before = frontier(played)
        mine = hands[seat]
        theirs = (hands[0] | hands[1] | hands[2] | hands[3]) ^ mine
        going_out = 100 if hand.bit_count() == 1 else 0

        def score(card: int) -> int:
            opened = frontier(played | 1 << card) & ~before
            gain = (opened & mine).bit_count() * 2 - (opened & theirs).bit_count()
            return going_out + (gain if player == seat else -2 * gain)

        moves.sort(key=score, reverse=True)
        return moves

    # --- walking out a line ---------------------------------------------------------------

    def _apply(self, card: int | None) -> None:
        player = self.to_play
        if card is not None:
            out = self._out_count()
            self.hands[player] ^= 1 << card
            if player == self.seat and not self.hands[player]:
                self.placed = out  # he is out: the rest of the line cannot change his award
        self.to_play = self._next(player) if self._out_count() < 3 else player

    def _line_move(self, below: int, exact: int | None) -> int | None:
        hands, player = self.hands, self.to_play
        legal = frontier(FULL_DECK ^ (hands[0] | hands[1] | hands[2] | hands[3])) & hands[player]
        if not legal:
            return None
        moves = self._order(player, legal)
        if player != self.seat:
            return next(c for c in moves if self._after(c, below - 1, below) < below)
        if exact is not None:
            return next(c for c in moves if self._after(c, exact - 1, exact) >= exact)
        return max(moves, key=lambda c: self._after(c, below - 1, below))

    def _after(self, card: int, alpha: int, beta: int) -> int:
        """The value after ``card`` (the award at once when it ends the claimant's race)."""
        hands, player = self.hands, self.to_play
        out = self._out_count()
        if self.placed is not None:
            return self.awards[self.placed]
        left = hands[player] ^ 1 << card
        if not left and player == self.seat:
            return self.awards[out]
        if not left and out == 2:
            return self.awards[3]
        hand = hands[player]
        hands[player] = left
        self.to_play = self._next(player)
        try:
            return self.value(alpha, beta)
        finally:
            hands[player], self.to_play = hand, player


def solve_trix_claim(
    rules: RuleSet,
    layout: Layout,
    hands: Sequence[int],
    to_play: int,
    out: Sequence[int],
    seat: int,
    min_score: int | None,
    deadline: float | None = None,
    *,
    exact_seconds: float | None = None,
) -> ClaimResult:
    """Adjudicate a Trix claim: ``hands`` still held (bit sets), ``out`` the seats already
    out in order, ``to_play`` whose turn it is, ``deadline`` a ``time.monotonic()`` value,
    ``exact_seconds`` how long the exact value is sought once the claim is decided (None:
    until the deadline; see :func:`~.core.adjudicate`).

    The layout is implied by the hands (every card not held is laid out); it is
    taken for the checks and for symmetry with the JSON body.
    """
    del layout
    when = deadline_after(None) if deadline is None else deadline
    search = TrixSearch(rules, hands, to_play, out, seat, when)
    return adjudicate(search, min_score, exact_seconds=exact_seconds)
