"""Rate limits: writes per address and game, failed token checks per address (small limits)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.store import games as services

API = "/api/v1"


@pytest.fixture
def app(make_app: Callable[..., Flask]) -> Iterator[Flask]:
    """Limits on, and small: 3 writes per game, 2 failed token checks, per minute."""
    app = make_app(
        RATELIMIT_ENABLED=True, RATELIMIT_WRITES="3/minute", RATELIMIT_TOKEN_CHECKS="2/minute"
    )
    with app.app_context():
        db.create_all()
        yield app
        db.session.remove()
        db.drop_all()


def _misdeal(client: FlaskClient, game_id: str, token: str) -> int:
    url = f"{API}/games/{game_id}/redeals"
    auth = {"Authorization": f"Bearer {token}"}
    return client.post(url, json={"kind": "misdeal"}, headers=auth).status_code


def test_api_writes_past_the_limit_get_a_clear_429(
    client: FlaskClient, start: Callable[..., Any], snapshot: Callable[[str], Any]
) -> None:
    game, other = start(), start()
    assert [_misdeal(client, game.id, game.token) for _ in range(3)] == [201] * 3
    before = snapshot(game.id)
    response = client.post(
        f"{API}/games/{game.id}/redeals",
        json={"kind": "misdeal"},
        headers={"Authorization": f"Bearer {game.token}"},
    )
    assert response.status_code == 429
    body = response.get_json()
    assert body["ok"] is False and "Too many changes" in body["errors"][0]["message"]
    assert int(response.headers["Retry-After"]) > 0
    assert snapshot(game.id) == before
    # reads are not limited, and another game has its own count
    assert client.get(f"{API}/games/{game.id}").status_code == 200
    assert _misdeal(client, other.id, other.token) == 201


def test_page_writes_past_the_limit_get_a_clear_429_page(
    start: Callable[..., Any], phone: Callable[..., FlaskClient], snapshot: Callable[[str], Any]
) -> None:
    game = start()
    owner = phone(game, game.token, owner=True)

    def misdeal() -> Any:
        version = services.load_game(game.id).version
        return owner.post(
            f"/games/{game.id}/redeals", data={"version": str(version), "kind": "misdeal"}
        )

    assert [misdeal().status_code for _ in range(3)] == [302] * 3
    before = snapshot(game.id)
    response = misdeal()
    assert response.status_code == 429 and response.mimetype == "text/html"
    assert "Too many changes" in response.get_data(as_text=True)
    assert snapshot(game.id) == before
    assert owner.get(f"/games/{game.id}").status_code == 200


def test_other_addresses_have_their_own_count(
    client: FlaskClient, start: Callable[..., Any]
) -> None:
    game = start()
    for _ in range(3):
        _misdeal(client, game.id, game.token)
    assert _misdeal(client, game.id, game.token) == 429
    elsewhere = {"REMOTE_ADDR": "198.51.100.9"}
    response = client.post(
        f"{API}/games/{game.id}/redeals",
        json={"kind": "misdeal"},
        headers={"Authorization": f"Bearer {game.token}"},
        environ_base=elsewhere,
    )
    assert response.status_code == 201


def test_failed_bearer_tokens_are_limited_but_the_right_one_still_works(
    client: FlaskClient, start: Callable[..., Any]
) -> None:
    """Behind a proxy every player may share one address: a stranger's guesses must not
    lock the table out. Failures count per address and game."""
    game, other = start(), start()
    assert [_misdeal(client, game.id, "guess") for _ in range(2)] == [403, 403]
    response = client.post(
        f"{API}/games/{game.id}/redeals",
        json={"kind": "misdeal"},
        headers={"Authorization": "Bearer guess"},
    )
    assert response.status_code == 429
    assert "wrong edit link or token" in response.get_json()["errors"][0]["message"]
    assert int(response.headers["Retry-After"]) > 0
    assert _misdeal(client, game.id, "guess") == 429
    # the right token, from the same address, past the limit: saved
    assert _misdeal(client, game.id, game.token) == 201
    # another game from the same address has its own count
    assert _misdeal(client, other.id, "guess") == 403


def test_successful_token_checks_are_not_counted(
    client: FlaskClient, start: Callable[..., Any]
) -> None:
    games = [start() for _ in range(4)]
    assert [_misdeal(client, g.id, g.token) for g in games] == [201] * 4


def test_failed_join_links_are_limited(
    start: Callable[..., Any], phone: Callable[..., FlaskClient]
) -> None:
    game = start()
    client = phone()
    assert client.get(f"/games/{game.id}/join/guess-1").status_code == 403
    assert client.get(f"/games/{game.id}/join/guess-2").status_code == 403
    response = client.get(f"/games/{game.id}/join/guess-3")
    assert response.status_code == 429
    assert "wrong edit link" in response.get_data(as_text=True)
    # the right link still works, from this address and from another
    assert client.get(f"/games/{game.id}/join/{game.token}").status_code == 200
    assert client.post(f"/games/{game.id}/join/{game.token}").status_code == 303
    other = phone().get(
        f"/games/{game.id}/join/{game.token}", environ_base={"REMOTE_ADDR": "10.1.2.3"}
    )
    assert other.status_code == 200


def test_limits_are_off_by_default_in_tests(make_app: Callable[..., Flask]) -> None:
    assert make_app().config["RATELIMIT_ENABLED"] is False
    assert make_app(TESTING=False).config["RATELIMIT_ENABLED"] is True


# --- Retry-After: the limiter's only on its own 429s ------------------------------------------


def test_answers_that_pass_the_limit_carry_no_retry_after(
    client: FlaskClient, start: Callable[..., Any]
) -> None:
    game = start()
    url = f"{API}/games/{game.id}/redeals"
    created = client.post(url, json={"kind": "misdeal"}, headers=_auth(game.token))
    assert created.status_code == 201
    assert "Retry-After" not in created.headers
    assert not [k for k, _v in created.headers.items() if k.lower().startswith("x-ratelimit")]
    assert "Retry-After" not in client.get(f"{API}/games/{game.id}").headers


def test_a_page_past_the_limit_says_when_to_retry(
    start: Callable[..., Any], phone: Callable[..., FlaskClient]
) -> None:
    game = start()
    owner = phone(game, game.token, owner=True)
    for _ in range(4):
        version = services.load_game(game.id).version
        response = owner.post(
            f"/games/{game.id}/redeals", data={"version": str(version), "kind": "misdeal"}
        )
    assert response.status_code == 429
    assert 1 <= int(response.headers["Retry-After"]) <= 60  # what is left of the minute


def test_a_full_disk_says_the_apps_own_retry_after_on_a_limited_route(
    client: FlaskClient, start: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """API.md promises Retry-After: 2 on a 503; the limiter must not make it its window's end."""
    import sqlite3

    from sqlalchemy.exc import OperationalError

    from scorekeeper.web.api import games as api_games

    game = start()
    full = OperationalError("INSERT", {}, sqlite3.OperationalError("database or disk is full"))

    def disk_full(*_args: Any, **_kwargs: Any) -> Any:
        raise full

    monkeypatch.setattr(api_games.services, "record_redeal", disk_full)
    response = client.post(
        f"{API}/games/{game.id}/redeals", json={"kind": "misdeal"}, headers=_auth(game.token)
    )
    assert response.status_code == 503 and response.headers["Retry-After"] == "2"


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}
