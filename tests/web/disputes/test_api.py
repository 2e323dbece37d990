"""POST /api/v1/check/deal, /check/play, /check/redeal: API.md's wire format end to end."""

from __future__ import annotations

import random
from typing import Any

import pytest
from flask.testing import FlaskClient

from scorekeeper.rules.cards import ALL_CARDS
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.deals import random_deal, random_revoke_deal, random_trix
from scorekeeper.rules.ruleset import RuleSet

NAMES = ["Rana", "Sami", "Omar", "Lina"]


def post(client: FlaskClient, kind: str, body: Any) -> tuple[int, dict[str, Any]]:
    response = client.post(f"/api/v1/check/{kind}", json=body)
    assert response.is_json, response.data
    return response.status_code, response.get_json()


def as_strings(tricks: list[list[int]]) -> list[list[str]]:
    return [[str(ALL_CARDS[c]) for c in trick] for trick in tricks]


def hands_body(hands: list[int]) -> dict[str, list[str]]:
    return {str(s): [str(c) for c in ALL_CARDS if c.bit & hands[s]] for s in range(4)}


# --- check/deal --------------------------------------------------------------------------


def test_r3_doubled_king_taken_by_another_via_api(client: FlaskClient) -> None:
    status, body = post(
        client,
        "deal",
        {
            "rules": {},
            "contracts": ["king"],
            "king": 0,
            "captures": {"king_of_hearts": {"taker": 2, "doubled_by": 1}},
        },
    )
    assert status == 200
    assert body == {"ok": True, "scores": [0, 75, -150, 0], "total": -75, "expected_total": -75}


def test_r4_api_example_queens(client: FlaskClient) -> None:
    queens = {
        "QS": {"taker": 1, "doubled_by": None},
        "QH": {"taker": 1, "doubled_by": 3},
        "QD": {"taker": 0, "doubled_by": None},
        "QC": {"taker": 3, "doubled_by": 3},
    }
    status, body = post(
        client, "deal", {"contracts": ["queens"], "king": 0, "captures": {"queens": queens}}
    )
    assert status == 200
    assert body["scores"] == [-25, -75, 0, 0]
    assert body["total"] == body["expected_total"] == -100


def test_r7_inverted_tail_expected_total(client: FlaskClient) -> None:
    status, body = post(
        client,
        "deal",
        {
            "rules": {"values": {"trix": [200, 150, 100, -50]}},
            "contracts": ["trix"],
            "king": 3,
            "captures": {"trix_order": [2, 0, 3, 1]},
        },
    )
    assert status == 200
    assert body["scores"] == [150, -50, 200, 100]
    assert body["expected_total"] == 400


def test_r11_diamonds_sum_names_players(client: FlaskClient) -> None:
    status, body = post(
        client,
        "deal",
        {
            "contracts": ["diamonds"],
            "king": 0,
            "names": NAMES,
            "captures": {"diamonds": [3, 4, 5, 0]},
        },
    )
    assert status == 422
    assert body["ok"] is False
    assert body["errors"] == [
        {
            "rule": "R11",
            "field": "captures.diamonds",
            "code": "diamonds_sum",
            "message": "Diamonds must add up to 13; these add up to 12 "
            "(Rana 3, Sami 4, Omar 5, Lina 0).",
        }
    ]


@pytest.mark.parametrize(
    ("body", "field", "code"),
    [
        (
            {"contracts": ["king"], "king": 0, "captures": {"king_of_hearts": {"taker": 7}}},
            "captures.king_of_hearts.taker",
            "bad_seat",
        ),
        ({"contracts": ["kings"], "king": 0, "captures": {}}, "contracts.0", "bad_contract"),
        ({"contracts": ["king"], "king": 9, "captures": {}}, "king", "bad_seat"),
        ({"contracts": ["king"], "king": 0}, "captures", "missing_field"),
        (
            {"contracts": ["king", "queens"], "king": 0, "captures": {}},
            "contracts",
            "combination_off",
        ),
        (
            {"rules": {"doubling": "yes"}, "contracts": ["king"], "captures": {}},
            "rules.doubling",
            "rules_not_bool",
        ),
        (
            {"rules": {"colour": "red"}, "contracts": ["king"], "captures": {}},
            "rules.colour",
            "rules_unknown_field",
        ),
        (
            {"contracts": ["diamonds"], "captures": {"diamonds": [13, 0, 0, "0"]}},
            "captures.diamonds",
            "counts_shape",
        ),
        (
            {"contracts": ["trix"], "captures": {"trix_order": [0, 0, 1, 2]}},
            "captures.trix_order",
            "trix_order_not_permutation",
        ),
        ({"contracts": ["king"], "captures": {}, "extra": 1}, "extra", "unknown_field"),
    ],
)
def test_bad_deal_bodies_are_422_with_the_field(
    client: FlaskClient, body: dict[str, Any], field: str | None, code: str
) -> None:
    status, answer = post(client, "deal", body)
    assert status == 422
    assert answer["ok"] is False
    assert [e["code"] for e in answer["errors"]][0] == code
    assert answer["errors"][0]["field"] == field
    assert all(e["message"].endswith(".") for e in answer["errors"])


