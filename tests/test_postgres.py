"""The app on PostgreSQL (psycopg 3). scripts/test.sh always provides one.

Skipped when TEST_DATABASE_URL is unset, except under CI, where that fails.
Each test works in a fresh schema, so runs in parallel do not collide.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Iterator

import pytest
from flask import Flask
from sqlalchemy import Integer, String, inspect, text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from scorekeeper.extensions import db
from tests.conftest import postgres_schema_app

if importlib.util.find_spec("scorekeeper.store.models"):
    importlib.import_module("scorekeeper.store.models")  # register the real tables


@pytest.fixture
def pg_app(make_app: Callable[..., Flask], test_database_url: str) -> Iterator[Flask]:
    """An app on TEST_DATABASE_URL, its search_path set to a fresh schema."""
    with postgres_schema_app(make_app, test_database_url, tables=False) as app:
        yield app


def test_postgres_connects_with_psycopg3(pg_app: Flask) -> None:
    assert db.engine.dialect.name == "postgresql"
    assert db.engine.dialect.driver == "psycopg"
    assert db.session.execute(text("SELECT 1")).scalar() == 1


def test_postgres_create_all_and_drop_all(pg_app: Flask) -> None:
    db.create_all()
    expected = set(db.metadata.tables)
    assert expected <= set(inspect(db.engine).get_table_names())
    db.drop_all()
    assert not expected & set(inspect(db.engine).get_table_names())


class _Base(DeclarativeBase):
    pass


class _Probe(_Base):
    __tablename__ = "probe"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40))


def test_postgres_round_trip_in_the_fresh_schema(pg_app: Flask) -> None:
    _Base.metadata.create_all(db.engine)
    db.session.add(_Probe(name="Rana ♥ رنا"))
    db.session.commit()
    assert db.session.execute(text("SELECT name FROM probe")).scalar() == "Rana ♥ رنا"
    assert "probe" in inspect(db.engine).get_table_names()
