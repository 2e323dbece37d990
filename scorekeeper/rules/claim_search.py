"""Claims in the trick contracts: an exact double-dummy search (R3–R6, R9, R10).

The claimant maximises his own score from the rest of the deal; the three
others, together, minimise it.  The value of a position is the claimant's
score *from here on* (the tricks still to be won, the current one included),
so a transposition-table entry holds whatever path led to it.

Speed comes from bit sets, from playing equivalent cards as one (cards of a
suit in one hand with nothing but played cards between them, unless they
score differently), from move ordering, from cheap bounds (what is still
to score) and from a table of bounds at the start of each trick.

>>> from scorekeeper.rules.cards import hand_mask, parse_cards
>>> def hand(text): return hand_mask(parse_cards(text.split()))
>>> hands = [hand("2S 3S"), hand("AS KS"), hand("QS JS"), hand("TS 9S")]
>>> result = solve_claim(RuleSet(), [Contract.COLLECTIONS], 0, hands, [], 0, 0, 0, 0)
>>> result.holds, result.guaranteed, result.line
(True, 0, [])
>>> result = solve_claim(RuleSet(), [Contract.COLLECTIONS], 0, hands, [], 0, 0, 1, 0)
>>> result.holds, result.guaranteed, len(result.line)
(False, -30, 8)
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from .cards import FULL_DECK, KING_OF_HEARTS, QUEENS, SUIT_MASKS, Suit
from .claim_core import (
    CHECK_EVERY,
    INFINITY,
    ClaimResult,
    SearchTimeout,
    adjudicate,
    deadline_after,
)
from .contracts import Contract
from .ruleset import RuleSet, SelfCapture
from .trickplay import plan_for

__all__ = ["TrickSearch", "Weights", "claim_weights", "doubled_holders_of", "solve_claim"]

_HEARTS = SUIT_MASKS[Suit.HEARTS]
_NOT_HEARTS = FULL_DECK ^ _HEARTS
_NOT_ACES = FULL_DECK ^ sum(1 << (13 * s + 12) for s in range(4))
_SUIT_OF = tuple(i // 13 for i in range(52))
_RANK = tuple(i % 13 for i in range(52))
_SUIT_MASK_OF = tuple(SUIT_MASKS[i // 13] for i in range(52))


def _pext(bits: int, mask: int) -> int:
    """The bits of ``bits`` at the positions of ``mask``, packed together (slow; for tables)."""
    out = k = 0
    for i in range(mask.bit_length()):
        if mask >> i & 1:
            out |= (bits >> i & 1) << k
            k += 1
    return out


# pext of a suit's 13 bits in two table look-ups: the low 7 bits, then the high 6.
_LOW = tuple(_pext(h, r) for r in range(128) for h in range(128))
_HIGH = tuple(_pext(h, r) for r in range(64) for h in range(64))
_POP = tuple(r.bit_count() for r in range(128))


class Weights(NamedTuple):
    """What each card is worth to the claimant, with signs (R3–R6, R9.1, R9.7, R9.8)."""

    win: tuple[int, ...]
    """Per card index: the claimant's score for taking it himself."""
    lose: tuple[int, ...]
    """Per card index: his score when another player takes it (his doubled card's bonus)."""
    trick: int
    """His score per trick taken (Collections)."""
    special: int
    """Cards that score unlike the 2 of their suit: never merged with their neighbours."""
    groups: tuple[tuple[int, int, int], ...]
    """(cards, least, most) per kind of scoring card: the bounds of what is left to score."""


