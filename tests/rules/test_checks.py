"""The API's checks as plain functions (API.md "check/…"), without Flask."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.captures import Capture, Captures
from scorekeeper.rules.cards import ALL_CARDS, Card
from scorekeeper.rules.checks import check_deal, check_play, check_redeal, guess_kind
from scorekeeper.rules.deals import random_deal, random_trix
from scorekeeper.rules.errors import IllegalError, MalformedError
from scorekeeper.rules.game import DealEntry, Game
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.rules.wire import parse_hands, parse_plays
from tests.common import NAMES, C, D, K, Q, examples


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


# --- R2 dealer: the first lead (R10) and the first Trix turn (R7) count from the dealer -------

RIGHT_OF_DEALER = {"first_lead": "right_of_king", "trix_first": "right_of_king"}


def _trick_body(rules: dict[str, object], king: int, dealer: int, seed: int) -> dict[str, object]:
    rng = random.Random(seed)
    contracts = [rng.choice([K, Q, D, C])]
    hands, tricks = random_deal(rng, RuleSet.from_dict(rules), contracts, dealer)
    return {
        "rules": rules,
        "contracts": [contracts[0].value],
        "king": king,
        "dealer": dealer,
        "hands": [[str(c) for c in ALL_CARDS if c.bit & hand] for hand in hands],
        "tricks": [[str(ALL_CARDS[c]) for c in trick] for trick in tricks],
    }


def test_r2_r10_first_lead_counts_from_the_dealer() -> None:
    rules = {"dealer": "rotates", "first_dealer": 2, **RIGHT_OF_DEALER}
    body = _trick_body(rules, 0, 2, 7)
    assert body["tricks"][0][0] in body["hands"][3]  # type: ignore[index]
    answer = check_play(body)
    assert (answer["legal"], answer["void"]) == (True, False)
    assert answer["scores"] is not None
    with pytest.raises(MalformedError):  # counted from the king, seat 1 would lead
        check_play({**body, "dealer": None})


def test_r2_r7_first_trix_turn_counts_from_the_dealer() -> None:
    rules = {"dealer": "first_any", "first_dealer": 3, **RIGHT_OF_DEALER}
    hands, plays = random_trix(random.Random(3), RuleSet.from_dict(rules), 3)
    body = {
        "rules": rules,
        "contracts": ["trix"],
        "king": 1,
        "dealer": 3,
        "hands": [[str(c) for c in hand] for hand in hands],
        "plays": ["pass" if p is None else str(p) for p in plays],
    }
    answer = check_play(body)
    assert answer["legal"] and answer["scores"] is not None


def test_r2_dealer_other_than_the_king_needs_the_house_rule() -> None:
    body = _trick_body({}, 0, 0, 5)
    assert check_play(body)["legal"]
    with pytest.raises(IllegalError) as caught:
        check_play({**body, "dealer": 2, "names": ["Rana", "Sami", "Omar", "Lina"]})
    problem = caught.value.problems[0]
    assert (problem.code, problem.rule, problem.field) == ("dealer_not_king", "R2", "dealer")
    assert problem.message == (
        "Under these rules the king deals every deal (R2), so Rana dealt, not Omar."
    )


@settings(max_examples=examples(25), deadline=None)
@given(st.integers(0, 3), st.integers(0, 3), st.integers(0, 2**32))
def test_property_rotating_dealer_first_leader_is_the_dealers_right(
    first_king: int, first_dealer: int, seed: int
) -> None:
    rules = {"dealer": "rotates", "first_dealer": first_dealer, **RIGHT_OF_DEALER}
    game = Game.start(RuleSet.from_dict(rules), first_king, NAMES)
    rng = random.Random(seed)
    for _ in range(rng.randrange(1, 12)):
        dealer, king = game.current_dealer, game.current_king
        assert dealer is not None and king is not None
        body = _trick_body(rules, king, dealer, rng.randrange(2**32))
        leader = next(s for s in range(4) if body["tricks"][0][0] in body["hands"][s])  # type: ignore[index]
        assert leader == (dealer + 1) % 4 == game.first_to_play([K])
        assert check_play(body)["legal"]
        contract = game.available_contracts[0]
        captures = Captures(
            king_of_hearts=Capture(0), queens=(Capture(0),) * 4, diamonds=(13, 0, 0, 0),
            tricks=(13, 0, 0, 0), trix_order=(0, 1, 2, 3),
        )  # fmt: skip
        game = game.record(DealEntry((contract,), captures))


def test_r7_check_play_closed_suit_replays_answers_void() -> None:
    from tests.rules.test_trix import EARLY_HANDS, early_record

    body = {
        "rules": {"trix_closed_suit": "replay"},
        "contracts": ["trix"],
        "king": 0,
        "hands": [[str(c) for c in hand] for hand in EARLY_HANDS],
        "plays": ["pass" if p is None else str(p) for p in early_record()],
    }
    answer = check_play(body)
    assert {k: answer[k] for k in ("ok", "legal", "void", "scores")} == {
        "ok": True,
        "legal": True,
        "void": True,
        "scores": None,
    }
    assert answer["ruling"].endswith("the deal is void and is dealt again; nothing is scored.")
    assert check_play({**body, "rules": {}})["void"] is False
