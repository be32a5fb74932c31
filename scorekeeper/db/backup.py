"""A consistent copy of a live SQLite database, taken with SQLite's online backup API.

The copy is made page by page while the app keeps serving (SQLite holds each step's pages
still), written next to its destination and renamed into place, so that a half-written
backup never replaces a good one.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from sqlalchemy.engine import Engine

from .private_files import create_owner_only


class BackupError(Exception):
    """The backup cannot be made; the message says why."""


def backup_sqlite(engine: Engine, destination: Path) -> int:
    """Copy the SQLite database behind `engine` to `destination`; return the size in bytes."""
    if engine.dialect.name != "sqlite":
        raise BackupError(
            "This database is not SQLite: back PostgreSQL up with pg_dump (or `flask --app scorekeeper export`)."
        )
    destination = destination.resolve()
    if destination.is_dir():
        raise BackupError(f"{destination} is a folder; name the backup file.")
    destination.parent.mkdir(parents=True, exist_ok=True)
    partial = destination.with_name(destination.name + ".partial")
    partial.unlink(missing_ok=True)
    create_owner_only(partial)  # a backup holds the password hashes too
    with engine.connect() as connection:
        source = connection.connection.driver_connection
        assert isinstance(source, sqlite3.Connection)
        target = sqlite3.connect(partial)
        try:
            source.backup(target, pages=256)
            target.execute("PRAGMA journal_mode=DELETE")  # a single self-contained file
        finally:
            target.close()
    os.replace(partial, destination)
    return destination.stat().st_size
