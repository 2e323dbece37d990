"""A busy database is a 503 with Retry-After; a log the engine refuses is a 409. Never a 500."""

from __future__ import annotations

import fcntl
import os
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import text, update

from scorekeeper import extensions
from scorekeeper.extensions import db
from scorekeeper.store import models, transactions, write_gate
from scorekeeper.store.game_store import replays
from tests.conftest import postgres_schema_app

API = "/api/v1"
PLAYERS = ["Rana", "Sami", "Omar", "Lina"]
KING = {"contracts": ["king"], "captures": {"king_of_hearts": {"taker": 1, "doubled_by": None}}}
TRIX = {"contracts": ["trix"], "captures": {"trix_order": [2, 0, 3, 1]}}


@pytest.fixture
def file_app(
    make_app: Callable[..., Flask], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Flask]:
    """An app on a SQLite file whose busy timeout is 100 ms (5 s in production)."""
    pragmas = tuple(
        "PRAGMA busy_timeout=100" if p.startswith("PRAGMA busy_timeout") else p
        for p in extensions.SQLITE_PRAGMAS
    )
    monkeypatch.setattr(extensions, "SQLITE_PRAGMAS", pragmas)
    app = make_app(SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'busy.sqlite'}")
    with app.app_context():
        db.create_all()
        yield app
        db.session.remove()
        db.engine.dispose()


def new_game(client: FlaskClient) -> tuple[str, dict[str, str]]:
    answer = client.post(f"{API}/games", json={"players": PLAYERS}).get_json()
    return answer["id"], {"Authorization": f"Bearer {answer['edit_token']}"}


def hold_write_lock(app: Flask) -> sqlite3.Connection:
    """Another process's writer: holds SQLite's write lock until closed."""
    path = app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///")
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    return conn


def version_of(client: FlaskClient, game_id: str) -> int:
    return int(client.get(f"{API}/games/{game_id}").get_json()["version"])


def test_api_write_on_a_locked_database_is_a_503_and_writes_nothing(file_app: Flask) -> None:
    client = file_app.test_client()
    game_id, auth = new_game(client)
    lock = hold_write_lock(file_app)
    try:
        response = client.post(f"{API}/games/{game_id}/deals", json=KING, headers=auth)
        assert response.status_code == 503
        assert response.headers["Retry-After"] == "2"
        body = response.get_json()
        assert body["ok"] is False and "Nothing was saved" in body["errors"][0]["message"]
        assert client.get(f"{API}/games/{game_id}").status_code == 200  # reads still work
    finally:
        lock.close()
    assert version_of(client, game_id) == 1
    retried = client.post(f"{API}/games/{game_id}/deals", json=KING, headers=auth)
    assert retried.status_code == 201


def test_page_writes_on_a_locked_database_are_a_503_page(file_app: Flask) -> None:
    client = file_app.test_client()
    names = {f"players-{i}": n for i, n in enumerate(PLAYERS)}
    created = client.post("/games/new", data={**names, "first_king": "0", "preset": "standard"})
    game_id = created.headers["Location"].rsplit("/", 1)[-1]
    lock = hold_write_lock(file_app)
    try:
        deal = client.post(
            f"/games/{game_id}/deals/new?contracts=king",
            data={"version": "1", "kh_taker": "1", "kh_doubled_by": ""},
        )
        game = client.post("/games/new", data={**names, "first_king": "0", "preset": "standard"})
    finally:
        lock.close()
    for response in (deal, game):
        assert response.status_code == 503 and response.headers["Retry-After"] == "2"
        page = response.get_data(as_text=True)
        assert "The game is busy" in page and "Nothing was saved" in page
    assert version_of(client, game_id) == 1


def break_the_log(app: Flask, game_id: str) -> None:
    """Make the stored second deal repeat the first one's contract (as a changed engine might)."""
    with app.app_context():
        db.session.execute(
            update(models.LogEntry)
            .where(models.LogEntry.game_id == game_id, models.LogEntry.position == 1)
            .values(payload=KING)
        )
        db.session.commit()


