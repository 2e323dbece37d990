"""The club nights endpoints of API.md: create, draw, read with standings, the director's
changes, and who may write what (the director's token, each table's own edit token)."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

API = "/api/v1"
EIGHT = ["Rana", "Sami", "Omar", "Lina", "Hadi", "Maya", "Nour", "Ziad"]


def kingdom(king: int = 0) -> list[dict[str, Any]]:
    """The five deals of a kingdom (any order is allowed): trix first, then the penalties."""
    s = [(king + i) % 4 for i in range(4)]
    queens = {
        card: {"taker": taker, "doubled_by": None}
        for card, taker in zip(("QS", "QH", "QD", "QC"), (s[2], s[2], s[3], s[0]), strict=True)
    }
    return [
        {"contracts": ["trix"], "captures": {"trix_order": [s[1], s[0], s[3], s[2]]}},
        {"contracts": ["king"], "captures": {"king_of_hearts": {"taker": s[1]}}},
        {"contracts": ["queens"], "captures": {"queens": queens}},
        {"contracts": ["diamonds"], "captures": {"diamonds": [5, 4, 3, 1]}},
        {"contracts": ["collections"], "captures": {"tricks": [2, 3, 4, 4]}},
    ]


class Event:
    """An event created through the API, with its director's token."""

    def __init__(self, client: FlaskClient, circle_token: str | None = None, **body: Any) -> None:
        """``circle_token``: the circle's edit token, for a night held for a circle."""
        self.client = client
        body = {"name": "Thursday club", "players": EIGHT, "seed": 7, **body}
        headers = {"Authorization": f"Bearer {circle_token}"} if circle_token else {}
        response = client.post(f"{API}/events", json=body, headers=headers)
        assert response.status_code == 201, response.json
        assert response.json is not None
        self.created = response.json
        self.id: str = response.json["id"]
        self.token: str = response.json["director_token"]
        self.url = f"{API}/events/{self.id}"

    def director(self, **headers: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}", **headers}

    def draw(self) -> dict[str, Any]:
        response = self.client.post(f"{self.url}/rounds", headers=self.director())
        assert response.status_code == 201, response.json
        assert response.json is not None
        return response.json

    def get(self) -> dict[str, Any]:
        response = self.client.get(self.url)
        assert response.status_code == 200, response.json
        assert response.json is not None
        return response.json


def deal(client: FlaskClient, table: dict[str, Any], body: dict[str, Any]) -> TestResponse:
    headers = {"Authorization": f"Bearer {table['edit_token']}"}
    return client.post(f"{API}/games/{table['game']}/deals", json=body, headers=headers)


@pytest.fixture
def event(client: FlaskClient) -> Event:
    return Event(client, round="kingdom", rounds=2)


# --- creating --------------------------------------------------------------------------------


def test_create_event_answers_its_id_director_token_and_settings(client: FlaskClient) -> None:
    created = Event(client, scoring="places", places=[4, 2, 1, 0], rounds=4).created
    event = created["event"]
    assert len(created["director_token"]) >= 43 and created["id"] == event["id"]
    assert event["players"] == EIGHT and event["rounds"] == 4 and event["round"] == "game"
    assert (event["scoring"], event["places"], event["seed"]) == ("places", [4, 2, 1, 0], 7)
    assert event["rounds_drawn"] == [] and event["zero_sum"] and event["comparable"]
    assert [s["points"] for s in event["standings"]] == [0] * 8
    assert {s["rank"] for s in event["standings"]} == {1}


def test_a_round_of_one_kingdom_starts_games_of_one_kingdom(event: Event) -> None:
    assert event.created["event"]["rules"]["kingdoms"] == 1
    table = event.draw()["tables"][0]
    state = event.client.get(f"{API}/games/{table['game']}").json
    assert state is not None and state["rules"]["kingdoms"] == 1


@pytest.mark.parametrize(
    ("body", "status", "field", "words"),
    [
        ({"places": [1, 2, 3, 4]}, 422, "places", "never rising"),
        ({"scoring": "elo"}, 422, "scoring", "must be one of “totals”, “places”"),
        ({"round": "deal"}, 422, "round", "must be one of “game”, “kingdom”"),
        ({"rounds": 0}, 422, "rounds", "from 1 to 50"),
        ({"seed": -1}, 422, "seed", "must be a whole number from 0 to"),
        ({"partnership": "yes"}, 422, "partnership", "true or false"),
        ({"name": "  "}, 422, "name", "Give the club night a name"),
        ({"players": ["Rana", "rana", "Omar", "Lina"]}, 422, "players.1", "Two players"),
        ({"colour": "red"}, 422, "colour", "is not a field"),
        ({"rules": {"doubling": "maybe"}}, 422, "rules.doubling", None),
        ({"round": "kingdom", "rules": {"kingdoms": 4}}, 422, "rules.kingdoms", "must be 1"),
        ({"partnership": True, "rules": {"partnership": False}}, 422, "rules.partnership", None),
    ],
)
def test_a_bad_event_is_refused_naming_its_field_and_nothing_is_saved(
    client: FlaskClient, body: dict[str, Any], status: int, field: str, words: str | None
) -> None:
    response = client.post(f"{API}/events", json={"name": "N", "players": EIGHT, **body})
    assert response.status_code == status, response.json
    assert response.json is not None and response.json["ok"] is False
    error = response.json["errors"][0]
    assert error["field"] == field
    assert words is None or words in error["message"]


