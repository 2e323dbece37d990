"""R3–R7, R9, R11: deal scores, expected totals and the zero-sum check."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.captures import Capture, Captures
from scorekeeper.rules.cards import KING_OF_HEARTS, QUEENS, Suit
from scorekeeper.rules.contracts import ALL_CONTRACTS, TRICK_CONTRACTS, Contract
from scorekeeper.rules.errors import IllegalError
from scorekeeper.rules.ruleset import Combination, RuleSet, SelfCapture, Values
from scorekeeper.rules.scoring import (
    check_contracts,
    expected_total,
    kingdom_total,
    score_deal,
    team_totals,
    zero_sum_report,
)
from tests.common import NAMES, C, D, K, Q, T

DOUBLE = RuleSet(doubled_self_capture=SelfCapture.DOUBLE)
INVERTED_TAIL = Values(trix=(200, 150, 100, -50))
ANY = RuleSet(combination=Combination.ANY)
ALL_FOUR = RuleSet(combination=Combination.ALL_FOUR)

# API.md's example queens: Q♥ doubled by seat 3, Q♣ doubled and taken by seat 3.
API_QUEENS = (Capture(1), Capture(1, 3), Capture(0), Capture(3, 3))
# All four contracts at once: K♥ doubled by seat 0, Q♥ doubled by its taker, Q♣ by seat 2.
COMPLEX = Captures(
    king_of_hearts=Capture(1, 0),
    queens=(Capture(0), Capture(1, 1), Capture(2), Capture(3, 2)),
    diamonds=(4, 3, 3, 3),
    tricks=(4, 3, 3, 3),
)

GOLDEN = [
    pytest.param(RuleSet(), [K], Captures(king_of_hearts=Capture(2)), (0, 0, -75, 0), -75,
                 id="r3_king_taken"),
    pytest.param(RuleSet(), [K], Captures(king_of_hearts=Capture(2, 1)), (0, 75, -150, 0), -75,
                 id="r3_doubled_king_taken_by_another"),
    pytest.param(RuleSet(), [K], Captures(king_of_hearts=Capture(1, 1)), (0, -75, 0, 0), -75,
                 id="r3_doubled_king_taken_by_holder_single"),
    pytest.param(DOUBLE, [K], Captures(king_of_hearts=Capture(1, 1)), (0, -150, 0, 0), -150,
                 id="r3_doubled_king_taken_by_holder_double"),
    pytest.param(DOUBLE, [K], Captures(king_of_hearts=Capture(2, 1)), (0, 75, -150, 0), -75,
                 id="r3_double_rule_doubled_king_taken_by_another"),
    pytest.param(RuleSet(doubling=False), [K], Captures(king_of_hearts=Capture(3)),
                 (0, 0, 0, -75), -75, id="r3_doubling_off"),
    pytest.param(RuleSet(), [Q], Captures(queens=API_QUEENS), (-25, -75, 0, 0), -100,
                 id="r4_queens_doubled_single"),
    pytest.param(DOUBLE, [Q], Captures(queens=API_QUEENS), (-25, -75, 0, -25), -125,
                 id="r4_doubled_queen_taken_by_holder_double"),
    pytest.param(RuleSet(doubling=False), [Q],
                 Captures(queens=(Capture(2), Capture(2), Capture(2), Capture(0))),
                 (-25, 0, -75, 0), -100, id="r4_queens_doubling_off"),
    pytest.param(RuleSet(), [D], Captures(diamonds=(3, 4, 6, 0)), (-30, -40, -60, 0), -130,
                 id="r5_diamonds"),
    pytest.param(RuleSet(), [C], Captures(tricks=(2, 5, 6, 0)), (-30, -75, -90, 0), -195,
                 id="r6_collections"),
    pytest.param(RuleSet(), [T], Captures(trix_order=(2, 0, 3, 1)), (150, 50, 200, 100), 500,
                 id="r7_trix"),
    pytest.param(RuleSet(values=INVERTED_TAIL), [T], Captures(trix_order=(2, 0, 3, 1)),
                 (150, -50, 200, 100), 400, id="r7_inverted_tail"),
    pytest.param(RuleSet(values=Values(diamond=15, trick=10)), [D],
                 Captures(diamonds=(3, 4, 6, 0)), (-45, -60, -90, 0), -195,
                 id="r9_7_swapped_values_diamonds"),
    pytest.param(RuleSet(values=Values(diamond=15, trick=10)), [C],
                 Captures(tricks=(2, 5, 6, 0)), (-20, -50, -60, 0), -130,
                 id="r9_7_swapped_values_collections"),
    pytest.param(RuleSet(values=Values(king=100, queen=30)), [K],
                 Captures(king_of_hearts=Capture(0, 3)), (-200, 0, 0, 100), -100,
                 id="r9_7_king_value_changed"),
    pytest.param(RuleSet(values=Values(king=0)), [K], Captures(king_of_hearts=Capture(0, 3)),
                 (0, 0, 0, 0), 0, id="r9_7_zero_value"),
    pytest.param(RuleSet(values=Values(trix=(300, 200, 0, -100))), [T],
                 Captures(trix_order=(0, 1, 2, 3)), (300, 200, 0, -100), 400,
                 id="r9_7_trix_values_changed"),
    pytest.param(RuleSet(inverted=True), [K], Captures(king_of_hearts=Capture(2, 1)),
                 (0, -75, 150, 0), 75, id="r9_8_inverted_king"),
    pytest.param(RuleSet(inverted=True), [T], Captures(trix_order=(2, 0, 3, 1)),
                 (-150, -50, -200, -100), -500, id="r9_8_inverted_trix"),
    pytest.param(RuleSet(inverted=True, values=INVERTED_TAIL), [T],
                 Captures(trix_order=(2, 0, 3, 1)), (-150, 50, -200, -100), -400,
                 id="r9_8_inverted_signs_and_tail"),
    pytest.param(ANY, [D, K],
                 Captures(king_of_hearts=Capture(2), diamonds=(3, 4, 6, 0), tricks=(2, 5, 6, 0)),
                 (-30, -40, -135, 0), -205, id="r9_6_any_king_and_diamonds"),
    pytest.param(ANY, [Q, D, C], COMPLEX, (-125, -100, -75, -125), -425,
                 id="r9_6_any_three_contracts"),
    pytest.param(ALL_FOUR, list(TRICK_CONTRACTS), COMPLEX, (-50, -250, -75, -125), -500,
                 id="r9_6_all_four"),
    pytest.param(RuleSet(combination=Combination.ALL_FOUR,
                         doubled_self_capture=SelfCapture.DOUBLE),
                 list(TRICK_CONTRACTS), COMPLEX, (-50, -275, -75, -125), -525,
                 id="r9_6_all_four_double_self_capture"),
    pytest.param(RuleSet(combination=Combination.ALL_FOUR, inverted=True),
                 list(TRICK_CONTRACTS), COMPLEX, (50, 250, 75, 125), 500,
                 id="r9_8_inverted_all_four"),
    pytest.param(RuleSet(partnership=True), [T], Captures(trix_order=(2, 0, 3, 1)),
                 (150, 50, 200, 100), 500, id="r9_5_partnership_scores_per_seat"),
]  # fmt: skip


@pytest.mark.parametrize(("rules", "contracts", "captures", "scores", "total"), GOLDEN)
def test_golden_scores(
    rules: RuleSet,
    contracts: list[Contract],
    captures: Captures,
    scores: tuple[int, int, int, int],
    total: int,
) -> None:
    assert score_deal(rules, contracts, captures, NAMES) == scores
    assert expected_total(rules, contracts, captures) == total
    assert sum(scores) == total


def test_r9_5_team_totals() -> None:
    scores = score_deal(RuleSet(partnership=True), [T], Captures(trix_order=(2, 0, 3, 1)))
    assert team_totals(scores) == (350, 150)
    assert team_totals([-50, -250, -75, -125]) == (-125, -375)


def test_r11_score_deal_refuses_inconsistent_captures() -> None:
    with pytest.raises(IllegalError) as info:
        score_deal(RuleSet(), [D], Captures(diamonds=(5, 4, 3, 2)), NAMES)
    assert [p.code for p in info.value.problems] == ["diamonds_sum"]


def test_r9_6_score_deal_refuses_combination_when_off() -> None:
    with pytest.raises(IllegalError) as info:
        score_deal(RuleSet(), [K, D], COMPLEX)
    assert [p.code for p in info.value.problems] == ["combination_off"]


# ---- R9.6 / R2: which contracts a deal may name ----------------------------------------------

CONTRACT_ERRORS = [
    pytest.param(RuleSet(), [], "contracts_empty", "R2", "Choose the contract of this deal.",
                 id="r2_no_contract"),
    pytest.param(RuleSet(), [K, K], "contract_repeated", "R2",
                 "King of Hearts is named twice; a deal plays each contract once.",
                 id="r2_repeated"),
    pytest.param(RuleSet(), [Q, K], "combination_off", "R9.6",
                 "Only one contract per deal under these house rules; this deal names 2 "
                 "(King of Hearts + Queens).", id="r9_6_off"),
    pytest.param(ANY, [T, K], "combination_with_trix", "R9.6",
                 "Trix is always played on its own, never combined with other contracts "
                 "(King of Hearts + Trix).", id="r9_6_trix_never_combined"),
    pytest.param(ALL_FOUR, [K, Q, D], "combination_not_all_four", "R9.6",
                 "Under these house rules a combination must be all four trick contracts at "
                 "once, not King of Hearts + Queens + Diamonds.", id="r9_6_all_four_only"),
    pytest.param(ALL_FOUR, [*TRICK_CONTRACTS, T], "combination_with_trix", "R9.6",
                 "Trix is always played on its own, never combined with other contracts "
                 "(King of Hearts + Queens + Diamonds + Collections + Trix).",
                 id="r9_6_all_four_without_trix"),
]  # fmt: skip


@pytest.mark.parametrize(("rules", "contracts", "code", "rule", "message"), CONTRACT_ERRORS)
def test_contract_choice_errors(
    rules: RuleSet, contracts: list[Contract], code: str, rule: str, message: str
) -> None:
    with pytest.raises(IllegalError) as info:
        check_contracts(rules, contracts)
    problem = info.value.problems[0]
    assert (problem.code, problem.rule, problem.field, problem.message) == (
        code,
        rule,
        "contracts",
        message,
    )


def test_r9_6_duplicate_in_combination_reports_once() -> None:
    with pytest.raises(IllegalError) as info:
        check_contracts(ANY, [D, K, D])
    assert [p.code for p in info.value.problems] == ["contract_repeated"]


@pytest.mark.parametrize("contract", ALL_CONTRACTS)
def test_r9_6_single_contract_always_allowed(contract: Contract) -> None:
    for rules in (RuleSet(), ANY, ALL_FOUR):
        assert check_contracts(rules, [contract]) == (contract,)


def test_r9_6_any_allows_every_two_or_more_trick_contracts() -> None:
    for size in (2, 3, 4):
        for chosen in combinations(TRICK_CONTRACTS, size):
            assert check_contracts(ANY, list(reversed(chosen))) == chosen


def test_r9_6_all_four_canonical_order() -> None:
    assert check_contracts(ALL_FOUR, [C, D, Q, K]) == TRICK_CONTRACTS


# ---- R11: totals and the zero-sum check ------------------------------------------------------


def test_r11_default_contract_totals() -> None:
    totals = [expected_total(RuleSet(), [c]) for c in ALL_CONTRACTS]
    assert totals == [-75, -100, -130, -195, 500]


def test_r11_expected_total_without_captures_assumes_no_self_capture() -> None:
    caps = Captures(king_of_hearts=Capture(1, 1), queens=API_QUEENS)
    assert expected_total(DOUBLE, [K]) == -75
    assert expected_total(DOUBLE, [K], caps) == -150
    assert expected_total(DOUBLE, [Q], caps) == -125
    # Self-captures cost nothing extra when doubling is off or under "single".
    assert expected_total(RuleSet(), [K], caps) == -75
    no_doubling = RuleSet(doubling=False, doubled_self_capture=SelfCapture.DOUBLE)
    assert expected_total(no_doubling, [K], caps) == -75


@pytest.mark.parametrize(
    ("rules", "total"),
    [
        (RuleSet(), 0),
        (RuleSet(inverted=True), 0),
        (RuleSet(values=Values(diamond=15, trick=10)), 0),
        (RuleSet(values=INVERTED_TAIL), -100),
        (RuleSet(values=INVERTED_TAIL, inverted=True), 100),
        (RuleSet(values=Values(king=100)), -25),
        (DOUBLE, 0),
    ],
)
def test_r11_kingdom_total(rules: RuleSet, total: int) -> None:
    assert kingdom_total(rules) == total


SELF_CAPTURE_REASON = (
    "A doubled K♥ or queen taken by its own holder costs −150 / −50 with no bonus to anyone, "
    "so such a deal does not add up to its usual total."
)


@pytest.mark.parametrize(
    ("rules", "report"),
    [
        pytest.param(RuleSet(), (True, []), id="default"),
        pytest.param(RuleSet(inverted=True), (True, []), id="r9_8_inverted"),
        pytest.param(RuleSet(values=Values(diamond=15, trick=10)), (True, []), id="r9_7_swap"),
        pytest.param(RuleSet(doubling=False, doubled_self_capture=SelfCapture.DOUBLE),
                     (True, []), id="r3_double_without_doubling"),
        pytest.param(DOUBLE, (False, [SELF_CAPTURE_REASON]), id="r3_double_self_capture"),
        pytest.param(RuleSet(doubled_self_capture=SelfCapture.DOUBLE, inverted=True),
                     (False, ["A doubled K♥ or queen taken by its own holder costs 150 / 50 "
                              "with no bonus to anyone, so such a deal does not add up to its "
                              "usual total."]), id="r9_8_double_self_capture_inverted"),
        pytest.param(RuleSet(doubled_self_capture=SelfCapture.DOUBLE,
                             values=Values(king=0, queen=0, trix=(125, 100, 75, 25))),
                     (True, []), id="r9_7_double_self_capture_with_zero_values"),
        pytest.param(RuleSet(values=INVERTED_TAIL),
                     (False, ["The Trix awards total 400 while the penalties total −500, so a "
                              "kingdom adds up to −100, not 0."]), id="r7_inverted_tail"),
        pytest.param(RuleSet(values=INVERTED_TAIL, inverted=True),
                     (False, ["The Trix awards total −400 while the penalties total 500, so a "
                              "kingdom adds up to 100, not 0."]), id="r9_8_inverted_tail"),
        pytest.param(RuleSet(values=Values(king=100), doubled_self_capture=SelfCapture.DOUBLE),
                     (False, ["A doubled K♥ or queen taken by its own holder costs −200 / −50 "
                              "with no bonus to anyone, so such a deal does not add up to its "
                              "usual total.",
                              "The Trix awards total 500 while the penalties total −525, so a "
                              "kingdom adds up to −25, not 0."]), id="r9_7_two_reasons"),
    ],
)  # fmt: skip
def test_r11_zero_sum_report(rules: RuleSet, report: tuple[bool, list[str]]) -> None:
    assert zero_sum_report(rules) == report


# ---- Hypothesis properties -------------------------------------------------------------------

penalty_values = st.integers(0, 200)


@st.composite
def rule_sets(draw: st.DrawFn) -> RuleSet:
    values = Values(
        king=draw(penalty_values),
        queen=draw(penalty_values),
        diamond=draw(penalty_values),
        trick=draw(penalty_values),
        trix=tuple(draw(st.lists(st.integers(-500, 500), min_size=4, max_size=4))),  # type: ignore[arg-type]
    )
    return RuleSet(
        doubling=draw(st.booleans()),
        doubled_self_capture=draw(st.sampled_from(SelfCapture)),
        combination=draw(st.sampled_from(Combination)),
        inverted=draw(st.booleans()),
        partnership=draw(st.booleans()),
        values=values,
    )


@st.composite
def contract_choices(draw: st.DrawFn, rules: RuleSet) -> list[Contract]:
    """A contract choice the rule set allows (R9.6), in a random order."""
    chosen: list[Contract] = [draw(st.sampled_from(ALL_CONTRACTS))]
    if rules.combination is Combination.ALL_FOUR and draw(st.booleans()):
        chosen = list(TRICK_CONTRACTS)
    elif rules.combination is Combination.ANY and draw(st.booleans()):
        chosen = draw(st.lists(st.sampled_from(TRICK_CONTRACTS), min_size=2, max_size=4,
                               unique=True))  # fmt: skip
    return draw(st.permutations(chosen))


@st.composite
def played_captures(draw: st.DrawFn, rules: RuleSet, self_capture: bool = True) -> Captures:
    """The captures of a physically possible deal: 52 cards dealt into 13 won tricks."""
    winners = draw(st.lists(st.integers(0, 3), min_size=13, max_size=13))
    order = draw(st.permutations(range(52)))
    taker = [0] * 52
    for position, card in enumerate(order):
        taker[card] = winners[position // 4]
    diamonds = [0, 0, 0, 0]
    for card in range(Suit.DIAMONDS * 13, Suit.DIAMONDS * 13 + 13):
        diamonds[taker[card]] += 1

    def capture(index: int) -> Capture:
        holder = draw(st.none() | st.integers(0, 3)) if rules.doubling else None
        if not self_capture and holder == taker[index]:
            holder = None
        return Capture(taker[index], holder)

    queens = tuple(capture(q.index) for q in QUEENS)
    return Captures(
        king_of_hearts=capture(KING_OF_HEARTS.index),
        queens=queens,  # type: ignore[arg-type]
        diamonds=tuple(diamonds),  # type: ignore[arg-type]
        tricks=tuple(winners.count(s) for s in range(4)),  # type: ignore[arg-type]
        trix_order=tuple(draw(st.permutations(range(4)))),  # type: ignore[arg-type]
    )


@st.composite
def deals(draw: st.DrawFn) -> tuple[RuleSet, list[Contract], Captures]:
    rules = draw(rule_sets())
    return rules, draw(contract_choices(rules)), draw(played_captures(rules))


@given(deals())
def test_r11_every_valid_deal_scores_to_expected_total(
    deal: tuple[RuleSet, list[Contract], Captures],
) -> None:
    rules, contracts, captures = deal
    scores = score_deal(rules, contracts, captures)
    assert sum(scores) == expected_total(rules, contracts, captures)


@given(deals(), st.permutations(range(4)))
def test_r1_permuting_seats_permutes_scores(
    deal: tuple[RuleSet, list[Contract], Captures], seat_map: list[int]
) -> None:
    rules, contracts, captures = deal
    scores = score_deal(rules, contracts, captures)
    moved = score_deal(rules, contracts, captures.permuted(seat_map))
    assert [moved[seat_map[s]] for s in range(4)] == list(scores)


@st.composite
def zero_sum_rule_sets(draw: st.DrawFn) -> RuleSet:
    """Rule sets whose kingdom totals 0: the Trix awards balance the penalties (R11)."""
    rules = draw(rule_sets())
    v = rules.values
    penalties = v.king + 4 * v.queen + 13 * v.diamond + 13 * v.trick
    first = draw(st.lists(st.integers(-500, 1000), min_size=3, max_size=3))
    trix = (first[0], first[1], first[2], penalties - sum(first))
    return rules.with_changes(values=Values(v.king, v.queen, v.diamond, v.trick, trix))


@given(st.data())
def test_r11_a_kingdom_of_single_contracts_sums_to_zero(data: st.DataObject) -> None:
    rules = data.draw(zero_sum_rule_sets())
    assert kingdom_total(rules) == 0
    total = 0
    for contract in ALL_CONTRACTS:
        captures = data.draw(played_captures(rules, self_capture=False))
        total += sum(score_deal(rules, [contract], captures))
    assert total == 0
    zero_sum, reasons = zero_sum_report(rules)
    assert zero_sum == (not reasons)
    assert all("Trix awards" not in r for r in reasons)


# ---- R3, R4 house rule "quadruple" self-capture (seed 003/004) --------------------------------

QUADRUPLE = RuleSet(doubled_self_capture=SelfCapture.QUADRUPLE)


@pytest.mark.parametrize(
    ("contracts", "captures", "scores", "total"),
    [
        pytest.param([K], Captures(king_of_hearts=Capture(1, 1)), (0, -300, 0, 0), -300,
                     id="king_taken_by_holder"),
        pytest.param([K], Captures(king_of_hearts=Capture(2, 1)), (0, 75, -150, 0), -75,
                     id="king_taken_by_another"),
        pytest.param([Q], Captures(queens=API_QUEENS), (-25, -75, 0, -75), -175,
                     id="queen_taken_by_holder"),
    ],
)  # fmt: skip
def test_r3_r4_quadruple_self_capture(
    contracts: list[Contract], captures: Captures, scores: tuple[int, ...], total: int
) -> None:
    assert score_deal(QUADRUPLE, contracts, captures) == scores
    assert expected_total(QUADRUPLE, contracts, captures) == total


def test_r3_r4_quadruple_self_capture_in_all_four() -> None:
    rules = QUADRUPLE.with_changes(combination=Combination.ALL_FOUR)
    # COMPLEX: Q♥ doubled and taken by seat 1 costs −100 instead of −25.
    assert score_deal(rules, list(TRICK_CONTRACTS), COMPLEX) == (-50, -325, -75, -125)
    assert expected_total(rules, list(TRICK_CONTRACTS), COMPLEX) == -575


def test_r11_quadruple_self_capture_is_flagged_not_zero_sum() -> None:
    assert zero_sum_report(QUADRUPLE) == (
        False,
        [
            "A doubled K♥ or queen taken by its own holder costs −300 / −100 with no bonus to "
            "anyone, so such a deal does not add up to its usual total."
        ],
    )
    assert zero_sum_report(QUADRUPLE.with_changes(doubling=False)) == (True, [])
    assert kingdom_total(QUADRUPLE) == 0  # without self-captures the kingdom still adds up


def test_r3_quadruple_without_doubling_scores_plainly() -> None:
    rules = QUADRUPLE.with_changes(doubling=False)
    assert score_deal(rules, [K], Captures(king_of_hearts=Capture(1))) == (0, -75, 0, 0)
