"""API request bodies to rules values (store/input.py): shapes only, refusals name the field."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.captures import Capture, Captures
from scorekeeper.rules.errors import MalformedError
from scorekeeper.rules.game_log import DealEntry
from scorekeeper.store.input import check_storable, parse_deal_body, unstorable_field
from tests.common import K, T


def test_r11_a_deal_body_becomes_a_deal_entry() -> None:
    body = {"contracts": ["king"], "captures": {"king_of_hearts": {"taker": 2}}, "king": 0}
    assert parse_deal_body(body) == DealEntry((K,), Captures(king_of_hearts=Capture(2)), 0)
    trix = {"contracts": "trix", "captures": {"trix_order": [0, 1, 2, 3]}}
    assert parse_deal_body(trix) == DealEntry((T,), Captures(trix_order=(0, 1, 2, 3)))


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"contracts": ["kings"], "captures": {}}, "contracts.0"),
        ({"contracts": [], "captures": {}}, "contracts"),
        ({"contracts": ["king"]}, "captures"),
        (
            {"contracts": ["king"], "captures": {"king_of_hearts": {"taker": 5}}},
            "captures.king_of_hearts.taker",
        ),
        ({"contracts": ["king"], "captures": {}, "king": "0"}, "king"),
        ({"contracts": ["king"], "captures": {}, "scores": [1, 2, 3, 4]}, "scores"),
    ],
)
def test_a_deal_body_of_the_wrong_shape_is_refused_naming_the_field(
    body: dict[str, Any], field: str
) -> None:
    with pytest.raises(MalformedError) as caught:
        parse_deal_body(body)
    assert caught.value.problems[0].field == field


JSON_TEXT = st.text(alphabet=st.characters(codec=None, exclude_categories=()), max_size=8)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | JSON_TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(JSON_TEXT, inner, max_size=4),
    max_leaves=12,
)


@given(JSON_VALUES)
def test_the_quick_storable_check_agrees_with_the_field_by_field_one(value: Any) -> None:
    """The one-pass check (C JSON encoder) and the walk that names the field agree: a body
    is refused exactly when some text in it holds a NUL or a lone surrogate."""
    try:
        check_storable(value)
        refused = False
    except MalformedError:
        refused = True
    assert refused == (unstorable_field(value) is not None)
