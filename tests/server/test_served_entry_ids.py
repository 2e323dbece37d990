"""Exactly-once entries under gunicorn (3 workers), on SQLite and PostgreSQL.

Phones whose connection dropped before the answer send the same entry again,
sometimes all at once: the game gets the deal once, every copy is answered
with it, and a different deal under a used id is a 409.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest

pytestmark = pytest.mark.served

TRIX = {"contracts": ["trix"], "captures": {"trix_order": [2, 0, 3, 1]}}
KING = {"contracts": ["king"], "captures": {"king_of_hearts": {"taker": 1, "doubled_by": None}}}
COPIES = 8


def post_at_once(server: Any, path: str, body: dict[str, Any], token: str) -> list[Any]:
    """``COPIES`` threads send the same request at the same moment; their answers."""
    barrier = threading.Barrier(COPIES)
    answers: list[Any] = [None] * COPIES

    def send(i: int) -> None:
        client = server.client()
        barrier.wait()
        try:
            answers[i] = client.call("POST", path, body, {"Authorization": f"Bearer {token}"})
        finally:
            client.close()

    threads = [threading.Thread(target=send, args=(i,)) for i in range(COPIES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return answers


def test_copies_of_one_entry_sent_at_once_record_one_deal(serve: Any, database_url: str) -> None:
    server = serve(database_url, workers=3, threads=4)
    client = server.client()
    for round_ in range(3):
        game_id, token, _ = client.new_game()
        body = {**TRIX, "entry_id": f"phone-a-{round_}"}
        answers = post_at_once(server, f"/api/v1/games/{game_id}/deals", body, token)
        statuses = [status for status, _, _ in answers]
        assert statuses == [201] * COPIES, statuses
        deals = {str(answer["deal"]) for _, _, answer in answers}
        assert len(deals) == 1  # every copy is told of the same deal 1
        _, _, state = client.call("GET", f"/api/v1/games/{game_id}")
        assert state["version"] == 2
        assert [len(k["deals"]) for k in state["kingdoms"]] == [1]
    assert "Traceback" not in server.log_text()


def test_a_used_entry_id_with_another_deal_is_409_when_served(
    serve: Any, database_url: str
) -> None:
    server = serve(database_url, workers=2, threads=2)
    client = server.client()
    game_id, token, _ = client.new_game()
    auth = {"Authorization": f"Bearer {token}"}
    url = f"/api/v1/games/{game_id}/deals"
    status, _, first = client.call("POST", url, {**TRIX, "entry_id": "e-1"}, auth)
    assert status == 201
    status, _, again = client.call("POST", url, {**TRIX, "entry_id": "e-1"}, auth)
    assert status == 201 and again["deal"] == first["deal"]
    status, _, refused = client.call("POST", url, {**KING, "entry_id": "e-1"}, auth)
    assert status == 409 and refused["errors"][0]["code"] == "entry_id_reused"
    assert refused["game"]["version"] == 2  # nothing written; the game to catch up with
