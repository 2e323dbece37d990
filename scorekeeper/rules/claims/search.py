"""Claims in the trick contracts: an exact double-dummy search (R3–R6, R9, R10).

The claimant maximises his own score from the rest of the deal; the three
others, together, minimise it. :func:`solve_claim` decides the claim, finds
the exact value and, when the claim fails, walks out a defeating line.

The pieces: :mod:`.weights` (what each card is worth to the claimant),
:mod:`.bits` (equivalent cards), :mod:`.partition` (rank-squeezed table
keys, partitions), :mod:`.order` (move ordering), :mod:`.quick` (quick
bounds), :mod:`.banded` (the banded games), :mod:`.tree` (the alpha-beta
search) and :mod:`.core` (the driver: null window, MTD(f), deadline).
Speed comes from bit sets, from playing equivalent cards as one (cards of a
suit in one hand with nothing but played cards between them, unless they
score differently), from move ordering, from cheap bounds (what is still to
score; no trick can change hands any more; no penalty card can reach him) and
from a table of bounds at the start of each trick, shared by all positions
alike in the ranks that mattered (partition search, :mod:`.partition`), and,
where the claimant's best is to take no more scoring card, from the banded
games (:mod:`.banded`), which settle whether he can with the others' cards
known only by where they lie among his. Each can be switched off
(:class:`~.core.SearchOptions`).

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

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from scorekeeper.rules.cards import Suit
from scorekeeper.rules.claims.bits import SUIT_MASK_OF, SUIT_OF, cards, representatives
from scorekeeper.rules.claims.core import (
    ALL_ON,
    ClaimResult,
    SearchOptions,
    SearchTimeout,
    adjudicate,
    deadline_after,
)
from scorekeeper.rules.claims.tree import NOT_HEARTS, TrickTree
from scorekeeper.rules.claims.weights import doubled_holders_of
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.ruleset import RuleSet

__all__ = ["TrickSearch", "solve_claim", "trick_search"]


class _Undo(NamedTuple):
    seat: int
    hand: int
    trick: list[int]
    leader: int
    broken: int


class TrickSearch(TrickTree):
    """The search of :class:`~.claim_tree.TrickTree`, and the defeating line it walks out."""

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
        suit = SUIT_OF[trick[0]]
        if self.lead_mode == 2 and suit != Suit.HEARTS:
            self.broken |= int(any(SUIT_OF[c] == Suit.HEARTS for c in trick))
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
            follow = hand & SUIT_MASK_OF[trick[0]]
            legal = follow or hand & self.penalty or hand
            top, top_seat = self._winning(trick)
            reps = cards(representatives(hand, legal, rem, self.apart))
            moves = self._follow_order(player, reps, follow, top, top_seat)
        else:
            legal = hand if self.lead_mode == 0 or self.broken else hand & NOT_HEARTS or hand
            moves = self._lead_order(player, cards(representatives(hand, legal, rem, self.apart)))
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
    options: SearchOptions = ALL_ON,
    exact_seconds: float | None = None,
) -> ClaimResult:
    """Adjudicate a claim in a trick contract (double-dummy, three against one).

    ``hands`` are the cards still held (bit sets), ``current_trick`` the cards
    of the trick in progress (indices, ``leader`` first), ``doubled`` the bit
    set of exposed cards; their holders come from ``doubled_holders`` or, when
    still in play, from the hands and the trick. ``deadline`` is a
    ``time.monotonic()`` value (default: 20 s from now). ``king`` does not
    change the rest of a deal; it is accepted for symmetry with the checks.
    ``options`` switch the speed-ups (tests compare each one off and on).
    ``exact_seconds``: once the claim is decided, how long its exact value is
    sought (None: until the deadline; see :func:`~.core.adjudicate`).
    """
    del king
    when = deadline_after(None) if deadline is None else deadline
    search = trick_search(
        rules,
        contracts,
        hands,
        current_trick,
        leader,
        doubled,
        seat,
        hearts_broken,
        when,
        doubled_holders=doubled_holders,
        options=options,
    )
    return adjudicate(search, min_score, options.verdict_first, exact_seconds)


def trick_search(
    rules: RuleSet,
    contracts: Sequence[Contract],
    hands: Sequence[int],
    current_trick: Sequence[int],
    leader: int,
    doubled: int,
    seat: int,
    hearts_broken: bool,
    deadline: float,
    *,
    doubled_holders: Mapping[int, int] | None = None,
    options: SearchOptions = ALL_ON,
) -> TrickSearch:
    """The search of a claim, ready to run (arguments as :func:`solve_claim`'s)."""
    holders = doubled_holders_of(doubled, hands, current_trick, leader)
    if doubled_holders is not None:
        holders.update({card: s for card, s in doubled_holders.items() if doubled >> card & 1})
    return TrickSearch(
        rules,
        contracts,
        hands,
        current_trick,
        leader,
        hearts_broken,
        seat,
        holders,
        deadline,
        options,
    )
