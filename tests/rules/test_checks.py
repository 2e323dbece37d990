"""The API's checks as plain functions (API.md "check/…"), without Flask."""

from __future__ import annotations

import random

import pytest

from scorekeeper.rules.cards import Card
from scorekeeper.rules.checks import check_deal, check_play, check_redeal, guess_kind
from scorekeeper.rules.deals import random_trix
from scorekeeper.rules.errors import IllegalError, MalformedError
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.rules.wire import parse_hands, parse_plays


@pytest.mark.parametrize(
    ("body", "kind"),
    [
        ({"hand": []}, "redeal"),
        ({"claim": {}}, "claim"),
        ({"tricks": []}, "play"),
        ({"plays": []}, "play"),
        ({"captures": {}}, "deal"),
    ],
)
def test_guess_kind(body: dict[str, object], kind: str) -> None:
    assert guess_kind(body) == kind


def test_r9_6_combination_scores_every_contract() -> None:
    body = {
        "rules": {"combination": "any"},
        "contracts": ["diamonds", "collections"],
        "king": 0,
        "captures": {"diamonds": [13, 0, 0, 0], "tricks": [4, 3, 3, 3]},
    }
    answer = check_deal(body)
    assert answer["scores"] == [-130 - 60, -45, -45, -45]
    assert answer["total"] == answer["expected_total"] == -325


def test_r9_6_combination_refused_when_off() -> None:
    with pytest.raises(IllegalError) as caught:
        check_deal({"contracts": ["diamonds", "collections"], "captures": {}})
    assert caught.value.problems[0].field == "contracts"


def test_r9_8_inverted_signs() -> None:
    answer = check_deal(
        {
            "rules": {"inverted": True},
            "contracts": ["trix"],
            "captures": {"trix_order": [0, 1, 2, 3]},
        }
    )
    assert answer["scores"] == [-200, -150, -100, -50]
    assert answer["expected_total"] == -500


def test_hands_as_a_list_or_an_object() -> None:
    hands = [["2S"], ["3S"], ["4S"], ["5S"]]
    as_object = {str(s): hand for s, hand in enumerate(hands)}
    assert parse_hands(hands) == parse_hands(as_object) == [[Card.parse(h[0])] for h in hands]
    with pytest.raises(MalformedError):
        parse_hands({"0": [], "1": [], "2": []})


def test_r7_plays_read_cards_and_passes() -> None:
    assert parse_plays(["JH", "pass", "10♦", "PASS"]) == [
        Card.parse("JH"),
        None,
        Card.parse("TD"),
        None,
    ]
    with pytest.raises(MalformedError) as caught:
        parse_plays(["JH", "skip", 7])
    assert [p.field for p in caught.value.problems] == ["plays.1", "plays.2"]
    with pytest.raises(MalformedError):
        parse_plays("JH pass")


def test_r7_trix_without_hands_when_complete() -> None:
    hands, plays = random_trix(random.Random(9), RuleSet(), 2)
    answer = check_play(
        {
            "contracts": ["trix"],
            "king": 2,
            "plays": ["pass" if p is None else str(p) for p in plays],
        }
    )
    assert answer["legal"] is True
    assert sum(answer["scores"]) == 500


def test_r8_redeal_answer_has_a_code() -> None:
    hand = ["KH", "AH", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "2C", "3C", "4C"]
    answer = check_redeal({"contract": "king", "hand": hand})
    assert answer == {
        "ok": True,
        "eligible": True,
        "reason": answer["reason"],
        "code": "king_and_ace_of_hearts",
    }


def test_unknown_fields_are_refused() -> None:
    with pytest.raises(MalformedError) as caught:
        check_redeal({"contract": "king", "hand": [], "colour": "red"})
    assert caught.value.problems[0].field == "colour"
