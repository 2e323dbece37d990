"""The audit of every write that touches a circle, a club night or a game: its token.

``AUDIT`` is the table of docs/ARCHITECTURE.md ("Who may write what"), row for row:
a route (its endpoint and method), what it writes, and the token it needs. The
tests check that the table lists every write route of the app, and, for each
row, that a request without the right token is refused (401/403) and writes
nothing: every row of every table is the same after it. "Without" is tried
two ways: no token at all, and every *other* token a visitor may hold (the
circle's token on its games, a game's or the director's on the circle, a
table's on its night, the circle's on its night…). A row that needs no token
creates only new things: every row that was there before is left as it was.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask, url_for
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper.paths import PROJECT_ROOT
from scorekeeper.web import access
from tests.sql import every_row
from tests.web.circles.test_api import DEALS

API = "/api/v1"
WRITE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}
NAMES = ["Rana", "Sami", "Omar", "Lina"]
NIGHT = [*NAMES, "Zein", "Hala", "Karim", "Dina"]
KING_BODY = {"contracts": ["king"], "captures": {"king_of_hearts": {"taker": 2}}}
ARCHITECTURE = PROJECT_ROOT / "docs" / "ARCHITECTURE.md"


@dataclass(frozen=True)
class Row:
    """A write route and the token it needs (``none``: it creates only new things)."""

    endpoint: str
    method: str
    token: str
    """``circle``, ``circle+game``, ``director``, ``game``, ``owner``, ``none``, or the token
    carried in the URL (``circle link``, ``director link``, ``game link``)."""


AUDIT = [
    # circles
    Row("api_circles.create_circle", "POST", "none"),
    Row("web.circles", "POST", "none"),
    Row("web.circle_restore", "POST", "none"),
    Row("api_circles.start_game", "POST", "circle"),
    Row("web.circle_new_game", "POST", "circle"),
    Row("web.circle_attach", "POST", "circle+game"),
    Row("web.circle_detach", "POST", "circle"),
    Row("web.circle_settings", "POST", "circle"),
    Row("web.circle_revoke", "POST", "circle"),
    Row("web.circle_join", "POST", "circle link"),
    # club nights
    Row("api_events.create_event", "POST", "none"),
    Row("api_events.create_event", "POST", "circle"),  # with "circle"
    Row("web.new_event", "POST", "none"),
    Row("web.new_event", "POST", "circle"),  # with "circle"
    Row("api_events.draw_round", "POST", "director"),
    Row("web.draw_event_round", "POST", "director"),
    Row("api_events.lock_round", "POST", "director"),
    Row("web.lock_event_round", "POST", "director"),
    Row("api_events.close_event", "POST", "director"),
    Row("web.close_club_night", "POST", "director"),
    Row("api_events.reopen_event", "POST", "director"),
    Row("web.reopen_club_night", "POST", "director"),
    Row("api_events.undo_draw", "POST", "director"),
    Row("web.undo_event_draw", "POST", "director"),
    Row("web.set_event_clock", "POST", "director"),
    Row("api_events.give_co_director", "POST", "director"),
    Row("web.give_co_director", "POST", "director"),
    Row("api_events.revoke_co_director", "DELETE", "director"),
    Row("web.revoke_co_director", "POST", "director"),
    Row("api_events.add_player", "POST", "director"),
    Row("web.add_event_player", "POST", "director"),
    Row("api_events.player_leaves", "POST", "director"),
    Row("web.event_player_leaves", "POST", "director"),
    Row("api_events.replace_player", "POST", "director"),
    Row("web.replace_event_player", "POST", "director"),
    Row("api_events.redraw_round", "POST", "director"),
    Row("web.redraw_event_round", "POST", "director"),
    Row("api_events.correct_deal", "PUT", "director"),
    Row("web.direct", "POST", "director link"),
    # games
    Row("api_games.create_game", "POST", "none"),
    Row("web.new_game", "POST", "none"),
    Row("api_games.import_game", "POST", "none"),
    Row("web.import_page", "POST", "none"),
    Row("web.rematch", "POST", "game"),
    Row("api_games.record_deal", "POST", "game"),
    Row("api_games.edit_deal", "PUT", "game"),
    Row("api_games.undo_last", "DELETE", "game"),
    Row("api_games.record_redeal", "POST", "game"),
    Row("offline_api.sync", "POST", "game"),
    Row("web.new_deal", "POST", "game"),
    Row("web.edit_deal", "POST", "game"),
    Row("web.undo", "POST", "game"),
    Row("web.record_redeal", "POST", "game"),
    Row("web.record_check", "POST", "game"),
    Row("web.apply_check", "POST", "game"),
    Row("web.record_checked_redeal", "POST", "game"),
    Row("web.revoke", "POST", "owner"),
    Row("web.join", "POST", "game link"),
]
NOT_AUDITED = {
    "api.check": "computes an answer; writes nothing",
    "web.claim": "judges a claim in the claim pool; writes nothing stored",
    "web.claim_job_exact": "judges a claim again, for its exact value; writes nothing stored",
    "i18n.set_language": "a cookie",
    "i18n.set_theme": "a cookie",
    "i18n.set_digits": "a cookie",
}
GUARDED = [row for row in AUDIT if row.token != "none"]
CREATING = [row for row in AUDIT if row.token == "none"]


def _id(row: Row) -> str:
    return f"{row.endpoint}-{row.token}"


# --- the world a visitor attacks --------------------------------------------------------------


@dataclass
class World:
    """A circle with a game and a club night (a round drawn), a game of its own, and
    another circle, game and night whose tokens are the visitor's own."""

    circle: str
    circle_token: str
    circle_game: str
    circle_game_token: str
    night: str
    director: str
    table: str
    table_token: str
    game: str
    game_token: str
    other_circle: str
    other_circle_token: str
    other_game: str
    other_game_token: str
    other_night: str
    other_director: str


