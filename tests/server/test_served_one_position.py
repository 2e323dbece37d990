"""Two phones race on a kingdom's last deal under gunicorn, on SQLite and PostgreSQL.

Both typed deal 10 (the last of Sami's kingdom) and save at the same moment: one is
recorded, the other is told "deal 10 was recorded meanwhile" with the other entry,
and the game's log ends with exactly one deal 10 and no deal 11.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest

pytestmark = pytest.mark.served

TRIX = {"contracts": ["trix"], "captures": {"trix_order": [2, 0, 3, 1]}}
KING = {"contracts": ["king"], "captures": {"king_of_hearts": {"taker": 1, "doubled_by": None}}}
QUEENS = {
    "contracts": ["queens"],
    "captures": {
        "queens": {
            q: {"taker": i, "doubled_by": None} for i, q in enumerate(["QS", "QH", "QD", "QC"])
        }
    },
}
DIAMONDS = {"contracts": ["diamonds"], "captures": {"diamonds": [4, 3, 3, 3]}}
COLLECTIONS = {"contracts": ["collections"], "captures": {"tricks": [3, 3, 3, 4]}}
KINGDOM = [TRIX, KING, QUEENS, DIAMONDS, COLLECTIONS]


def race(
    server: Any, path: str, bodies: list[dict[str, Any]], headers: dict[str, str]
) -> list[Any]:
    """Each body sent by its own phone, all at the same moment; their answers."""
    barrier = threading.Barrier(len(bodies))
    answers: list[Any] = [None] * len(bodies)

    def send(i: int) -> None:
        client = server.client()
        barrier.wait()
        try:
            answers[i] = client.call("POST", path, bodies[i], headers)
        finally:
            client.close()

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(bodies))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return answers


def test_two_phones_save_a_kingdoms_last_deal_and_one_deal_is_recorded(
    serve: Any, database_url: str
) -> None:
    server = serve(database_url, workers=3, threads=4)
    client = server.client()
    for round_ in range(3):
        game_id, token, _ = client.new_game()
        auth = {"Authorization": f"Bearer {token}"}
        url = f"/api/v1/games/{game_id}/deals"
        for deal in KINGDOM + KINGDOM[:4]:
            status, _, _answer = client.call("POST", url, deal, auth)
            assert status == 201
        _, _, state = client.call("GET", f"/api/v1/games/{game_id}")
        version = state["version"]
        # Phone B counted one diamond differently: the same deal, typed twice.
        mine = {**COLLECTIONS, "position": {"n": 10, "king": 1, "game": game_id}}
        theirs = {**mine, "captures": {"tricks": [4, 3, 3, 3]}}
        bodies = [
            {**mine, "entry_id": f"phone-a-{round_}"},
            {**theirs, "entry_id": f"phone-b-{round_}"},
        ]
        headers = {**auth, "If-Match": f'"{version}"'} if round_ == 1 else auth
        answers = race(server, url, bodies, headers)
        statuses = sorted(status for status, _, _ in answers)
        assert statuses == [201, 409], answers
        refused = next(answer for status, _, answer in answers if status == 409)
        assert refused["errors"][0]["code"] == "deal_already_recorded"
        assert refused["other"]["deal"]["n"] == 10 and refused["same"] is False
        assert refused["other"]["entry_id"].startswith("phone-")
        assert refused["next"] == {"n": 11, "king": 2, "valid": True, "problems": []}
        _, _, state = client.call("GET", f"/api/v1/games/{game_id}")
        deals = [d["n"] for k in state["kingdoms"] for d in k["deals"]]
        assert deals == list(range(1, 11))  # exactly one deal 10, no phantom deal 11
        assert state["version"] == version + 1
    assert "Traceback" not in server.log_text()
