"""Live updates: polling costs a 304 without replaying the game; pages carry the poller."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.store import game_store
from scorekeeper.store.snapshot import Change
from scorekeeper.web.live import routes as web_live
from tests.conftest import postgres_schema_app
from tests.sql import sql_statements

API = "/api/v1"
PLAYERS = ["Rana", "Sami", "Omar", "Lina"]
TRIX = {"contracts": ["trix"], "captures": {"trix_order": [2, 0, 3, 1]}}
KING = {"contracts": ["king"], "captures": {"king_of_hearts": {"taker": 1, "doubled_by": None}}}


def new_game(client: FlaskClient) -> tuple[str, dict[str, str]]:
    answer = client.post(f"{API}/games", json={"players": PLAYERS}).get_json()
    return answer["id"], {"Authorization": f"Bearer {answer['edit_token']}"}


@pytest.fixture
def no_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any replay of a stored game fails the test."""

    def refuse(*_args: Any) -> None:
        raise AssertionError("the game was replayed")

    monkeypatch.setattr(game_store, "replay_stored", refuse)


def test_version_poll_answers_304_with_no_body_when_unchanged(
    app: Flask, client: FlaskClient
) -> None:
    game_id, _ = new_game(client)
    first = client.get(f"/games/{game_id}/version")
    assert first.status_code == 200 and first.headers["ETag"] == '"1"'
    assert first.get_json() == {"version": 1, "deals_played": 0, "finished": False, "change": None}
    with sql_statements(app) as seen:
        again = client.get(f"/games/{game_id}/version", headers={"If-None-Match": '"1"'})
    assert again.status_code == 304 and again.data == b""
    assert again.headers["ETag"] == '"1"' and "no-cache" in again.headers["Cache-Control"]
    assert len([s for s in seen if s.lstrip().upper().startswith("SELECT")]) == 1
    assert not any("log_entries" in s for s in seen)  # the version column alone


def test_version_poll_says_what_changed(client: FlaskClient) -> None:
    game_id, auth = new_game(client)
    client.post(f"{API}/games/{game_id}/deals", json=KING, headers=auth)
    changed = client.get(f"/games/{game_id}/version", headers={"If-None-Match": '"1"'})
    assert changed.status_code == 200 and changed.headers["ETag"] == '"2"'
    body = changed.get_json()
    assert body["version"] == 2 and body["deals_played"] == 1
    assert body["change"] == "Deal 1 was recorded meanwhile: \u2068Rana\u2069's King of Hearts."


def test_polling_never_replays_an_unchanged_game(client: FlaskClient, no_replay: None) -> None:
    game_id, _ = new_game(client)
    page = client.get(f"/games/{game_id}/version", headers={"If-None-Match": 'W/"1"'})
    api = client.get(f"{API}/games/{game_id}", headers={"If-None-Match": '"1"'})
    assert (page.status_code, api.status_code) == (304, 304)
    assert api.data == b"" and api.headers["ETag"] == '"1"'


def test_api_get_answers_200_with_the_game_once_it_changed(client: FlaskClient) -> None:
    game_id, auth = new_game(client)
    client.post(f"{API}/games/{game_id}/deals", json=TRIX, headers=auth)
    response = client.get(f"{API}/games/{game_id}", headers={"If-None-Match": '"1"'})
    assert response.status_code == 200 and response.headers["ETag"] == '"2"'
    assert response.get_json()["version"] == 2


def test_polling_an_unknown_game_is_a_json_404(client: FlaskClient) -> None:
    for headers in ({}, {"If-None-Match": '"1"'}):
        response = client.get("/games/nope/version", headers=headers)
        assert response.status_code == 404
        assert response.get_json()["errors"][0]["message"]
        api = client.get(f"{API}/games/nope", headers=headers)
        assert api.status_code == 404 and api.get_json()["ok"] is False


@pytest.mark.parametrize(
    ("action", "before", "after", "sentence"),
    [
        ("edit", None, {"n": 3, "king": 2, "contracts": ["diamonds"]}, "Deal 3 was corrected"),
        (
            "undo",
            {"n": 4, "king": 0, "contracts": ["trix"]},
            None,
            "Deal 4 (\u2068Rana\u2069's Trix) was",
        ),
        ("redeal", None, {"kind": "misdeal", "n": None}, "A misdeal was recorded meanwhile."),
        ("undo", {"kind": "redeal", "n": None}, None, "A redeal was undone meanwhile."),
    ],
)
def test_change_sentences_name_the_deal(
    action: str, before: Any, after: Any, sentence: str
) -> None:
    said = web_live.change_sentence(PLAYERS, Change(action, before, after))
    assert said.startswith(sentence)


def test_game_page_carries_the_poller_and_a_refresh_link(client: FlaskClient) -> None:
    game_id, _ = new_game(client)
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert f'data-live-url="/games/{game_id}/version"' in page
    assert 'data-version="1"' in page and 'data-live-mode="swap"' in page
    assert f'<a href="/games/{game_id}" data-testid="refresh">Refresh</a>' in page
    assert 'data-live-region="board"' in page and 'data-live-region="fix"' in page
    assert '<script src="/static/live.js" defer></script>' in page
    assert not re.search(r"<script(?![^>]*\bsrc=)", page)  # no inline script (CSP)
    assert " style=" not in page


def test_deal_form_shows_a_banner_instead_of_swapping(client: FlaskClient) -> None:
    data = {f"players-{i}": n for i, n in enumerate(PLAYERS)}
    response = client.post("/games/new", data={**data, "first_king": "0", "preset": "standard"})
    game_id = response.headers["Location"].rsplit("/", 1)[-1]
    page = client.get(f"/games/{game_id}/deals/new?contracts=king").get_data(as_text=True)
    assert 'data-live-mode="banner"' in page and "data-hint-text=" in page
    assert 'data-testid="refresh"' not in page  # a reload would lose what is typed


@pytest.fixture
def pg_client(make_app: Any, test_database_url: str) -> Iterator[FlaskClient]:
    """A client of the app on PostgreSQL (a fresh schema): polls read outside transactions."""
    with postgres_schema_app(make_app, test_database_url) as app:
        yield app.test_client()


def test_polling_on_postgres(pg_client: FlaskClient) -> None:
    game_id, auth = new_game(pg_client)
    unchanged = pg_client.get(f"/games/{game_id}/version", headers={"If-None-Match": '"1"'})
    assert unchanged.status_code == 304
    pg_client.post(f"{API}/games/{game_id}/deals", json=KING, headers=auth)
    changed = pg_client.get(f"/games/{game_id}/version", headers={"If-None-Match": '"1"'})
    assert changed.status_code == 200
    assert (
        changed.get_json()["change"]
        == "Deal 1 was recorded meanwhile: \u2068Rana\u2069's King of Hearts."
    )
    api = pg_client.get(f"{API}/games/{game_id}", headers={"If-None-Match": '"2"'})
    assert api.status_code == 304
    assert pg_client.get("/games/nope/version").status_code == 404
