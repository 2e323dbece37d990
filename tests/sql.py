"""The SQL an app runs, for tests and benchmarks that count queries (no pytest needed)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import Flask
from sqlalchemy import event, select

from scorekeeper.extensions import db


@contextmanager
def sql_statements(app: Flask | None = None) -> Iterator[list[str]]:
    """The SQL statements ``app`` (else the current app) sends to its database inside the
    block, in order."""
    statements: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    if app is None:
        engine = db.engine
    else:
        with app.app_context():
            engine = db.engine
    event.listen(engine, "before_cursor_execute", record)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", record)


def every_row() -> dict[str, list[str]]:
    """Every row of every table of the current app's database, read fresh: equal before and
    after a request when the request wrote nothing."""
    db.session.rollback()  # whatever the last request left open
    rows = {
        table.name: sorted(repr(tuple(row)) for row in db.session.execute(select(table)))
        for table in db.metadata.sorted_tables
    }
    db.session.rollback()
    return rows


def row_counts() -> dict[str, int]:
    """How many rows each table holds (see :func:`every_row`)."""
    return {table: len(rows) for table, rows in every_row().items()}
