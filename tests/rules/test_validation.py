"""R11: consistency of a deal's captures, every message a player may see."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.captures import Capture, Captures
from scorekeeper.rules.contracts import TRICK_CONTRACTS, Contract
from scorekeeper.rules.errors import IllegalError, join_words
from scorekeeper.rules.ruleset import Combination, RuleSet
from scorekeeper.rules.validation import seat_name, validate_captures
from tests.common import NAMES, C, D, K, Q, T

NO_DOUBLING = RuleSet(doubling=False)


def queens(
    qs: int, qh: int, qd: int, qc: int, doubled: dict[int, int] | None = None
) -> tuple[Capture, Capture, Capture, Capture]:
    """Queens Q♠ Q♥ Q♦ Q♣ taken by these seats; ``doubled`` maps suit index to holder."""
    held = doubled or {}
    return (Capture(qs, held.get(0)), Capture(qh, held.get(1)), Capture(qd, held.get(2)),
            Capture(qc, held.get(3)))  # fmt: skip


def caps(**fields: object) -> Captures:
    return Captures(**fields)  # type: ignore[arg-type]


def problems_of(
    rules: RuleSet, contracts: list[Contract], captures: Captures
) -> list[tuple[str, str | None, str | None, str]]:
    with pytest.raises(IllegalError) as info:
        validate_captures(rules, contracts, captures, NAMES)
    return [(p.code, p.field, p.rule, p.message) for p in info.value.problems]


BAD = [
    pytest.param(
        RuleSet(), [K], caps(),
        ("missing_king_of_hearts", "captures.king_of_hearts", "R3",
         "Say who took the K♥ (King of Hearts)."),
        id="r3_missing_king_of_hearts",
    ),
    pytest.param(
        RuleSet(), [Q], caps(),
        ("missing_queens", "captures.queens", "R4",
         "Say who took each of the four queens (Queens)."),
        id="r4_missing_queens",
    ),
    pytest.param(
        RuleSet(), [D], caps(tricks=(4, 3, 3, 3)),
        ("missing_diamonds", "captures.diamonds", "R5",
         "Say how many diamonds each player took (Diamonds)."),
        id="r5_missing_diamonds",
    ),
    pytest.param(
        RuleSet(), [C], caps(diamonds=(4, 3, 3, 3)),
        ("missing_tricks", "captures.tricks", "R6",
         "Say how many tricks each player took (Collections)."),
        id="r6_missing_tricks",
    ),
    pytest.param(
        RuleSet(), [T], caps(),
        ("missing_trix_order", "captures.trix_order", "R7",
         "Say the order in which the players went out (Trix)."),
        id="r7_missing_trix_order",
    ),
    pytest.param(
        RuleSet(), [K, Q], caps(king_of_hearts=Capture(0), queens=queens(0, 1, 2, 3)),
        ("missing_tricks", "captures.tricks", "R9.6",
         "A combination needs the tricks each player took, to check the other captures."),
        id="r9_6_combination_needs_tricks",
    ),
    pytest.param(
        RuleSet(), [D], caps(diamonds=(5, 4, 3, 2)),
        ("diamonds_sum", "captures.diamonds", "R11",
         "Diamonds must add up to 13; these add up to 14 (Rana 5, Sami 4, Omar 3, Lina 2)."),
        id="r11_diamonds_too_many",
    ),
    pytest.param(
        RuleSet(), [D], caps(diamonds=(3, 4, 5, 0)),
        ("diamonds_sum", "captures.diamonds", "R11",
         "Diamonds must add up to 13; these add up to 12 (Rana 3, Sami 4, Omar 5, Lina 0)."),
        id="r11_diamonds_too_few",
    ),
    pytest.param(
        RuleSet(), [C], caps(tricks=(5, 4, 3, 2)),
        ("tricks_sum", "captures.tricks", "R11",
         "Tricks must add up to 13; these add up to 14 (Rana 5, Sami 4, Omar 3, Lina 2)."),
        id="r11_tricks_sum",
    ),
    pytest.param(
        RuleSet(), [T], caps(trix_order=(2, 0, 2, 1)),
        ("trix_order_not_permutation", "captures.trix_order", "R11",
         "The Trix order must name each player once; it names Omar twice and leaves out Lina."),
        id="r11_trix_order_repeated_seat",
    ),
    pytest.param(
        RuleSet(), [T], caps(trix_order=(0, 0, 0, 1)),
        ("trix_order_not_permutation", "captures.trix_order", "R11",
         "The Trix order must name each player once; it names Rana three times and leaves "
         "out Omar and Lina."),
        id="r11_trix_order_three_times",
    ),
    pytest.param(
        RuleSet(), [T], caps(trix_order=(1, 0, 1, 0)),
        ("trix_order_not_permutation", "captures.trix_order", "R11",
         "The Trix order must name each player once; it names Rana twice and Sami twice and "
         "leaves out Omar and Lina."),
        id="r11_trix_order_two_repeats",
    ),
    pytest.param(
        NO_DOUBLING, [K], caps(king_of_hearts=Capture(2, 1)),
        ("doubling_off", "captures.king_of_hearts.doubled_by", "R3",
         "Doubling is off under these house rules, so the K♥ cannot be doubled (here by Sami)."),
        id="r3_doubling_off_king",
    ),
    pytest.param(
        NO_DOUBLING, [Q], caps(queens=queens(0, 1, 2, 3, doubled={1: 3})),
        ("doubling_off", "captures.queens.QH.doubled_by", "R4",
         "Doubling is off under these house rules, so the Q♥ cannot be doubled (here by Lina)."),
        id="r4_doubling_off_queen",
    ),
    pytest.param(
        RuleSet(), [K], caps(king_of_hearts=Capture(0), tricks=(0, 5, 4, 4)),
        ("penalty_without_trick", "captures.tricks", "R11",
         "Rana took the K♥ but no trick; whoever takes a card takes at least one trick."),
        id="r11_king_taken_without_trick",
    ),
    pytest.param(
        RuleSet(), [Q], caps(queens=queens(1, 1, 2, 2), tricks=(4, 0, 5, 4)),
        ("penalty_without_trick", "captures.tricks", "R11",
         "Sami took the Q♠ and the Q♥ but no trick; whoever takes a card takes at least one "
         "trick."),
        id="r11_queens_taken_without_trick",
    ),
    pytest.param(
        RuleSet(), [D], caps(diamonds=(5, 4, 4, 0), tricks=(1, 4, 4, 4)),
        ("penalty_exceeds_tricks", "captures.tricks", "R11",
         "Rana took 5 penalty cards (5 diamonds) in only 1 trick; a trick holds at most 4 "
         "cards."),
        id="r11_diamonds_exceed_one_trick",
    ),
    pytest.param(
        RuleSet(combination=Combination.ANY),
        [K, Q, D],
        caps(king_of_hearts=Capture(2), queens=queens(2, 2, 0, 1), diamonds=(2, 2, 7, 2),
             tricks=(4, 4, 2, 3)),
        ("penalty_exceeds_tricks", "captures.tricks", "R11",
         "Omar took 10 penalty cards (the K♥, the Q♠, the Q♥ and 7 diamonds) in only 2 tricks; "
         "2 tricks hold at most 8 cards."),
        id="r9_6_combination_cards_exceed_tricks",
    ),
    pytest.param(
        RuleSet(), [Q, D], caps(queens=queens(0, 1, 3, 2), diamonds=(4, 4, 5, 0),
                                tricks=(4, 3, 3, 3)),
        ("queen_of_diamonds_not_counted", "captures.diamonds", "R11",
         "Lina took the Q♦, which is a diamond too, so Lina's diamonds cannot be 0."),
        id="r11_queen_of_diamonds_is_a_diamond",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("rules", "contracts", "captures", "expected"), BAD)
def test_r11_each_problem_is_reported(
    rules: RuleSet,
    contracts: list[Contract],
    captures: Captures,
    expected: tuple[str, str, str, str],
) -> None:
    assert problems_of(rules, contracts, captures) == [expected]


def test_r11_every_problem_is_reported_at_once() -> None:
    captures = Captures(
        king_of_hearts=Capture(0, 1),
        queens=queens(0, 1, 2, 3),
        diamonds=(4, 4, 4, 4),
        tricks=(3, 3, 3, 3),
    )
    rules = RuleSet(doubling=False, combination=Combination.ALL_FOUR)
    found = problems_of(rules, list(TRICK_CONTRACTS), captures)
    assert [(code, field) for code, field, _, _ in found] == [
        ("diamonds_sum", "captures.diamonds"),
        ("tricks_sum", "captures.tricks"),
        ("doubling_off", "captures.king_of_hearts.doubled_by"),
    ]


def test_r11_unknown_names_say_seat_n() -> None:
    with pytest.raises(IllegalError) as info:
        validate_captures(RuleSet(), [D], Captures(diamonds=(3, 4, 5, 0)))
    assert str(info.value) == (
        "Diamonds must add up to 13; these add up to 12 (seat 0: 3, seat 1: 4, seat 2: 5, "
        "seat 3: 0)."
    )
    params = info.value.problems[0].params
    assert (params["total"], params["counts"]) == (12, [3, 4, 5, 0])


def test_r11_problem_params_are_data() -> None:
    found = pytest.raises(
        IllegalError, validate_captures, RuleSet(), [T], Captures(trix_order=(0, 0, 0, 1))
    )
    params = found.value.problems[0].params
    assert (params["repeated"], params["missing"]) == ([0], [2, 3])


VALID = [
    pytest.param(RuleSet(), [K], Captures(king_of_hearts=Capture(2, 1)), id="r3_doubled"),
    pytest.param(RuleSet(), [K], Captures(king_of_hearts=Capture(2), tricks=(1, 0, 12, 0)),
                 id="r3_with_tricks"),
    pytest.param(RuleSet(), [Q], Captures(queens=queens(0, 0, 0, 0), tricks=(1, 4, 4, 4)),
                 id="r4_four_queens_in_one_trick"),
    pytest.param(NO_DOUBLING, [D], Captures(diamonds=(13, 0, 0, 0)), id="r5_all_diamonds"),
    pytest.param(RuleSet(), [C], Captures(tricks=(13, 0, 0, 0)), id="r6_all_tricks"),
    pytest.param(RuleSet(), [T], Captures(trix_order=(3, 2, 1, 0)), id="r7_order"),
    # Fields the contracts do not use are not checked.
    pytest.param(RuleSet(), [K], Captures(king_of_hearts=Capture(1), diamonds=(13, 13, 0, 0)),
                 id="r11_unused_field_ignored"),
    pytest.param(NO_DOUBLING, [T], Captures(trix_order=(0, 1, 2, 3),
                 king_of_hearts=Capture(1, 1)), id="r11_unused_doubling_ignored"),
    # Omar's one trick holds the Q♦ and three more diamonds: four cards, not five.
    pytest.param(RuleSet(), [Q, D], Captures(queens=queens(0, 1, 2, 3), diamonds=(3, 3, 4, 3),
                 tricks=(4, 4, 1, 4)), id="r9_6_queen_of_diamonds_counted_once"),
]  # fmt: skip


@pytest.mark.parametrize(("rules", "contracts", "captures"), VALID)
def test_r11_consistent_captures_pass(
    rules: RuleSet, contracts: list[Contract], captures: Captures
) -> None:
    validate_captures(rules, contracts, captures, NAMES)  # raises on any problem


@given(st.lists(st.integers(0, 13), min_size=4, max_size=4))
def test_r11_diamonds_accepted_exactly_when_they_add_up_to_13(counts: list[int]) -> None:
    captures = Captures(diamonds=(counts[0], counts[1], counts[2], counts[3]))
    if sum(counts) == 13:
        validate_captures(RuleSet(), [D], captures)
    else:
        with pytest.raises(IllegalError) as info:
            validate_captures(RuleSet(), [D], captures)
        assert [p.code for p in info.value.problems] == ["diamonds_sum"]
        assert info.value.problems[0].params["total"] == sum(counts)


@given(st.lists(st.integers(0, 3), min_size=4, max_size=4))
def test_r11_trix_order_accepted_exactly_when_a_permutation(order: list[int]) -> None:
    captures = Captures(trix_order=(order[0], order[1], order[2], order[3]))
    if sorted(order) == [0, 1, 2, 3]:
        validate_captures(RuleSet(), [T], captures)
    else:
        with pytest.raises(IllegalError) as info:
            validate_captures(RuleSet(), [T], captures)
        assert info.value.problems[0].params["missing"] == sorted({0, 1, 2, 3} - set(order))


def test_seat_name_and_join_words() -> None:
    assert seat_name(NAMES, 3) == "Lina"
    assert seat_name(None, 1) == "seat 1"
    assert seat_name(["Rana", ""], 1) == "seat 1"
    assert join_words([]) == ""
    assert join_words(["a", "b"]) == "a and b"