def test_a_log_the_engine_refuses_is_a_clear_409(app: Flask, client: FlaskClient) -> None:
    game_id, auth = new_game(client)
    for deal in (KING, TRIX):
        assert (
            client.post(f"{API}/games/{game_id}/deals", json=deal, headers=auth).status_code == 201
        )
    break_the_log(app, game_id)
    replays().clear()  # as after an engine upgrade: a new process replays the stored log
    for response in (
        client.get(f"{API}/games/{game_id}"),
        client.post(f"{API}/games/{game_id}/deals", json=TRIX, headers=auth),
    ):
        assert response.status_code == 409
        error = response.get_json()["errors"][0]
        assert error["field"] == "log.1"
        assert "cannot be replayed under the current rules engine: entry 2" in error["message"]
    page = client.get(f"/games/{game_id}")
    assert page.status_code == 409
    assert "cannot be replayed" in page.get_data(as_text=True)
    backup = client.get(f"{API}/games/{game_id}/export")  # the way out: a backup
    assert backup.status_code == 200 and len(backup.get_json()["log"]) == 2


@pytest.fixture
def pg_app(
    make_app: Callable[..., Flask], test_database_url: str, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Flask]:
    """An app on PostgreSQL (a fresh schema) whose lock timeout is 200 ms (5 s in production)."""
    monkeypatch.setattr(transactions, "POSTGRES_LOCK_TIMEOUT_MS", 200)
    with postgres_schema_app(make_app, test_database_url) as app:
        yield app


def test_postgres_write_behind_a_held_row_lock_is_a_503(pg_app: Flask) -> None:
    client = pg_app.test_client()
    game_id, auth = new_game(client)
    with db.engine.connect() as other:  # another writer, holding the game's row
        other.execute(text("SELECT id FROM games WHERE id = :id FOR UPDATE"), {"id": game_id})
        response = client.post(f"{API}/games/{game_id}/deals", json=KING, headers=auth)
        other.rollback()
    assert response.status_code == 503 and response.headers["Retry-After"] == "2"
    assert "Nothing was saved" in response.get_json()["errors"][0]["message"]
    assert version_of(client, game_id) == 1


def test_a_writer_that_never_gets_its_turn_is_a_503(
    file_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another worker process holding the SQLite write gate (scorekeeper.store.write_gate)."""
    monkeypatch.setattr(write_gate, "WAIT_SECONDS", 0.1)
    client = file_app.test_client()
    game_id, auth = new_game(client)
    database = file_app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///")
    other = os.open(f"{database}-writer.lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(other, fcntl.LOCK_EX)
    try:
        response = client.post(f"{API}/games/{game_id}/deals", json=KING, headers=auth)
    finally:
        os.close(other)
    assert response.status_code == 503 and response.headers["Retry-After"] == "2"
    assert version_of(client, game_id) == 1
    assert client.post(f"{API}/games/{game_id}/deals", json=KING, headers=auth).status_code == 201


def test_only_sqlite_files_have_a_write_gate(make_app: Callable[..., Flask]) -> None:
    with make_app().app_context():
        assert write_gate.file_of(db.engine) is None  # in memory
    pg = make_app(SQLALCHEMY_DATABASE_URI="postgresql://u@localhost/x")
    with pg.app_context():
        assert write_gate.file_of(db.engine) is None


def test_an_error_page_on_a_games_address_offers_the_way_back_to_it(client: FlaskClient) -> None:
    """A refused request about a game that exists leads back to the game; one about a game
    that does not exist leads only home."""
    game_id = client.post(
        "/api/v1/games", json={"players": ["Rana", "Sami", "Omar", "Lina"]}
    ).get_json()["id"]
    missing_deal = client.get(f"/games/{game_id}/deals/9")
    assert missing_deal.status_code == 404
    page = missing_deal.get_data(as_text=True)
    assert f'href="/games/{game_id}" data-testid="back-to-game"' in page
    nowhere = client.get("/games/no-such-game/deals/9").get_data(as_text=True)
    assert 'data-testid="back-to-game"' not in nowhere
