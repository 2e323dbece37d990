"""Helpers for the page tests: start a game and post deals as a browser without JavaScript."""

from __future__ import annotations

import re
from typing import Any

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper.store import games as services

NAMES = ["Rana", "Sami", "Omar", "Lina"]


def new_game(client: FlaskClient, first_king: int = 0, **fields: str) -> str:
    """Start a game through the form; returns its id (this client may edit it)."""
    data = {f"players-{i}": name for i, name in enumerate(NAMES)}
    data.update({"first_king": str(first_king), "preset": "standard", **fields})
    response = client.post("/games/new", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.headers["Location"].rsplit("/", 1)[-1]


def version(game_id: str) -> int:
    return services.load_game(game_id).version


def post_deal(
    client: FlaskClient, game_id: str, contracts: str, data: dict[str, Any], **extra: Any
) -> TestResponse:
    """Post a deal form at the game's current version (the response is the caller's to check)."""
    body = {"version": str(version(game_id)), **data, **extra}
    return client.post(f"/games/{game_id}/deals/new?contracts={contracts}", data=body)


def html(response: TestResponse) -> str:
    """The page, without the <bdi> that set players' names apart: text as read."""
    return re.sub(r"</?bdi[^>]*>", "", response.get_data(as_text=True))
