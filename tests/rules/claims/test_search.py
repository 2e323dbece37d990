"""Claims in the trick contracts (R3–R6, R9, R10): the search against a plain minimax.

The brute force (tests/rules/claims/helpers.py) is written from the rulebook,
independently of the engine's search: every legal card (``tricks.legal_cards``) at
every turn, no pruning, no equivalences, and its own per-trick scorer, checked here
against :func:`score_deal` on complete deals.
"""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.cards import ALL_CARDS, KING_OF_HEARTS, QUEENS, Card, indices_of
from scorekeeper.rules.claims import check_claim
from scorekeeper.rules.claims.weights import doubled_holders_of
from scorekeeper.rules.contracts import TRICK_CONTRACTS, Contract
from scorekeeper.rules.deals import random_deal
from scorekeeper.rules.ruleset import HeartLead, RuleSet, SelfCapture, Values
from scorekeeper.rules.scoring import score_deal
from scorekeeper.rules.trickplay import first_leader, plan_for
from scorekeeper.rules.tricks import replay_tricks, trick_winner
from tests.common import examples
from tests.rules.claims.helpers import (
    ANY,
    KH,
    C,
    D,
    K,
    Position,
    Q,
    brute,
    mask,
    position,
    random_position,
    replay_line,
    solve,
    trick_score,
)

# --- the brute force's scorer is the engine's scorer -------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_r11_trick_scorer_agrees_with_score_deal(seed: int) -> None:
    rng = random.Random(seed)
    rules = RuleSet(
        combination=ANY,
        doubled_self_capture=[SelfCapture.SINGLE, SelfCapture.DOUBLE][seed % 2],
        inverted=seed % 3 == 0,
        values=Values(king=60, queen=20, diamond=15, trick=10) if seed == 4 else Values(),
    )
    contracts = [TRICK_CONTRACTS[seed % 4]] if seed < 4 else list(TRICK_CONTRACTS)
    dealt, tricks = random_deal(rng, rules, contracts, 0)
    doubleable = [KING_OF_HEARTS] * (K in contracts) + list(QUEENS) * (Q in contracts)
    doubled = [card for card in doubleable if rng.random() < 0.5]
    hands = [[ALL_CARDS[c] for c in indices_of(h)] for h in dealt]
    cards = [[ALL_CARDS[c] for c in t] for t in tricks]
    replay = replay_tricks(rules, contracts, 0, cards, hands, doubled)
    assert replay.ruled is not None
    scores = score_deal(rules, contracts, replay.ruled)
    holders = {c.index: s for c in doubled for s in range(4) if dealt[s] >> c.index & 1}
    for seat in range(4):
        leader, total = first_leader(plan_for(rules, contracts), 0), 0
        for trick in tricks:
            winner = trick_winner(leader, trick)
            total += trick_score(rules, contracts, seat, holders, trick, winner)
            leader = winner
        assert total == scores[seat]


# --- the search against the brute force --------------------------------------------------------

SETUPS: list[tuple[str, RuleSet, tuple[Contract, ...]]] = [
    ("r3_king", RuleSet(), (K,)),
    ("r4_queens", RuleSet(), (Q,)),
    ("r5_diamonds", RuleSet(), (D,)),
    ("r6_collections", RuleSet(), (C,)),
    ("r3_no_heart_lead", RuleSet(heart_lead=HeartLead.ONLY_HEARTS), (K,)),
    ("r3_hearts_broken", RuleSet(heart_lead=HeartLead.BROKEN), (K,)),
    ("r3_r4_self_capture_double", RuleSet(doubled_self_capture=SelfCapture.DOUBLE), (K,)),
    ("r9_1_no_doubling", RuleSet(doubling=False), (Q,)),
    ("r9_4_penalty_discard_king", RuleSet(penalty_discard=True), (K,)),
    ("r9_4_penalty_discard_queens", RuleSet(penalty_discard=True), (Q,)),
    ("r9_4_penalty_discard_diamonds", RuleSet(penalty_discard=True), (D,)),
    ("r9_6_all_four", RuleSet(combination=ANY), TRICK_CONTRACTS),
    ("r9_6_queens_diamonds", RuleSet(combination=ANY, penalty_discard=True), (Q, D)),
    ("r9_6_king_collections", RuleSet(combination=ANY, heart_lead=HeartLead.BROKEN), (K, C)),
    ("r9_7_values", RuleSet(values=Values(king=60, queen=30, diamond=15, trick=10)), (Q,)),
    ("r9_8_inverted", RuleSet(inverted=True, combination=ANY), (K, Q, D)),
    ("r9_8_inverted_collections", RuleSet(inverted=True), (C,)),
]