def test_an_event_for_a_circle_seats_its_members_and_its_games_join_the_circle(
    client: FlaskClient,
) -> None:
    made = client.post(f"{API}/circles", json={"name": "Club", "members": EIGHT})
    assert made.status_code == 201, made.json
    assert made.json is not None
    circle = made.json["id"]
    event = Event(client, made.json["edit_token"], players=[], circle=circle)
    assert sorted(event.get()["players"]) == sorted(EIGHT)
    tables = event.draw()["tables"]
    linked = client.get(f"{API}/circles/{circle}").json
    assert linked is not None
    assert sorted(linked["games"]) == sorted(t["game"] for t in tables)
    assert len(linked["members"]) == len(EIGHT)


def test_an_event_for_a_circle_with_a_new_name_adds_the_member_when_drawn(
    client: FlaskClient,
) -> None:
    made = client.post(f"{API}/circles", json={"name": "Club", "members": EIGHT[:4]})
    assert made.json is not None
    circle = made.json["id"]
    Event(client, made.json["edit_token"], players=EIGHT[:3] + ["Zein"], circle=circle).draw()
    members = client.get(f"{API}/circles/{circle}").json
    assert members is not None
    assert {m["name"] for m in members["members"]} == set(EIGHT[:4]) | {"Zein"}


@pytest.mark.parametrize("players", [[], EIGHT])
def test_an_event_for_an_unknown_circle_is_404(client: FlaskClient, players: list[str]) -> None:
    body = {"name": "N", "players": players, "circle": "abcdefgh12345678"}
    response = client.post(f"{API}/events", json=body)
    assert response.status_code == 404
    assert response.json is not None and response.json["ok"] is False


# --- drawing ---------------------------------------------------------------------------------


def test_drawing_a_round_starts_a_game_per_table_with_its_own_edit_token(
    client: FlaskClient,
) -> None:
    event = Event(client, players=[*EIGHT, "Dana"])
    drawn = event.draw()
    assert drawn["round"] == 1 and drawn["seed"] == "7-1"
    assert [t["table"] for t in drawn["tables"]] == [1, 2]
    assert len(drawn["sitting_out"]) == 1
    seated = [name for t in drawn["tables"] for name in t["players"]]
    assert sorted(seated + drawn["sitting_out"]) == sorted([*EIGHT, "Dana"])
    for table in drawn["tables"]:
        state = client.get(f"{API}/games/{table['game']}").json
        assert state is not None and state["players"] == table["players"]
    assert drawn["tables"][0]["edit_token"] != drawn["tables"][1]["edit_token"]


def test_the_same_seed_draws_the_same_tables(client: FlaskClient) -> None:
    first, second = Event(client).draw(), Event(client).draw()
    assert [t["players"] for t in first["tables"]] == [t["players"] for t in second["tables"]]


def test_no_round_beyond_those_planned_and_too_few_players_refused(
    client: FlaskClient, event: Event
) -> None:
    event.draw()
    event.draw()
    response = client.post(f"{event.url}/rounds", headers=event.director())
    assert response.status_code == 409
    assert (
        response.json is not None
        and "all the planned rounds (2)" in response.json["errors"][0]["message"]
    )
    small = Event(client, players=["A", "B", "C"])
    response = client.post(f"{small.url}/rounds", headers=small.director())
    assert response.status_code == 422
    assert response.json is not None
    assert "at least 4 players" in response.json["errors"][0]["message"]


def test_a_late_arrival_is_drawn_from_the_next_round(client: FlaskClient) -> None:
    event = Event(client, players=EIGHT[:7])
    first = event.draw()
    response = client.post(f"{event.url}/players", json={"name": "Dana"}, headers=event.director())
    assert response.status_code == 201
    assert "Dana" not in [n for t in first["tables"] for n in t["players"]]
    second = event.draw()
    assert second["sitting_out"] == []
    assert "Dana" in [n for t in second["tables"] for n in t["players"]]


# --- access ----------------------------------------------------------------------------------


