"""The director's ways back through the API: reopen a closed event, undo a round's draw
before any deal, the co-director's token; a draw names the tables still playing; the
standings say which tie-break separated tied players."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from scorekeeper.store.events import controls as event_controls
from scorekeeper.store.events.services import table_token
from tests.web.events.test_api import EIGHT, Event, deal, kingdom


def error_code(answer: Any) -> str:
    return answer["errors"][0]["code"]


def test_a_closed_event_is_reopened_and_plays_on(client: FlaskClient) -> None:
    event = Event(client, round="kingdom")
    tables = event.draw()["tables"]
    assert client.post(f"{event.url}/close", headers=event.director()).json["closed"] is True
    assert deal(client, tables[0], kingdom()[0]).status_code == 409
    response = client.post(f"{event.url}/reopen", headers=event.director())
    assert response.status_code == 200 and response.json["closed"] is False
    assert deal(client, tables[0], kingdom()[0]).status_code == 201
    assert event.draw()["round"] == 2
    assert client.post(f"{event.url}/reopen").status_code == 401
    as_table = {"Authorization": f"Bearer {tables[0]['edit_token']}"}
    assert client.post(f"{event.url}/reopen", headers=as_table).status_code == 403


def test_a_draw_is_undone_while_no_table_has_a_deal(client: FlaskClient) -> None:
    event = Event(client, round="kingdom", rounds=3)
    first = event.draw()["tables"]
    second = event.draw()
    assert second["still_playing"] == [1, 2]  # round 1's tables had not finished
    refused = client.post(f"{event.url}/rounds/1/undo", headers=event.director())
    assert refused.status_code == 409 and error_code(refused.json) == "event_undo_not_last"
    response = client.post(f"{event.url}/rounds/2/undo", headers=event.director())
    assert response.status_code == 200, response.json
    assert [r["round"] for r in response.json["rounds_drawn"]] == [1]
    gone = second["tables"][0]
    assert client.get(f"/api/v1/games/{gone['game']}").status_code == 404
    assert event.draw()["round"] == 2  # drawn again
    assert deal(client, first[0], kingdom()[0]).status_code == 201
    assert client.post(f"{event.url}/rounds/2/undo", headers=event.director()).status_code == 200
    started = client.post(f"{event.url}/rounds/1/undo", headers=event.director())
    assert started.status_code == 409 and error_code(started.json) == "event_round_started"
    assert "a deal has been recorded at table 1" in started.json["errors"][0]["message"]
    missing = client.post(f"{event.url}/rounds/7/undo", headers=event.director())
    assert missing.status_code == 422 and error_code(missing.json) == "event_no_such_round"


def test_players_added_or_leaving_after_a_draw_count_for_it_once_undone(
    client: FlaskClient,
) -> None:
    event = Event(client, round="kingdom")
    event.draw()
    client.post(f"{event.url}/players", json={"name": "Late"}, headers=event.director())
    client.post(f"{event.url}/players/leave", json={"name": EIGHT[0]}, headers=event.director())
    client.post(f"{event.url}/rounds/1/undo", headers=event.director())
    drawn = event.draw()
    seated = [n for t in drawn["tables"] for n in t["players"]] + drawn["sitting_out"]
    assert "Late" in seated and EIGHT[0] not in seated and drawn["left_out"] == [EIGHT[0]]


def test_a_co_director_token_has_the_directors_rights_until_revoked(
    client: FlaskClient,
) -> None:
    event = Event(client, round="kingdom")
    response = client.post(f"{event.url}/co-director", headers=event.director())
    assert response.status_code == 201
    co = response.json["co_director_token"]
    assert co == event_controls.co_director_token(event.token, 1)
    as_co = {"Authorization": f"Bearer {co}"}
    drawn = client.post(f"{event.url}/rounds", headers=as_co)
    assert drawn.status_code == 201
    # The tables' tokens derive from the director's token, whoever draws.
    for table in drawn.json["tables"]:
        assert table["edit_token"] == table_token(event.token, table["game"])
    refused = client.post(f"{event.url}/co-director", headers=as_co)
    assert refused.status_code == 403
    assert client.delete(f"{event.url}/co-director", headers=as_co).status_code == 403
    assert client.delete(f"{event.url}/co-director", headers=event.director()).status_code == 200
    assert client.post(f"{event.url}/close", headers=as_co).status_code == 403
    again = client.post(f"{event.url}/co-director", headers=event.director()).json
    assert again["co_director_token"] not in (co, None)
    assert client.post(f"{event.url}/close", headers=as_co).status_code == 403


def test_standings_say_which_rule_separated_tied_players(client: FlaskClient) -> None:
    event = Event(client, round="kingdom", scoring="places")
    tables = event.draw()["tables"]
    assert deal(client, tables[0], kingdom()[0]).status_code == 201
    answer = event.get()
    lines = {s["player"]: s for s in answer["standings"]}
    assert all({"head_to_head", "score", "tie_break"} <= set(s) for s in lines.values())
    zero = next(t for t in answer["ties"] if t["points"] == 0)
    assert zero["rules"] == ["score", "shared"]
    assert set(zero["players"][1:]) == set(tables[1]["players"])
    assert [lines[n]["tie_break"] for n in zero["players"][1:]] == [
        "score",
        "shared",
        "shared",
        "shared",
    ]
