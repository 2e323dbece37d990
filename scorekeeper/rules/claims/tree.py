"""The search tree of a trick-contract claim: fail-soft alpha-beta, card by card (R10).

The value of a position is the claimant's score *from here on*: the tricks
still to be won, the current one included. So a table entry does not depend
on the path to its position, and the table is keyed on the hands squeezed to
relative ranks (:func:`.partition.parts`) at the start of each trick; each
entry also serves every position alike in the ranks that mattered to it
(partition search, :mod:`.partition`). A trick's start is settled at once
when no trick can change hands any more (quick bounds, :mod:`.quick`). Near
the root, the defenders' leads are tried within small node budgets first, so
that a short forcing line is found before a long failing one is searched out
(cheap refutations first, :meth:`TrickTree._refute`).

Legality is :mod:`.trickplay`'s (its :class:`~.trickplay.Plan` and the same
rules as :func:`~.trickplay.legal_mask`), inlined in the hot loop: follow
suit, else a penalty card under R9.4, else anything; leads under R3's
heart-lead house rules.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence

from scorekeeper.rules.cards import FULL_DECK, SUIT_MASKS, Suit
from scorekeeper.rules.claims.banded import Bands, Plan
from scorekeeper.rules.claims.bits import (
    NOT_ACES,
    SUIT_MASK_OF,
    SUIT_OF,
    card_at,
    cards,
    place_of,
    representatives,
    to_front,
)
from scorekeeper.rules.claims.core import (
    ALL_ON,
    CHECK_EVERY,
    INFINITY,
    OverBudget,
    SearchOptions,
    SearchTimeout,
    cheapest_first,
)
from scorekeeper.rules.claims.order import MoveOrder
from scorekeeper.rules.claims.partition import parts, region, region_cards, region_mask
from scorekeeper.rules.claims.quick import QuickBounds
from scorekeeper.rules.claims.weights import claim_weights
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.rules.trickplay import plan_for

__all__ = ["HEARTS", "NOT_HEARTS", "TABLE_LIMIT", "TrickTree"]

TABLE_LIMIT = 2_000_000
"""Entries a table may hold before it is cleared (a 13-card search stores far fewer)."""
HEARTS = SUIT_MASKS[Suit.HEARTS]
Squeezed = tuple[int, int, int, int, int]
"""A position up to rank equivalence: the exact table's key, then its :func:`.partition.parts`."""
NOT_HEARTS = FULL_DECK ^ HEARTS
CHEAP_FROM = 4 * 11
"""Cheap refutations first at the defenders' leads while at least this many cards are in play."""
FIRST_BUDGET = 1024
"""Nodes a defender's lead gets in the first round of cheap refutations (x8 in the second)."""
LAST_BUDGET = 8192
"""The last budgeted round; the next searches without a limit (budgets are all waste when
every lead fails, so they stay small: a forcing line near the root is found in few nodes)."""


BANDED_FROM = 4 * 9
"""The banded games are asked only about claims with this many cards in play or more (below,
the exact search is quick)."""
ROUNDS: tuple[tuple[int, Plan], ...] = (
    (20_000, ((0, False, 4_000), (0, True, 10_000))),
    (150_000, ((0, True, 200_000), (0, False, 16_000))),
    (500_000, ((1, True, 300_000),)),
)
"""At a claim's position: rounds of the exact search within a node budget (most claims are
settled in a few hundred nodes), each followed by banded games (:mod:`.banded`) within theirs;
then the exact search without a limit. A banded node costs eight to ten exact ones; the
claimant's game, which settles most failing claims, gets the most. The exact
budgets are counted every :data:`~.core.CHECK_EVERY` + 1 nodes; 0: the banded games first."""