@pytest.mark.parametrize(("name", "rules", "contracts"), SETUPS, ids=[s[0] for s in SETUPS])
def test_search_equals_brute_force(name: str, rules: RuleSet, contracts: tuple[Contract]) -> None:
    rng = random.Random(name)
    for n in range(14):
        cards = (
            4 if n in (3, 7) else 1 + n % 3
        )  # 4-card positions mid-trick: the brute force is slow
        pos = random_position(rng, rules, contracts, cards, mid=n % 2 == 1)
        seat = rng.randrange(4)
        exact = brute(pos, seat)
        claim = exact + rng.choice([-10, 0, 1, 15])
        result = solve(pos, seat, claim)
        assert (result.guaranteed, result.holds, result.decided) == (exact, exact >= claim, True)
        if result.holds:
            assert result.line == []
        else:
            assert replay_line(pos, seat, result.line) == exact < claim


def test_without_min_score_the_exact_value_only() -> None:
    pos = random_position(random.Random(3), RuleSet(), (C,), 3, False)
    result = solve(pos, 2, None)
    assert result.holds is None and result.decided and result.line == []
    assert result.guaranteed == brute(pos, 2)


@settings(max_examples=examples(25), deadline=None)
@given(
    seed=st.integers(0, 10**6),
    contracts=st.sampled_from([(K,), (Q,), (D,), (C,), TRICK_CONTRACTS]),
    cards=st.integers(1, 3),
    penalty=st.booleans(),
)
def test_property_search_equals_brute_force(
    seed: int, contracts: tuple[Contract], cards: int, penalty: bool
) -> None:
    rules = RuleSet(combination=ANY, penalty_discard=penalty)
    rng = random.Random(seed)
    pos = random_position(rng, rules, contracts, cards, mid=rng.random() < 0.5)
    seat = rng.randrange(4)
    assert solve(pos, seat, None).guaranteed == brute(pos, seat)


@settings(max_examples=examples(25), deadline=None)
@given(seed=st.integers(0, 10**6), turn=st.integers(1, 3), cards=st.integers(2, 4))
def test_property_seats_are_symmetric(seed: int, turn: int, cards: int) -> None:
    """Turning the table (every seat moves ``turn`` places) changes no claim's value."""
    rng = random.Random(seed)
    rules = RuleSet(combination=ANY)
    pos = random_position(rng, rules, TRICK_CONTRACTS, cards, mid=True)
    seat = rng.randrange(4)
    turned = Position(
        rules,
        pos.contracts,
        [pos.dealt[(s - turn) & 3] for s in range(4)],
        [pos.hands[(s - turn) & 3] for s in range(4)],
        pos.trick,
        (pos.leader + turn) & 3,
        pos.broken,
        pos.doubled,
    )
    assert solve(turned, (seat + turn) & 3, None).guaranteed == solve(pos, seat, None).guaranteed


