"""What the claim tests share: an independent reference and the API's claim bodies.

- A brute force written from the rulebook, independently of the engine's search
  (:func:`brute`, :func:`memo_minimax`): every legal card (``tricks.legal_cards``) at
  every turn, no pruning, no equivalences, with its own per-trick scorer
  (:func:`trick_score`), itself checked against ``score_deal`` in test_search.py.
- Positions (:class:`Position`, :func:`position`, :func:`random_position`), the search
  run on them (:func:`search_of`, :func:`solve`), and the rule sets the speed-ups are
  compared under (:data:`SETUPS`).
- The bodies of ``POST /api/v1/check/claim`` (:func:`body`, :func:`trix_body`).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from scorekeeper.rules.cards import KING_OF_HEARTS, QUEENS, Card, hand_mask, indices_of
from scorekeeper.rules.claims.core import ALL_ON, ClaimResult, SearchOptions
from scorekeeper.rules.claims.search import TrickSearch, solve_claim, trick_search
from scorekeeper.rules.contracts import TRICK_CONTRACTS, Contract
from scorekeeper.rules.deals import random_cut_deal
from scorekeeper.rules.ruleset import Combination, HeartLead, RuleSet, SelfCapture
from scorekeeper.rules.tricks import breaks_hearts, legal_cards, trick_winner

K, Q, D, C = Contract.KING, Contract.QUEENS, Contract.DIAMONDS, Contract.COLLECTIONS
ANY = Combination.ANY
QUEEN_INDICES = frozenset(q.index for q in QUEENS)
KH = KING_OF_HEARTS.index


def mask(text: str) -> int:
    return hand_mask(Card.parse(t) for t in text.split())


def idx(text: str) -> list[int]:
    return [Card.parse(t).index for t in text.split()]


# --- the brute force ---------------------------------------------------------------------------


def card_score(rules: RuleSet, seat: int, holder: int | None, value: int, winner: int) -> int:
    """The claimant's score for one K♥ or queen taken by ``winner`` (R3, R4)."""
    if holder is None:
        return -value if winner == seat else 0
    if holder == winner:
        double = rules.doubled_self_capture is SelfCapture.DOUBLE
        return (-2 * value if double else -value) if winner == seat else 0
    return (-2 * value if winner == seat else 0) + (value if holder == seat else 0)


def trick_score(
    rules: RuleSet,
    contracts: Sequence[Contract],
    seat: int,
    holders: dict[int, int],
    cards: Sequence[int],
    winner: int,
) -> int:
    """The claimant's signed score from one trick (R3–R6, R9.1, R9.7, R9.8)."""
    values, score = rules.values, 0
    if C in contracts and winner == seat:
        score -= values.trick
    for card in cards:
        if D in contracts and card // 13 == 2 and winner == seat:
            score -= values.diamond
        holder = holders.get(card) if rules.doubling else None
        if K in contracts and card == KH:
            score += card_score(rules, seat, holder, values.king, winner)
        if Q in contracts and card in QUEEN_INDICES:
            score += card_score(rules, seat, holder, values.queen, winner)
    return rules.sign * score


@dataclass
class Position:
    rules: RuleSet
    contracts: tuple[Contract, ...]
    dealt: list[int]
    hands: list[int]
    trick: list[int]
    leader: int
    broken: bool
    doubled: int

    def holders(self) -> dict[int, int]:
        """Doubled cards still in play, by their holder in the dealt hands."""
        in_play = self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3]
        in_play |= sum(1 << c for c in self.trick)
        return {
            c: s
            for c in indices_of(self.doubled & in_play)
            for s in range(4)
            if self.dealt[s] >> c & 1
        }


def brute(pos: Position, seat: int) -> int:
    """Plain minimax: the claimant maximises, the other three minimise."""
    rules, contracts, holders = pos.rules, pos.contracts, pos.holders()
    hands = list(pos.hands)

    def rec(trick: list[int], leader: int, broken: bool) -> int:
        if not trick and not any(hands):
            return 0
        player = (leader + len(trick)) & 3
        values = []
        for card in indices_of(legal_cards(rules, contracts, hands[player], trick, broken)):
            hands[player] ^= 1 << card
            played = [*trick, card]
            if len(played) == 4:
                winner = trick_winner(leader, played)
                score = trick_score(rules, contracts, seat, holders, played, winner)
                values.append(score + rec([], winner, broken or breaks_hearts(played)))
            else:
                values.append(rec(played, leader, broken))
            hands[player] ^= 1 << card
        return max(values) if player == seat else min(values)

    return rec(list(pos.trick), pos.leader, pos.broken)


def replay_line(pos: Position, seat: int, line: Sequence[int | None]) -> int:
    """Play a line card by card, each checked legal; the claimant's score; must end the deal."""
    rules, contracts, holders = pos.rules, pos.contracts, pos.holders()
    hands, trick, leader, broken, total = (
        list(pos.hands),
        list(pos.trick),
        pos.leader,
        pos.broken,
        0,
    )
    for card in line:
        assert card is not None
        player = (leader + len(trick)) & 3
        assert legal_cards(rules, contracts, hands[player], trick, broken) >> card & 1
        hands[player] ^= 1 << card
        trick.append(card)
        if len(trick) == 4:
            winner = trick_winner(leader, trick)
            total += trick_score(rules, contracts, seat, holders, trick, winner)
            broken = broken or breaks_hearts(trick)
            trick, leader = [], winner
    assert not trick and not any(hands), "the line must run to the end of the deal"
    return total