def _json(response: TestResponse, status: int = 201) -> Any:
    assert response.status_code == status, response.get_data(as_text=True)[:300]
    return response.get_json()


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _circle(client: FlaskClient) -> tuple[str, str, str, str]:
    made = _json(client.post(f"{API}/circles", json={"name": "Club", "members": NAMES}))
    cid, token = made["id"], made["edit_token"]
    game = _json(
        client.post(f"{API}/circles/{cid}/games", json={"players": NAMES}, headers=_bearer(token))
    )
    _json(
        client.post(
            f"{API}/games/{game['id']}/deals", json=DEALS[0], headers=_bearer(game["edit_token"])
        )
    )
    return cid, token, game["id"], game["edit_token"]


def _night(client: FlaskClient, circle: str, circle_token: str) -> tuple[str, str, dict[str, Any]]:
    body = {"name": "Thursday", "players": NIGHT, "seed": 7, "circle": circle}
    made = _json(client.post(f"{API}/events", json=body, headers=_bearer(circle_token)))
    drawn = _json(
        client.post(f"{API}/events/{made['id']}/rounds", headers=_bearer(made["director_token"]))
    )
    return made["id"], made["director_token"], drawn["tables"][0]


def _game(client: FlaskClient) -> tuple[str, str]:
    made = _json(client.post(f"{API}/games", json={"players": NAMES}))
    _json(
        client.post(
            f"{API}/games/{made['id']}/deals", json=DEALS[0], headers=_bearer(made["edit_token"])
        )
    )
    return made["id"], made["edit_token"]


@pytest.fixture
def world(app: Flask) -> World:
    client = app.test_client()
    circle, circle_token, circle_game, circle_game_token = _circle(client)
    night, director, table = _night(client, circle, circle_token)
    game, game_token = _game(client)
    other_circle, other_circle_token, _g, _t = _circle(client)
    other_game, other_game_token = _game(client)
    other_night = _json(client.post(f"{API}/events", json={"name": "Other", "players": NIGHT}))
    return World(
        circle,
        circle_token,
        circle_game,
        circle_game_token,
        night,
        director,
        table["game"],
        table["edit_token"],
        game,
        game_token,
        other_circle,
        other_circle_token,
        other_game,
        other_game_token,
        other_night["id"],
        other_night["director_token"],
    )


# --- what a visitor holds ---------------------------------------------------------------------


