"""A refused write writes nothing: restores of a game or a circle, and a circle's member cap.

On SQLite and PostgreSQL (``db_app``). "Nothing" is checked on every row of every
table (:func:`tests.sql.every_row`), before and after the refused request.
"""

from __future__ import annotations

import copy
import io
import json
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import games
from scorekeeper.store.circles import services
from scorekeeper.store.circles.errors import CircleRefusal
from scorekeeper.store.circles.input import MEMBERS_MAX
from tests.sql import every_row
from tests.web.circles.test_api import DEALS, bearer, play_game

API = "/api/v1"
NAMES = ["Rana", "Sami", "Omar", "Lina"]


@pytest.fixture
def client(db_app: Flask) -> FlaskClient:
    return db_app.test_client()


def _circle(client: FlaskClient, members: list[str]) -> tuple[str, str]:
    made = client.post(f"{API}/circles", json={"name": "Club", "members": members})
    assert made.status_code == 201, made.json
    return made.json["id"], made.json["edit_token"]


def _broken_last_deal(backup: dict[str, Any]) -> dict[str, Any]:
    """The game's backup with its last deal's tricks adding up to 14."""
    broken = copy.deepcopy(backup)
    last = broken["log"][-1]["entry"]
    assert last["contracts"] == ["collections"]
    last["captures"]["tricks"] = [1, 2, 3, 8]
    return broken


def _upload(client: FlaskClient, path: str, field: str, raw: bytes) -> TestResponse:
    return client.post(path, data={field: (io.BytesIO(raw), "backup.json")})


# --- restoring a circle ----------------------------------------------------------------------


def _circle_backup(client: FlaskClient) -> dict[str, Any]:
    """A circle of three finished games, as its backup file."""
    circle, token = _circle(client, NAMES)
    for _ in range(3):
        play_game(client, circle, token)
    response = client.get(f"/circles/{circle}/backup.json")
    assert response.status_code == 200
    backup: dict[str, Any] = json.loads(response.data)
    assert len(backup["games"]) == 3
    return backup


def test_a_circle_backup_whose_last_game_is_broken_is_refused_and_writes_nothing(
    client: FlaskClient,
) -> None:
    backup = _circle_backup(client)
    backup["games"][-1]["game"] = _broken_last_deal(backup["games"][-1]["game"])
    before = every_row()
    response = _upload(client, "/circles/restore", "file", json.dumps(backup).encode())
    assert response.status_code == 422
    assert "13" in response.get_data(as_text=True)  # the problem is named (13 tricks)
    assert every_row() == before


