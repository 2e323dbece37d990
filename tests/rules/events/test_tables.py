"""A club night's table: its first deal names the first king, the 7♥'s holder (R2)."""

from __future__ import annotations

import pytest

from scorekeeper.rules.captures import Captures
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.errors import IllegalError
from scorekeeper.rules.events.tables import first_king_from_deal, named_first_king
from scorekeeper.rules.game_log import DealEntry
from scorekeeper.rules.ruleset import RuleSet

TRIX = DealEntry((Contract.TRIX,), Captures(trix_order=(1, 0, 3, 2)))


@pytest.mark.parametrize(
    ("rules", "from_deal"),
    [
        ({}, True),
        ({"kingdom_order": "seven_of_hearts"}, True),
        ({"kingdom_order": "custom", "king_order": [2, 3, 0, 1]}, False),
    ],
)
def test_r2_only_an_agreed_kingdom_order_names_a_tables_first_king_beforehand(
    rules: dict[str, object], from_deal: bool
) -> None:
    assert first_king_from_deal(RuleSet.from_dict(rules)) is from_deal


def test_r2_a_first_deal_names_the_7h_holder_or_is_refused_saying_what_to_choose() -> None:
    assert named_first_king(DealEntry(TRIX.contracts, TRIX.captures, king=3)) == 3
    with pytest.raises(IllegalError) as refused:
        named_first_king(TRIX)
    [problem] = refused.value.problems
    assert (problem.code, problem.rule, problem.field) == ("first_king_needed", "R2", "king")
    assert problem.message == "Choose who was dealt the 7♥."
