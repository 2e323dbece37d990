"""The director's changes to a club night as served (gunicorn, gunicorn.conf.py), on SQLite
and PostgreSQL: a player who leaves is replaced or the round's tables not started are drawn
again; a table's first deal names its first king (the 7♥ holder); the director corrects a
table's deal through the normal deal form (logged as the director's), which the table's own
phone cannot do once the round is locked."""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Callable

import pytest

from tests.server.serving import Server
from tests.server.test_served_forms import TOKEN, Browser
from tests.web.events.test_api import kingdom

pytestmark = pytest.mark.served

Serve = Callable[..., Server]
NINE = ["Rana", "Sami", "Omar", "Lina", "Hadi", "Maya", "Nour", "Ziad", "Dana"]


def test_a_served_club_night_replaces_a_player_and_draws_a_round_again(
    serve: Serve, database_url: str
) -> None:
    server = serve(database_url, workers=2, threads=2)
    client = server.client()
    body = {"name": "Night", "players": NINE, "round": "kingdom", "seed": 4}
    status, _, created = client.call("POST", "/api/v1/events", body)
    assert status == 201, created
    url, auth = (
        f"/api/v1/events/{created['id']}",
        {"Authorization": f"Bearer {created['director_token']}"},
    )
    status, _, drawn = client.call("POST", f"{url}/rounds", None, auth)
    assert status == 201, drawn
    playing, waiting = drawn["tables"]
    table_auth = {"Authorization": f"Bearer {playing['edit_token']}"}
    deals = f"/api/v1/games/{playing['game']}/deals"
    # R2: the table's first deal names the 7♥ holder, who is the first king.
    assert client.call("POST", deals, {**kingdom(2)[0], "king": 2}, table_auth)[0] == 201
    leaving, out = playing["players"][2], drawn["sitting_out"][0]
    replace = {"player": leaving, "substitute": out}
    status, _, event = client.call("POST", f"{url}/rounds/1/replace", replace, auth)
    assert status == 200, event
    assert event["rounds_drawn"][0]["changes"][0]["after_deals"] == 1
    assert client.call("POST", deals, kingdom(2)[1], table_auth)[0] == 201  # plays on
    status, _, game = client.call("GET", f"/api/v1/games/{playing['game']}")
    assert game["players"][2] == out and len(game["kingdoms"][0]["deals"]) == 2
    assert game["kingdoms"][0]["king"] == 2 and game["current_king"] == 2
    status, _, redrawn = client.call(
        "POST", f"{url}/rounds/1/redraw", {"player": waiting["players"][1]}, auth
    )
    assert status == 200, redrawn
    # The sitting-out player took a seat at table 1: three are left for table 2's four seats.
    assert redrawn["tables"] == [] and redrawn["seed"] == "4-1-r1"
    assert len(redrawn["sitting_out"]) == 3
    assert client.call("GET", f"/api/v1/games/{waiting['game']}")[0] == 404
    status, _, event = client.call("GET", url)
    points = {s["player"]: s["points"] for s in event["standings"]}
    assert points[leaving] == 0 and points[out] == game["totals"][2]
    assert "Traceback" not in server.log_text()


def test_a_served_director_corrects_a_locked_tables_deal_with_the_deal_form(
    serve: Serve, database_url: str
) -> None:
    server = serve(database_url, workers=2, threads=2)
    director = Browser(server)
    status, _, page = director.request("GET", "/events/new")
    form = {
        "name": "Night",
        "players": "\n".join(NINE[:8]),
        "rounds": "1",
        "round_kind": "kingdom",
        "scoring": "totals",
        "places": "3 2 1 0",
        "seed": "9",
        "csrf_token": TOKEN.findall(page)[0],
    }
    status, headers, _ = director.request("POST", "/events/new", form)
    assert status == 302, status
    event_path = urllib.parse.urlsplit(headers["location"]).path
    _, _, page = director.request("GET", event_path)
    director.request(
        "POST", f"{event_path}/draw", {"csrf_token": TOKEN.findall(page)[0], "confirm": "yes"}
    )
    _, _, page = director.request("GET", event_path)
    token = TOKEN.findall(page)[0]
    game_id, edit_token = re.findall(r"/games/([^/\"]+)/join/([^\"]+)\"", page)[0]
    client = server.client()
    table_auth = {"Authorization": f"Bearer {edit_token}"}
    deals = f"/api/v1/games/{game_id}/deals"
    assert client.call("POST", deals, kingdom()[0], table_auth)[0] == 201
    director.request("POST", f"{event_path}/rounds/1/lock", {"csrf_token": token, "locked": "yes"})
    assert client.call("POST", deals, kingdom()[1], table_auth)[0] == 409  # locked for the table
    status, _, deal_form = director.request("GET", f"/games/{game_id}/deals/1/edit")
    assert status == 200 and 'name="trix-0"' in deal_form
    field = re.search(r'<input[^>]*name="version"[^>]*>', deal_form)
    version = field and re.search(r'value="(\d+)"', field.group(0))
    assert version, field
    correction = {
        "csrf_token": TOKEN.findall(deal_form)[0],
        "version": version.group(1),
        **{f"trix-{seat}": str(place) for seat, place in enumerate((0, 1, 2, 3))},
    }
    status, _, text = director.request(
        "POST", f"/games/{game_id}/deals/1/edit?contracts=trix", correction
    )
    assert status == 302, text
    status, _, deal = client.call("GET", f"/api/v1/games/{game_id}/deals/1")
    assert [r["source"] for r in deal["revisions"]] == ["api", "director"]
    director.close()
    assert "Traceback" not in server.log_text()


def test_a_served_club_night_keeps_a_leaver_out_of_rounds_until_he_is_back(
    serve: Serve, database_url: str
) -> None:
    server = serve(database_url, workers=2, threads=2)
    client = server.client()
    body = {"name": "Night", "players": NINE, "round": "kingdom", "rounds": 4, "seed": 4}
    status, _, created = client.call("POST", "/api/v1/events", body)
    assert status == 201, created
    url = f"/api/v1/events/{created['id']}"
    auth = {"Authorization": f"Bearer {created['director_token']}"}
    first = client.call("POST", f"{url}/rounds", None, auth)[2]
    second = client.call("POST", f"{url}/rounds", None, auth)[2]
    outs = (first["sitting_out"][0], second["sitting_out"][0])
    leaving = next(n for t in second["tables"] for n in t["players"] if n not in outs)
    replace = {"player": leaving, "substitute": outs[0]}
    status, _, event = client.call("POST", f"{url}/rounds/1/replace", replace, auth)
    assert status == 200, event
    # Round 2, drawn before he left, goes on without him.
    later = event["rounds_drawn"][1]
    assert later["left_out"] == [leaving] and later["changes"][0]["left_in"] == 1
    assert leaving not in [n for t in later["tables"] for n in t["players"]]
    status, _, third = client.call("POST", f"{url}/rounds", None, auth)
    assert status == 201 and third["left_out"] == [leaving]
    status, _, event = client.call("POST", f"{url}/players", {"name": leaving}, auth)
    assert status == 201 and event["left"] == []
    status, _, fourth = client.call("POST", f"{url}/rounds", None, auth)
    assert status == 201 and fourth["left_out"] == []
    assert leaving in [n for t in fourth["tables"] for n in t["players"]] + fourth["sitting_out"]
    assert "Traceback" not in server.log_text()