@settings(max_examples=examples(20), deadline=None)
@given(seed=st.integers(0, 10**6), claim=st.integers(-200, 100))
def test_property_holds_iff_guaranteed_reaches_the_claim(seed: int, claim: int) -> None:
    rng = random.Random(seed)
    pos = random_position(rng, RuleSet(combination=ANY), TRICK_CONTRACTS, 3, mid=True)
    result = solve(pos, rng.randrange(4), claim)
    assert result.guaranteed is not None and result.holds == (result.guaranteed >= claim)


# --- golden cases ------------------------------------------------------------------------------


def test_r6_no_more_tricks_with_only_low_cards_holds() -> None:
    pos = position(["2S 2H 2D", "AS AH AD", "KS KH KD", "QS QH QD"])
    result = solve(pos, 0, 0)
    assert (result.holds, result.guaranteed, result.line) == (True, 0, [])


def test_r6_no_more_tricks_fails_with_a_high_card() -> None:
    pos = position(["AS 2H 2D", "3S AH AD", "KS KH KD", "QS QH QD"], leader=1)
    result = solve(pos, 0, 0)
    assert (result.holds, result.guaranteed) == (False, -15)
    assert replay_line(pos, 0, result.line) == -15
    assert ALL_CARDS[result.line[0] or 0] == Card.parse("3S")  # the spade lead fells his ace


def test_r6_mid_trick_claim_counts_the_current_trick() -> None:
    pos = position(["AS 2H", "3S AH", "KH", "QS QH"], trick="KS", leader=2)
    result = solve(pos, 0, 0)
    assert (result.holds, result.guaranteed) == (False, -15)  # his A♠ must take the K♠ now


def test_r3_wont_take_the_king_of_hearts_holds() -> None:
    pos = position(["KH 2C", "AH 3C", "2H 4C", "3H 5C"], contracts=(K,))
    assert (solve(pos, 0, 0).holds, solve(pos, 0, 0).guaranteed) == (True, 0)


def test_r3_doubled_king_taken_by_another_pays_its_holder() -> None:
    pos = position(["KH 2C", "AH 3C", "2H 4C", "3H 5C"], contracts=(K,), doubled="KH")
    result = solve(pos, 0, 75)
    assert (result.holds, result.guaranteed) == (True, 75)
    assert solve(pos, 1, 0).guaranteed == -150  # the ace of hearts must take it, doubled


def test_r3_wont_take_the_king_of_hearts_fails() -> None:
    pos = position(["KH AC", "QH 2C", "JH 3C", "2H 4C"], leader=1, contracts=(K,))
    result = solve(pos, 0, 0)
    assert (result.holds, result.guaranteed) == (False, -75)
    assert replay_line(pos, 0, result.line) == -75


def test_r3_self_capture_double_house_rule() -> None:
    hands = ["KH AC", "QH 2C", "JH 3C", "2H 4C"]
    single = position(hands, leader=1, contracts=(K,), doubled="KH")
    double = position(
        hands,
        leader=1,
        contracts=(K,),
        doubled="KH",
        rules=RuleSet(doubled_self_capture=SelfCapture.DOUBLE),
    )
    assert solve(single, 0, 0).guaranteed == -75
    assert solve(double, 0, 0).guaranteed == -150


def test_r9_8_inverted_signs_the_claimant_wants_the_tricks() -> None:
    pos = position(["AS 2H 2D", "3S AH AD", "KS KH KD", "QS QH QD"], rules=RuleSet(inverted=True))
    result = solve(pos, 1, 30)
    assert (result.holds, result.guaranteed) == (True, 30)


def test_r3_doubled_holder_from_the_current_trick_or_given() -> None:
    assert doubled_holders_of(1 << KH, [0, 0, 0, 0], [5, KH], 3) == {KH: 0}
    assert doubled_holders_of(1 << KH, [0, 0, 0, 0], [], 3) == {}  # played earlier: no matter
    pos = position(["2C", "AH", "3C", "4C"], trick="", contracts=(K,))
    # The K♥ is gone from play; a holder given for it changes nothing.
    result = solve(pos, 0, 0, doubled_holders={KH: 0})
    assert result.guaranteed == 0