def _wrong_bearers(row: Row, w: World) -> list[str]:
    """Every token but the right one: of the same objects' other kinds, and of others."""
    return {
        "circle": [w.circle_game_token, w.director, w.table_token, w.other_circle_token],
        "director": [w.circle_token, w.table_token, w.circle_game_token, w.other_director],
        "game": [w.circle_token, w.director, w.table_token, w.other_game_token],
    }[row.token]


def _wrong_session(app: Flask, row: Row, w: World) -> dict[str, Any]:
    """A browser holding every right but the one the row needs: the real rights of the
    objects next to the target, and wrong or other tokens for the target itself."""
    with app.test_request_context():  # sealing uses the app's secret
        seal = access.seal
        games = [[w.table, seal(w.table_token)], [w.other_game, seal(w.other_game_token)]]
        circles = [[w.other_circle, seal(w.other_circle_token)]]
        nights = [[w.other_night, seal(w.other_director)]]
        if row.token != "circle":
            circles.append([w.circle, seal(w.circle_token)])
        if row.token != "director":
            nights.append([w.night, seal(w.director)])
        else:
            nights.append([w.night, seal(w.table_token)])
        if row.token == "owner":  # joined with the edit link: may edit, not revoke
            refs = [[w.circle_game, access.token_ref(w.circle_game_token)]]
        else:
            refs = [[w.circle_game, access.token_ref(w.other_game_token)]]
        if row.token in ("circle", "circle+game"):
            games.append([w.circle_game, seal(w.circle_game_token)])
            games.append([w.game, seal(w.game_token)])
            circles.append([w.circle, seal(w.other_circle_token)])
    return {"own_seals": games, "edit_refs": refs, "circle_seals": circles, "event_seals": nights}


def _url(app: Flask, row: Row, w: World, token: str = "") -> str:
    values = {
        "circle_id": w.circle,
        "game_id": w.circle_game,
        "event_id": w.night,
        "table_game": w.table,
        "number": 1,
        "n": 1,
        "token": token or "x" * 43,
    }
    rule = next(iter(app.url_map.iter_rules(row.endpoint)))
    with app.test_request_context():
        return url_for(row.endpoint, **{k: v for k, v in values.items() if k in rule.arguments})


def _body(row: Row, w: World) -> dict[str, Any]:
    """A request that would be written with the right token."""
    api = {
        "api_circles.start_game": {"players": ["Rana", "Sami", "New 1", "New 2"]},
        "api_events.create_event": {"name": "Raid", "players": [], "circle": w.circle},
        "api_events.replace_player": {"player": NIGHT[0], "substitute": "Newcomer"},
        "api_events.redraw_round": {"player": NIGHT[0]},
        "api_events.add_player": {"name": "Late"},
        "api_events.player_leaves": {"name": NIGHT[0]},
        "api_events.lock_round": {"locked": True},
        "api_events.correct_deal": KING_BODY,
        "api_games.record_deal": KING_BODY,
        "api_games.edit_deal": KING_BODY,
        "api_games.record_redeal": {"kind": "misdeal"},
        "offline_api.sync": {"entry_id": "e" * 16, "action": "record", "entry": KING_BODY},
    }
    form = {
        "web.circle_new_game": {"new-0": "A", "new-1": "B", "new-2": "C", "new-3": "D"},
        "web.circle_attach": {"game": w.game, "confirm": "1"},
        "web.circle_settings": {"ratings": "on"},
        "web.add_event_player": {"name": "Late"},
        "web.event_player_leaves": {"name": NIGHT[0]},
        "web.replace_event_player": {"player": NIGHT[0], "substitute": "Newcomer"},
        "web.redraw_event_round": {"player": NIGHT[0]},
        "web.new_deal": {"version": "2", "kh_taker": "2", "kh_doubled_by": ""},
        "web.edit_deal": {"version": "2", "kh_taker": "2", "kh_doubled_by": ""},
        "web.undo": {"version": "2", "confirm": "yes"},
        "web.record_redeal": {"version": "2", "kind": "misdeal"},
        "web.close_club_night": {"confirm": "yes"},
        "web.reopen_club_night": {"confirm": "yes"},
        "web.undo_event_draw": {"confirm": "yes"},
        "web.set_event_clock": {"round_minutes": "30"},
        "web.new_event": {
            "name": "Raid",
            "circle": w.circle,
            "members": ["Rana", "Sami"],
            "players": "New 1\nNew 2",
            "rounds": "2",
            "round_kind": "game",
            "scoring": "totals",
            "places": "3 2 1 0",
            "byes": "average",
            "bye_points": "0",
            "ranking": "points",
        },
        "web.give_co_director": {"confirm": "yes"},
        "web.revoke_co_director": {"confirm": "yes"},
    }
    return api.get(row.endpoint) or form.get(row.endpoint) or {}


