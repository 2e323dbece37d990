"""Banded games: can what he takes be kept under a cost, the others' cards known by band (R10).

A claim that the claimant takes nothing more that costs him (in King, "I
won't take the K♥"; in Queens, "no queen") is decided by whether the three
others can force a scoring card into one of his tricks; any other claim, by
whether they can force on him more than it leaves him to lose (the *slack*:
what he makes by taking nothing, less the claim). That depends on
their cards mostly through where each lies among *his* cards of its suit:
its *band* (how many of his cards of the suit are below it). Between
themselves, the rank of their cards only says which of them wins a trick he
does not, so who leads next.

A banded game plays the deal with each of the others' cards known only by
its suit and band (the scoring cards and R9.4's penalty cards keep their
identity), so positions that differ only in which of the others holds which
card of a band are one position, and far fewer positions need searching (nor
do the cards played before matter, only the order of those in play).
When the others' cards of the top band of a trick tie, someone chooses the
winner among them:

- in the *defenders' game* the others choose. They can do anything they can
  do at the table and more, so if the claimant escapes there, he escapes at
  the table: the claim holds;
- in the *claimant's game* he chooses. If they catch him even so, they catch
  him at the table: the claim fails.

The tighter variants keep the top ``ranked`` cards of each band in play at
the start ranked as well (above the band's other cards): closer to the
table, with more positions. A card keeps its rank while the band it is in
does; when one of his cards is played, the bands on either side merge and
the ranked cards of the lower one join the rest.

Each game is searched depth-first trick by trick, with a table of the
positions already answered; quick bounds (:mod:`.quick`) settle positions
where he can duck every trick or take every trick. The answers are only
used one way each, so the claim's verdict is never a guess: where neither
game settles it, the exact search (:mod:`.tree`) decides.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from scorekeeper.rules.cards import FULL_DECK, SUIT_MASKS, Suit
from scorekeeper.rules.claims.bits import (
    CARDS_OF,
    PEXT_HIGH,
    PEXT_LOW,
    POP7,
    SUIT_MASK_OF,
    SUIT_OF,
    cards,
    representatives,
)
from scorekeeper.rules.claims.core import (
    CHECK_EVERY,
    INFINITY,
    OverBudget,
    SearchTimeout,
    cheapest_first,
)
from scorekeeper.rules.claims.quick import QuickBounds

__all__ = ["BandedGame", "Bands", "Plan"]

HEARTS = SUIT_MASKS[Suit.HEARTS]
NOT_HEARTS = FULL_DECK ^ HEARTS
TABLE_LIMIT = 1_000_000
"""Entries a banded game's table may hold before it is cleared (about 150 bytes each)."""
CHEAP_FROM = 4 * 9
"""The others' leads are tried within node budgets first while this many cards are in play."""
FIRST_BUDGET = 64
"""Nodes each of their leads gets in the first round (x8 in the next, up to
:data:`LAST_BUDGET`, then without a limit): smaller than the exact search's, as a banded
node costs about ten exact ones."""
LAST_BUDGET = 512


