"""What SQL a request sends: for the tests that bound a page's statements."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask
from sqlalchemy import event

from scorekeeper.extensions import db


def statements_sent(app: Flask, request: Callable[[], Any]) -> list[str]:
    """Return the SQL statements the database was sent while `request()` ran."""
    with app.app_context():
        engine = db.engine
    sent: list[str] = []

    def note(_connection: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        sent.append(statement)

    event.listen(engine, "before_cursor_execute", note)
    try:
        request()
    finally:
        event.remove(engine, "before_cursor_execute", note)
    return sent
