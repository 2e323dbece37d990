"""A player leaves in the middle of a round, through the API: the director replaces him or
draws the tables not started again; refusals name the problem and save nothing."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from scorekeeper.text.messages import english
from tests.web.events.test_api import API, EIGHT, Event, deal, kingdom

NINE = [*EIGHT, "Dana"]


@pytest.fixture
def event(client: FlaskClient) -> Event:
    return Event(client, players=NINE, round="kingdom", rounds=2)


def post(event: Event, path: str, body: Any, **headers: str) -> Any:
    return event.client.post(f"{event.url}/{path}", json=body, headers=headers or event.director())


def test_a_substitute_takes_the_seat_and_gets_the_seats_result(event: Event) -> None:
    drawn = event.draw()
    table, out = drawn["tables"][0], drawn["sitting_out"][0]
    leaving = table["players"][1]
    for body in kingdom()[:2]:
        assert deal(event.client, table, body).status_code == 201
    response = post(event, "rounds/1/replace", {"player": leaving, "substitute": out})
    assert response.status_code == 200, response.json
    state = response.json
    first = state["rounds_drawn"][0]
    assert first["tables"][0]["players"][1] == out and first["sitting_out"] == []
    assert first["changes"] == [
        {
            "kind": "replace",
            "player": leaving,
            "substitute": out,
            "table": 1,
            "seat": 1,
            "after_deals": 2,
            "left_in": None,
        }
    ]
    assert state["left"] == [leaving]
    # The table's edit token still writes; the game now names the substitute.
    assert deal(event.client, table, kingdom()[2]).status_code == 201
    game = event.client.get(f"{API}/games/{table['game']}").json
    assert game is not None and game["players"][1] == out
    points = {s["player"]: s["points"] for s in event.get()["standings"]}
    assert points[out] == game["totals"][1] and points[leaving] == 0
    assert leaving not in [n for t in event.draw()["tables"] for n in t["players"]]


def test_a_redraw_answers_the_tables_drawn_again_with_their_edit_tokens(event: Event) -> None:
    drawn = event.draw()
    started, waiting = drawn["tables"]
    assert deal(event.client, started, kingdom()[0]).status_code == 201
    leaving = waiting["players"][0]
    response = post(event, "rounds/1/redraw", {"player": leaving})
    assert response.status_code == 200, response.json
    body = response.json
    assert body["round"] == 1 and body["seed"] == "7-1-r1"
    assert [t["table"] for t in body["tables"]] == [2] and body["sitting_out"] == []
    fresh = body["tables"][0]
    assert leaving not in fresh["players"] and drawn["sitting_out"][0] in fresh["players"]
    assert deal(event.client, fresh, kingdom()[0]).status_code == 201
    assert event.client.get(f"{API}/games/{waiting['game']}").status_code == 404
    first = body["event"]["rounds_drawn"][0]
    assert first["tables"][0]["game"] == started["game"]
    assert first["changes"] == [
        {"kind": "redraw", "player": leaving, "seed": "7-1-r1", "tables": [2]}
    ]


@pytest.mark.parametrize(
    ("path", "body", "status", "code"),
    [
        ("rounds/1/replace", {"player": "Nobody", "substitute": "X"}, 422, "event_not_a_player"),
        ("rounds/1/replace", {"player": "Rana"}, 422, "event_name_needed"),
        ("rounds/1/replace", {"player": "Rana", "substitute": 4}, 422, "event_name_needed"),
        ("rounds/1/replace", {"player": "Rana", "substitute": "X", "x": 1}, 422, None),
        ("rounds/3/replace", {"player": "Rana", "substitute": "X"}, 422, "event_no_such_round"),
        ("rounds/1/redraw", {"player": ""}, 422, "event_name_needed"),
    ],
)
def test_bad_requests_are_refused_naming_the_problem_and_nothing_is_saved(
    event: Event, path: str, body: Any, status: int, code: str | None
) -> None:
    event.draw()
    before = event.get()
    response = post(event, path, body)
    assert response.status_code == status, response.json
    problem = response.json["errors"][0]
    assert problem["message"]
    if code:
        assert problem["code"] == code
    assert event.get() == before


def test_the_states_that_refuse_a_change_say_why_and_save_nothing(event: Event) -> None:
    drawn = event.draw()
    table = drawn["tables"][0]
    leaving, out = table["players"][0], drawn["sitting_out"][0]
    for body in kingdom():
        assert deal(event.client, table, body).status_code == 201
    codes = []
    response = post(event, "rounds/1/replace", {"player": leaving, "substitute": out})
    codes.append((response.status_code, response.json["errors"][0]))
    response = post(event, "rounds/1/redraw", {"player": leaving})
    codes.append((response.status_code, response.json["errors"][0]))
    other = drawn["tables"][1]["players"][0]
    assert (
        post(event, "rounds/1/replace", {"player": other, "substitute": "Late"}).status_code == 200
    )
    response = post(
        event, "rounds/1/replace", {"player": drawn["tables"][1]["players"][1], "substitute": other}
    )
    codes.append((response.status_code, response.json["errors"][0]))
    event.draw()
    response = post(event, "rounds/1/redraw", {"player": drawn["tables"][1]["players"][2]})
    codes.append((response.status_code, response.json["errors"][0]))
    event.client.post(f"{event.url}/rounds/2/lock", headers=event.director())
    second = event.get()["rounds_drawn"][1]["tables"][0]["players"][0]
    response = post(event, "rounds/2/replace", {"player": second, "substitute": "Z"})
    codes.append((response.status_code, response.json["errors"][0]))
    event.client.post(f"{event.url}/close", headers=event.director())
    response = post(event, "rounds/2/redraw", {"player": second})
    codes.append((response.status_code, response.json["errors"][0]))
    assert [(s, p["code"]) for s, p in codes] == [
        (409, "event_table_finished"),
        (422, "event_table_started"),
        (422, "event_player_left"),
        (409, "event_redraw_not_last"),
        (409, "event_round_locked"),
        (409, "event_closed"),
    ]
    assert all(problem["message"] for _status, problem in codes)


def test_the_refusals_of_a_change_rebuild_from_their_templates(event: Event) -> None:
    from scorekeeper.rules.errors import RulesError
    from scorekeeper.store import games
    from scorekeeper.store.events import changes as event_changes

    drawn = event.draw()
    table, leaving = drawn["tables"][0], drawn["tables"][0]["players"][0]
    problems = []
    for body in kingdom():
        assert deal(event.client, table, body).status_code == 201
    post(event, "rounds/1/replace", {"player": drawn["tables"][1]["players"][0], "substitute": "X"})
    event.draw()
    for thunk in (
        lambda: event_changes.replace_player(event.id, 1, leaving, "Y"),
        lambda: event_changes.redraw(event.id, 1, leaving, event.token),
        lambda: event_changes.replace_player(
            event.id, 2, leaving, drawn["tables"][1]["players"][0]
        ),
    ):
        with pytest.raises(RulesError) as caught:
            thunk()
        problems.append(caught.value.problems[0])
    assert [p.code for p in problems] == [
        "event_table_finished",
        "event_redraw_not_last",
        "event_player_left",
    ]
    for problem in problems:
        assert english(problem.key, problem.params) == problem.message
    assert games  # the table's game was kept


def test_only_the_directors_token_changes_a_round(client: FlaskClient, event: Event) -> None:
    drawn = event.draw()
    table = drawn["tables"][0]
    body = {"player": table["players"][0], "substitute": drawn["sitting_out"][0]}
    url = f"{event.url}/rounds/1/replace"
    assert client.post(url, json=body).status_code == 401
    table_token = {"Authorization": f"Bearer {table['edit_token']}"}
    assert client.post(url, json=body, headers=table_token).status_code == 403
    redraw = f"{event.url}/rounds/1/redraw"
    assert client.post(redraw, json=body, headers=table_token).status_code == 403
    assert event.get()["rounds_drawn"][0]["changes"] == []


def test_r2_a_tables_first_deal_names_its_first_king_the_7_of_hearts_holder(
    event: Event,
) -> None:
    table = event.draw()["tables"][0]
    response = deal(event.client, table, {**kingdom(3)[0], "king": 3})
    assert response.status_code == 201, response.json
    assert response.json["game"]["current_king"] == 3
    assert deal(event.client, table, {**kingdom(3)[1], "king": 1}).status_code == 409
    assert deal(event.client, table, kingdom(3)[1]).status_code == 201


def test_in_a_circles_club_night_the_substitute_is_the_seats_member_and_a_redraw_relinks(
    client: FlaskClient,
) -> None:
    made = client.post(f"{API}/circles", json={"name": "Club", "members": NINE})
    assert made.json is not None
    circle = made.json["id"]
    event = Event(client, made.json["edit_token"], players=[], circle=circle)
    drawn = event.draw()
    first, second = drawn["tables"]
    auth = {"Authorization": f"Bearer {first['edit_token']}"}
    url = f"{API}/games/{first['game']}/deals"
    assert client.post(url, json=kingdom()[0], headers=auth).status_code == 201
    replace = {"player": first["players"][0], "substitute": "Newcomer"}
    assert post(event, "rounds/1/replace", replace).status_code == 200
    linked = client.get(f"{API}/circles/{circle}").json
    assert "Newcomer" in {m["name"] for m in linked["members"]}
    redrawn = post(event, "rounds/1/redraw", {"player": second["players"][0]}).json
    games = client.get(f"{API}/circles/{circle}").json["games"]
    assert sorted(games) == sorted([first["game"], *(t["game"] for t in redrawn["tables"])])
    # The seat is the substitute's in the circle: its result will count for him.
    from sqlalchemy import select

    from scorekeeper.extensions import db
    from scorekeeper.store.circles.models import CircleSeat, Member

    member = db.session.scalar(
        select(Member.name)
        .join(CircleSeat, CircleSeat.member_id == Member.id)
        .where(CircleSeat.game_id == first["game"], CircleSeat.seat == 0)
    )
    assert member == "Newcomer"
    assert client.post(url, json=kingdom()[1], headers=auth).status_code == 201


def test_a_player_who_left_is_listed_by_each_later_draw_until_the_director_says_he_is_back(
    client: FlaskClient,
) -> None:
    event = Event(client, players=NINE, round="kingdom", rounds=3)
    first = event.draw()
    leaving = first["tables"][0]["players"][1]
    assert post(
        event, "rounds/1/replace", {"player": leaving, "substitute": first["sitting_out"][0]}
    )
    second = event.draw()
    assert second["left_out"] == [leaving]
    assert event.get()["rounds_drawn"][1]["left_out"] == [leaving]
    back = post(event, "players", {"name": leaving})
    assert back.status_code == 201 and back.json["left"] == []
    assert back.json["players"].count(leaving) == 1
    third = event.draw()
    assert third["left_out"] == []
    assert leaving in [n for t in third["tables"] for n in t["players"]] + third["sitting_out"]


def test_a_round_drawn_before_he_left_says_who_took_his_seat_and_why(client: FlaskClient) -> None:
    event = Event(client, players=NINE, round="kingdom", rounds=2)
    first, second = event.draw(), event.draw()
    out1, out2 = first["sitting_out"][0], second["sitting_out"][0]
    leaving = next(n for t in second["tables"] for n in t["players"] if n not in (out1, out2))
    state = post(event, "rounds/1/replace", {"player": leaving, "substitute": out1}).json
    later = state["rounds_drawn"][1]
    [change] = later["changes"]
    taker = out1 if out1 in second["sitting_out"] else out2
    assert (change["player"], change["substitute"], change["left_in"]) == (leaving, taker, 1)
    assert later["left_out"] == [leaving] and later["sitting_out"] == []
