"""SQLite's checkpoints, run once a request's answer is sent rather than inside the commit of a change.

In WAL mode SQLite appends every change to its write-ahead log and copies the log into the
database file (a checkpoint) in the commit that finds the log past 1,000 pages. That commit's
request then waits for the copy, slow on a history of years, whose pages lie spread over a
large file: a deal that happened to cross the mark waited for it. Here each
process counts the rows its commits changed, and once they pass `ROWS_PER_CHECKPOINT` the
next request to end (as a rule, the one that made it so) copies the log after its answer has
gone out (a passive checkpoint, which waits for no reader or writer). SQLite's own
checkpoint is moved to `BACKSTOP_PAGES`, for writes made outside requests (commands,
scripts), which no answer follows.

Python's sqlite3 does not offer SQLite's WAL hook, which would tell the pages a commit added;
each connection's count of changed rows (`total_changes`) stands in for it.
"""

from __future__ import annotations

import logging
import threading
from typing import Any
from weakref import WeakKeyDictionary

from flask import Flask, Response
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import ConnectionPoolEntry

logger = logging.getLogger(__name__)

#: Rows changed in one process between its checkpoints: a deal changes about ten, a deal that
#: finishes a match some forty; a hundred rows take 100 to 300 pages of the log.
ROWS_PER_CHECKPOINT = 100
#: SQLite's own checkpoint (`wal_autocheckpoint`, in pages of the log): 40 MB with pages of 4 KB.
BACKSTOP_PAGES = 10_000

#: Where a connection's record keeps its count of changed rows at its last commit.
_CHANGES_AT_COMMIT = "scorekeeper.changes_at_commit"


class _Due:
    """The rows changed in one database since this process last checkpointed it (its threads share it)."""

    def __init__(self) -> None:
        self.rows = 0
        self.lock = threading.Lock()

    def add(self, rows: int) -> None:
        """Count rows that a commit changed."""
        with self.lock:
            self.rows += rows

    def take(self, at_least: int) -> bool:
        """Tell whether a checkpoint is due, and if so start counting again."""
        with self.lock:
            if self.rows < at_least:
                return False
            self.rows = 0
            return True


#: Each engine's count (an app has one; the benchmark holds two apps in one process).
_dues: WeakKeyDictionary[Engine, _Due] = WeakKeyDictionary()


def checkpoint_if_due(engine: Engine) -> bool:
    """Copy the write-ahead log into the database file if this process has changed enough rows since
    it last did; tell whether it did."""
    due = _dues.get(engine)
    if due is None or not due.take(ROWS_PER_CHECKPOINT):
        return False
    try:
        with engine.connect() as connection:
            connection.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
    except SQLAlchemyError:
        # Nothing is lost: the log keeps every change, and the next checkpoint copies it.
        logger.warning("SQLite's write-ahead log could not be checkpointed", exc_info=True)
        return False
    return True


def register(app: Flask, engine: Engine) -> None:
    """Count the rows each commit changes on the engine's connections, move SQLite's own checkpoint to
    its backstop, and have the request that ends once enough have changed checkpoint after its answer."""
    if engine.dialect.name != "sqlite":
        return
    due = _dues.setdefault(engine, _Due())

    @event.listens_for(engine, "connect")
    def _backstop(dbapi_connection: Any, record: ConnectionPoolEntry) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA wal_autocheckpoint={BACKSTOP_PAGES}")
        cursor.close()
        record.info[_CHANGES_AT_COMMIT] = dbapi_connection.total_changes  # 0: counted from the first commit on

    @event.listens_for(engine, "commit")
    def _count(connection: Connection) -> None:
        pooled = connection.connection
        changes: int = pooled.dbapi_connection.total_changes  # type: ignore[union-attr]
        before: int = pooled.info.get(_CHANGES_AT_COMMIT, changes)
        pooled.info[_CHANGES_AT_COMMIT] = changes
        if changes > before:
            due.add(changes - before)

    @app.after_request
    def _after_the_answer(response: Response) -> Response:
        if due.rows >= ROWS_PER_CHECKPOINT:  # read without the lock: checkpoint_if_due checks again
            response.call_on_close(lambda: checkpoint_if_due(engine))
        return response
