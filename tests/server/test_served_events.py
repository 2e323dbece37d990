"""A club night through the app as served (gunicorn, gunicorn.conf.py), on SQLite and
PostgreSQL: tables recording at once through several workers, every deal reaching the
standings; and two servers sharing one PostgreSQL."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

from tests.server.serving import Client, Server
from tests.web.events.test_api import kingdom

pytestmark = pytest.mark.served

Serve = Callable[..., Server]
PLAYERS = [f"Player {i}" for i in range(18)]


def create_event(client: Client, **body: Any) -> tuple[str, str]:
    status, _, answer = client.call(
        "POST",
        "/api/v1/events",
        {"name": "Served night", "players": PLAYERS, "round": "kingdom", "seed": 5, **body},
    )
    assert status == 201, answer
    return answer["id"], answer["director_token"]


def draw(client: Client, event_id: str, token: str) -> dict[str, Any]:
    auth = {"Authorization": f"Bearer {token}"}
    status, _, answer = client.call("POST", f"/api/v1/events/{event_id}/rounds", None, auth)
    assert status == 201, answer
    return answer


def play_tables(server: Server, tables: list[dict[str, Any]]) -> list[str]:
    """Every table plays its kingdom at the same time, each through its own connection."""
    failures: list[str] = []

    def play(table: dict[str, Any]) -> None:
        client = server.client()
        auth = {"Authorization": f"Bearer {table['edit_token']}"}
        for body in kingdom():
            status, _, answer = client.call(
                "POST", f"/api/v1/games/{table['game']}/deals", body, auth
            )
            if status != 201:
                failures.append(f"{status} {answer}")
        client.close()

    threads = [threading.Thread(target=play, args=(t,)) for t in tables]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return failures


def totals_of(client: Client, tables: list[dict[str, Any]]) -> dict[str, int]:
    totals: dict[str, int] = {}
    for table in tables:
        status, _, state = client.call("GET", f"/api/v1/games/{table['game']}")
        assert status == 200 and state["finished"]
        totals.update(zip(state["players"], state["totals"], strict=True))
    return totals


def test_a_served_club_night_keeps_every_deal_of_tables_playing_at_once(
    serve: Serve, database_url: str
) -> None:
    server = serve(database_url, workers=2, threads=4)
    client = server.client()
    event_id, token = create_event(client)
    first = draw(client, event_id, token)
    assert len(first["tables"]) == 4 and len(first["sitting_out"]) == 2
    assert play_tables(server, first["tables"]) == []
    status, headers, event = client.call("GET", f"/api/v1/events/{event_id}")
    assert status == 200
    points = {s["player"]: s["points"] for s in event["standings"]}
    for name, total in totals_of(client, first["tables"]).items():
        assert points[name] == total
    assert all(t["state"]["deals_played"] == 5 for t in event["rounds_drawn"][0]["tables"])
    etag = headers["etag"]
    status, _, _ = client.call(
        "GET", f"/events/{event_id}/board/live", None, {"If-None-Match": etag}
    )
    assert status == 304
    second = draw(client, event_id, token)
    assert set(second["sitting_out"]).isdisjoint(first["sitting_out"])
    status, headers, _ = client.call("GET", f"/events/{event_id}/results.pdf")
    assert status == 200 and headers["content-type"] == "application/pdf"


def test_two_servers_on_one_postgresql_see_each_others_deals(
    serve: Serve, postgres_url: str
) -> None:
    one, other = serve(postgres_url, workers=1), serve(postgres_url, workers=1)
    writer, reader = one.client(), other.client()
    event_id, token = create_event(writer, players=PLAYERS[:8])
    tables = draw(writer, event_id, token)["tables"]
    status, headers, _ = reader.call("GET", f"/api/v1/events/{event_id}")
    assert status == 200
    etag = headers["etag"]
    auth = {"Authorization": f"Bearer {tables[0]['edit_token']}"}
    status, _, _ = writer.call(
        "POST", f"/api/v1/games/{tables[0]['game']}/deals", kingdom()[0], auth
    )
    assert status == 201
    status, _, event = reader.call(
        "GET", f"/api/v1/events/{event_id}", None, {"If-None-Match": etag}
    )
    assert status == 200
    assert event["rounds_drawn"][0]["tables"][0]["state"]["deals_played"] == 1
    status, _, _ = reader.call(
        "GET", f"/events/{event_id}/board/live", None, {"If-None-Match": etag}
    )
    assert status == 200


@pytest.mark.parametrize("who", ["nobody", "a table"])
def test_served_director_writes_refuse_other_tokens(
    serve: Serve, sqlite_url: str, who: str
) -> None:
    client = serve(sqlite_url, workers=1).client()
    event_id, token = create_event(client, players=PLAYERS[:8])
    tables = draw(client, event_id, token)["tables"]
    headers = {} if who == "nobody" else {"Authorization": f"Bearer {tables[0]['edit_token']}"}
    status, _, answer = client.call("POST", f"/api/v1/events/{event_id}/rounds", None, headers)
    assert status == (401 if who == "nobody" else 403), answer
