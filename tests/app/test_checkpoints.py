"""SQLite copies its write-ahead log into the database file after a request's answer has gone out,
not inside the commit of the change that happened to fill the log."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import event

from scorekeeper import services
from scorekeeper.db import checkpoints
from scorekeeper.extensions import db
from scorekeeper.models import User

from ..conftest import Browser
from .matchhelpers import start, tute_form

CHECKPOINT = "PRAGMA wal_checkpoint(PASSIVE)"


@pytest.fixture
def sqlite_app(app: Flask) -> Flask:
    with app.app_context():
        if db.engine.dialect.name != "sqlite":
            pytest.skip("PostgreSQL has no write-ahead log of SQLite's kind")
    return app


@contextmanager
def statements(app: Flask) -> Iterator[list[str]]:
    """Collect every statement the app's engine sends, in every thread, while the block runs."""
    sent: list[str] = []
    with app.app_context():
        engine = db.engine

    def note(_connection: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        sent.append(statement)

    event.listen(engine, "before_cursor_execute", note)
    try:
        yield sent
    finally:
        event.remove(engine, "before_cursor_execute", note)


def test_a_change_that_fills_the_log_checkpoints_once_its_answer_is_sent(
    ana: Browser, sqlite_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(checkpoints, "ROWS_PER_CHECKPOINT", 1)
    start(ana, "tute2", ["Ana", "Luis"], opt_target="9")
    with statements(sqlite_app) as sent:
        response = ana.client.post(
            "/matches/1/deal", data={**tute_form(70, 0, number=1), "csrf_token": ana.token}, buffered=False
        )
        assert response.status_code == 302
        assert any(statement.startswith("INSERT INTO deals") for statement in sent)
        assert CHECKPOINT not in sent  # the answer is out, and nothing waited for the copy
        response.close()
    assert sent.count(CHECKPOINT) == 1
    assert sent[-1] == CHECKPOINT


def test_reads_add_nothing_to_copy(ana: Browser, sqlite_app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    start(ana, "tute2", ["Ana", "Luis"], opt_target="9")
    ana.post("/matches/1/deal", data=tute_form(70, 0, number=1)).close()
    with sqlite_app.app_context():
        checkpoints.checkpoint_if_due(db.engine)
        monkeypatch.setattr(checkpoints, "ROWS_PER_CHECKPOINT", 1)
        checkpoints.checkpoint_if_due(db.engine)  # whatever the changes left due: nothing from here on
    with statements(sqlite_app) as sent:
        for page in ("/matches/1", "/history", "/players/1"):
            response = ana.get(page)
            assert response.status_code == 200
            response.close()
    assert sent and CHECKPOINT not in sent


def test_the_rows_changed_are_counted_until_a_checkpoint_is_due(
    sqlite_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    with sqlite_app.app_context():
        user = services.create_user("ana", "correct horse")
        match = services.start_match(user, "tute2", ["Ana", "Luis"], {"target": 9}, 0)
        checkpoints.checkpoint_if_due(db.engine)  # whatever the start left due
        monkeypatch.setattr(checkpoints, "ROWS_PER_CHECKPOINT", 10**6)
        services.add_deal(match, {"trump": "oros", "points": [70, 50], "last_trick": 0, "dealer": 0}, 1)
        assert not checkpoints.checkpoint_if_due(db.engine)  # a deal's rows: fewer than the mark
        monkeypatch.setattr(checkpoints, "ROWS_PER_CHECKPOINT", 1)
        assert checkpoints.checkpoint_if_due(db.engine)  # counted still, and now past it
        assert not checkpoints.checkpoint_if_due(db.engine)  # counted from nothing again
        db.session.commit()  # a read's commit changes nothing
        assert not checkpoints.checkpoint_if_due(db.engine)


def test_sqlite_s_own_checkpoint_is_left_for_writes_outside_requests(sqlite_app: Flask) -> None:
    with sqlite_app.app_context(), db.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == checkpoints.BACKSTOP_PAGES
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"


def test_the_first_change_on_a_new_connection_is_counted(sqlite_app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    with sqlite_app.app_context():
        user_id = services.create_user("ana", "correct horse").id
        monkeypatch.setattr(checkpoints, "ROWS_PER_CHECKPOINT", 1)
        checkpoints.checkpoint_if_due(db.engine)  # whatever the account left due
        db.session.remove()
        db.engine.dispose()  # the next change runs on a connection opened for it
        services.start_match(db.session.get(User, user_id), "tute2", ["Ana", "Luis"], {"target": 9}, 0)
        assert checkpoints.checkpoint_if_due(db.engine)