def test_director_writes_need_the_directors_token(client: FlaskClient, event: Event) -> None:
    table = event.draw()["tables"][0]
    url = f"{event.url}/rounds"
    assert client.post(url).status_code == 401
    assert client.post(url, headers={"Authorization": "Bearer nope"}).status_code == 403
    as_table = {"Authorization": f"Bearer {table['edit_token']}"}
    assert client.post(url, headers=as_table).status_code == 403
    assert client.post(f"{event.url}/close", headers=as_table).status_code == 403
    other = Event(client)
    assert client.post(url, headers=other.director()).status_code == 403
    missing = client.post(f"{API}/events/nosuchevent000000/rounds", headers=event.director())
    assert missing.status_code == 404
    assert len(event.get()["rounds_drawn"]) == 1


def test_a_tables_edit_token_edits_only_its_own_game(client: FlaskClient, event: Event) -> None:
    first, second = event.draw()["tables"]
    body = kingdom()[0]
    stolen = {**second, "edit_token": first["edit_token"]}
    assert deal(client, stolen, body).status_code == 403
    director = {**first, "edit_token": event.token}
    assert deal(client, director, body).status_code == 403
    assert deal(client, first, body).status_code == 201


# --- results ---------------------------------------------------------------------------------


def test_deals_flow_into_the_standings_as_they_are_recorded(
    client: FlaskClient, event: Event
) -> None:
    tables = event.draw()["tables"]
    for table in tables:
        for body in kingdom():
            assert deal(client, table, body).status_code == 201
    got = event.get()
    totals: dict[str, int] = {}
    for table in tables:
        state = client.get(f"{API}/games/{table['game']}").json
        assert state is not None and state["finished"]
        totals.update(zip(state["players"], state["totals"], strict=True))
    points = {s["player"]: s["points"] for s in got["standings"]}
    assert points == totals
    assert [s["points"] for s in got["standings"]] == sorted(totals.values(), reverse=True)
    first = got["rounds_drawn"][0]
    assert first["finished"] and all(t["state"]["deals_played"] == 5 for t in first["tables"])
    assert {s["player"]: s["points"] for s in first["standings"]} == totals


def test_places_scoring_gives_match_points_by_place(client: FlaskClient) -> None:
    event = Event(client, round="kingdom", scoring="places", places=[3, 2, 1, 0])
    tables = event.draw()["tables"]
    for body in kingdom():
        deal(client, tables[0], body)
    standings = event.get()["standings"]
    table_points = sorted(
        (s["points"] for s in standings if s["player"] in tables[0]["players"]), reverse=True
    )
    assert sum(table_points) == 6 and table_points[0] >= 2
    others = [s["points"] for s in standings if s["player"] in tables[1]["players"]]
    assert others == [0] * 4  # a table scores nothing until its game has a deal


def test_the_event_etag_moves_with_every_deal_and_answers_304_otherwise(
    client: FlaskClient, event: Event
) -> None:
    table = event.draw()["tables"][0]
    response = client.get(event.url)
    etag = response.headers["ETag"]
    assert client.get(event.url, headers={"If-None-Match": etag}).status_code == 304
    deal(client, table, kingdom()[0])
    assert client.get(event.url, headers={"If-None-Match": etag}).status_code == 200


def test_a_locked_round_takes_no_more_deals_but_the_directors_correction(
    client: FlaskClient, event: Event
) -> None:
    table = event.draw()["tables"][0]
    deals = kingdom()
    assert deal(client, table, deals[0]).status_code == 201
    locked = client.post(f"{event.url}/rounds/1/lock", headers=event.director())
    assert locked.status_code == 200 and locked.json is not None
    assert locked.json["rounds_drawn"][0]["locked"] is True
    refused = deal(client, table, deals[1])
    assert refused.status_code == 409 and refused.json is not None
    assert "Round 1 of this club night is locked" in refused.json["errors"][0]["message"]
    game = client.get(f"{API}/games/{table['game']}")
    corrected = {"contracts": ["trix"], "captures": {"trix_order": [0, 1, 2, 3]}}
    url = f"{event.url}/games/{table['game']}/deals/1"
    headers = event.director(**{"If-Match": game.headers["ETag"]})
    answer = client.put(url, json=corrected, headers=headers)
    assert answer.status_code == 200, answer.json
    history = client.get(f"{API}/games/{table['game']}/deals/1").json
    assert history is not None and history["revisions"][-1]["source"] == "director"
    seat0 = table["players"][0]
    points = {s["player"]: s["points"] for s in event.get()["standings"]}
    assert points[seat0] == 200


def test_the_director_corrects_only_games_of_this_event(client: FlaskClient, event: Event) -> None:
    event.draw()
    game = client.post(f"{API}/games", json={"players": EIGHT[:4]}).json
    assert game is not None
    url = f"{event.url}/games/{game['id']}/deals/1"
    response = client.put(url, json=kingdom()[0], headers=event.director(**{"If-Match": "1"}))
    assert response.status_code == 404