def random_position(
    rng: random.Random, rules: RuleSet, contracts: Sequence[Contract], cards: int, mid: bool
) -> Position:
    """A random legal deal, cut with ``cards`` tricks to go (mid-trick when ``mid``)."""
    cut = random_cut_deal(rng, rules, contracts, cards, mid)
    doubled = 0
    if rules.doubling:
        for card in [KH, *sorted(QUEEN_INDICES)]:
            doubled |= (rng.random() < 0.5) << card
    return Position(
        rules,
        tuple(contracts),
        cut.dealt,
        cut.hands,
        cut.trick,
        cut.leader,
        cut.hearts_broken,
        doubled,
    )


def search_of(
    pos: Position, seat: int, deadline: float = float("inf"), options: SearchOptions = ALL_ON
) -> TrickSearch:
    """The claim search of a position, ready to run (as :func:`solve` runs it)."""
    return trick_search(
        rules=pos.rules,
        contracts=pos.contracts,
        hands=pos.hands,
        current_trick=pos.trick,
        leader=pos.leader,
        doubled=pos.doubled,
        seat=seat,
        hearts_broken=pos.broken,
        deadline=deadline,
        options=options,
    )


def solve(pos: Position, seat: int, min_score: int | None, **kw: object) -> ClaimResult:
    return solve_claim(
        pos.rules,
        pos.contracts,
        0,
        pos.hands,
        pos.trick,
        pos.leader,
        pos.doubled,
        seat,
        min_score,
        pos.broken,
        **kw,  # type: ignore[arg-type]
    )


def position(
    hands: Sequence[str],
    trick: str = "",
    leader: int = 0,
    contracts: tuple[Contract, ...] = (C,),
    rules: RuleSet | None = None,
    doubled: str = "",
) -> Position:
    masks = [mask(h) for h in hands]
    return Position(
        rules or RuleSet(), contracts, masks, masks, idx(trick), leader, False, mask(doubled)
    )


# --- the speed-ups' rule sets, and a memoised minimax ----------------------------------------

SETUPS = [
    ("r3_king_penalty_discard", RuleSet(penalty_discard=True), (K,)),
    ("r3_hearts_broken", RuleSet(heart_lead=HeartLead.BROKEN), (K,)),
    ("r4_queens", RuleSet(), (Q,)),
    ("r5_diamonds_penalty_discard", RuleSet(penalty_discard=True), (D,)),
    ("r6_collections", RuleSet(), (C,)),
    (
        "r9_6_all_four_penalty_discard",
        RuleSet(combination=ANY, penalty_discard=True),
        TRICK_CONTRACTS,
    ),
    ("r9_8_inverted_queens_diamonds", RuleSet(combination=ANY, inverted=True), (Q, D)),
    ("r9_8_inverted_collections", RuleSet(inverted=True), (C,)),
]


def memo_minimax(pos: Position, seat: int) -> int:
    """Plain minimax over every legal card, remembering positions already valued."""
    rules, contracts, holders = pos.rules, pos.contracts, pos.holders()

    @cache
    def value(hands: tuple[int, ...], trick: tuple[int, ...], leader: int, broken: bool) -> int:
        if not trick and not any(hands):
            return 0
        player = (leader + len(trick)) & 3
        values = []
        for card in _bits(legal_cards(rules, contracts, hands[player], list(trick), broken)):
            after = tuple(h ^ (1 << card) if s == player else h for s, h in enumerate(hands))
            played = (*trick, card)
            if len(played) < 4:
                values.append(value(after, played, leader, broken))
                continue
            winner = trick_winner(leader, list(played))
            score = trick_score(rules, contracts, seat, holders, played, winner)
            values.append(score + value(after, (), winner, broken or breaks_hearts(played)))
        return max(values) if player == seat else min(values)

    return value(tuple(pos.hands), tuple(pos.trick), pos.leader, pos.broken)


def _bits(mask: int) -> list[int]:
    return [i for i in range(52) if mask >> i & 1]


# --- the API's claim bodies ---------------------------------------------------------------------

NAMES = ["Rana", "Sami", "Omar", "Lina"]
SPADES = {"0": ["2S", "3S"], "1": ["AS", "KS"], "2": ["QS", "JS"], "3": ["TS", "9S"]}


def body(**changes: Any) -> dict[str, Any]:
    """A Collections claim by seat 0, "no more tricks", with ``changes`` applied."""
    base: dict[str, Any] = {
        "rules": {},
        "contracts": ["collections"],
        "king": 0,
        "hands": copy.deepcopy(SPADES),
        "current_trick": [],
        "leader": 0,
        "claim": {"seat": 0, "min_score": 0},
        "names": NAMES,
    }
    base.update(changes)
    return {k: v for k, v in base.items() if v is not ...}


def trix_body(**changes: Any) -> dict[str, Any]:
    """Rana holds Q♠ 10♠ and plays first; Sami holds Q♥ 10♥; Lina all but the rest."""
    held = {"QS", "TS", "QH", "TH", "QD", "TD", "JS", "JH", "JD", "JC"}
    rest = [r + s for s in "SHDC" for r in "AKQJT98765432" if r + s not in held]
    base: dict[str, Any] = {
        "contracts": ["trix"],
        "layout": {"S": ["JS", "JS"], "H": ["JH", "JH"], "D": ["JD", "JD"], "C": ["JC", "JC"]},
        "hands": {"0": ["QS", "TS"], "1": ["QH", "TH"], "2": ["QD", "TD"], "3": rest},
        "to_play": 0,
        "out": [],
        "claim": {"seat": 0, "min_score": 200},
        "names": NAMES,
    }
    base.update(changes)
    return {k: v for k, v in base.items() if v is not ...}
