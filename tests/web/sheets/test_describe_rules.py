"""describe_rules: every house rule (R9) that differs from the default, in one sentence."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import pytest

from scorekeeper.rules.ruleset import RuleSet, Values
from scorekeeper.web.sheets.content import describe_rules

GOLDEN: list[tuple[dict[str, Any], list[str]]] = [
    ({}, ["Standard rules."]),
    ({"doubling": False}, ["No doubling of the K♥ and queens (R3, R4)."]),
    (
        {"doubled_self_capture": "double"},
        ["A doubled K♥ or queen taken by its own holder costs double (−150 / −50) (R3, R4)."],
    ),
    (
        {"doubling": False, "doubled_self_capture": "double"},
        ["No doubling of the K♥ and queens (R3, R4)."],
    ),
    ({"heart_lead": "only_hearts"}, ["No heart lead unless the leader holds only hearts (R3)."]),
    (
        {"heart_lead": "broken"},
        [
            "No heart lead until a heart has been discarded on another suit, "
            "unless the leader holds only hearts (R3)."
        ],
    ),
    (
        {"first_lead": "right_of_king"},
        ["The player on the king's right leads the first trick (R10)."],
    ),
    ({"trix_first": "right_of_king"}, ["The player on the king's right plays first in Trix (R7)."]),
    (
        {"penalty_discard": True},
        [
            "Penalty discard: a player who cannot follow suit must discard the K♥, "
            "a diamond or a queen if that hand holds one (R9.4)."
        ],
    ),
    ({"partnership": True}, ["Partnership: seats 1+3 against 2+4 (R9.5)."]),
    (
        {"combination": "all_four"},
        ["Trex Complex: all four trick contracts in one deal (R9.6)."],
    ),
    (
        {"combination": "any"},
        ["Trex Complex: two or more trick contracts in one deal (R9.6)."],
    ),
    ({"values": {"diamond": 15, "trick": 10}}, ["Diamond 15, trick 10 (R9.7)."]),
    ({"values": {"king": 100, "queen": 30}}, ["K♥ 100, queen 30 (R9.7)."]),
    ({"values": {"trix": [250, 150, 100, 0]}}, ["Trix 250/150/100/0 (R9.7)."]),
    (
        {"values": {"trix": [200, 150, 100, -50]}},
        ["Inverted Trix tail: the last player out scores −50 (R7)."],
    ),
    (
        {"inverted": True},
        ["Inverted signs: every score is negated and the lowest total wins (R9.8)."],
    ),
    (
        {"kingdom_order": "seven_of_hearts"},
        [
            "Whoever is dealt the 7♥ on a kingdom's first deal is its king, or the nearest player "
            "to the right who has not been king (R2)."
        ],
    ),
    (
        {"kingdom_order": "custom", "king_order": [2, 0, 1, 3]},
        ["Kings in an agreed order: seats 3, 1, 2, 4 (R2)."],
    ),
    ({"kingdoms": 1}, ["Short game: one kingdom of five deals (R2, R9.9)."]),
    (
        {"revoke": "whole"},
        [
            "Revoke: the deal is scored as if the offender had taken all 13 tricks; a doubling "
            "bonus still goes to the card's holder (R10)."
        ],
    ),
    (
        {"trix_revoke": "last"},
        ["A Trix player who passes holding a legal play finishes last (R10)."],
    ),
    ({"tiebreak": "extra_deal"}, ["A tie for first is decided at once by an extra deal (R12)."]),
    (
        {"redeal_long_hearts": True},
        [
            "In King of Hearts, a hand of five or more hearts with the K♥ may also ask "
            "for a redeal (R8)."
        ],
    ),
    (
        {"doubled_self_capture": "quadruple"},
        [
            "A doubled K♥ or queen taken by its own holder costs four times its value "
            "(−300 / −100) (R3, R4)."
        ],
    ),
    (
        {"contract_order": ["trix", "queens", "king", "diamonds", "collections"]},
        [
            "Fixed contract order: every king plays Trix, Queens, King of Hearts, Diamonds, "
            "Collections, in that order (R2)."
        ],
    ),
    (
        {"dealer": "first_any", "first_dealer": 2},
        [
            "Player 3 deals the first deal, then the king deals; the first lead and the first "
            "turn in Trix count from the dealer (R2)."
        ],
    ),
    (
        {"dealer": "rotates", "first_dealer": 0},
        [
            "Player 1 deals first, then the deal passes to the right every deal; the first lead "
            "and the first turn in Trix count from the dealer (R2)."
        ],
    ),
    (
        {"trix_closed_suit": "replay"},
        [
            "Closed suit replays: a Trix deal in which a suit is closed before every Jack is "
            "laid is void and dealt again, and Trix is not used up (R7)."
        ],
    ),
    (
        {"partnership": True, "team_kingdoms": True, "rounds": 2},
        [
            "Partnership: seats 1+3 against 2+4 (R9.5).",
            "Team kingdoms: partners share a kingdom, and the kingdoms alternate between the "
            "teams; two kingdoms of five deals, or four when played twice round (R9.5).",
            "Twice round: four team kingdoms, 20 deals (R9.5).",
        ],
    ),
]


def bare(text: str) -> str:
    """Text as read: without the isolates that keep names in their place."""
    return text.translate({0x2066: None, 0x2067: None, 0x2068: None, 0x2069: None})


@pytest.mark.parametrize(("rules", "expected"), GOLDEN, ids=lambda v: str(v)[:40])
def test_golden(rules: dict[str, Any], expected: list[str]) -> None:
    assert describe_rules(RuleSet.from_dict(rules)) == expected


def test_every_house_rule_has_a_golden_case() -> None:
    covered = {key for rules, _ in GOLDEN for key in rules}
    assert covered == {f.name for f in fields(RuleSet)}


def test_several_rules_keep_the_rule_set_order() -> None:
    rules = RuleSet.from_dict({"doubling": False, "partnership": True, "kingdoms": 1})
    assert describe_rules(rules) == [
        "No doubling of the K♥ and queens (R3, R4).",
        "Partnership: seats 1+3 against 2+4 (R9.5).",
        "Short game: one kingdom of five deals (R2, R9.9).",
    ]


def test_r2_the_first_dealer_is_named_when_the_names_are_known() -> None:
    rules = RuleSet.from_dict({"dealer": "rotates", "first_dealer": 2})
    assert bare(describe_rules(rules, ["Rana", "Sami", "Omar", "Lina"])[0]).startswith(
        "Omar deals first, then the deal passes to the right every deal"
    )


def test_inverted_signs_flip_the_self_capture_costs() -> None:
    rules = RuleSet.from_dict({"doubled_self_capture": "double", "inverted": True})
    assert describe_rules(rules)[0] == (
        "A doubled K♥ or queen taken by its own holder costs double (150 / 50) (R3, R4)."
    )


def test_values_and_inverted_tail_together() -> None:
    rules = RuleSet(values=Values(diamond=15, trix=(200, 150, 100, -50)))
    assert describe_rules(rules) == [
        "Diamond 15 (R9.7).",
        "Inverted Trix tail: the last player out scores −50 (R7).",
    ]