def test_a_circle_restore_that_fails_while_writing_writes_nothing(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file is sound, but the third game's link fails: the circle, its members and the
    first two games go too (one transaction, not a clean-up afterwards)."""
    backup = _circle_backup(client)
    links: list[str] = []
    link = services.insert_link

    def failing_third(*args: Any) -> None:
        links.append(args[2])
        if len(links) == 3:
            raise CircleRefusal.one("game_in_circle", "game")
        link(*args)

    monkeypatch.setattr(services, "insert_link", failing_third)
    before = every_row()
    response = _upload(client, "/circles/restore", "file", json.dumps(backup).encode())
    assert response.status_code == 422 and len(links) == 3
    assert every_row() == before


def test_a_sound_circle_backup_is_restored_whole(client: FlaskClient) -> None:
    backup = _circle_backup(client)
    before = every_row()
    response = _upload(client, "/circles/restore", "file", json.dumps(backup).encode())
    assert response.status_code == 303
    circle = response.headers["Location"].rsplit("/", 1)[-1]
    restored = client.get(f"{API}/circles/{circle}").json
    assert len(restored["games"]) == 3 and len(restored["members"]) == 4
    after = every_row()
    assert len(after["games"]) == len(before["games"]) + 3


@pytest.mark.parametrize("depth", [50_000, 100])
def test_a_circle_backup_nested_too_deep_is_refused_not_a_crash(
    client: FlaskClient, depth: int
) -> None:
    """50,000 levels exhaust the JSON decoder's recursion; 100 it decodes, and no backup
    nests so deep: both are refused as files that are not a circle's backup."""
    before = every_row()
    raw = b"[" * depth + b"]" * depth
    response = _upload(client, "/circles/restore", "file", raw)
    assert response.status_code == 422
    assert "not a circle" in response.get_data(as_text=True)
    assert every_row() == before


# --- importing a game ------------------------------------------------------------------------


def _game_backup(client: FlaskClient) -> dict[str, Any]:
    made = client.post(f"{API}/games", json={"players": NAMES, "rules": {"kingdoms": 1}})
    assert made.status_code == 201
    for deal in DEALS:
        answer = client.post(
            f"{API}/games/{made.json['id']}/deals",
            json=deal,
            headers=bearer(made.json["edit_token"]),
        )
        assert answer.status_code == 201, answer.json
    backup: dict[str, Any] = client.get(f"{API}/games/{made.json['id']}/export").json
    return backup


def test_a_game_backup_whose_last_deal_is_broken_is_refused_and_writes_nothing(
    client: FlaskClient,
) -> None:
    broken = _broken_last_deal(_game_backup(client))
    before = every_row()
    answer = client.post(f"{API}/games/import", json=broken)
    assert answer.status_code == 422
    assert answer.json["errors"][0]["field"].startswith(f"log.{len(DEALS) - 1}")
    page = _upload(client, "/games/import", "backup", json.dumps(broken).encode())
    assert page.status_code == 422
    assert every_row() == before


def test_a_game_import_that_fails_while_writing_writes_nothing(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The game's rows go in one transaction: a failure at its last insert leaves none."""
    from scorekeeper.store import backup as game_backup

    backup = _game_backup(client)
    rows = game_backup._revision_rows

    def failing(*args: Any) -> Any:
        rows(*args)
        raise CircleRefusal.one("backup_circle")  # any refusal, after the game's first rows

    monkeypatch.setattr(game_backup, "_revision_rows", failing)
    before = every_row()
    assert client.post(f"{API}/games/import", json=backup).status_code == 422
    assert every_row() == before


@pytest.mark.parametrize("depth", [50_000, 100])
def test_a_game_backup_nested_too_deep_is_refused_not_a_crash(
    client: FlaskClient, depth: int
) -> None:
    before = every_row()
    response = _upload(client, "/games/import", "backup", b"[" * depth + b"]" * depth)
    assert response.status_code == 422
    assert every_row() == before


# --- the member cap --------------------------------------------------------------------------

ROOM = 4
"""Places left in the circle of :func:`nearly_full`."""


def _members(count: int, prefix: str = "Member") -> list[str]:
    return [f"{prefix} {i:02d}" for i in range(1, count + 1)]


def _night(client: FlaskClient, circle: str, token: str, new: list[str]) -> TestResponse:
    """A club night for the circle: four members and the ``new`` names."""
    body = {"name": "Night", "players": [*_members(4), *new], "seed": 3, "circle": circle}
    return client.post(f"{API}/events", json=body, headers=bearer(token))


def _draw(client: FlaskClient, night: dict[str, Any]) -> TestResponse:
    return client.post(
        f"{API}/events/{night['id']}/rounds", headers=bearer(night["director_token"])
    )


def _full(response: TestResponse) -> None:
    assert response.status_code == 422, response.get_data(as_text=True)[:300]
    if response.is_json:
        error = response.json["errors"][0]
        assert error["code"] == "members_full" and str(MEMBERS_MAX) in error["message"]
    else:
        assert str(MEMBERS_MAX) in response.get_data(as_text=True)


@pytest.fixture
def nearly_full(client: FlaskClient) -> tuple[str, str]:
    """A circle with room for four more members."""
    return _circle(client, _members(MEMBERS_MAX - ROOM))


def test_three_club_nights_cannot_grow_a_circle_past_its_cap(
    client: FlaskClient, nearly_full: tuple[str, str]
) -> None:
    """Each night fits alone when it is held; the first drawn takes the last places, and the
    others' draws are refused whole: no round, no game, no member."""
    circle, token = nearly_full
    nights = []
    for k in range(3):
        made = _night(client, circle, token, _members(ROOM, f"Guest {k}"))
        assert made.status_code == 201, made.json
        nights.append(made.json)
    assert _draw(client, nights[0]).status_code == 201
    for night in nights[1:]:
        before = every_row()
        _full(_draw(client, night))
        assert every_row() == before
    members = client.get(f"{API}/circles/{circle}").json["members"]
    assert len(members) == MEMBERS_MAX


def test_a_night_whose_new_names_do_not_fit_is_refused_when_it_is_held(
    client: FlaskClient, nearly_full: tuple[str, str]
) -> None:
    circle, token = nearly_full
    before = every_row()
    _full(_night(client, circle, token, _members(ROOM + 1, "Guest")))
    assert every_row() == before
    assert _night(client, circle, token, _members(ROOM, "Guest")).status_code == 201


@pytest.fixture
def full(client: FlaskClient, nearly_full: tuple[str, str]) -> tuple[str, str]:
    circle, token = nearly_full
    body = {"players": _members(ROOM, "Last")}
    made = client.post(f"{API}/circles/{circle}/games", json=body, headers=bearer(token))
    assert made.status_code == 201, made.json
    assert len(client.get(f"{API}/circles/{circle}").json["members"]) == MEMBERS_MAX
    return circle, token


Attempt = Callable[[], TestResponse]


def _api_game(client: FlaskClient, circle: str, token: str) -> Attempt:
    body = {"players": [*_members(3), "Newcomer"]}
    return lambda: client.post(f"{API}/circles/{circle}/games", json=body, headers=bearer(token))


def _page_game(client: FlaskClient, circle: str, token: str) -> Attempt:
    assert client.post(f"/circles/{circle}/join/{token}").status_code == 303
    members = client.get(f"{API}/circles/{circle}").json["members"]
    data = {**{f"seat-{s}": str(members[s]["id"]) for s in range(3)}, "new-3": "Newcomer"}
    return lambda: client.post(f"/circles/{circle}/games/new", data=data)


def _attach(client: FlaskClient, circle: str, token: str) -> Attempt:
    made = client.post(f"{API}/games", json={"players": [*_members(3), "Newcomer"]}).json
    link = f"/games/{made['id']}/join/{made['edit_token']}"
    assert client.post(f"/circles/{circle}/join/{token}").status_code == 303
    data = {"link": link, "confirm": "1", **{f"member-{s}": "" for s in range(4)}}
    return lambda: client.post(f"/circles/{circle}/attach", data=data)


def _substitute(client: FlaskClient, circle: str, token: str) -> Attempt:
    night = _night(client, circle, token, []).json
    first = _draw(client, night).json["tables"][0]
    body = {"player": first["players"][0], "substitute": "Newcomer"}
    url = f"{API}/events/{night['id']}/rounds/1/replace"
    return lambda: client.post(url, json=body, headers=bearer(night["director_token"]))


def _late_arrival(client: FlaskClient, circle: str, token: str) -> Attempt:
    night = _night(client, circle, token, []).json
    late = {"name": "Newcomer"}
    url, auth = f"{API}/events/{night['id']}/players", bearer(night["director_token"])
    assert client.post(url, json=late, headers=auth).status_code == 201
    return lambda: _draw(client, night)


PATHS: dict[str, Callable[[FlaskClient, str, str], Attempt]] = {
    "circle's game (API)": _api_game,
    "circle's game (page)": _page_game,
    "attached game": _attach,
    "night's substitute": _substitute,
    "night's late arrival": _late_arrival,
}


@pytest.mark.parametrize("path", PATHS)
def test_no_path_adds_a_member_to_a_full_circle(
    client: FlaskClient, full: tuple[str, str], path: str
) -> None:
    """Refused with 422 naming the cap, and nothing of the request written (a circle's
    new game is written with its link, or not at all; a draw is refused whole)."""
    circle, token = full
    attempt = PATHS[path](client, circle, token)
    before = every_row()
    _full(attempt())
    assert every_row() == before
    members = client.get(f"{API}/circles/{circle}").json["members"]
    assert len(members) == MEMBERS_MAX and "Newcomer" not in {m["name"] for m in members}


def _store_new_game(circle: str) -> Callable[[], object]:
    players = [*_members(3), "Newcomer"]
    return lambda: services.start_game(circle, players, 0, RuleSet())


def _store_attached_game(circle: str) -> Callable[[], object]:
    loaded, _token = games.create_game([*_members(3), "Newcomer"], 0, RuleSet())
    return lambda: services.attach_game(circle, loaded.id, [None] * 4)


STORE_PATHS: dict[str, Callable[[str], Callable[[], object]]] = {
    "a circle's new game": _store_new_game,
    "an attached game": _store_attached_game,
}


@pytest.mark.parametrize("path", STORE_PATHS)
def test_the_store_adds_no_member_to_a_full_circle(full: tuple[str, str], path: str) -> None:
    """Below the routes too: a seat with a new name would add a member, and is refused
    whole (the circle's new game is not written either)."""
    circle, _token = full
    attempt = STORE_PATHS[path](circle)
    before = every_row()
    with pytest.raises(CircleRefusal) as refused:
        attempt()
    assert refused.value.problems[0].code == "members_full"
    assert every_row() == before
