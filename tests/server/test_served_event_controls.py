"""The director's ways back through the app as served (gunicorn), on SQLite and PostgreSQL:
a closed night reopens and its tables play on; a round's draw is undone before any deal,
its games gone, and drawn again; a co-director draws and is revoked."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.server.serving import Server
from tests.server.test_served_events import PLAYERS, create_event, draw
from tests.web.events.test_api import kingdom

Serve = Callable[..., Server]


@pytest.mark.served
def test_a_served_night_is_reopened_and_a_draw_undone(serve: Serve, database_url: str) -> None:
    server = serve(database_url, workers=2, threads=2)
    client = server.client()
    event_id, token = create_event(client, players=PLAYERS[:9], rounds=3)
    url, auth = f"/api/v1/events/{event_id}", {"Authorization": f"Bearer {token}"}
    first = draw(client, event_id, token)["tables"]
    status, _, event = client.call("POST", f"{url}/close", None, auth)
    assert status == 200 and event["closed"]
    table_auth = {"Authorization": f"Bearer {first[0]['edit_token']}"}
    deals = f"/api/v1/games/{first[0]['game']}/deals"
    assert client.call("POST", deals, kingdom()[0], table_auth)[0] == 409
    status, _, event = client.call("POST", f"{url}/reopen", None, auth)
    assert status == 200 and not event["closed"]
    assert client.call("POST", deals, kingdom()[0], table_auth)[0] == 201
    second = draw(client, event_id, token)
    assert second["still_playing"] == [1, 2]
    status, _, event = client.call("POST", f"{url}/rounds/2/undo", None, auth)
    assert status == 200, event
    assert [r["round"] for r in event["rounds_drawn"]] == [1]
    status, _, _ = client.call("GET", f"/api/v1/games/{second['tables'][0]['game']}")
    assert status == 404
    assert draw(client, event_id, token)["round"] == 2
    status, _, answer = client.call("POST", f"{url}/rounds/1/undo", None, auth)
    assert status == 409 and answer["errors"][0]["code"] == "event_undo_not_last"
    status, _, answer = client.call("POST", f"/api/v1/events/{event_id}/co-director", None, auth)
    assert status == 201
    as_co = {"Authorization": f"Bearer {answer['co_director_token']}"}
    assert client.call("POST", f"{url}/rounds/2/undo", None, as_co)[0] == 200
    assert client.call("DELETE", f"{url}/co-director", None, auth)[0] == 200
    assert client.call("POST", f"{url}/rounds", None, as_co)[0] == 403
    assert "Traceback" not in server.log_text()
