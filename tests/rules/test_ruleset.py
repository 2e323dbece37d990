"""Rule sets: every house rule of R9 as a switch, API.md's "Rule set" format."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.errors import MalformedError
from scorekeeper.rules.ruleset import (
    PRESETS,
    SOURCE_PRESETS,
    Combination,
    HeartLead,
    KingdomOrder,
    RevokeRule,
    RuleSet,
    SelfCapture,
    Starter,
    Tiebreak,
    TrixRevoke,
    Values,
)

API_DEFAULTS = {
    "doubling": True,
    "doubled_self_capture": "single",
    "heart_lead": "free",
    "first_lead": "king",
    "trix_first": "king",
    "penalty_discard": False,
    "partnership": False,
    "combination": "off",
    "values": {"king": 75, "queen": 25, "diamond": 10, "trick": 15, "trix": [200, 150, 100, 50]},
    "inverted": False,
    "kingdom_order": "right",
    "king_order": None,
    "kingdoms": 4,
    "revoke": "remaining",
    "trix_revoke": "flag",
    "tiebreak": "trix_wins",
    "redeal_long_hearts": False,
    "dealer": "king",
    "first_dealer": None,
    "trix_closed_suit": "play_on",
    "team_kingdoms": False,
    "rounds": 1,
    "contract_order": None,
}


def test_r9_defaults_are_the_rulebook_defaults() -> None:
    assert RuleSet.from_dict({}).to_dict() == API_DEFAULTS
    assert RuleSet.from_dict(None) == RuleSet()


def test_r9_every_api_field_is_a_switch() -> None:
    api_fields = set(API_DEFAULTS) - {"redeal_long_hearts"}  # the one extension
    assert api_fields <= set(RuleSet().to_dict())


@pytest.mark.parametrize(
    ("data", "attribute", "expected"),
    [
        ({"doubling": False}, "doubling", False),
        ({"doubled_self_capture": "double"}, "doubled_self_capture", SelfCapture.DOUBLE),
        ({"doubled_self_capture": "quadruple"}, "doubled_self_capture", SelfCapture.QUADRUPLE),
        ({"heart_lead": "only_hearts"}, "heart_lead", HeartLead.ONLY_HEARTS),
        ({"heart_lead": "broken"}, "heart_lead", HeartLead.BROKEN),
        ({"first_lead": "right_of_king"}, "first_lead", Starter.RIGHT_OF_KING),
        ({"trix_first": "right_of_king"}, "trix_first", Starter.RIGHT_OF_KING),
        ({"penalty_discard": True}, "penalty_discard", True),
        ({"partnership": True}, "partnership", True),
        ({"combination": "all_four"}, "combination", Combination.ALL_FOUR),
        ({"combination": "any"}, "combination", Combination.ANY),
        ({"inverted": True}, "inverted", True),
        ({"kingdom_order": "seven_of_hearts"}, "kingdom_order", KingdomOrder.SEVEN_OF_HEARTS),
        ({"kingdom_order": "custom", "king_order": [2, 0, 3, 1]}, "king_order", (2, 0, 3, 1)),
        ({"kingdoms": 1}, "kingdoms", 1),
        ({"revoke": "whole"}, "revoke", RevokeRule.WHOLE),
        ({"trix_revoke": "last"}, "trix_revoke", TrixRevoke.LAST),
        ({"tiebreak": "extra_deal"}, "tiebreak", Tiebreak.EXTRA_DEAL),
        ({"redeal_long_hearts": True}, "redeal_long_hearts", True),
    ],
)
def test_r9_each_house_rule_parses(data: dict[str, Any], attribute: str, expected: Any) -> None:
    rules = RuleSet.from_dict(data)
    assert getattr(rules, attribute) == expected
    assert RuleSet.from_dict(rules.to_dict()) == rules
    assert set(rules.differences()) == set(data)


def test_r9_7_partial_values_keep_the_other_defaults() -> None:
    rules = RuleSet.from_dict({"values": {"diamond": 15, "trick": 10}})
    assert rules.values == Values(king=75, queen=25, diamond=15, trick=10)


def test_r9_7_inverted_trix_tail() -> None:
    rules = RuleSet.from_dict({"values": {"trix": [200, 150, 100, -50]}})
    assert rules.values.trix == (200, 150, 100, -50)


def test_r9_8_inverted_sign() -> None:
    assert RuleSet(inverted=True).sign == -1 and RuleSet().sign == 1


@pytest.mark.parametrize(
    ("data", "code", "field", "message"),
    [
        (
            {"colour": "red"},
            "rules_unknown_field",
            "rules.colour",
            "“colour” is not a house rule this app knows.",
        ),
        (
            {"doubling": "yes"},
            "rules_not_bool",
            "rules.doubling",
            "The house rule “doubling” must be true or false, not 'yes'.",
        ),
        (
            {"heart_lead": "never"},
            "rules_bad_value",
            "rules.heart_lead",
            'The house rule “heart_lead” cannot be \'never\'; use one of "free", "only_hearts", '
            '"broken".',
        ),
        (
            {"kingdoms": 2},
            "rules_kingdoms",
            "rules.kingdoms",
            "“kingdoms” must be 4 (full game) or 1 (short game), not 2.",
        ),
        (
            {"kingdoms": True},
            "rules_kingdoms",
            "rules.kingdoms",
            "“kingdoms” must be 4 (full game) or 1 (short game), not True.",
        ),
        (
            {"values": {"king": -5}},
            "rules_value_range",
            "rules.values.king",
            "The value of a king must be a whole number from 0 to 10000, not -5.",
        ),
        (
            {"values": {"queen": 2.5}},
            "rules_value_range",
            "rules.values.queen",
            "The value of a queen must be a whole number from 0 to 10000, not 2.5.",
        ),
        (
            {"values": {"trix": [200, 150, 100]}},
            "rules_trix_values",
            "rules.values.trix",
            "The Trix values must be four whole numbers, 1st to 4th place, not [200, 150, 100].",
        ),
        (
            {"values": {"jack": 5}},
            "rules_unknown_value",
            "rules.values.jack",
            "“jack” is not a point value; use king, queen, diamond, trick or trix.",
        ),
        (
            {"values": 5},
            "rules_values_shape",
            "rules.values",
            "“values” must be an object of point values.",
        ),
        (
            {"kingdom_order": "custom", "king_order": [0, 1, 2, 2]},
            "rules_king_order",
            "rules.king_order",
            "“king_order” must list the four seats 0–3 once each, not [0, 1, 2, 2].",
        ),
        (
            {"kingdom_order": "custom"},
            "rules_king_order_missing",
            "rules.king_order",
            "A custom kingdom order needs “king_order”: the four seats in the order they will be "
            "king.",
        ),
        (
            {"king_order": [0, 1, 2, 3]},
            "rules_king_order_unused",
            "rules.king_order",
            "“king_order” is only used with the custom kingdom order; set “kingdom_order” to "
            '"custom" or remove it.',
        ),
    ],
)
def test_r9_bad_rule_sets_are_refused(
    data: dict[str, Any], code: str, field: str, message: str
) -> None:
    with pytest.raises(MalformedError) as caught:
        RuleSet.from_dict(data)
    problem = caught.value.problems[0]
    assert (problem.code, problem.field, problem.message) == (code, field, message)
    assert problem.rule is not None and problem.rule.startswith("R")


def test_r9_every_bad_field_is_reported_at_once() -> None:
    with pytest.raises(MalformedError) as caught:
        RuleSet.from_dict({"colour": 1, "doubling": 0, "revoke": "none"})
    fields = sorted(p.field or "" for p in caught.value.problems)
    assert fields == ["rules.colour", "rules.doubling", "rules.revoke"]


@pytest.mark.parametrize("data", [[], "standard", 4])
def test_r9_rule_set_must_be_an_object(data: object) -> None:
    with pytest.raises(MalformedError) as caught:
        RuleSet.from_dict(data)
    assert caught.value.problems[0].code == "rules_shape"


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_r9_presets_are_plain_valid_rule_sets(name: str) -> None:
    preset = PRESETS[name]
    assert isinstance(preset, dict)
    assert RuleSet.from_dict(preset).differences() == preset


RULE_SETS = st.fixed_dictionaries(
    {},
    optional={
        "doubling": st.booleans(),
        "doubled_self_capture": st.sampled_from(["single", "double"]),
        "heart_lead": st.sampled_from(["free", "only_hearts", "broken"]),
        "first_lead": st.sampled_from(["king", "right_of_king"]),
        "trix_first": st.sampled_from(["king", "right_of_king"]),
        "penalty_discard": st.booleans(),
        "partnership": st.booleans(),
        "combination": st.sampled_from(["off", "all_four", "any"]),
        "values": st.fixed_dictionaries(
            {},
            optional={
                "king": st.integers(0, 10_000),
                "diamond": st.integers(0, 10_000),
                "trix": st.lists(st.integers(-10_000, 10_000), min_size=4, max_size=4),
            },
        ),
        "inverted": st.booleans(),
        "kingdoms": st.sampled_from([1, 4]),
        "revoke": st.sampled_from(["remaining", "whole"]),
        "trix_revoke": st.sampled_from(["flag", "last"]),
        "tiebreak": st.sampled_from(["trix_wins", "extra_deal"]),
    },
)


@given(RULE_SETS)
def test_r9_rule_sets_round_trip(data: dict[str, Any]) -> None:
    rules = RuleSet.from_dict(data)
    assert RuleSet.from_dict(rules.to_dict()) == rules
    assert RuleSet.from_dict(rules.differences()) == rules


NEW_SWITCHES = {
    "contract_order": None,
    "dealer": "king",
    "first_dealer": None,
    "trix_closed_suit": "play_on",
    "team_kingdoms": False,
    "rounds": 1,
}


@given(RULE_SETS)
def test_r9_rule_sets_from_before_keep_the_new_switches_off(data: dict[str, Any]) -> None:
    """A stored rule set of before this change parses as it did (the new switches off)."""
    rules = RuleSet.from_dict(data)
    assert set(rules.differences()) <= set(data)
    assert {k: rules.to_dict()[k] for k in NEW_SWITCHES} == NEW_SWITCHES
    assert rules.doubled_self_capture.multiplier in (1, 2)


# --- R2 house rule "fixed contract order" (seed 000/001) -----------------------------------

ORDER = ["trix", "queens", "king", "diamonds", "collections"]


def test_r2_fixed_contract_order_parses_and_round_trips() -> None:
    rules = RuleSet.from_dict({"contract_order": ORDER})
    assert [c.value for c in rules.contract_order or ()] == ORDER
    assert rules.to_dict()["contract_order"] == ORDER
    assert RuleSet.from_dict(rules.to_dict()) == rules
    assert RuleSet.from_dict({"contract_order": None}).contract_order is None


@pytest.mark.parametrize(
    "raw", [["trix", "king"], [*ORDER[:4], "trix"], "trix", [*ORDER, "king"], [1, 2, 3, 4, 5]]
)
def test_r2_fixed_contract_order_must_list_the_five_once(raw: object) -> None:
    with pytest.raises(MalformedError) as info:
        RuleSet.from_dict({"contract_order": raw})
    problem = info.value.problems[0]
    assert (problem.code, problem.rule, problem.field) == (
        "rules_contract_order",
        "R2",
        "rules.contract_order",
    )


@pytest.mark.parametrize("combination", ["any", "all_four"])
def test_r2_fixed_contract_order_refuses_combinations(combination: str) -> None:
    with pytest.raises(MalformedError) as info:
        RuleSet.from_dict({"contract_order": ORDER, "combination": combination})
    assert info.value.problems[0].message == (
        "A fixed contract order plays the five contracts one by one (R2), so it cannot go with "
        'combinations (R9.6); set “combination” to "off" or remove the order.'
    )


@pytest.mark.parametrize("name", [*SOURCE_PRESETS])
def test_r9_source_presets_are_valid_and_name_their_source(name: str) -> None:
    preset = SOURCE_PRESETS[name]
    rules = RuleSet.from_dict(dict(preset.rules))
    assert rules.differences() == preset.rules
    assert "seed" in preset.source.lower() and name not in PRESETS


def test_r9_6_jordanian_complex_preset_is_all_four_at_once() -> None:
    rules = RuleSet.from_dict(dict(SOURCE_PRESETS["jordanian_complex"].rules))
    assert rules.combination is Combination.ALL_FOUR
