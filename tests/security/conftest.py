"""Fixtures for the security tests: games with tokens, phones, and what was written.

``start()`` creates a game through the services (one king deal recorded, so
that there is a deal 1 to edit and something to undo) and returns it with
its edit token. ``phone(game, token, owner)`` is a fresh browser whose
session holds that token; ``snapshot(game_id)`` is everything a write could
change, to check that a refused request changed nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.rules.captures import Capture, Captures
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.game_log import DealEntry
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import games as services
from scorekeeper.store import models
from scorekeeper.web import access

NAMES = ["Rana", "Sami", "Omar", "Lina"]


@dataclass(frozen=True)
class StartedGame:
    """A stored game and its edit token."""

    id: str
    token: str


@dataclass(frozen=True)
class Snapshot:
    """What any write to a game would change."""

    version: int
    log: list[tuple[int, str, Any]]
    revisions: int
    token_hash: str


def read_snapshot(game_id: str) -> Snapshot:
    """The game's version, log, revision count and token hash, read fresh."""
    db.session.rollback()  # a fresh read, whatever the last request left open
    row = db.session.get(models.Game, game_id)
    assert row is not None
    log = db.session.scalars(
        select(models.LogEntry)
        .where(models.LogEntry.game_id == game_id)
        .order_by(models.LogEntry.position)
    )
    revisions = db.session.scalar(
        select(func.count()).select_from(models.Revision).where(models.Revision.game_id == game_id)
    )
    snap = Snapshot(
        row.version,
        [(e.position, e.kind, e.payload) for e in log],
        int(revisions or 0),
        row.edit_token_hash,
    )
    db.session.rollback()
    return snap


def king_deal() -> DealEntry:
    return DealEntry((Contract.KING,), Captures(king_of_hearts=Capture(1)))


@pytest.fixture
def start(app: Flask) -> Callable[..., StartedGame]:
    """``start(deals=1)``: a new game, with a king deal recorded unless ``deals=0``."""

    def make(deals: int = 1) -> StartedGame:
        loaded, token = services.create_game(NAMES, 0, RuleSet())
        if deals:
            services.record_deal(loaded.id, king_deal())
        return StartedGame(loaded.id, token)

    return make


@pytest.fixture
def phone(app: Flask) -> Callable[..., FlaskClient]:
    """``phone(game, token=None, owner=False)``: a new browser holding ``token`` for ``game``."""

    def make(
        game: StartedGame | None = None, token: str | None = None, owner: bool = False
    ) -> FlaskClient:
        client = app.test_client()
        if game is not None and token is not None:
            with app.test_request_context():  # sealing uses the app's secret
                rights = session_rights(game.id, token, owner)
            with client.session_transaction() as session:
                session.update(rights)
        return client

    return make


def session_rights(game_id: str, token: str, owner: bool) -> dict[str, Any]:
    """What a session holds once it created (``owner``) or joined the game with ``token``."""
    if owner:
        return {"own_seals": [[game_id, access.seal(token)]]}
    return {"edit_refs": [[game_id, access.token_ref(token)]]}


@pytest.fixture
def snapshot(app: Flask) -> Callable[[str], Snapshot]:
    """``snapshot(game_id)``: what a write would change, read fresh from the database."""
    return read_snapshot
