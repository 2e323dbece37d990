"""One write, one transaction: SQLite's ``BEGIN IMMEDIATE``, PostgreSQL's row lock.

Python's sqlite3 module opens transactions itself, lazily, only before a
write, so two requests could both read version 7 and both try to write
version 8; and a read transaction in WAL mode cannot later be upgraded to a
write if someone else wrote meanwhile. SQLAlchemy's documented workaround
(the "pysqlite" recipe) takes transaction control away from sqlite3 and
emits BEGIN itself. We emit ``BEGIN IMMEDIATE`` for writes, so the write lock
is taken *before* the game is read and concurrent writers queue on the
busy timeout instead of failing half way; reads use a plain ``BEGIN``.
Before that, writers of one file take turns in :mod:`scorekeeper.store.write_gate`,
which wakes the next one as soon as the lock is free.

On PostgreSQL the services lock the game's row (``SELECT … FOR UPDATE``)
as the first statement of a write; see :mod:`scorekeeper.store.games`. Every
PostgreSQL session gets a ``lock_timeout`` as long as SQLite's busy timeout
(5 s), so a writer stuck behind another never waits forever: it fails, and
:mod:`scorekeeper.web.errors` answers 503 with ``Retry-After``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import Session

from scorekeeper.extensions import db
from scorekeeper.store import write_gate

BEGIN_OPTION = "scorekeeper_sqlite_begin"
"""Connection execution option: the statement that opens a SQLite transaction."""
POSTGRES_LOCK_TIMEOUT_MS = 5000
"""How long a PostgreSQL statement waits for a lock (SQLite: ``busy_timeout``)."""


@event.listens_for(Engine, "connect")
def _sqlite_manual_transactions(dbapi_connection: Any, _record: Any) -> None:
    """Stop sqlite3 from emitting BEGIN/COMMIT on its own (SQLAlchemy's pysqlite recipe)."""
    if isinstance(dbapi_connection, sqlite3.Connection):
        dbapi_connection.isolation_level = None


@event.listens_for(Engine, "connect")
def _postgres_lock_timeout(dbapi_connection: Any, _record: Any) -> None:
    """Give every PostgreSQL session a lock timeout (psycopg 3 connections only)."""
    if type(dbapi_connection).__module__.split(".")[0] != "psycopg":
        return
    with dbapi_connection.cursor() as cursor:
        cursor.execute(f"SET lock_timeout = {int(POSTGRES_LOCK_TIMEOUT_MS)}")
    dbapi_connection.commit()


@event.listens_for(Engine, "begin")
def _sqlite_begin(conn: Connection) -> None:
    """Emit the BEGIN sqlite3 no longer emits: IMMEDIATE for writes, plain for reads."""
    if conn.dialect.name == "sqlite" and conn.dialect.driver == "pysqlite":
        conn.exec_driver_sql(conn.get_execution_options().get(BEGIN_OPTION, "BEGIN"))


@contextmanager
def reader() -> Iterator[Session | Connection]:
    """Where quick reads go: the session, or on PostgreSQL an autocommit connection.

    Polls and token checks are most of the requests, one or two small queries
    each. Outside a transaction each query is one round trip to PostgreSQL
    instead of three (BEGIN, the query, ROLLBACK). On SQLite, in process, the
    session costs nothing more. Use it for reads that need no snapshot.
    """
    if db.engine.dialect.name != "postgresql":
        yield db.session()
        return
    with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        yield conn


@contextmanager
def write_transaction() -> Iterator[Session]:
    """The session, in a fresh transaction that takes SQLite's write lock at once.

    Commits when the block ends, rolls back (writing nothing) on any error.
    A transaction the session already had open (reads only, by convention)
    is ended first, because a write must start its own.
    """
    session: Session = db.session()
    if session.in_transaction():
        session.rollback()
    with write_gate.turn(db.engine):  # SQLite: writers take turns (scorekeeper.store.write_gate)
        session.connection(execution_options={BEGIN_OPTION: "BEGIN IMMEDIATE"})
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise
