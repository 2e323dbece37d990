"""A whole Jordanian Complex game through the API (R9.6): every kingdom is the four trick
contracts at once and Trix, and a single trick contract is refused."""

from __future__ import annotations

from typing import Any

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