@pytest.mark.parametrize("raw", [b"not json", b"[1, 2]", b'"text"', b"null", b""])
def test_body_not_a_json_object_is_400(client: FlaskClient, raw: bytes) -> None:
    response = client.post("/api/v1/check/deal", data=raw, content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["errors"][0]["message"] == "The request body must be a JSON object."


def test_unknown_check_is_404_json(client: FlaskClient) -> None:
    status, body = post(client, "nothing", {})
    assert status == 404
    assert "deal, play, redeal" in body["errors"][0]["message"]


def test_check_route_refuses_get(client: FlaskClient) -> None:
    response = client.get("/api/v1/check/deal")
    assert response.status_code == 405
    assert response.get_json()["ok"] is False


# --- check/play --------------------------------------------------------------------------


def test_r10_legal_full_deal_scores_like_the_summary(client: FlaskClient) -> None:
    rules = RuleSet()
    hands, tricks = random_deal(random.Random(5), rules, [Contract.DIAMONDS], 2)
    status, body = post(
        client,
        "play",
        {
            "contracts": ["diamonds"],
            "king": 2,
            "hands": hands_body(hands),
            "tricks": as_strings(tricks),
        },
    )
    assert status == 200
    assert body["legal"] is True and body["violations"] == []
    diamonds = body["captures"]["diamonds"]
    assert sum(diamonds) == 13
    assert body["scores"] == [-10 * n for n in diamonds]
    _, summary = post(
        client, "deal", {"contracts": ["diamonds"], "king": 2, "captures": body["captures"]}
    )
    assert summary["scores"] == body["scores"]


def test_r10_injected_revoke_is_ruled_at_its_trick_and_seat(client: FlaskClient) -> None:
    rules = RuleSet()
    hands, tricks, (trick, seat, card) = random_revoke_deal(
        random.Random(11), rules, [Contract.COLLECTIONS], 0
    )
    status, body = post(
        client,
        "play",
        {
            "contracts": ["collections"],
            "king": 0,
            "hands": hands_body(hands),
            "tricks": as_strings(tricks),
            "names": NAMES,
        },
    )
    assert status == 200
    assert body["legal"] is False
    first = body["violations"][0]
    assert (first["trick"], first["seat"], first["card"]) == (trick, seat, str(ALL_CARDS[card]))
    assert first["rule"] == "R10"
    # "remaining": the offender takes every trick from the revoke's trick on.
    taken_before = body["captures"]["tricks"]
    assert body["scores"][seat] <= -15 * (13 - trick + 1)
    assert sum(body["scores"]) == -195
    assert NAMES[seat] in body["ruling"]
    assert sum(taken_before) == 13


def test_r10_whole_ruling_charges_the_whole_contract(client: FlaskClient) -> None:
    rules = RuleSet(revoke=RuleSet().revoke.__class__("whole"))
    hands, tricks, (_, seat, _) = random_revoke_deal(
        random.Random(3), rules, [Contract.DIAMONDS], 1
    )
    status, body = post(
        client,
        "play",
        {
            "rules": {"revoke": "whole"},
            "contracts": ["diamonds"],
            "king": 1,
            "hands": hands_body(hands),
            "tricks": as_strings(tricks),
        },
    )
    assert status == 200
    expected = [0, 0, 0, 0]
    expected[seat] = -130
    assert body["scores"] == expected


def test_incomplete_legal_record_has_no_scores(client: FlaskClient) -> None:
    hands, tricks = random_deal(random.Random(8), RuleSet(), [Contract.KING], 0)
    status, body = post(
        client,
        "play",
        {
            "contracts": ["king"],
            "king": 0,
            "hands": hands_body(hands),
            "tricks": as_strings(tricks[:5]),
        },
    )
    assert status == 200
    assert body["legal"] is True
    assert body["scores"] is None
    assert sum(body["captures"]["tricks"]) == 5


def test_r7_trix_play_record(client: FlaskClient) -> None:
    hands, plays = random_trix(random.Random(4), RuleSet(), 1)
    status, body = post(
        client,
        "play",
        {
            "contracts": ["trix"],
            "king": 1,
            "hands": {str(s): [str(c) for c in hands[s]] for s in range(4)},
            "plays": ["pass" if p is None else str(p) for p in plays],
        },
    )
    assert status == 200
    assert body["legal"] is True
    order = body["captures"]["trix_order"]
    assert sorted(order) == [0, 1, 2, 3]
    expected = [0, 0, 0, 0]
    for place, seat in enumerate(order):
        expected[seat] = (200, 150, 100, 50)[place]
    assert body["scores"] == expected


@pytest.mark.parametrize(
    ("body", "field", "code"),
    [
        (
            {"contracts": ["king"], "king": 0, "tricks": [["2C", "5C", "3C", "4C"]]},
            "tricks",
            "record_incomplete",
        ),
        ({"contracts": ["king"], "king": 0, "tricks": [["2C", "XX"]]}, "tricks.0.1", "bad_card"),
        ({"contracts": ["king"], "king": 0, "tricks": "2C 3C"}, "tricks", "tricks_shape"),
        (
            {"contracts": ["king"], "king": 0, "tricks": [], "hands": {"0": []}},
            "hands",
            "hands_shape",
        ),
        ({"contracts": ["trix"], "king": 0, "plays": ["JH", 7]}, "plays.1", "bad_card"),
        ({"contracts": ["king"], "tricks": []}, "king", "missing_field"),
    ],
)
def test_impossible_play_records_are_422(
    client: FlaskClient, body: dict[str, Any], field: str, code: str | None
) -> None:
    status, answer = post(client, "play", body)
    assert status == 422
    assert answer["ok"] is False
    assert answer["errors"][0]["field"] == field
    if code:
        assert answer["errors"][0]["code"] == code


# --- check/redeal ------------------------------------------------------------------------


def test_r8_redeal_only_ace_of_hearts(client: FlaskClient) -> None:
    hand = ["AH", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "2C", "3C", "4C"]
    status, body = post(client, "redeal", {"contract": "king", "hand": hand})
    assert status == 200
    assert body["ok"] is True and body["eligible"] is True
    assert "A♥" in body["reason"]


def test_r8_redeal_refused_with_reason(client: FlaskClient) -> None:
    hand = ["AH", "KH", "9H", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "2C", "3C", "4C"]
    status, body = post(client, "redeal", {"rules": {}, "contract": "king", "hand": hand})
    assert status == 200
    assert body["eligible"] is False
    assert body["reason"].endswith(".")


def test_r8_redeal_hand_must_be_13_cards(client: FlaskClient) -> None:
    status, body = post(client, "redeal", {"contract": "trix", "hand": ["2S", "2H"]})
    assert status == 422
    assert body["errors"][0]["field"] == "hand"


def test_card_played_twice_is_422(client: FlaskClient) -> None:
    hands, tricks = random_deal(random.Random(2), RuleSet(), [Contract.KING], 0)
    record = as_strings(tricks)
    record[1][1] = record[0][0]
    status, answer = post(
        client,
        "play",
        {"contracts": ["king"], "king": 0, "hands": hands_body(hands), "tricks": record},
    )
    assert status == 422
    assert answer["errors"][0]["field"].startswith("tricks.1")
    assert (
        record[0][0][0] in answer["errors"][0]["message"]
        or "twice" in answer["errors"][0]["message"]
    )


# --- the new house rules through the API --------------------------------------------------


def test_r2_check_play_dealer_counts_the_first_lead(client: FlaskClient) -> None:
    rules = {"dealer": "rotates", "first_dealer": 3, "first_lead": "right_of_king"}
    hands, tricks = random_deal(random.Random(11), RuleSet.from_dict(rules), [Contract.KING], 3)
    request = {
        "rules": rules,
        "contracts": ["king"],
        "king": 1,
        "dealer": 3,
        "hands": hands_body(hands),
        "tricks": as_strings(tricks),
    }
    status, body = post(client, "play", request)
    assert status == 200 and body["legal"] and body["void"] is False
    assert tricks[0][0] in [c.index for c in ALL_CARDS if c.bit & hands[0]]  # Rana leads
    status, body = post(client, "play", {**request, "rules": {}, "dealer": 2})
    assert status == 422 and body["errors"][0]["code"] == "dealer_not_king"


def test_r7_check_play_closed_suit_is_void(client: FlaskClient) -> None:
    from tests.rules.test_trix import EARLY_HANDS, early_record

    request = {
        "rules": {"trix_closed_suit": "replay"},
        "contracts": ["trix"],
        "king": 0,
        "hands": [[str(c) for c in hand] for hand in EARLY_HANDS],
        "plays": ["pass" if p is None else str(p) for p in early_record()],
    }
    status, body = post(client, "play", request)
    assert status == 200
    assert (body["ok"], body["legal"], body["void"], body["scores"]) == (True, True, True, None)


@pytest.mark.parametrize(
    ("rules", "field"),
    [
        ({"doubled_self_capture": "triple"}, "rules.doubled_self_capture"),
        ({"contract_order": ["trix"]}, "rules.contract_order"),
        ({"dealer": "rotates"}, "rules.first_dealer"),
        ({"team_kingdoms": True}, "rules.team_kingdoms"),
        ({"trix_closed_suit": "yes"}, "rules.trix_closed_suit"),
    ],
)
def test_new_house_rules_bad_values_are_422(
    client: FlaskClient, rules: dict[str, Any], field: str
) -> None:
    request = {"rules": rules, "contracts": ["trix"], "captures": {"trix_order": [0, 1, 2, 3]}}
    status, body = post(client, "deal", request)
    assert status == 422 and body["errors"][0]["field"] == field


def test_r3_quadruple_self_capture_via_api(client: FlaskClient) -> None:
    request = {
        "rules": {"doubled_self_capture": "quadruple"},
        "contracts": ["king"],
        "captures": {"king_of_hearts": {"taker": 1, "doubled_by": 1}},
    }
    status, body = post(client, "deal", request)
    assert status == 200
    assert (body["scores"], body["expected_total"]) == ([0, -300, 0, 0], -300)