def claim_weights(
    rules: RuleSet, contracts: Sequence[Contract], seat: int, holders: Mapping[int, int]
) -> Weights:
    """The claimant's per-card scores; ``holders`` maps doubled cards still in play to holders.

    >>> w = claim_weights(RuleSet(), [Contract.KING], 1, {KING_OF_HEARTS.index: 1})
    >>> w.win[KING_OF_HEARTS.index], w.lose[KING_OF_HEARTS.index], w.trick
    (-75, 75, 0)
    >>> claim_weights(RuleSet(), [Contract.KING], 2, {KING_OF_HEARTS.index: 1}).win[24]
    -150
    """
    win, lose = [0] * 52, [0] * 52
    values = rules.values
    if Contract.KING in contracts:
        _doubleable(rules, seat, holders, KING_OF_HEARTS.index, values.king, win, lose)
    if Contract.QUEENS in contracts:
        for queen in QUEENS:
            _doubleable(rules, seat, holders, queen.index, values.queen, win, lose)
    if Contract.DIAMONDS in contracts:
        for index in range(13 * Suit.DIAMONDS, 13 * Suit.DIAMONDS + 13):
            win[index] -= values.diamond
    trick = -values.trick if Contract.COLLECTIONS in contracts else 0
    sign = rules.sign  # R9.8: every score negated; the claimant maximises his signed score
    win, lose = [sign * w for w in win], [sign * w for w in lose]
    special = sum(1 << i for i in range(52) if (win[i], lose[i]) != _two_of(win, lose, i))
    return Weights(tuple(win), tuple(lose), sign * trick, special, _groups(win, lose))


def _doubleable(
    rules: RuleSet,
    seat: int,
    holders: Mapping[int, int],
    index: int,
    value: int,
    win: list[int],
    lose: list[int],
) -> None:
    """A K♥ or queen: plain, doubled by another, or doubled by the claimant (R3, R4)."""
    holder = holders.get(index) if rules.doubling else None
    if holder is None:
        win[index] -= value
    elif holder != seat:
        win[index] -= 2 * value
    else:
        double = rules.doubled_self_capture is SelfCapture.DOUBLE
        win[index] -= 2 * value if double else value
        lose[index] += value


def _two_of(win: list[int], lose: list[int], index: int) -> tuple[int, int]:
    two = index - index % 13  # no contract makes a 2 special
    return (win[two], lose[two])


def _groups(win: list[int], lose: list[int]) -> tuple[tuple[int, int, int], ...]:
    kinds: dict[tuple[int, int], int] = {}
    for i in range(52):
        if win[i] or lose[i]:
            kind = (min(win[i], lose[i], 0), max(win[i], lose[i], 0))
            kinds[kind] = kinds.get(kind, 0) | 1 << i
    return tuple((mask, low, high) for (low, high), mask in kinds.items())


def doubled_holders_of(
    doubled: int, hands: Sequence[int], trick: Sequence[int], leader: int
) -> dict[int, int]:
    """Who holds each doubled card still in play: a hand, or the seat that played it now.

    A doubled card played in an earlier trick no longer matters and is left out.

    >>> doubled_holders_of(1 << 24, [0, 1 << 24, 0, 0], [], 0), doubled_holders_of(1 << 24, \
[0, 0, 0, 0], [5, 24], 3)
    ({24: 1}, {24: 0})
    """
    holders: dict[int, int] = {}
    for index in range(52):
        if doubled >> index & 1:
            for seat, hand in enumerate(hands):
                if hand >> index & 1:
                    holders[index] = seat
            if index in trick:
                holders[index] = (leader + list(trick).index(index)) & 3
    return holders


def _cards(mask: int) -> list[int]:
    """Card indices of a bit set, highest first."""
    out = []
    while mask:
        top = mask.bit_length() - 1
        out.append(top)
        mask ^= 1 << top
    return out


def _place_of(rem: int, card: int) -> int:
    """A card as (suit, how many cards in play rank above it): the same in equivalent positions."""
    return _SUIT_OF[card] << 4 | ((rem & _SUIT_MASK_OF[card]) >> card + 1).bit_count()


