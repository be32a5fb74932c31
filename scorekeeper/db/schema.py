"""Bring the database schema up to date with the migrations in migrations/, one start at a time."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from alembic import command
from flask import current_app
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine
from sqlalchemy.pool import NullPool

try:
    import fcntl
except ImportError:  # Windows has no flock: there one process of the quick start opens its SQLite file
    fcntl = None  # type: ignore[assignment]

#: The first key of PostgreSQL's advisory lock that migrating takes: "Scor" read as a number. The second
#: is the schema's own id, so that installations in two schemas of one database do not wait for each other.
MIGRATION_LOCK = int.from_bytes(b"Scor", "big")
_SCHEMA_ID = "coalesce((SELECT oid::int FROM pg_namespace WHERE nspname = current_schema()), 0)"


@contextmanager
def migrating_alone(engine: Engine, waiting: Callable[[], None]) -> Iterator[None]:
    """Hold the lock that lets one process at a time read the schema, migrate it and derive the missing figures.

    Two hosts of one site started at once, or gunicorn's workers each starting the app (without
    --preload), would otherwise both find the same migrations pending and both apply them: the second
    fails half way (a column that exists already, a version row that moved). Whoever comes second waits
    here (`waiting` is called first, to say so), then finds nothing left to do.

    On PostgreSQL, an advisory lock held by a transaction of its own, on a connection of its own, until
    it ends (a transaction's rather than a session's: behind PgBouncer in transaction mode, a session's
    lock could stay with a pooled server connection); the server ends the transaction, and the lock,
    if the process dies. On a SQLite file, an exclusive flock of the folder it lies in (not of the
    file itself: closing another descriptor of the database file would end SQLite's own locks on it).
    """
    if engine.dialect.name == "postgresql":
        locker = create_engine(engine.url, poolclass=NullPool)
        try:
            with locker.connect() as connection, connection.begin():
                key = {"lock": MIGRATION_LOCK}
                if not connection.scalar(text(f"SELECT pg_try_advisory_xact_lock(:lock, {_SCHEMA_ID})"), key):
                    waiting()
                    connection.execute(text(f"SELECT pg_advisory_xact_lock(:lock, {_SCHEMA_ID})"), key)
                yield  # the transaction's end lets the lock go
        finally:
            locker.dispose()
        return
    database = engine.url.database if engine.dialect.name == "sqlite" else None
    if not database or database == ":memory:" or database.startswith("file:") or fcntl is None:
        yield
        return
    folder = os.open(Path(database).resolve().parent, os.O_RDONLY)
    try:
        try:
            fcntl.flock(folder, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            waiting()
            fcntl.flock(folder, fcntl.LOCK_EX)
        yield  # closing the descriptor lets the lock go
    finally:
        os.close(folder)


def apply_migrations() -> None:
    """Apply every pending migration to the app's database (inside an app context)."""
    config = current_app.extensions["migrate"].migrate.get_config()
    # Starting the app must not reconfigure the host's logging, as alembic.ini would.
    config.attributes["skip_logging_config"] = True
    command.upgrade(config, "head")
