"""The banded games (R3–R6, R9.4, R10): where one settles a claim, the exact answer agrees.

In a banded game the others' cards are known only by where they lie among the
claimant's cards of their suit (:mod:`scorekeeper.rules.claims.banded`). If
he keeps every scoring card out of his tricks in the defenders' game (ties go
to them), he does at the table; if they catch him in the claimant's game (ties
go to him), they do at the table. Here both are compared with a memoised plain
minimax on random positions, with none and with one ranked card per band, for a
claimant who may lose nothing and who may lose some points to what he takes;
with every card ranked, both games are the table's and must give its answer
exactly.
A game's table merges positions alike up to the others' ranks within a band
and up to the cards played: positions it merges must get one answer from a
game that merges none. A tighter game takes the answers of the games with no
ranked card that hold at the table, and stays right.
Then the whole search, asking the banded games at every claim, is compared
with the minimax, also with exact rounds that run out of nodes before them.
"""

from __future__ import annotations

import itertools
import random
import time

import pytest

from scorekeeper.rules.cards import indices_of
from scorekeeper.rules.claims import banded, tree
from scorekeeper.rules.claims.banded import BandedGame, Bands
from scorekeeper.rules.claims.search import TrickSearch
from scorekeeper.rules.ruleset import Combination, HeartLead, RuleSet
from tests.rules.claims.helpers import (
    C,
    D,
    K,
    Position,
    Q,
    memo_minimax,
    random_position,
    search_of,
    solve,
)

ANY = Combination.ANY
SETUPS = [
    ("r3_king_penalty_discard", RuleSet(penalty_discard=True), (K,)),
    ("r3_king", RuleSet(), (K,)),
    ("r3_king_hearts_broken", RuleSet(heart_lead=HeartLead.BROKEN, penalty_discard=True), (K,)),
    ("r3_king_only_hearts", RuleSet(heart_lead=HeartLead.ONLY_HEARTS), (K,)),
    ("r4_queens", RuleSet(), (Q,)),
    ("r5_diamonds_penalty_discard", RuleSet(penalty_discard=True), (D,)),
    ("r6_collections", RuleSet(), (C,)),
    ("r9_6_queens_diamonds", RuleSet(combination=ANY, penalty_discard=True), (Q, D)),
    ("r9_6_king_collections", RuleSet(combination=ANY), (K, C)),
]
ALL_RANKED = 13
"""Every card of the others keeps its rank: the banded game is the table's."""


def best_of(search: TrickSearch) -> int:
    """What he makes by taking nothing: the cards of his that score for him when another
    takes them (under normal signs, the most he can make)."""
    return search._untaken(search._in_play())


def scoring_left(
    rng: random.Random, rules: RuleSet, contracts: tuple, count: int
) -> list[tuple[Position, int, TrickSearch]]:
    """Random positions (3–5 cards a hand) where something can still score against the seat."""
    found = []
    while len(found) < count:
        pos = random_position(rng, rules, contracts, rng.choice((3, 4, 4, 5)), rng.random() < 0.3)
        seat = rng.randrange(4)
        search = search_of(pos, seat)
        if search._in_play() & search.danger or search.trick_value:
            found.append((pos, seat, search))
    return found


def game(
    search: TrickSearch, pos: Position, claimant_ties: bool, ranked: int, slack: int = 0
) -> bool | None:
    return BandedGame(search, claimant_ties, ranked).escapes(
        pos.hands, pos.trick, pos.leader, search.broken, 10**9, slack
    )


