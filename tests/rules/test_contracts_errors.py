"""Contracts (R2–R7) and the engine's error values."""

from __future__ import annotations

import pytest

from scorekeeper.rules.contracts import (
    ALL_CONTRACTS,
    TRICK_CONTRACTS,
    Contract,
    canonical,
    describe,
)
from scorekeeper.rules.errors import (
    IllegalError,
    MalformedError,
    Problem,
    ProblemList,
    RulesError,
    StateError,
)


def test_r2_five_contracts_four_of_them_trick_contracts() -> None:
    assert [c.value for c in ALL_CONTRACTS] == ["king", "queens", "diamonds", "collections", "trix"]
    assert all(c.is_trick_contract for c in TRICK_CONTRACTS)
    assert not Contract.TRIX.is_trick_contract


def test_r2_contract_parse_and_labels() -> None:
    assert Contract.parse("collections") is Contract.COLLECTIONS
    assert Contract.KING.label == "King of Hearts"
    with pytest.raises(MalformedError) as caught:
        Contract.parse("hearts")
    assert caught.value.problems[0].message == (
        '“hearts” is not a contract; use one of "king", "queens", "diamonds", '
        '"collections", "trix".'
    )


def test_r9_6_canonical_order_and_description() -> None:
    chosen = [Contract.COLLECTIONS, Contract.KING, Contract.KING]
    assert canonical(chosen) == (Contract.KING, Contract.COLLECTIONS)
    assert describe(canonical(chosen)) == "King of Hearts + Collections"


def test_the_engines_errors_carry_no_http_status() -> None:
    """The web layer maps each kind of refusal to a status; the engine knows nothing of HTTP."""
    for kind in (RulesError, MalformedError, IllegalError, StateError):
        assert not hasattr(kind, "status")


def test_error_carries_rule_field_code_and_params_and_its_templates_sentence() -> None:
    error = IllegalError.one("contracts_empty", rule="R2", field="contracts", n=3)
    assert isinstance(error, RulesError)
    sentence = "Choose the contract of this deal."
    assert error.problems == (Problem("contracts_empty", sentence, "R2", "contracts", {"n": 3}),)
    assert error.problems[0].as_dict() == {
        "rule": "R2",
        "field": "contracts",
        "message": sentence,
        "code": "contracts_empty",
    }
    assert str(error) == sentence


def test_a_code_without_a_template_is_refused_when_the_problem_is_made() -> None:
    with pytest.raises(KeyError):
        IllegalError.one("no_such_code", rule="R11")
    with pytest.raises(KeyError):  # a template whose param is missing
        IllegalError.one("diamonds_sum", rule="R11", total=12)


def test_error_at_prefixes_fields() -> None:
    error = MalformedError.one("bad_card", field="3", text="Z").at("hands.2")
    assert isinstance(error, MalformedError)
    assert error.problems[0].field == "hands.2.3"
    assert MalformedError.one("entry_shape").at("tricks").problems[0].field == "tricks"


def test_problem_list_raises_all_at_once() -> None:
    problems = ProblemList()
    assert not problems
    problems.raise_if_any()  # nothing to raise
    problems.add("contracts_empty", rule="R2")
    problems.extend(IllegalError.one("entry_shape"))
    with pytest.raises(StateError) as caught:
        problems.raise_if_any(StateError)
    assert [p.code for p in caught.value.problems] == ["contracts_empty", "entry_shape"]


def test_an_error_needs_a_problem() -> None:
    with pytest.raises(ValueError):
        RulesError([])