class BandedGame(QuickBounds):
    """One banded game of a claim: can the claimant keep what he takes within a slack?

    ``claimant_ties``: ties go to the claimant (the claimant's game) instead of
    the others (the defenders' game). ``ranked``: how many of the others' top
    cards of each band keep their rank. The attributes named like
    :class:`~.tree.TrickTree`'s mean the same (the quick bounds are shared
    with it).
    """

    def __init__(self, tree: QuickBounds, claimant_ties: bool, ranked: int = 0) -> None:
        for name in (
            "seat", "avoid", "lead_mode", "penalty", "win", "lose", "win_cards", "lose_cards",
            "trick_value", "danger", "escape_forced",
        ):  # fmt: skip
            setattr(self, name, getattr(tree, name))
        self.escape, self.rel = not self.trick_value, 0  # the escape bound: tricks score nothing
        self.deadline: float = INFINITY
        self.claimant_ties, self.ranked = claimant_ties, ranked
        self.marked = self.danger | self.penalty
        """Cards that keep their identity: a scoring card, or one R9.4 makes a player discard."""
        self.exact = self.marked | self.win_cards | self.lose_cards
        """Cards whose identity the positions' keys keep (their scores may differ in a suit)."""
        self.loss = tuple(lose - win for win, lose in zip(self.win, self.lose, strict=True))
        """What taking each card costs him against letting another take it."""
        self.slack = 0
        """How much more he may lose to what he takes and still escape (see :meth:`escapes`)."""
        self.squeezed: dict[int, int] = {}
        """Positions (hands and ranked cards) up to the others' ranks within a band."""
        self.memo: dict[int, bool] = {}
        """This game's answers by position (:meth:`_squeeze`, the leader, hearts broken)."""
        self.sure: dict[int, bool] = {}
        """Answers true in both games (and at the table): he escapes in the defenders'
        game, or is caught in the claimant's. Another game of the same claim may share it."""
        self.nodes = 0
        self.node_limit = 0
        self.hands: list[int] = []
        self.trick: list[int] = []
        self.leader = self.broken = 0
        self.tokens = 0
        """The others' cards that keep their rank (see the module docstring)."""
        self.loosest: dict[int, bool] = {}
        """The :attr:`sure` answers of the games with no ranked card, when this game ranks
        some (see :class:`Bands`): what is true there is true here."""
        self.loosest_squeezed: dict[int, int] = {}
        """Those games' positions (:attr:`squeezed`, keyed with no ranked card)."""

    def escapes(
        self,
        hands: list[int],
        trick: list[int],
        leader: int,
        broken: int,
        budget: int,
        slack: int = 0,
    ) -> bool | None:
        """Does he escape in this game, losing at most ``slack`` points to what he takes?
        None when ``budget`` nodes did not settle it."""
        self.hands, self.trick, self.leader, self.broken = list(hands), list(trick), leader, broken
        self.slack = slack
        self.node_limit = self.nodes + budget
        self.tokens = self._top_cards()
        try:
            if not trick:
                return self._start()
            return self._trick(self._in_play(), hands[self.seat] | self._his_card())
        except OverBudget:
            return None

    # --- positions ------------------------------------------------------------------------

    def _his_card(self) -> int:
        """His card in the current trick, as a bit (0 if he has not played to it)."""
        n = (self.seat - self.leader) & 3
        return 1 << self.trick[n] if n < len(self.trick) else 0

    def _top_cards(self) -> int:
        """The others' top ``ranked`` cards of each band, in hand or in the current trick."""
        if not self.ranked:
            return 0
        mine = self.hands[self.seat] | self._his_card()
        theirs = self._in_play() & ~mine
        tokens = 0
        for suit in SUIT_MASKS:
            band_top = suit
            for edge in [*cards(mine & suit), -1]:
                band = theirs & band_top & ~((2 << edge) - 1 if edge >= 0 else 0)
                for _ in range(self.ranked):
                    if not band:
                        break
                    top = 1 << band.bit_length() - 1
                    tokens |= top
                    band ^= top
                if edge >= 0:
                    band_top = (1 << edge) - 1 & suit
        return tokens

    def _squeeze(self, rem: int, tokens: int) -> int:
        """The position up to the others' ranks within a band, and up to the cards played
        (as :func:`~.partition.parts`): which cards that keep their identity or score are in
        play; per suit, how many cards are in play, his cards' places among them and each
        other hand's cards that keep identity or rank; then where its other cards lie among
        his (the pattern of his cards among theirs and his, and how many in all).
        ``tokens``: the ranked cards (none for the key of the games that rank none)."""
        hands, seat = self.hands, self.seat
        low, high, pop = PEXT_LOW, PEXT_HIGH, POP7  # pext, inlined
        fixed_cards = self.marked | tokens
        mine = hands[seat]
        others = [hands[other] for other in range(4) if other != seat]
        key = rem & self.exact
        for shift in (0, 13, 26, 39):
            r = rem >> shift & 0x1FFF
            rl, rh, up = (r & 127) << 7, (r >> 7) << 6, pop[r & 127]
            m = mine >> shift & 0x1FFF
            key = (key << 4 | r.bit_count()) << 13
            if m:
                key |= low[rl | m & 127] | high[rh | m >> 7] << up
            for hand in others:
                held = hand >> shift & 0x1FFF
                fixed = held & fixed_cards >> shift
                plain = held ^ fixed
                key <<= 13
                if fixed:
                    key |= low[rl | fixed & 127] | high[rh | fixed >> 7] << up
                key <<= 17
                if plain:
                    both = plain | m
                    b = both & 127
                    pattern = low[b << 7 | m & 127] | high[(both >> 7) << 6 | m >> 7] << pop[b]
                    key |= pattern << 4 | both.bit_count()
        return key

    # --- the search -----------------------------------------------------------------------

    def _start(self) -> bool:
        """A trick's start: does he escape from here?"""
        hands = self.hands
        rem = hands[0] | hands[1] | hands[2] | hands[3]
        danger = rem & self.danger
        if not danger and not self.trick_value:
            return True
        if not rem:
            return True
        slack = self.slack
        if slack and slack >= self._most_lost(rem):
            return True
        raw = (((hands[0] << 52 | hands[1]) << 52 | hands[2]) << 52 | hands[3]) << 52 | self.tokens
        squeezed = self.squeezed.get(raw)
        if squeezed is None:  # squeezing costs more than a look-up; searches revisit positions
            squeezed = self._squeeze(rem, self.tokens)
            self.squeezed[raw] = squeezed
        tail = (self.leader << 1 | self.broken) << 24 | slack  # the key after the position
        key = squeezed << 27 | tail
        known = self.sure.get(key)
        if known is None:
            known = self.memo.get(key)
            if known is None and self.loosest:
                known = self._loosest_answer(rem, raw ^ self.tokens, tail)
                if known is not None:
                    self.sure[key] = known
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise OverBudget
        if not self.nodes & CHECK_EVERY:
            self._check_clock()
        answer = self._settled_here(rem)
        if answer is None:
            answer = self._trick(rem, hands[self.seat])
        if answer == self.claimant_ties:
            self.memo[key] = answer
        else:
            self.sure[key] = answer
        return answer

    def _loosest_answer(self, rem: int, raw: int, tail: int) -> bool | None:
        """The answer true at the table that the games with no ranked card found for this
        position (``raw``: its hands, no ranked card; ``tail``: its key's leader, hearts
        and slack), if any."""
        squeezed = self.loosest_squeezed.get(raw)
        if squeezed is None:
            squeezed = self._squeeze(rem, 0)
            self.loosest_squeezed[raw] = squeezed
        return self.loosest.get(squeezed << 27 | tail)

    def _check_clock(self) -> None:
        """Every few nodes: stop at the deadline; keep the tables to a sane size."""
        if time.monotonic() > self.deadline:
            raise SearchTimeout
        for squeezed in (self.squeezed, self.loosest_squeezed):
            if len(squeezed) > TABLE_LIMIT:
                squeezed.clear()
        for table in (self.memo, self.sure):
            if len(table) > TABLE_LIMIT:
                table.clear()

    def _most_lost(self, rem: int) -> int:
        """The most he can still lose to what he takes: every scoring card, every trick."""
        loss = self.loss
        tricks = (rem.bit_count() + 3) >> 2
        return sum(loss[c] for c in cards(rem & self.danger)) - self.trick_value * tricks

    def _settled_here(self, rem: int) -> bool | None:
        """Quick bounds: he can lose every trick (escapes), or must take every one."""
        value = self._settled(self.hands, rem, self.leader)
        if value is None:
            return None
        return value >= self._untaken(rem) - self.slack

    def _trick(self, rem: int, base: int) -> bool:
        """The rest of the current trick and the deal; ``base`` is his hand at the trick's start.

        (A search that stops on its budget or the clock leaves the position as it was then:
        :meth:`escapes` starts each search from its arguments.)
        """
        trick, hands = self.trick, self.hands
        n = len(trick)
        player = (self.leader + n) & 3
        hand = hands[player]
        moves = self._moves(player, hand, rem, base)
        his = player == self.seat
        if not n and not his and len(moves) > 1 and rem.bit_count() >= CHEAP_FROM:
            return self._cheap_leads(player, hand, moves, rem, base)
        for card in moves:
            hands[player] = hand ^ 1 << card
            trick.append(card)
            answer = self._close(rem, base) if n == 3 else self._trick(rem, base)
            trick.pop()
            if answer == his:
                hands[player] = hand
                return answer
        hands[player] = hand
        return not his

    def _cheap_leads(
        self, player: int, hand: int, moves: Sequence[int], rem: int, base: int
    ) -> bool:
        """The others' leads, each first within a small node budget: a lead that catches him
        often does so quickly, one that fails needs its whole subtree (as in :mod:`.tree`)."""
        hands, trick = self.hands, self.trick
        saved_hands, saved = list(hands), (self.leader, self.broken, self.tokens, self.slack)

        def attempt(card: int) -> bool:
            hands[player] = hand ^ 1 << card
            trick.append(card)
            answer = self._trick(rem, base)
            trick.pop()
            return answer

        def restore() -> None:  # as it was at this trick's start
            hands[:] = saved_hands
            trick.clear()
            self.trick = trick
            self.leader, self.broken, self.tokens, self.slack = saved

        budgets = (FIRST_BUDGET, LAST_BUDGET)
        for _, answer in cheapest_first(self, moves, budgets, attempt, restore):
            if not answer:
                hands[player] = hand
                return False
        hands[player] = hand
        return True

    def _moves(self, player: int, hand: int, rem: int, base: int) -> Sequence[int]:
        """The player's cards, one per band of the others' (his own: one per run)."""
        trick = self.trick
        if trick:
            suit = SUIT_OF[trick[0]]
            legal = hand & SUIT_MASKS[suit]
            if not legal:
                suit, legal = -1, hand & self.penalty or hand
        elif self.lead_mode == 0 or self.broken:
            suit, legal = -1, hand
        else:
            suit, legal = -1, hand & NOT_HEARTS or hand
        if player == self.seat:
            ones = representatives(hand, legal, rem, self.marked)
        else:  # his cards are the only ones between bands: the others' are as if played
            ones = representatives(hand, legal, base | hand, self.marked | self.tokens)
        return cards(ones) if suit < 0 else CARDS_OF[suit][ones >> 13 * suit & 0x1FFF]

    def _close(self, rem: int, base: int) -> bool:
        """A full trick: its possible winners, then the next trick from each."""
        trick, leader, seat, tokens = self.trick, self.leader, self.seat, self.tokens
        slack_before = slack = self.slack
        lead = trick[0]
        suit = SUIT_MASK_OF[lead]
        mine = trick[(seat - leader) & 3]
        played = 1 << lead | 1 << trick[1] | 1 << trick[2] | 1 << trick[3]
        theirs = (played ^ 1 << mine) & suit
        winners = None
        if suit >> mine & 1 and not theirs >> mine:  # he follows, under none of theirs
            winner = seat
            if self.trick_value or played & self.danger:
                loss = self.loss
                slack += self.trick_value - sum(loss[c] for c in cards(played & self.danger))
                if slack < 0:
                    return False
        else:
            band = self._top_band(theirs, base & suit)
            if band & band - 1:  # tied: in the order they played
                winners = [(leader + i) & 3 for i, card in enumerate(trick) if band >> card & 1]
            else:
                winner = (leader + trick.index(band.bit_length() - 1)) & 3
        self.slack = slack
        broken = self.broken
        if self.lead_mode == 2 and suit != HEARTS and played & HEARTS:
            self.broken = 1
        if tokens:
            self.tokens = self._demoted(mine, base, played)
        self.trick = []
        if winners is None:
            self.leader = winner
            answer = self._start()
        elif self.claimant_ties:
            answer = any(self._next(w) for w in winners)
        else:
            answer = all(self._next(w) for w in winners)
        self.trick, self.leader, self.broken, self.tokens = trick, leader, broken, tokens
        self.slack = slack_before
        return answer

    def _top_band(self, theirs: int, his_suit: int) -> int:
        """The others' cards of the trick's suit that may take it: the top card alone if it
        is ranked (those ranked rank above the rest of their band), else its whole band."""
        top = theirs.bit_length() - 1
        if self.tokens >> top & 1:
            return 1 << top
        floor = (his_suit & (1 << top) - 1).bit_length()  # one above his next card below
        return theirs >> floor << floor

    def _next(self, winner: int) -> bool:
        self.leader = winner
        return self._start()

    def _demoted(self, card: int, base: int, played: int) -> int:
        """The ranked cards once this trick is over: the band below his ``card`` merges with
        the one above, so its ranked cards lose their rank; the played ones are gone."""
        mask = SUIT_MASK_OF[card]
        lower = (base & mask & (1 << card) - 1).bit_length()  # one above his next lower card
        span = mask & (1 << card) - 1 & ~((1 << lower) - 1)
        return self.tokens & ~span & ~played