def _send(
    client: FlaskClient, row: Row, url: str, body: dict[str, Any], headers: dict[str, str]
) -> TestResponse:
    if url.startswith(API):
        headers = {"If-Match": '"2"', **headers}
        return client.open(url, method=row.method, json=body, headers=headers)
    return client.open(url, method=row.method, data=body, headers=headers)


# --- the table is the app's --------------------------------------------------------------------


def test_the_audit_lists_every_write_route_of_the_app(app: Flask) -> None:
    routes = {
        (rule.endpoint, method)
        for rule in app.url_map.iter_rules()
        for method in (rule.methods or set()) & WRITE_METHODS
        if rule.endpoint not in NOT_AUDITED
    }
    assert routes == {(row.endpoint, row.method) for row in AUDIT}


def test_the_architecture_table_is_the_audit(app: Flask) -> None:
    """docs/ARCHITECTURE.md lists each row: its method, its path and its token."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    table = re.findall(
        r"^\| `(POST|PUT|PATCH|DELETE) ([^`]+)` \|[^|]*\|([^|]*)\|", text, re.MULTILINE
    )
    documented = {(method, path) for method, path, _token in table}
    for row in AUDIT:
        rule = next(iter(app.url_map.iter_rules(row.endpoint)))
        assert (row.method, rule.rule) in documented, (row.method, rule.rule)
    assert len(table) == len({(r.endpoint, r.method, r.token) for r in AUDIT})


# --- each row: refused without its token, and nothing written ----------------------------------


def _refused(response: TestResponse, row: Row) -> None:
    allowed = {401, 403} | ({422} if row.token == "circle+game" else set())
    assert response.status_code in allowed, (row, response.status_code, response.data[:300])


@pytest.mark.parametrize("row", GUARDED, ids=_id)
def test_without_any_token_the_write_is_refused_and_nothing_is_written(
    app: Flask, world: World, row: Row
) -> None:
    before = every_row()
    url = _url(app, row, world)
    response = _send(app.test_client(), row, url, _body(row, world), {})
    _refused(response, row)
    assert every_row() == before


@pytest.mark.parametrize("row", GUARDED, ids=_id)
def test_with_every_other_token_the_write_is_refused_and_nothing_is_written(
    app: Flask, world: World, row: Row
) -> None:
    before = every_row()
    for client, url, headers in _attempts(app, row, world):
        response = _send(client, row, url, _body(row, world), headers)
        _refused(response, row)
        assert every_row() == before, row


def _attempts(app: Flask, row: Row, w: World) -> Iterator[tuple[FlaskClient, str, dict[str, str]]]:
    """Each way a visitor may hold the wrong token for this row."""
    if row.token.endswith("link"):
        wrong = {
            "circle link": [w.circle_game_token, w.director, w.other_circle_token],
            "director link": [w.table_token, w.circle_token, w.other_director],
            "game link": [w.circle_token, w.director, w.other_game_token],
        }[row.token]
        for token in wrong:
            yield app.test_client(), _url(app, row, w, token), {}
        return
    url = _url(app, row, w)
    if url.startswith(API) and row.endpoint != "offline_api.sync":
        for token in _wrong_bearers(row, w):
            yield app.test_client(), url, _bearer(token)
        return
    client = app.test_client()
    with client.session_transaction() as session:
        session.update(_wrong_session(app, row, w))
    yield client, url, {}
    if row.token == "circle+game":  # the circle's own rights, and no right over the game
        owner = app.test_client()
        with app.test_request_context():
            sealed = access.seal(w.circle_token)
        with owner.session_transaction() as session:
            session["circle_seals"] = [[w.circle, sealed]]
        yield owner, url, {}
        bogus = {"game": w.game, "confirm": "1", "link": f"/games/{w.game}/join/{'y' * 43}"}
        yield owner, f"{url}?{'&'.join(f'{k}={v}' for k, v in bogus.items())}", {}


# --- a row without a token creates only new things ---------------------------------------------


def _creation(client: FlaskClient, row: Row, w: World) -> TestResponse:
    """A valid request of a creating row, naming the world's objects where it can."""
    if row.endpoint == "api_circles.create_circle":
        return client.post(f"{API}/circles", json={"name": "Club", "members": NAMES})
    if row.endpoint == "web.circles":
        return client.post("/circles", data={"name": "Club", "members": NAMES})
    if row.endpoint == "web.circle_restore":
        backup = client.get(f"/circles/{w.circle}/backup.json").data
        return client.post("/circles/restore", data={"file": (io.BytesIO(backup), "c.json")})
    if row.endpoint == "api_events.create_event":
        return client.post(f"{API}/events", json={"name": "Mine", "players": NIGHT})
    if row.endpoint == "web.new_event":
        data = {"name": "Mine", "players": "\n".join(NIGHT), "rounds": "2", "round_kind": "game"}
        return client.post("/events/new", data={**data, "scoring": "totals", "places": "3 2 1 0"})
    if row.endpoint == "api_games.create_game":
        return client.post(f"{API}/games", json={"players": NAMES})
    if row.endpoint == "web.new_game":
        data = {f"players-{i}": name for i, name in enumerate(NAMES)}
        return client.post("/games/new", data={**data, "first_king": "0", "preset": "standard"})
    export = client.get(f"{API}/games/{w.circle_game}/export").get_json()
    if row.endpoint == "api_games.import_game":
        return client.post(f"{API}/games/import", json=export)
    assert row.endpoint == "web.import_page"
    raw = client.get(f"/games/{w.circle_game}/export.json").data
    return client.post("/games/import", data={"backup": (io.BytesIO(raw), "g.json")})


