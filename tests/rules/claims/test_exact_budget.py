"""The ruling comes as soon as the claim is decided; the exact value has a budget of its own.

The position: six cards each in Collections, where the bounds decide the claims below
at once (no node searched: he cannot lose more than the 90 points left, nor make more
than 0), while the exact value (−45) takes some thousands of nodes. With an exact
budget of 0 s the search looks at the clock within its first 1,024 nodes and stops,
so the value is unknown whatever the machine's speed; with the whole time limit it
is found.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.rules.claims import check_claim
from scorekeeper.rules.errors import MalformedError

HANDS = {
    "0": "6S JS 4H TC JC QC",
    "1": "TS 7H 5D 3C 9C AC",
    "2": "AS 4D 8D 9D 6C KC",
    "3": "9S 8H TH KH 7D KD",
}
EXACT = -45
"""Seat 0's exact value from here (searched out in some 8,000 nodes)."""


def claim(min_score: int, **changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "contracts": ["collections"],
        "hands": {seat: cards.split() for seat, cards in HANDS.items()},
        "leader": 1,
        "claim": {"seat": 0, "min_score": min_score},
        "names": ["Rana", "Sami", "Omar", "Lina"],
        "time_limit": 60,
    }
    return body | changes


def test_a_decided_claim_is_answered_without_its_exact_value_past_the_budget() -> None:
    answer = check_claim(claim(-90, exact_time_limit=0))
    assert (answer["decided"], answer["holds"]) == (True, True)
    assert (answer["guaranteed"], answer["guaranteed_known"]) == (None, False)
    assert answer["message"] == (
        "The claim holds: Rana can make sure of at least −90 from here (whatever the others do)."
    )


def test_a_failing_claim_still_gets_its_line_without_the_exact_value() -> None:
    answer = check_claim(claim(15, exact_time_limit=0))
    assert (answer["decided"], answer["holds"]) == (True, False)
    assert (answer["guaranteed"], answer["guaranteed_known"]) == (None, False)
    assert len(answer["line"]) == 24  # played out to the end of the deal
    assert answer["verdict"]["part"] == "claim.fails_below"
    assert answer["message"] == "The claim fails: the others can keep Rana below 15; see the line."


def test_the_exact_value_is_found_within_a_budget_long_enough() -> None:
    holds = check_claim(claim(-90, exact_time_limit=60))
    fails = check_claim(claim(15, exact_time_limit=60))
    assert (holds["holds"], holds["guaranteed"], holds["guaranteed_known"]) == (True, EXACT, True)
    assert (fails["holds"], fails["guaranteed"], fails["guaranteed_known"]) == (False, EXACT, True)
    assert fails["message"] == "The claim fails: the others can hold Rana to −45; see the line."


@pytest.mark.parametrize("value", [-1, 61, "2", True, [2]])
def test_a_bad_exact_time_limit_is_refused_naming_it(value: object) -> None:
    with pytest.raises(MalformedError) as refused:
        check_claim(claim(0, exact_time_limit=value))
    (problem,) = refused.value.problems
    assert (problem.code, problem.field) == ("bad_exact_time_limit", "exact_time_limit")
