"""A whole Jordanian Complex game through the API (R9.6): every kingdom is the four trick
contracts at once and Trix, and a single trick contract is refused."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

API = "/api/v1"
PLAYERS = ["Rana", "Sami", "Omar", "Lina"]
COMPLEX = {
    "contracts": ["king", "queens", "diamonds", "collections"],
    "captures": {
        "king_of_hearts": {"taker": 0, "doubled_by": None},
        "queens": {
            q: {"taker": s, "doubled_by": None} for s, q in enumerate(("QS", "QH", "QD", "QC"))
        },
        "diamonds": [4, 3, 3, 3],
        "tricks": [4, 3, 3, 3],
    },
}
TRIX = {"contracts": ["trix"], "captures": {"trix_order": [2, 0, 3, 1]}}


def post(client: FlaskClient, url: str, token: str, body: dict[str, Any]) -> Any:
    return client.post(url, json=body, headers={"Authorization": f"Bearer {token}"})


def test_r9_6_whole_jordanian_complex_game_through_the_api(client: FlaskClient) -> None:
    created = client.post(
        f"{API}/games",
        json={"players": PLAYERS, "first_king": 1, "rules": {"combination": "all_four"}},
    ).get_json()
    url, token = f"{API}/games/{created['id']}", created["edit_token"]
    for k in range(4):
        state = client.get(url).get_json()
        assert state["current_king"] == (1 + k) % 4
        assert state["available_choices"] == [COMPLEX["contracts"], ["trix"]]
        alone = post(
            client, f"{url}/deals", token, {"contracts": ["king"], "captures": COMPLEX["captures"]}
        )
        assert alone.status_code == 409
        assert alone.get_json()["errors"][0]["rule"] == "R9.6"
        first, second = (COMPLEX, TRIX) if k % 2 == 0 else (TRIX, COMPLEX)
        assert post(client, f"{url}/deals", token, first).status_code == 201
        assert post(client, f"{url}/deals", token, second).status_code == 201
    final = client.get(url).get_json()
    assert final["finished"] and final["deals_played"] == 8
    assert sum(final["totals"]) == 0
    assert all(sum(k["totals"]) == 0 for k in final["kingdoms"])


CAPTURES = {
    "king": {"king_of_hearts": {"taker": 1, "doubled_by": 2}},
    "queens": {
        "queens": {
            "QS": {"taker": 0, "doubled_by": 0},  # taken by its own holder (R3, R4)
            "QH": {"taker": 1, "doubled_by": None},
            "QD": {"taker": 2, "doubled_by": None},
            "QC": {"taker": 3, "doubled_by": None},
        }
    },
    "diamonds": {"diamonds": [4, 3, 3, 3]},
    "collections": {"tricks": [1, 5, 4, 3]},
    "trix": {"trix_order": [2, 0, 3, 1]},
}


def play_out(client: FlaskClient, rules: dict[str, Any]) -> dict[str, Any]:
    """A whole game through the API under ``rules``: each deal plays the first contract the
    game offers (``available_choices``); the final state."""
    created = client.post(
        f"{API}/games", json={"players": PLAYERS, "first_king": 0, "rules": rules}
    ).get_json()
    assert "id" in created, created
    url, token = f"{API}/games/{created['id']}", created["edit_token"]
    for _ in range(40):
        state = client.get(url).get_json()
        if state["finished"]:
            return dict(state)
        contracts = state["available_choices"][0]
        captures: dict[str, Any] = {}
        for contract in contracts:
            captures |= CAPTURES[contract]
        answer = post(client, f"{url}/deals", token, {"contracts": contracts, "captures": captures})
        assert answer.status_code == 201, answer.get_json()
    raise AssertionError("the game did not end")


NEW_SWITCHES = {
    "r3_r4_quadruple_self_capture": {"doubled_self_capture": "quadruple"},
    "r2_fixed_contract_order": {
        "contract_order": ["trix", "queens", "king", "diamonds", "collections"]
    },
    "r2_first_deal_by_anyone": {"dealer": "first_any", "first_dealer": 2},
    "r2_dealer_rotates": {"dealer": "rotates", "first_dealer": 3},
    "r7_closed_suit_replays": {"trix_closed_suit": "replay"},
    "r9_5_team_kingdoms": {"partnership": True, "team_kingdoms": True},
    "r9_5_team_kingdoms_twice_round": {"partnership": True, "team_kingdoms": True, "rounds": 2},
}


@pytest.mark.parametrize("rules", NEW_SWITCHES.values(), ids=NEW_SWITCHES.keys())
def test_a_whole_game_through_the_api_under_each_new_house_rule(
    client: FlaskClient, rules: dict[str, Any]
) -> None:
    final = play_out(client, rules)
    assert final["rules"] | rules == final["rules"]  # the switches are kept
    kingdoms = 2 * rules.get("rounds", 1) if rules.get("team_kingdoms") else 4
    assert final["deals_played"] == 5 * kingdoms
    if "contract_order" in rules:
        for kingdom in final["kingdoms"]:
            played = [deal["contracts"][0] for deal in kingdom["deals"]]
            assert played == rules["contract_order"]
    if rules.get("doubled_self_capture") == "quadruple":
        assert sum(final["totals"]) == 4 * -75  # one queen swallowed by its holder each kingdom
    else:
        assert sum(final["totals"]) == 0
