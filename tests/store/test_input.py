"""API request bodies to rules values (store/input.py): shapes only, refusals name the field."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.rules.captures import Capture, Captures
from scorekeeper.rules.errors import MalformedError
from scorekeeper.rules.game_log import DealEntry
from scorekeeper.store.input import parse_deal_body
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
