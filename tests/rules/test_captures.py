"""The summary-entry format of API.md: shape checks and round trips (R11)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.captures import Capture, Captures, needed_fields
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.errors import MalformedError

API_EXAMPLE = {
    "king_of_hearts": {"taker": 2, "doubled_by": 1},
    "queens": {
        "QS": {"taker": 1, "doubled_by": None},
        "QH": {"taker": 1, "doubled_by": 3},
        "QD": {"taker": 0, "doubled_by": None},
        "QC": {"taker": 3, "doubled_by": 3},
    },
    "diamonds": [3, 4, 6, 0],
    "tricks": [2, 5, 6, 0],
    "trix_order": [2, 0, 3, 1],
}


def test_r11_api_example_round_trips() -> None:
    captures = Captures.from_dict(API_EXAMPLE)
    assert captures.king_of_hearts == Capture(2, 1)
    assert captures.queens is not None and captures.queens[1] == Capture(1, 3)
    assert captures.to_dict() == API_EXAMPLE


def test_r4_queens_accept_other_spellings() -> None:
    raw = {"q♠": {"taker": 0}, "QH": {"taker": 1}, "Q♦": {"taker": 2}, "qc": {"taker": 3}}
    captures = Captures.from_dict({"queens": raw})
    assert captures.queens is not None
    assert [q.taker for q in captures.queens] == [0, 1, 2, 3]


def test_r11_only_given_fields_are_set() -> None:
    captures = Captures.from_dict({"diamonds": [13, 0, 0, 0], "queens": None})
    assert captures == Captures(diamonds=(13, 0, 0, 0))
    assert captures.to_dict() == {"diamonds": [13, 0, 0, 0]}


@pytest.mark.parametrize(
    ("raw", "code", "field"),
    [
        ([], "captures_shape", "captures"),
        ({"spades": [1, 2]}, "captures_unknown", "captures.spades"),
        ({"king_of_hearts": 2}, "capture_shape", "captures.king_of_hearts"),
        ({"king_of_hearts": {"taker": 4}}, "bad_seat", "captures.king_of_hearts.taker"),
        ({"king_of_hearts": {"taker": True}}, "bad_seat", "captures.king_of_hearts.taker"),
        (
            {"king_of_hearts": {"taker": 1, "doubled_by": "1"}},
            "bad_seat",
            "captures.king_of_hearts.doubled_by",
        ),
        (
            {"king_of_hearts": {"taker": 1, "by": 2}},
            "capture_unknown",
            "captures.king_of_hearts.by",
        ),
        ({"queens": [1, 2, 3, 4]}, "queens_shape", "captures.queens"),
        ({"queens": {"KS": {"taker": 1}}}, "queens_key", "captures.queens.KS"),
        ({"queens": {"QS": {"taker": 1}}}, "queen_missing", "captures.queens.QH"),
        (
            {
                "queens": {
                    "QS": {"taker": 1},
                    "qs": {"taker": 2},
                    "QH": {"taker": 1},
                    "QD": {"taker": 1},
                    "QC": {"taker": 1},
                }
            },
            "queen_twice",
            "captures.queens.QS",
        ),
        ({"diamonds": [1, 2, 3]}, "counts_shape", "captures.diamonds"),
        ({"tricks": [14, 0, 0, 0]}, "counts_shape", "captures.tricks"),
        ({"tricks": [1.5, 0, 0, 0]}, "counts_shape", "captures.tricks"),
        ({"trix_order": [0, 1, 2, 4]}, "trix_order_shape", "captures.trix_order"),
    ],
)
def test_r11_shape_errors_name_the_field(raw: Any, code: str, field: str) -> None:
    with pytest.raises(MalformedError) as caught:
        Captures.from_dict(raw)
    problems = {(p.code, p.field) for p in caught.value.problems}
    assert (code, field) in problems
    assert all(p.message.endswith(".") for p in caught.value.problems)


def test_r11_needed_fields_per_contract() -> None:
    assert needed_fields([Contract.KING]) == {"king_of_hearts"}
    assert needed_fields([Contract.COLLECTIONS]) == {"tricks"}
    assert needed_fields([Contract.TRIX]) == {"trix_order"}
    assert needed_fields([Contract.QUEENS, Contract.DIAMONDS]) == {"queens", "diamonds", "tricks"}


seats = st.integers(0, 3)
captures_strategy = st.builds(
    Captures,
    king_of_hearts=st.none() | st.builds(Capture, seats, st.none() | seats),
    queens=st.none() | st.tuples(*[st.builds(Capture, seats, st.none() | seats)] * 4),
    diamonds=st.none() | st.tuples(*[st.integers(0, 13)] * 4),
    tricks=st.none() | st.tuples(*[st.integers(0, 13)] * 4),
    trix_order=st.none() | st.permutations([0, 1, 2, 3]).map(tuple),
)


@given(captures_strategy)
def test_r11_captures_round_trip(captures: Captures) -> None:
    assert Captures.from_dict(captures.to_dict()) == captures


@given(captures_strategy, st.permutations([0, 1, 2, 3]))
def test_r1_permuting_twice_with_the_inverse_is_identity(
    captures: Captures, seat_map: list[int]
) -> None:
    inverse = [seat_map.index(s) for s in range(4)]
    assert captures.permuted(seat_map).permuted(inverse) == captures