class TrickTree(MoveOrder, QuickBounds):
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
        options: SearchOptions = ALL_ON,
    ) -> None:
        plan = plan_for(rules, contracts)
        self.lead_mode, self.penalty = plan.lead_mode, plan.penalty
        weights = claim_weights(rules, contracts, seat, holders)
        self.win, self.lose, self.trick_value = weights.win, weights.lose, weights.trick
        self.special, self.groups = weights.special, weights.groups
        self.apart = weights.special if options.equivalence else FULL_DECK  # never merged
        self.use_table, self.quick, self.ordering = (
            options.table,
            options.quick_bounds,
            options.ordering,
        )
        self.partition = options.partition and options.table
        self.win_cards = sum(1 << c for c in range(52) if weights.win[c])
        self.lose_cards = sum(1 << c for c in range(52) if weights.lose[c])
        self.avoid = rules.sign > 0  # normal signs: taking things never helps the claimant
        self.danger = self.win_cards if self.avoid else 0
        self.escape = options.escape and self.avoid and not weights.trick and bool(self.danger)
        self.escape_forced = bool(plan.penalty) and not self.danger & ~plan.penalty
        self.hands = list(hands)
        self.trick = list(trick)
        self.leader, self.seat, self.deadline = leader, seat, deadline
        self.broken = int(hearts_broken and plan.lead_mode == 2)  # only "broken" cares
        self.nodes = 0
        self.cheap_first = options.cheap_first
        self.node_limit = INFINITY
        """The node count at which the innermost budgeted search stops (:class:`OverBudget`)."""
        self.overruns = 0
        """How many budgeted searches ran out (:meth:`_refute`)."""
        self.banded_nodes = 0
        """Positions the banded games searched (:mod:`.banded`; not in :attr:`nodes`)."""
        self.table: dict[int, tuple[int, int, int, int]] = {}
        self.squeezed: dict[int, Squeezed] = {}
        self.rel = 0
        """The relevant cards of the last position valued (:mod:`.partition`)."""
        self.shapes: dict[int, list[int]] = {}
        self.bounds_of: dict[int, tuple[int, int, int]] = {}
        self.start = (tuple(self.hands), tuple(self.trick), leader)
        """The claim's own position: the banded games are asked about it alone."""
        in_play = self._in_play()
        wants = options.banded and self.avoid and bool(self.trick_value or in_play & self.danger)
        self.bands = Bands(self, deadline) if wants and in_play.bit_count() >= BANDED_FROM else None
        self.start_bounds: tuple[int, int] | None = None
        """Bounds on the claim's position from a banded game that settled it."""

    def bounds(self) -> tuple[int, int]:
        """Proven bounds on the root: everything still to score goes for or against him."""
        rem = self._in_play()
        return self._bounds(rem, (rem.bit_count() + 3) // 4)

    def value(self, alpha: int, beta: int) -> int:
        """The root's fail-soft value; the position is restored even on a timeout."""
        saved = (list(self.hands), list(self.trick), self.leader, self.broken)
        self.node_limit = INFINITY  # a timeout may have left a budget behind
        try:
            if self._at_start():
                known = self._banded_first(alpha, beta, saved)
                if known is not None:
                    return known
            return self._search(alpha, beta)
        except SearchTimeout:
            self._restore(saved)
            raise

    def _at_start(self) -> bool:
        """Is this the claim's own position, with the banded games still to ask or answered?"""
        if self.bands is None and self.start_bounds is None:
            return False
        return (tuple(self.hands), tuple(self.trick), self.leader) == self.start

    def _search(self, alpha: int, beta: int) -> int:
        if not self.trick:
            return self._lead(alpha, beta)
        top, top_seat = self._winning(self.trick)
        return self._follow(alpha, beta, self._in_play(), top, top_seat)

    def _restore(self, saved: tuple[list[int], list[int], int, int]) -> None:
        """Back to ``saved`` (as :meth:`value` found it). A copy of its trick: a search
        plays into the trick in place, and one stopped on its budget leaves its cards there."""
        hands, trick, self.leader, self.broken = saved
        self.hands[:], self.trick = hands, list(trick)

    def _banded_first(
        self, alpha: int, beta: int, saved: tuple[list[int], list[int], int, int]
    ) -> int | None:
        """At the claim's own position: a value or bound that settles the window, if any.

        Once per claim, at the first window's ``beta`` (the claim, for a
        verdict), in :data:`ROUNDS`: the exact search within a node budget,
        then the banded games (:mod:`.banded`), asked whether he can keep what
        he takes from costing him more than ``beta`` leaves him to lose (what
        he would make by taking nothing, less ``beta``). Their answer is a bound
        at ``beta``, kept for the later windows. None: the exact search goes on
        without a limit.
        """
        bands = self.bands
        if bands is not None:
            self.bands = None  # asked once a claim
            low, high = self.bounds()
            # He makes ``beta`` if he loses at most this to what he takes.
            slack = self._untaken(self._in_play()) - beta
            for exact_budget, plan in ROUNDS if slack >= 0 else ():
                if exact_budget:
                    self.node_limit = self.nodes + exact_budget
                    try:
                        return self._search(alpha, beta)
                    except OverBudget:
                        self._restore(saved)
                    finally:
                        self.node_limit = INFINITY
                hands, trick, leader, broken = self.hands, self.trick, self.leader, self.broken
                try:
                    escapes = bands.verdict(hands, trick, leader, broken, plan, slack)
                finally:
                    self.banded_nodes = bands.nodes
                if escapes is not None:
                    self.start_bounds = (beta, high) if escapes else (low, beta - 1)
                    break
        if self.start_bounds is None:
            return None
        low, high = self.start_bounds
        if low >= beta or low == high:
            return low
        return high if high <= alpha else None

    # --- the search -----------------------------------------------------------------------

    def _bounds(self, rem: int, tricks: int) -> tuple[int, int]:
        low = high = 0
        for mask, least, most in self.groups:
            n = (rem & mask).bit_count()
            low += n * least
            high += n * most
        value = self.trick_value
        return (low + tricks * value, high) if value < 0 else (low, high + tricks * value)

    def _lead(self, alpha: int, beta: int) -> int:
        hands = self.hands
        h0, h1, h2, h3 = hands
        rem = h0 | h1 | h2 | h3
        self.rel = 0
        if not rem:
            return 0
        count = rem.bit_count()
        if count == 4:  # one card each: no choice left
            return self._last_trick(h0, h1, h2, h3)
        low, high = self._bounds(rem, count >> 2)
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        leader = self.leader
        if not self.use_table:
            settled = self._settled(hands, rem, leader) if self.quick else None
            return self._lead_search(alpha, beta, rem, -1)[0] if settled is None else settled
        raw = ((h0 << 52 | h1) << 52 | h2) << 52 | h3
        squeezed = self.squeezed.get(raw)
        if squeezed is None:  # squeezing costs more than a look-up; searches revisit positions
            squeezed = self._squeeze(h0, h1, h2, rem)
            self.squeezed[raw] = squeezed
        key = squeezed[0] << 3 | leader << 1 | self.broken
        entry = self.table.get(key)
        hint = kpack = -1
        if entry is not None:
            low, high, hint, kpack = entry
            if low >= beta or low == high:
                self.rel = region_cards(rem, kpack)
                return low
            if high <= alpha:
                self.rel = region_cards(rem, kpack)
                return high
        else:
            if self.partition:
                known = self._partition_probe(squeezed, rem, alpha, beta)
                if known is not None:
                    return known
            if self.quick:
                settled = self._settled(hands, rem, leader)
                if settled is not None:
                    kpack = region(rem, self.rel | rem & self.special)
                    self._store(key, squeezed, rem, settled, settled, 0, kpack)
                    return settled
        a = alpha if alpha > low else low
        b = beta if beta < high else high
        best, card = self._lead_search(a, b, rem, hint)
        if best <= a:
            high = best
        elif best >= b:
            low = best
        else:
            low = high = best
        rel = self.rel | rem & self.special
        if kpack >= 0:  # the entry's bounds are kept: so is what they stood on
            rel |= region_cards(rem, kpack)
        self.rel = rel
        self._store(key, squeezed, rem, low, high, place_of(rem, card), region(rem, rel))
        return best

    def _squeeze(self, h0: int, h1: int, h2: int, rem: int) -> Squeezed:
        """The position up to rank equivalence (the exact table's key), and its :func:`parts`."""
        bucket, s0, s1, s2 = parts(h0, h1, h2, rem, self.special)
        return (((bucket << 52 | s0) << 52 | s1) << 52 | s2, bucket, s0, s1, s2)

    def _store(
        self, key: int, squeezed: Squeezed, rem: int, low: int, high: int, hint: int, kpack: int
    ) -> None:
        """Keep a position's bounds: exactly, and for its partition (the region's holders)."""
        self.table[key] = (low, high, hint, kpack)
        if not self.partition:
            return
        _, bucket, s0, s1, s2 = squeezed
        bucket = bucket << 3 | key & 7
        mask = region_mask(rem, kpack)
        shapes = self.shapes.setdefault(bucket, [])
        if mask not in shapes:
            shapes.append(mask)
        pkey = (((bucket << 52 | mask) << 52 | s0 & mask) << 52 | s1 & mask) << 52 | s2 & mask
        known = self.bounds_of.get(pkey)
        if known is not None:  # both hold for the whole partition
            low, high = max(low, known[0]), min(high, known[1])
        self.bounds_of[pkey] = (low, high, kpack)

    def _partition_probe(self, squeezed: Squeezed, rem: int, alpha: int, beta: int) -> int | None:
        """A bound from a position of the same partition that settles the window, if any."""
        _, bucket, s0, s1, s2 = squeezed
        bucket = bucket << 3 | self.leader << 1 | self.broken
        shapes = self.shapes.get(bucket)
        if shapes is None:
            return None
        bounds_of = self.bounds_of
        for mask in shapes:
            pkey = (((bucket << 52 | mask) << 52 | s0 & mask) << 52 | s1 & mask) << 52 | s2 & mask
            known = bounds_of.get(pkey)
            if known is not None:
                low, high, kpack = known
                if low >= beta or low == high:
                    self.rel = region_cards(rem, kpack)
                    return low
                if high <= alpha:
                    self.rel = region_cards(rem, kpack)
                    return high
        return None

    def _lead_search(self, a: int, b: int, rem: int, hint: int) -> tuple[int, int]:
        """The leads searched in the window (a, b), the table's ``hint`` first: value, best card."""
        self.nodes += 1
        if not self.nodes & CHECK_EVERY:
            self._check_clock()
        leader = self.leader
        hand = self.hands[leader]
        legal = hand if self.lead_mode == 0 or self.broken else hand & NOT_HEARTS or hand
        moves = self._lead_order(leader, cards(representatives(hand, legal, rem, self.apart)))
        if hint >= 0 and self.ordering:  # the best lead found before here, up to rank equivalence
            to_front(moves, card_at(rem, hint))
        return self._lead_loop(leader, hand, moves, rem, a, b)

    def _check_clock(self) -> None:
        """Every few nodes: stop at the deadline; keep the tables to a sane size."""
        if time.monotonic() > self.deadline:
            raise SearchTimeout
        if self.nodes > self.node_limit:
            raise OverBudget
        if len(self.table) > TABLE_LIMIT:
            self.table.clear()
        if len(self.squeezed) > TABLE_LIMIT:
            self.squeezed.clear()
        if len(self.bounds_of) > TABLE_LIMIT:
            self.bounds_of.clear()
            self.shapes.clear()

    def _last_trick(self, h0: int, h1: int, h2: int, h3: int) -> int:
        """The claimant's score from the last trick, whose cards are all forced."""
        cards = (h0.bit_length() - 1, h1.bit_length() - 1, h2.bit_length() - 1, h3.bit_length() - 1)
        leader = self.leader
        suit = SUIT_OF[cards[leader]]
        winner, followers = leader, 0
        for seat in range(4):
            if SUIT_OF[cards[seat]] == suit:
                followers += 1
                if cards[seat] > cards[winner]:
                    winner = seat
        self.rel = 1 << cards[winner] if followers > 1 else 0  # won by rank
        if winner == self.seat:
            win = self.win
            return self.trick_value + win[cards[0]] + win[cards[1]] + win[cards[2]] + win[cards[3]]
        lose = self.lose
        return lose[cards[0]] + lose[cards[1]] + lose[cards[2]] + lose[cards[3]]

    def _lead_loop(
        self, leader: int, hand: int, moves: list[int], rem: int, a: int, b: int
    ) -> tuple[int, int]:
        hands, trick = self.hands, self.trick
        maximise = leader == self.seat
        best, choice = (-INFINITY if maximise else INFINITY), moves[0]
        plain, rel = hand & ~self.apart, 0
        if not maximise and self.cheap_first and len(moves) > 1 and rem.bit_count() >= CHEAP_FROM:

            def play(card: int, a: int, b: int) -> int:
                hands[leader] = hand ^ 1 << card
                trick.append(card)
                v = self._follow(a, b, rem, card, leader)
                trick.pop()
                self.rel = self._run_rel(self.rel, card, rem, plain)
                return v

            best, choice, self.rel = self._refute(moves, a, b, play)
            hands[leader] = hand
            return best, choice
        for card in moves:
            hands[leader] = hand ^ 1 << card
            trick.append(card)
            v = self._follow(a, b, rem, card, leader)
            trick.pop()
            r = self.rel
            t = r & SUIT_MASK_OF[card]
            if t:  # the region reaches the run this card stands for: all of the run is in it
                other = rem & SUIT_MASK_OF[card] & ~plain & -(2 << card)
                if not other or t & -t < other & -other:
                    r |= 1 << card
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
                rel = r  # this card alone proves the bound
                break
            rel |= r
        hands[leader] = hand
        self.rel = rel
        return best, choice

    def _follow(self, alpha: int, beta: int, rem: int, top: int, top_seat: int) -> int:
        """A card to the trick in progress; ``rem`` (held or in the trick) is the trick's
        constant, ``top``/``top_seat`` the card winning so far and its player."""
        self.nodes += 1
        if not self.nodes & CHECK_EVERY:
            self._check_clock()
        trick, hands = self.trick, self.hands
        n = len(trick)
        player = (self.leader + n) & 3
        hand = hands[player]
        suit_mask = SUIT_MASK_OF[trick[0]]
        follow = hand & suit_mask
        legal = follow or hand & self.penalty or hand
        plain = hand & ~self.apart  # representatives(), inlined: this is the hot loop
        reps = legal & ~((((FULL_DECK ^ rem) & NOT_ACES) + ((plain & NOT_ACES) << 1)) & plain)
        if reps & (reps - 1):
            moves = self._follow_order(player, cards(reps), follow, top, top_seat)
        else:
            moves = [reps.bit_length() - 1]
        if n == 3:
            return self._close_loop(player, hand, moves, alpha, beta, top, top_seat, rem)
        maximise = player == self.seat
        best = -INFINITY if maximise else INFINITY
        a, b, rel = alpha, beta, 0
        for card in moves:
            hands[player] = hand ^ 1 << card
            trick.append(card)
            if card > top and suit_mask >> card & 1:
                v = self._follow(a, b, rem, card, player)
            else:
                v = self._follow(a, b, rem, top, top_seat)
            trick.pop()
            r = self.rel
            t = r & SUIT_MASK_OF[card]
            if t:  # as in _lead_loop
                other = rem & SUIT_MASK_OF[card] & ~plain & -(2 << card)
                if not other or t & -t < other & -other:
                    r |= 1 << card
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
                rel = r
                break
            rel |= r
        hands[player] = hand
        self.rel = rel
        return best

    def _close_loop(
        self,
        player: int,
        hand: int,
        moves: list[int],
        a: int,
        b: int,
        top: int,
        top_seat: int,
        rem: int,
    ) -> int:
        """The fourth card: each choice closes the trick, scores it, and starts the next."""
        trick, hands, leader, broken = self.trick, self.hands, self.leader, self.broken
        win, lose, seat = self.win, self.lose, self.seat
        win3 = self.trick_value + win[trick[0]] + win[trick[1]] + win[trick[2]]
        lose3 = lose[trick[0]] + lose[trick[1]] + lose[trick[2]]
        suit = SUIT_OF[trick[0]]
        breaks = self.lead_mode == 2 and not broken and suit != Suit.HEARTS
        maximise = player == seat
        best = -INFINITY if maximise else INFINITY
        self.trick = []
        followed = (SUIT_OF[trick[1]] == suit) + (SUIT_OF[trick[2]] == suit)
        plain, rel = hand & ~self.apart, 0
        for card in moves:
            winner = player if SUIT_OF[card] == suit and card > top else top_seat
            delta = win3 + win[card] if winner == seat else lose3 + lose[card]
            hands[player] = hand ^ 1 << card
            self.leader = winner
            if breaks:
                self.broken = int(any(SUIT_OF[c] == Suit.HEARTS for c in (*trick, card)))
            v = delta + self._lead(a - delta, b - delta)
            r = self._closing_rel(self.rel, card, top, followed, plain, rem)
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
                rel = r
                break
            rel |= r
        hands[player], self.trick, self.leader, self.broken = hand, trick, leader, broken
        self.rel = rel
        return best

    def _refute(
        self, moves: list[int], a: int, b: int, play: Callable[[int, int, int], int]
    ) -> tuple[int, int, int]:
        """A defenders' node, cheap refutations first: (fail-soft value, best card, relevant).

        A card that refutes the claimant often does so in a short forcing line,
        while a card that fails needs its whole subtree searched. So each card is
        first searched within a small node budget (:data:`FIRST_BUDGET`), the
        ones that ran out again with a larger one, then without a limit: the
        answer is the same as trying them one after the other, often found
        sooner. Only completed searches leave table entries. ``play(card, a, b)``
        plays ``card``, returns its value, sets :attr:`rel` and undoes the move
        on a normal return; after a budget runs out the position is restored here.
        """
        hands, trick = self.hands, self.trick
        saved_hands, saved_trick = list(hands), list(trick)
        leader, broken = self.leader, self.broken
        best, choice, rel = INFINITY, moves[0], 0

        def restore() -> None:
            self.overruns += 1
            hands[:], trick[:] = saved_hands, saved_trick
            self.trick, self.leader, self.broken = trick, leader, broken

        def attempt(card: int) -> int:
            return play(card, a, b)  # the window as narrowed by the cards before it

        budgets = (FIRST_BUDGET, LAST_BUDGET)
        for card, v in cheapest_first(self, moves, budgets, attempt, restore):
            if v < best:
                best, choice = v, card
                if v < b:
                    b = v
            if a >= b:
                return best, choice, self.rel
            rel |= self.rel
        return best, choice, rel

    @staticmethod
    def _run_rel(r: int, card: int, rem: int, plain: int) -> int:
        """The relevant cards before ``card`` was played, from those after (as in _lead_loop)."""
        t = r & SUIT_MASK_OF[card]
        if t:
            other = rem & SUIT_MASK_OF[card] & ~plain & -(2 << card)
            if not other or t & -t < other & -other:
                r |= 1 << card
        return r

    @staticmethod
    def _closing_rel(r: int, card: int, top: int, followed: int, plain: int, rem: int) -> int:
        """The relevant cards before the fourth card ``card``, from those after the trick.

        The trick's winning card is relevant if it won by rank (another card of
        the led suit in the trick); ``top`` is the led suit's best of the first
        three, ``followed`` how many of the second and third followed suit.
        """
        mask = SUIT_MASK_OF[top]
        if mask >> card & 1:
            r |= 1 << (card if card > top else top)
        elif followed:
            r |= 1 << top
        t = r & SUIT_MASK_OF[card]
        if t:  # as in _lead_loop
            other = rem & SUIT_MASK_OF[card] & ~plain & -(2 << card)
            if not other or t & -t < other & -other:
                r |= 1 << card
        return r

    def _winning(self, trick: list[int]) -> tuple[int, int]:
        """The card winning the trick so far and its seat."""
        lead = trick[0]
        suit, top, position = SUIT_OF[lead], lead, 0
        for i in range(1, len(trick)):
            card = trick[i]
            if SUIT_OF[card] == suit and card > top:
                top, position = card, i
        return top, (self.leader + position) & 3