Plan = tuple[tuple[int, bool, int], ...]
"""Banded games to try in turn: (ranked cards per band, ties to the claimant, nodes)."""


class Bands:
    """The banded games of one claim, kept between calls: a verdict when one settles it.

    The two games of the same tightness share what is true in both
    (:attr:`BandedGame.sure`). A tighter game, made once the games with no
    ranked card are, also takes their answers that are true at the table:
    ranking cards takes choices from the side that had them, so he escapes
    wherever he did in the defenders' game, and is caught wherever he was in
    the claimant's.
    """

    def __init__(self, tree: QuickBounds, deadline: float) -> None:
        self.tree, self.deadline = tree, deadline
        self.games: dict[tuple[int, bool], BandedGame] = {}

    def game(self, ranked: int, claimant_ties: bool) -> BandedGame:
        game = self.games.get((ranked, claimant_ties))
        if game is None:
            game = BandedGame(self.tree, claimant_ties, ranked)
            game.deadline = self.deadline
            twin = self.games.get((ranked, not claimant_ties))
            if twin is not None:
                game.sure = twin.sure
            loosest = self.games.get((0, True)) or self.games.get((0, False))
            if ranked and loosest is not None:
                game.loosest, game.loosest_squeezed = loosest.sure, loosest.squeezed
            self.games[ranked, claimant_ties] = game
        return game

    @property
    def nodes(self) -> int:
        return sum(game.nodes for game in self.games.values())

    def verdict(
        self, hands: list[int], trick: list[int], leader: int, broken: int, plan: Plan, slack: int
    ) -> bool | None:
        """Does he escape, losing at most ``slack`` to what he takes (True), or is he caught
        (False)? None if no game of the plan settled it within its nodes. Only the defenders'
        game can show that he escapes, only the claimant's that he is caught."""
        for ranked, claimant_ties, budget in plan:
            game = self.game(ranked, claimant_ties)
            answer = game.escapes(hands, trick, leader, broken, budget, slack)
            if answer is not None and answer != claimant_ties:
                return answer
        return None