def _card_at(rem: int, place: int) -> int:
    """The card in play at a :func:`_place_of` place."""
    mask = rem & SUIT_MASKS[place >> 4]
    for _ in range(place & 15):
        mask ^= 1 << mask.bit_length() - 1
    return mask.bit_length() - 1


def _first(moves: list[int], card: int) -> None:
    """Move ``card`` to the front of ``moves`` if it is there."""
    if card in moves and moves[0] != card:
        moves.remove(card)
        moves.insert(0, card)


class _Undo(NamedTuple):
    seat: int
    hand: int
    trick: list[int]
    leader: int
    broken: int


class TrickSearch:
    """Fail-soft alpha-beta over the claimant's score from the current position."""

    def __init__(
        self,
        rules: RuleSet,
        contracts: Sequence[Contract],
        hands: Sequence[int],
        trick: Sequence[int],
        leader: int,
        hearts_broken: bool,
        seat: int,
        holders: Mapping[int, int],
        deadline: float,
    ) -> None:
        plan = plan_for(rules, contracts)
        self.lead_mode, self.penalty = plan.lead_mode, plan.penalty
        weights = claim_weights(rules, contracts, seat, holders)
        self.win, self.lose, self.trick_value = weights.win, weights.lose, weights.trick
        self.special, self.groups = weights.special, weights.groups
        self.special_shifts = tuple(13 * s for s in range(4) if weights.special & SUIT_MASKS[s])
        self.avoid = rules.sign > 0  # normal signs: taking things never helps the claimant
        self.hands = list(hands)
        self.trick = list(trick)
        self.leader, self.seat, self.deadline = leader, seat, deadline
        self.broken = int(hearts_broken and plan.lead_mode == 2)  # only "broken" cares
        self.nodes = 0
        self.table: dict[int, tuple[int, int, int]] = {}

    # --- the driver's interface ---------------------------------------------------------

    def bounds(self) -> tuple[int, int]:
        """Proven bounds on the root: everything still to score goes for or against him."""
        rem = self._in_play()
        return self._bounds(rem, (rem.bit_count() + 3) // 4)

    def value(self, alpha: int, beta: int) -> int:
        """The root's fail-soft value; the position is restored even on a timeout."""
        saved = (list(self.hands), list(self.trick), self.leader, self.broken)
        try:
            return self._lead(alpha, beta) if not self.trick else self._follow(alpha, beta)
        except SearchTimeout:
            hands, trick, self.leader, self.broken = saved
            self.hands[:], self.trick = hands, trick
            raise

    def defeating_line(
        self, target: int, deadline: float, exact: int | None = None
    ) -> list[int | None]:
        """Plays to the end of the deal that keep the claimant below ``target``.

        With the ``exact`` value known this is a principal variation: the
        defenders hold him to ``exact`` and he makes ``exact``. Without it, the
        defenders refute ``target`` and he plays his most promising card. The
        searches re-use the proof's table, so each step is quick; only if even
        the grace time runs out does the line stop short.
        """
        self.deadline = deadline
        line: list[int | None] = []
        below = target if exact is None else exact + 1
        try:
            while self.trick or any(self.hands):
                card = self._line_move(below, exact)
                delta, _ = self._apply(card)
                line.append(card)
                below -= delta
                exact = None if exact is None else exact - delta
        except SearchTimeout:
            pass
        return line

    # --- the search -----------------------------------------------------------------------

    def _in_play(self) -> int:
        h = self.hands
        rem = h[0] | h[1] | h[2] | h[3]
        for card in self.trick:
            rem |= 1 << card
        return rem

    def _bounds(self, rem: int, tricks: int) -> tuple[int, int]:
        low = high = 0
        for mask, least, most in self.groups:
            n = (rem & mask).bit_count()
            low += n * least
            high += n * most
        value = self.trick_value
        return (low + tricks * value, high) if value < 0 else (low, high + tricks * value)

    def _reps(self, hand: int, legal: int, rem: int) -> int:
        """One card per run of equivalent cards: the lowest (see the module docstring).

        Adding the played cards to the hand's cards shifted up one rank makes each
        hand card's successor carry over played cards to the next card in play;
        a hand card so reached is not the lowest of its run.
        """
        played = (FULL_DECK ^ rem) & _NOT_ACES
        plain = hand & ~self.special
        return legal & ~((played + ((plain & _NOT_ACES) << 1)) & plain)

    def _key(self, h0: int, h1: int, h2: int, rem: int) -> int:
        """The position up to rank equivalence: each suit's cards in play, squeezed together.

        Two positions that differ only in which low cards are gone play alike,
        so they share a table entry. Seat 3's cards are the rest; special cards
        (the K♥, queens) are squeezed too, which keeps their place in the suit.
        """
        low, high, pop = _LOW, _HIGH, _POP
        key = 0
        for shift in (0, 13, 26, 39):
            r = rem >> shift & 0x1FFF
            rl, rh, up = (r & 127) << 7, (r >> 7) << 6, pop[r & 127]
            a, b, c = h0 >> shift & 0x1FFF, h1 >> shift & 0x1FFF, h2 >> shift & 0x1FFF
            key = key << 4 | r.bit_count()
            key = key << 13 | low[rl | a & 127] | high[rh | a >> 7] << up
            key = key << 13 | low[rl | b & 127] | high[rh | b >> 7] << up
            key = key << 13 | low[rl | c & 127] | high[rh | c >> 7] << up
        for shift in self.special_shifts:
            r = rem >> shift & 0x1FFF
            d = self.special >> shift & r
            key = (
                key << 13
                | low[(r & 127) << 7 | d & 127]
                | high[(r >> 7) << 6 | d >> 7] << pop[r & 127]
            )
        return key

    def _lead(self, alpha: int, beta: int) -> int:
        hands = self.hands
        h0, h1, h2, h3 = hands
        rem = h0 | h1 | h2 | h3
        if not rem:
            return 0
        low, high = self._bounds(rem, rem.bit_count() >> 2)
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        leader = self.leader
        key = self._key(h0, h1, h2, rem) << 3 | leader << 1 | self.broken
        entry = self.table.get(key)
        hint = -1
        if entry is not None:
            low, high, hint = entry
            if low >= beta or low == high:
                return low
            if high <= alpha:
                return high
        self.nodes += 1
        if not self.nodes & CHECK_EVERY and time.monotonic() > self.deadline:
            raise SearchTimeout
        a = alpha if alpha > low else low
        b = beta if beta < high else high
        hand = hands[leader]
        legal = hand if self.lead_mode == 0 or self.broken else hand & _NOT_HEARTS or hand
        moves = self._lead_order(leader, _cards(self._reps(hand, legal, rem)))
        if hint >= 0:  # the best lead found before in this position, up to rank equivalence
            _first(moves, _card_at(rem, hint))
        best, card = self._lead_loop(leader, hand, moves, a, b)
        if best <= a:
            high = best
        elif best >= b:
            low = best
        else:
            low = high = best
        self.table[key] = (low, high, _place_of(rem, card))
        return best

    def _lead_loop(
        self, leader: int, hand: int, moves: list[int], a: int, b: int
    ) -> tuple[int, int]:
        hands, trick = self.hands, self.trick
        maximise = leader == self.seat
        best, choice = (-INFINITY if maximise else INFINITY), moves[0]
        for card in moves:
            hands[leader] = hand ^ 1 << card
            trick.append(card)
            v = self._follow(a, b)
            trick.pop()
            if maximise:
                if v > best:
                    best, choice = v, card
                    if v > a:
                        a = v
            elif v < best:
                best, choice = v, card
                if v < b:
                    b = v
            if a >= b:
                break
        hands[leader] = hand
        return best, choice

    def _follow(self, alpha: int, beta: int) -> int:
        self.nodes += 1
        if not self.nodes & CHECK_EVERY and time.monotonic() > self.deadline:
            raise SearchTimeout
        trick, hands = self.trick, self.hands
        n = len(trick)
        player = (self.leader + n) & 3
        hand = hands[player]
        follow = hand & _SUIT_MASK_OF[trick[0]]
        legal = follow or hand & self.penalty or hand
        rem = hands[0] | hands[1] | hands[2] | hands[3]
        for card in trick:
            rem |= 1 << card
        moves = self._follow_order(player, _cards(self._reps(hand, legal, rem)), follow)
        if n == 3:
            return self._close_loop(player, hand, moves, alpha, beta)
        maximise = player == self.seat
        best = -INFINITY if maximise else INFINITY
        a, b = alpha, beta
        for card in moves:
            hands[player] = hand ^ 1 << card
            trick.append(card)
            v = self._follow(a, b)
            trick.pop()
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
        hands[player] = hand
        return best

    def _close_loop(self, player: int, hand: int, moves: list[int], a: int, b: int) -> int:
        """The fourth card: each choice closes the trick, scores it, and starts the next."""
        trick, hands, leader, broken = self.trick, self.hands, self.leader, self.broken
        top, top_seat = self._winning(trick)
        win, lose, seat = self.win, self.lose, self.seat
        win3 = self.trick_value + win[trick[0]] + win[trick[1]] + win[trick[2]]
        lose3 = lose[trick[0]] + lose[trick[1]] + lose[trick[2]]
        suit = _SUIT_OF[trick[0]]
        breaks = self.lead_mode == 2 and not broken and suit != Suit.HEARTS
        maximise = player == seat
        best = -INFINITY if maximise else INFINITY
        self.trick = []
        for card in moves:
            winner = player if _SUIT_OF[card] == suit and card > top else top_seat
            delta = win3 + win[card] if winner == seat else lose3 + lose[card]
            hands[player] = hand ^ 1 << card
            self.leader = winner
            if breaks:
                self.broken = int(any(_SUIT_OF[c] == Suit.HEARTS for c in (*trick, card)))
            v = delta + self._lead(a - delta, b - delta)
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
        hands[player], self.trick, self.leader, self.broken = hand, trick, leader, broken
        return best

    def _winning(self, trick: list[int]) -> tuple[int, int]:
        """The card winning the trick so far and its seat."""
        lead = trick[0]
        suit, top, position = _SUIT_OF[lead], lead, 0
        for i in range(1, len(trick)):
            card = trick[i]
            if _SUIT_OF[card] == suit and card > top:
                top, position = card, i
        return top, (self.leader + position) & 3

    # --- move ordering --------------------------------------------------------------------

    def _lead_order(self, leader: int, cards: list[int]) -> list[int]:
        """Claimant: low leads first (he wants to lose tricks). Defenders: low, in his suits."""
        if leader == self.seat:
            cards.sort(key=_RANK.__getitem__)
        else:
            mine = self.hands[self.seat]
            cards.sort(key=lambda c: _RANK[c] + (0 if mine & _SUIT_MASK_OF[c] else 16))
        if not self.avoid:
            cards.reverse()
        return cards

    def _follow_order(self, player: int, cards: list[int], follow: int) -> list[int]:
        """Claimant: duck under the winning card, or dump his worst card. Defenders: the reverse."""
        if len(cards) < 2:
            return cards
        seat, trick = self.seat, self.trick
        top, top_seat = self._winning(trick)
        claimant_played = (seat - self.leader) & 3 < len(trick)
        if follow:
            below = [c for c in cards if c < top]
            above = [c for c in cards if c > top]
            if player == seat:
                cards = below + (above if len(trick) == 3 else above[::-1])
            elif not claimant_played:
                cards.reverse()  # low cards first: leave him the trick
            elif top_seat == seat:
                cards = below + above[::-1]
        else:
            loads = player == seat or top_seat == seat or not claimant_played
            win = self.win
            if loads:
                cards.sort(key=lambda c: win[c] * 16 - _RANK[c])
        if not self.avoid:
            cards.reverse()
        return cards

    # --- walking out a line ---------------------------------------------------------------

    def _apply(self, card: int) -> tuple[int, _Undo]:
        """Play ``card`` for whoever is to play; return the claimant's score from it."""
        trick = self.trick
        player = (self.leader + len(trick)) & 3
        undo = _Undo(player, self.hands[player], list(trick), self.leader, self.broken)
        self.hands[player] ^= 1 << card
        trick.append(card)
        if len(trick) < 4:
            return 0, undo
        top, winner = self._winning(trick)
        if winner == self.seat:
            delta = self.trick_value + sum(self.win[c] for c in trick)
        else:
            delta = sum(self.lose[c] for c in trick)
        suit = _SUIT_OF[trick[0]]
        if self.lead_mode == 2 and suit != Suit.HEARTS:
            self.broken |= int(any(_SUIT_OF[c] == Suit.HEARTS for c in trick))
        self.trick, self.leader = [], winner
        return delta, undo

    def _undo(self, undo: _Undo) -> None:
        self.hands[undo.seat] = undo.hand
        self.trick, self.leader, self.broken = undo.trick, undo.leader, undo.broken

    def _line_move(self, below: int, exact: int | None) -> int:
        """The next card of a defeating line (see :meth:`defeating_line`)."""
        trick, hands = self.trick, self.hands
        player = (self.leader + len(trick)) & 3
        hand = hands[player]
        rem = self._in_play()
        if trick:
            follow = hand & _SUIT_MASK_OF[trick[0]]
            legal = follow or hand & self.penalty or hand
            moves = self._follow_order(player, _cards(self._reps(hand, legal, rem)), follow)
        else:
            legal = hand if self.lead_mode == 0 or self.broken else hand & _NOT_HEARTS or hand
            moves = self._lead_order(player, _cards(self._reps(hand, legal, rem)))
        if player != self.seat:
            return next(c for c in moves if self._after(c, below - 1, below) < below)
        if exact is not None:
            return next(c for c in moves if self._after(c, exact - 1, exact) >= exact)
        return max(moves, key=lambda c: self._after(c, below - 1, below))

    def _after(self, card: int, alpha: int, beta: int) -> int:
        """The fail-soft value of the position after ``card``, counting the trick it closes."""
        delta, undo = self._apply(card)
        try:
            return delta + self.value(alpha - delta, beta - delta)
        finally:
            self._undo(undo)


def solve_claim(
    rules: RuleSet,
    contracts: Sequence[Contract],
    king: int,
    hands: Sequence[int],
    current_trick: Sequence[int],
    leader: int,
    doubled: int,
    seat: int,
    min_score: int | None,
    hearts_broken: bool = False,
    deadline: float | None = None,
    *,
    doubled_holders: Mapping[int, int] | None = None,
) -> ClaimResult:
    """Adjudicate a claim in a trick contract (double-dummy, three against one).

    ``hands`` are the cards still held (bit sets), ``current_trick`` the cards
    of the trick in progress (indices, ``leader`` first), ``doubled`` the bit
    set of exposed cards; their holders come from ``doubled_holders`` or, when
    still in play, from the hands and the trick. ``deadline`` is a
    ``time.monotonic()`` value (default: 20 s from now). ``king`` does not
    change the rest of a deal; it is accepted for symmetry with the checks.
    """
    del king
    holders = doubled_holders_of(doubled, hands, current_trick, leader)
    if doubled_holders is not None:
        holders.update({card: s for card, s in doubled_holders.items() if doubled >> card & 1})
    when = deadline_after(None) if deadline is None else deadline
    search = TrickSearch(
        rules, contracts, hands, current_trick, leader, hearts_broken, seat, holders, when
    )
    return adjudicate(search, min_score, when)