def test_a_closed_event_draws_no_round_and_takes_no_deal(client: FlaskClient, event: Event) -> None:
    table = event.draw()["tables"][0]
    closed = client.post(f"{event.url}/close", headers=event.director())
    assert closed.status_code == 200 and closed.json is not None and closed.json["closed"]
    assert client.post(f"{event.url}/rounds", headers=event.director()).status_code == 409
    refused = deal(client, table, kingdom()[0])
    assert refused.status_code == 409 and refused.json is not None
    assert "closed" in refused.json["errors"][0]["message"]


def test_an_unknown_event_is_404(client: FlaskClient) -> None:
    response = client.get(f"{API}/events/nosuchevent000000")
    assert response.status_code == 404 and response.json is not None
    assert "no club night at this address" in response.json["errors"][0]["message"]


def test_a_partnership_event_seats_partners_opposite_and_scores_team_totals(
    client: FlaskClient,
) -> None:
    event = Event(client, partnership=True, round="kingdom")
    tables = event.draw()["tables"]
    for body in kingdom():
        assert deal(client, tables[0], body).status_code == 201
    state = client.get(f"{API}/games/{tables[0]['game']}").json
    assert state is not None and state["rules"]["partnership"] is True
    points = {s["player"]: s["points"] for s in event.get()["standings"]}
    a, b, c, d = tables[0]["players"]
    assert points[a] == points[c] == state["totals"][0] + state["totals"][2]
    assert points[b] == points[d] == state["totals"][1] + state["totals"][3]


def test_the_refusals_of_an_events_state_rebuild_from_their_templates(
    client: FlaskClient, event: Event
) -> None:
    from scorekeeper.rules.errors import RulesError
    from scorekeeper.store.events import services as services
    from scorekeeper.text.messages import english

    def problem_of(thunk: Any) -> Any:
        with pytest.raises(RulesError) as caught:
            thunk()
        return caught.value.problems[0]

    table = event.draw()["tables"][0]
    problems = [problem_of(lambda: services.lock_round(event.id, 5))]
    services.lock_round(event.id, 1)
    game = {"contracts": ["trix"], "captures": {"trix_order": [0, 1, 2, 3]}}
    response = deal(client, table, game)
    assert response.json is not None and response.json["errors"][0]["code"] == "event_round_locked"
    event.draw()
    problems.append(problem_of(lambda: services.draw_next_round(event.id, event.token)))
    services.close_event(event.id)
    problems.append(problem_of(lambda: services.add_player(event.id, "Dana")))
    assert [p.code for p in problems] == [
        "event_no_such_round",
        "event_all_rounds_drawn",
        "event_closed",
    ]
    for problem in problems:
        assert english(problem.key, problem.params) == problem.message


def test_a_player_who_leaves_is_drawn_no_more_from_the_next_round(client: FlaskClient) -> None:
    event = Event(client, players=[*EIGHT, "Dana"])
    event.draw()
    response = client.post(
        f"{event.url}/players/leave", json={"name": "dana"}, headers=event.director()
    )
    assert response.status_code == 200, response.json
    second = event.draw()
    assert second["sitting_out"] == []
    assert "Dana" not in [n for t in second["tables"] for n in t["players"]]
    again = client.post(
        f"{event.url}/players/leave", json={"name": "Dana"}, headers=event.director()
    )
    assert again.status_code == 422 and again.json is not None
    problem = again.json["errors"][0]
    assert problem["code"] == "event_not_a_player" and "Dana" in problem["message"]


# --- a table's first king (R2) ---------------------------------------------------------------


def test_r2_a_tables_state_says_its_first_king_is_open_until_its_first_deal_names_him(
    event: Event,
) -> None:
    table = event.draw()["tables"][0]
    url = f"{API}/games/{table['game']}"
    before = event.client.get(url).json
    assert before is not None and before["first_king_open"] is True
    answer = deal(event.client, table, {**kingdom(2)[0], "king": 2})
    assert answer.status_code == 201 and answer.json is not None
    assert answer.json["game"]["first_king_open"] is False
    after = event.client.get(url).json
    assert after is not None and after["first_king_open"] is False
    assert after["current_king"] == 2 and after["kingdoms"][0]["king"] == 2


def test_r2_an_ordinary_game_or_an_agreed_kingdom_order_leaves_no_first_king_open(
    client: FlaskClient,
) -> None:
    made = client.post(f"{API}/games", json={"players": EIGHT[:4], "first_king": 1}).json
    assert made is not None and made["game"]["first_king_open"] is False
    order = {"kingdom_order": "custom", "king_order": [2, 3, 0, 1]}
    ordered = Event(client, rules=order)
    table = ordered.draw()["tables"][0]
    state = client.get(f"{API}/games/{table['game']}").json
    assert state is not None and state["first_king_open"] is False
    assert state["current_king"] == 2
