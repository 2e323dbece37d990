"""The schema: `flask db upgrade` builds it from empty on SQLite and PostgreSQL, as modelled."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import flask_migrate
import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import Flask
from sqlalchemy import inspect, select, text
from sqlalchemy.exc import IntegrityError, StatementError

from scorekeeper.extensions import db
from scorekeeper.paths import PROJECT_ROOT
from scorekeeper.rules.captures import Captures
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.game_log import DealEntry
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import games as services
from scorekeeper.store import models
from tests.conftest import postgres_schema_app

MIGRATIONS = PROJECT_ROOT / "migrations"
TABLES = {"games", "seats", "log_entries", "revisions"}


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_app(
    request: pytest.FixtureRequest, make_app: Callable[..., Flask], tmp_path: Path
) -> Iterator[Flask]:
    """An app on an empty database: a new SQLite file, or a new PostgreSQL schema."""
    if request.param == "sqlite":
        app = make_app(SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'empty.sqlite'}")
        with app.app_context():
            yield app
            db.session.remove()
            db.engine.dispose()
        return
    url = request.getfixturevalue("test_database_url")
    with postgres_schema_app(make_app, url, tables=False) as app:
        yield app


def flask_db(app: Flask, *args: str) -> None:
    """Run ``flask db ARGS`` on the project's migrations, as scripts/run.sh does."""
    result = app.test_cli_runner().invoke(args=["db", *args, "-d", str(MIGRATIONS)])
    assert result.exit_code == 0, result.output + repr(result.exception)


def test_flask_db_upgrade_builds_the_schema_from_empty(empty_app: Flask) -> None:
    assert not TABLES & set(inspect(db.engine).get_table_names())
    flask_db(empty_app, "upgrade")
    assert TABLES | {"alembic_version"} <= set(inspect(db.engine).get_table_names())
    with db.engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        assert compare_metadata(context, db.metadata) == []  # the migration is the models


def test_the_migrated_schema_keeps_a_game(empty_app: Flask) -> None:
    flask_db(empty_app, "upgrade")
    loaded, token = services.create_game(["Rana", "Sami", "عمر", "Lina"], 0, RuleSet())
    entry = DealEntry((Contract.TRIX,), Captures(trix_order=(2, 0, 3, 1)))
    services.record_deal(loaded.id, entry)
    db.session.remove()
    again = services.load_game(loaded.id)
    assert again.players[2] == "عمر" and again.game.totals == (150, 50, 200, 100)
    assert services.token_matches(loaded.id, token)


def test_downgrade_removes_every_table(empty_app: Flask) -> None:
    flask_db(empty_app, "upgrade")
    flask_migrate.downgrade(directory=str(MIGRATIONS), revision="base")
    assert not TABLES & set(inspect(db.engine).get_table_names())
    flask_db(empty_app, "upgrade")  # and back again
    assert set(inspect(db.engine).get_table_names()) >= TABLES


def test_a_single_head_and_readable_revision_ids() -> None:
    versions = sorted(p.name for p in (MIGRATIONS / "versions").glob("*.py"))
    assert versions[0] == "0001_initial_schema.py"


# --- the models ----------------------------------------------------------------------------


@pytest.fixture
def schema_app(empty_app: Flask) -> Flask:
    flask_db(empty_app, "upgrade")
    return empty_app


def a_game(game_id: str = "g1") -> models.Game:
    now = models.utcnow()
    return models.Game(
        id=game_id,
        rules={},
        first_king=0,
        version=1,
        edit_token_hash="0" * 64,
        finished=False,
        summary={},
        created_at=now,
        updated_at=now,
        seats=[models.Seat(seat=s, name=n) for s, n in enumerate(["A", "B", "C", "D"])],
    )


def test_timestamps_come_back_aware_in_utc(schema_app: Flask) -> None:
    game = a_game()
    game.created_at = datetime(2026, 5, 1, 12, 0, tzinfo=timezone(timedelta(hours=3)))
    db.session.add(game)
    db.session.commit()
    db.session.remove()
    stored = db.session.get(models.Game, "g1")
    assert stored is not None
    assert stored.created_at == datetime(2026, 5, 1, 9, 0, tzinfo=UTC)
    assert stored.created_at.tzinfo is not None


def test_naive_timestamps_are_refused(schema_app: Flask) -> None:
    game = a_game()
    game.updated_at = datetime(2026, 5, 1, 12, 0)
    db.session.add(game)
    with pytest.raises(StatementError, match="timezone-aware"):
        db.session.commit()
    db.session.rollback()


def test_one_log_entry_per_position(schema_app: Flask) -> None:
    db.session.add(a_game())
    db.session.commit()
    for _ in range(2):
        db.session.add(models.LogEntry(game_id="g1", position=0, kind="deal", payload={}))
    with pytest.raises(IntegrityError):
        db.session.commit()
    db.session.rollback()


@pytest.mark.parametrize(
    "bad",
    [
        lambda: models.Seat(game_id="g1", seat=4, name="E"),
        lambda: models.LogEntry(game_id="g1", position=0, kind="deal?", payload={}),
        lambda: models.LogEntry(game_id="g1", position=-1, kind="deal", payload={}),
        lambda: models.LogEntry(game_id="missing", position=0, kind="deal", payload={}),
    ],
    ids=["seat-4", "unknown-kind", "negative-position", "no-such-game"],
)
def test_constraints_refuse_impossible_rows(schema_app: Flask, bad: Callable[[], object]) -> None:
    db.session.add(a_game())
    db.session.commit()
    db.session.add(bad())
    with pytest.raises(IntegrityError):
        db.session.commit()
    db.session.rollback()


def test_deleting_a_game_deletes_its_seats_log_and_revisions(schema_app: Flask) -> None:
    loaded, _ = services.create_game(["Rana", "Sami", "Omar", "Lina"], 0, RuleSet())
    services.record_deal(loaded.id, DealEntry((Contract.TRIX,), Captures(trix_order=(0, 1, 2, 3))))
    db.session.execute(text("DELETE FROM games WHERE id = :id"), {"id": loaded.id})
    db.session.commit()
    for model in (models.Seat, models.LogEntry, models.Revision):
        assert db.session.scalars(select(model)).all() == []


def test_json_columns_keep_any_script(schema_app: Flask) -> None:
    game = a_game()
    game.summary = {"note": "شيخ الكبة ♥", "totals": [1, -2, 3, -2]}
    db.session.add(game)
    db.session.commit()
    db.session.remove()
    stored = db.session.get(models.Game, "g1")
    assert stored is not None and stored.summary["note"] == "شيخ الكبة ♥"