@pytest.mark.parametrize("row", CREATING, ids=_id)
def test_a_write_without_a_token_creates_only_new_things(
    app: Flask, world: World, row: Row
) -> None:
    before = every_row()
    response = _creation(app.test_client(), row, world)
    assert response.status_code in (201, 302, 303), response.get_data(as_text=True)[:300]
    after = every_row()
    for table, rows in before.items():
        assert set(rows) <= set(after[table]), table  # nothing there before was changed
    assert after != before  # and it did create something


def _right(app: Flask, row: Row, w: World) -> tuple[FlaskClient, str, dict[str, str]]:
    """A visitor holding the row's token."""
    client = app.test_client()
    links = {"circle link": w.circle_token, "director link": w.director, "game link": None}
    if row.token.endswith("link"):
        return client, _url(app, row, w, links[row.token] or w.circle_game_token), {}
    url = _url(app, row, w)
    bearer = {"circle": w.circle_token, "director": w.director, "game": w.circle_game_token}
    if url.startswith(API) and row.endpoint != "offline_api.sync":
        return client, url, _bearer(bearer[row.token])
    with app.test_request_context():
        seal = access.seal
        rights = {
            "circle_seals": [[w.circle, seal(w.circle_token)]],
            "event_seals": [[w.night, seal(w.director)]],
            "own_seals": [[w.circle_game, seal(w.circle_game_token)], [w.game, seal(w.game_token)]],
        }
    with client.session_transaction() as session:
        session.update(rights)
    return client, url, {}


@pytest.mark.parametrize("row", GUARDED, ids=_id)
def test_with_its_token_the_write_is_not_refused_for_want_of_one(
    app: Flask, world: World, row: Row
) -> None:
    """The control of the tests above: the same request with the right token gets past the
    check (so that their refusals are the token's, not the request's)."""
    client, url, headers = _right(app, row, world)
    response = _send(client, row, url, _body(row, world), headers)
    assert response.status_code not in (401, 403), (row, response.data[:300])
