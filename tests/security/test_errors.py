"""Errors never show a stack trace: too-large bodies, deep nesting, and crashes in production."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import func, select

from scorekeeper import MAX_CONTENT_LENGTH
from scorekeeper.extensions import db
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import models

API = "/api/v1"
TRACES = ("Traceback", 'File "', "RuntimeError", "scorekeeper/")


def _no_trace(text: str) -> None:
    assert not any(trace in text for trace in TRACES), text[:500]


def test_too_large_bodies_are_413_in_json_and_on_pages(
    client: Any, start: Callable[..., Any], phone: Callable[..., Any], snapshot: Any
) -> None:
    game = start()
    before = snapshot(game.id)
    big = "x" * (MAX_CONTENT_LENGTH + 1)
    auth = {"Authorization": f"Bearer {game.token}"}
    api = client.post(f"{API}/games/{game.id}/deals", data=big, headers=auth)
    assert api.status_code == 413 and api.get_json()["ok"] is False
    assert "too large" in api.get_json()["errors"][0]["message"]
    owner = phone(game, game.token, owner=True)
    page = owner.post(f"/games/{game.id}/redeals", data={"kind": "misdeal", "note": big})
    assert page.status_code == 413 and page.mimetype == "text/html"
    assert "far larger than any form" in page.get_data(as_text=True)
    assert client.post("/games/new", data={"x": big}).status_code == 413
    assert snapshot(game.id) == before


@pytest.mark.parametrize("depth", [500, 1_000, 40_000])
def test_deeply_nested_json_is_a_400_not_a_crash(client: Any, depth: int) -> None:
    for body in ("[" * depth + "]" * depth, '{"a":' * depth + "1" + "}" * depth):
        response = client.post(f"{API}/check/deal", data=body)
        assert response.status_code in (400, 422), response.status_code
        assert response.get_json()["ok"] is False


@pytest.fixture
def production(make_app: Callable[..., Flask]) -> Iterator[Flask]:
    """The app as served: not testing, exceptions not propagated, plus two failing routes."""
    app = make_app(TESTING=False)
    assert app.config["PROPAGATE_EXCEPTIONS"] is False

    def half_written() -> str:
        row = models.Game(
            id="halfwritten00000",
            rules=RuleSet().to_dict(),
            first_king=0,
            version=1,
            edit_token_hash="0" * 64,
            summary={},
        )
        db.session.add(row)
        db.session.flush()  # the row is in the transaction, not yet committed
        raise RuntimeError("crash in the middle of a write")

    app.add_url_rule("/games/crash", "crash_page", half_written, methods=["POST"])
    app.add_url_rule(f"{API}/crash", "crash_api", half_written, methods=["POST"])
    with app.app_context():
        db.create_all()
        yield app
        db.session.remove()
        db.drop_all()


def _games() -> int:
    db.session.rollback()
    return int(db.session.scalar(select(func.count()).select_from(models.Game)) or 0)


def test_a_crash_is_a_plain_500_page_and_the_session_is_rolled_back(production: Flask) -> None:
    response = production.test_client().post("/games/crash")
    assert response.status_code == 500 and response.mimetype == "text/html"
    text = response.get_data(as_text=True)
    assert "nothing was saved" in text
    _no_trace(text)
    assert not db.session.new and not db.session.dirty
    assert _games() == 0


def test_a_crash_in_the_api_is_a_plain_json_500_and_rolled_back(production: Flask) -> None:
    response = production.test_client().post(f"{API}/crash", json={})
    assert response.status_code == 500
    body = response.get_json()
    assert body["ok"] is False and body["errors"][0]["message"].startswith("Something went wrong")
    _no_trace(response.get_data(as_text=True))
    assert _games() == 0