@pytest.fixture(params=["plain", "cheap_leads"])
def lead_budgets(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Also with the others' leads budgeted at every trick, on budgets that run out."""
    if request.param == "cheap_leads":
        monkeypatch.setattr(banded, "CHEAP_FROM", 0)
        monkeypatch.setattr(banded, "FIRST_BUDGET", 2)
        monkeypatch.setattr(banded, "LAST_BUDGET", 16)


@pytest.mark.parametrize(("name", "rules", "contracts"), SETUPS, ids=[s[0] for s in SETUPS])
def test_r10_banded_games_agree_with_minimax(
    name: str, rules: RuleSet, contracts: tuple, lead_budgets: None
) -> None:
    rng = random.Random(f"banded {name}")
    settled = {True: 0, False: 0}
    for pos, seat, search in scoring_left(rng, rules, contracts, 12):
        exact, best = memo_minimax(pos, seat), best_of(search)
        # He escapes if what he takes costs him at most ``slack``: nothing, or some of it.
        for slack in (0, rng.randrange(0, best - exact + 1), best - exact):
            truth = exact >= best - slack
            for ranked in (0, 1):
                if game(search, pos, False, ranked, slack):  # the defenders': "he escapes"
                    assert truth, (ranked, slack, "defenders' game")
                    settled[True] += 1
                if not game(search, pos, True, ranked, slack):  # the claimant's: "caught"
                    assert not truth, (ranked, slack, "claimant's game")
                    settled[False] += 1
            for claimant_ties in (False, True):
                assert game(search, pos, claimant_ties, ALL_RANKED, slack) is truth, slack
    assert settled[True] and settled[False]  # both games settled something


def exact_key(game: BandedGame, rem: int, tokens: int) -> int:
    """A position's key that merges nothing: the hands and the ranked cards, exactly."""
    h = game.hands
    return (((h[0] << 52 | h[1]) << 52 | h[2]) << 52 | h[3]) << 52 | rem & tokens


def variant(rng: random.Random, hands: list[int], seat: int, exact: int) -> list[int]:
    """The hands with the others' plain cards dealt again among them (as many each), then
    every suit's cards in play moved to other ranks in the same order: the cards that keep
    their identity stay, the rest move only between them, onto cards without one."""
    plain = [c for s in range(4) if s != seat for c in indices_of(hands[s] & ~exact)]
    rng.shuffle(plain)
    dealt = list(hands)
    for s in range(4):
        if s != seat:
            count = (hands[s] & ~exact).bit_count()
            dealt[s] = hands[s] & exact | sum(1 << c for c in plain[:count])
            plain = plain[count:]
    rename: dict[int, int] = {}
    for suit in range(4):
        in_play = [c for c in range(13 * suit, 13 * suit + 13) if any(h >> c & 1 for h in dealt)]
        fixed = [13 * suit - 1, *[c for c in in_play if exact >> c & 1], 13 * suit + 13]
        for low, high in itertools.pairwise(fixed):
            moving = [c for c in in_play if low < c < high]
            free = [c for c in range(low + 1, high) if not exact >> c & 1]
            rename.update(zip(moving, sorted(rng.sample(free, len(moving))), strict=True))
    return [sum(1 << rename.get(c, c) for c in indices_of(h)) for h in dealt]


@pytest.mark.parametrize(("name", "rules", "contracts"), SETUPS, ids=[s[0] for s in SETUPS])
def test_r10_banded_positions_with_one_key_have_one_answer(
    name: str, rules: RuleSet, contracts: tuple, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A game's table merges positions that differ only in the others' ranks within a band
    # and in the cards played before: the positions it merges must have the same answer
    # in a game that merges none.
    rng = random.Random(f"banded keys {name}")
    merged = 0
    for pos, seat, search in scoring_left(rng, rules, contracts, 6):
        slack = rng.randrange(0, best_of(search) - memo_minimax(pos, seat) + 1)
        for ranked, claimant_ties in itertools.product((0, 1), (False, True)):
            probe = BandedGame(search, claimant_ties, ranked)
            answers: dict[int, set[bool | None]] = {}
            positions: dict[int, set[tuple[int, ...]]] = {}
            for _ in range(40):
                hands = variant(rng, pos.hands, seat, probe.exact)
                probe.hands, probe.trick, probe.leader = hands, [], pos.leader
                probe.tokens = probe._top_cards()
                key = probe._squeeze(hands[0] | hands[1] | hands[2] | hands[3], probe.tokens)
                with monkeypatch.context() as patch:
                    patch.setattr(BandedGame, "_squeeze", exact_key)
                    answer = BandedGame(search, claimant_ties, ranked).escapes(
                        hands, [], pos.leader, search.broken, 10**9, slack
                    )
                answers.setdefault(key, set()).add(answer)
                positions.setdefault(key, set()).add(tuple(hands))
            assert all(len(found) == 1 for found in answers.values()), (ranked, claimant_ties)
            merged += sum(len(found) - 1 for found in positions.values())
    assert merged  # some positions were merged, so the test can fail


def test_r10_bands_share_what_is_true_in_both_games() -> None:
    rules, contracts = RuleSet(penalty_discard=True), (K,)
    pos = random_position(random.Random("share"), rules, contracts, 5, mid=False)
    bands = Bands(search_of(pos, 0), time.monotonic() + 60)
    theirs, his = bands.game(0, False), bands.game(0, True)
    assert theirs.sure is his.sure
    assert theirs.memo is not his.memo
    assert bands.game(1, True).sure is not his.sure  # a tighter game's positions are others


@pytest.mark.parametrize(("name", "rules", "contracts"), SETUPS, ids=[s[0] for s in SETUPS])
def test_r10_tighter_games_take_what_the_loosest_found(
    name: str, rules: RuleSet, contracts: tuple, monkeypatch: pytest.MonkeyPatch
) -> None:
    # He escapes wherever he did in the defenders' game with no ranked card, and is caught
    # wherever he was in the claimant's: a tighter game takes those answers, and with
    # every card ranked still gives the table's answer exactly.
    taken: list[bool] = []
    loosest_answer = BandedGame._loosest_answer

    def counted(self: BandedGame, rem: int, raw: int, tail: int) -> bool | None:
        answer = loosest_answer(self, rem, raw, tail)
        if answer is not None:
            taken.append(answer)
        return answer

    monkeypatch.setattr(BandedGame, "_loosest_answer", counted)
    rng = random.Random(f"banded loosest {name}")
    for pos, seat, search in scoring_left(rng, rules, contracts, 8):
        exact, best = memo_minimax(pos, seat), best_of(search)
        slacks = sorted({0, rng.randrange(0, best - exact + 1), best - exact})
        bands = Bands(search, time.monotonic() + 60)  # one table, all slacks in it
        for ranked in (0, 1, ALL_RANKED):
            for slack, claimant_ties in itertools.product(slacks, (False, True)):
                truth = exact >= best - slack
                answer = bands.game(ranked, claimant_ties).escapes(
                    pos.hands, pos.trick, pos.leader, search.broken, 10**9, slack
                )
                if ranked == ALL_RANKED:
                    assert answer is truth, (slack, claimant_ties)
                elif answer != claimant_ties:  # settled
                    assert answer is truth, (ranked, slack, claimant_ties)
    assert True in taken and False in taken  # both kinds of answer were taken


SMALL_GAMES = ((0, False, 3), (0, True, 3))
LARGE_GAMES = ((0, False, 10**6), (0, True, 10**6))
ROUND_PLANS = {
    "banded_first": ((0, (*LARGE_GAMES, (1, False, 10**6), (1, True, 10**6))),),
    # Exact rounds that run out of nodes, so the claim's position is restored between
    # them, mid-trick or on his lead too; games too small to settle much, then large ones.
    "exact_rounds_first": (
        (5, SMALL_GAMES),
        (20, SMALL_GAMES),
        (80, LARGE_GAMES),
    ),
}


@pytest.mark.parametrize("rounds", ROUND_PLANS)
@pytest.mark.parametrize(("name", "rules", "contracts"), SETUPS, ids=[s[0] for s in SETUPS])
def test_r10_search_asking_the_banded_games_agrees_with_minimax(
    name: str, rules: RuleSet, contracts: tuple, rounds: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Asked at every claim, however small.
    monkeypatch.setattr(tree, "BANDED_FROM", 0)
    monkeypatch.setattr(tree, "ROUNDS", ROUND_PLANS[rounds])
    monkeypatch.setattr(tree, "CHECK_EVERY", 0)  # the exact rounds' budgets, to the node
    asked: list[bool | None] = []
    verdict, restore = Bands.verdict, tree.TrickTree._restore
    restored: list[int] = []  # how many times a search had been put back, at each time

    def counted(self: Bands, *args: object) -> bool | None:
        answer = verdict(self, *args)  # type: ignore[arg-type]
        asked.append(answer)
        return answer

    def restores(self: tree.TrickTree, saved: tuple[list[int], list[int], int, int]) -> None:
        times = getattr(self, "times_restored", 0) + 1
        self.times_restored = times  # type: ignore[attr-defined]
        restored.append(times)
        restore(self, saved)

    monkeypatch.setattr(Bands, "verdict", counted)
    monkeypatch.setattr(tree.TrickTree, "_restore", restores)
    rng = random.Random(f"banded search {name}")
    for pos, seat, _ in scoring_left(rng, rules, contracts, 4):
        exact = memo_minimax(pos, seat)
        for claim in (0, exact, exact + 1):
            result = solve(pos, seat, claim)
            assert (result.guaranteed, result.holds) == (exact, exact >= claim), claim
    assert any(answer is not None for answer in asked)  # they settled some
    if rounds == "exact_rounds_first":
        assert max(restored) >= 2  # some claim's position was put back twice or more