def test_r3_doubled_king_in_the_current_trick() -> None:
    pos = position(["2H", "AH", "3H", ""], trick="KH", leader=3, contracts=(K,), doubled="KH")
    assert solve(pos, 3, 0).guaranteed == 75  # seat 3 doubled it and led it; the ace takes it


# --- the deadline --------------------------------------------------------------------------------


def full_deal(seed: int, contracts: tuple[Contract, ...]) -> Position:
    return random_position(random.Random(seed), RuleSet(combination=ANY), contracts, 13, False)


def test_deadline_answers_undecided_quickly() -> None:
    """A whole deal the search would take minutes over: stopped at its deadline, no guess."""
    pos = full_deal(11, (K,))
    result = solve(pos, 0, 0, deadline=time.monotonic() + 0.05)
    assert (result.holds, result.guaranteed, result.decided, result.line) == (None, None, False, [])


def test_deadline_after_the_claim_is_decided_keeps_the_ruling() -> None:
    pos = full_deal(2, (C,))
    result = solve(pos, 1, 0, deadline=time.monotonic() + 0.3)
    assert (result.holds, result.guaranteed, result.decided) == (False, None, True)
    assert replay_line(pos, 1, result.line) < 0


# --- the search's pieces -----------------------------------------------------------------------


def test_equivalent_cards_are_played_as_one_but_penalty_cards_stay_apart() -> None:
    from scorekeeper.rules.claims.bits import representatives
    from scorekeeper.rules.claims.weights import claim_weights

    hand, rem = mask("KH QH JH 9H 7H"), deck_without("TH")
    plain = representatives(hand, hand, rem, 0)
    assert plain == mask("9H 7H")  # K Q J 10(gone) 9 are one card; 8♥ is held by another
    special = claim_weights(RuleSet(), (K,), 0, {}).special
    assert representatives(hand, hand, rem, special) == mask("KH 9H 7H")  # the K♥ alone


def deck_without(text: str) -> int:
    from scorekeeper.rules.cards import FULL_DECK

    return FULL_DECK ^ mask(text)


def test_positions_alike_up_to_rank_share_a_table_key() -> None:
    from scorekeeper.rules.claims.partition import parts

    # The 2♠ gone and the 3♠ held, or the other way round: the same game from here.
    a = [mask("3S AH"), mask("4S KH"), mask("5S QH"), mask("6S JH")]
    b = [mask("2S AH"), mask("4S KH"), mask("5S QH"), mask("6S JH")]
    rem_a, rem_b = (h[0] | h[1] | h[2] | h[3] for h in (a, b))
    assert parts(*a[:3], rem_a, 0) == parts(*b[:3], rem_b, 0)
    c = [mask("4S AH"), mask("3S KH"), mask("5S QH"), mask("6S JH")]
    assert parts(*c[:3], rem_a, 0) != parts(*a[:3], rem_a, 0)


@pytest.mark.parametrize(
    ("self_capture", "cost"), [("single", 75), ("double", 150), ("quadruple", 300)]
)
def test_r3_a_claimant_who_must_take_his_own_doubled_king_pays_the_house_rules_price(
    self_capture: str, cost: int
) -> None:
    """R3 with R9 "doubled self-capture": one card each, the claimant leads his own doubled
    K♥ and takes it; the claim check agrees with the scoring (−75, −150 or −300)."""
    body = {
        "rules": {"doubled_self_capture": self_capture},
        "contracts": ["king"],
        "king": 0,
        "hands": {"0": ["KH"], "1": ["2H"], "2": ["3H"], "3": ["4H"]},
        "doubled": ["KH"],
        "current_trick": [],
        "leader": 0,
        "claim": {"seat": 0, "min_score": -cost},
    }
    answer = check_claim(body)
    assert answer["holds"] and answer["guaranteed"] == -cost
