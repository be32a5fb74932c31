"""Changes of one account take their locks in one order on PostgreSQL (the account's first, then
the rows of its matches), so that two phones never deadlock; and a transaction the database
rolls back anyway to let another through is a conflict to reload, never a server error."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import event, select, update
from sqlalchemy.exc import OperationalError

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import Match, User
from scorekeeper.services.base import atomic


def postgresql_only(app: Flask) -> None:
    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        pytest.skip("SQLite writes one transaction at a time: it has no row locks to order")


TUTE_DEAL = {"dealer": 0, "trump": "oros", "points": [80, 40], "last_trick": 0}


def match_with_a_deal(app: Flask) -> tuple[int, int]:
    """Start a Tute match to two juegos with one deal in; return the account's id and the match's."""
    with app.app_context():
        user = services.create_user("ana", "a long secret")
        match = services.start_match(user, "tute2", ["Ana", "Luis"], {"target": 2}, 0)
        services.add_deal(match, TUTE_DEAL, 1)
        return user.id, match.id


CHANGES: dict[str, Callable[[Match], object]] = {
    "add a deal": lambda match: services.add_deal(match, {**TUTE_DEAL, "dealer": 1}, 2),
    "correct a deal": lambda match: services.replace_deal(match, 1, {**TUTE_DEAL, "points": [40, 80]}),
    "undo": services.undo,
    "delete the last deal": lambda match: services.delete_last_deal(match, 1),
    "abandon": services.abandon_match,
    "delete the match": services.delete_match,
}


@pytest.mark.parametrize("change", CHANGES)
def test_every_change_of_a_match_locks_the_account_before_it_writes(app: Flask, change: str) -> None:
    postgresql_only(app)
    _user_id, match_id = match_with_a_deal(app)
    with app.app_context():
        sent: list[str] = []

        def note(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
            sent.append(" ".join(statement.split()))

        event.listen(db.engine, "before_cursor_execute", note)
        try:
            CHANGES[change](db.session.get(Match, match_id))  # type: ignore[arg-type]
        finally:
            event.remove(db.engine, "before_cursor_execute", note)
    # The lock may be taken by a read of the match's deals (as an EXISTS); a deal added may be written
    # by a WITH statement.
    locked = next(
        at
        for at, statement in enumerate(sent)
        if "SELECT users.id FROM users WHERE users.id = " in statement and "FOR NO KEY UPDATE" in statement
    )
    written = next(
        at for at, statement in enumerate(sent) if statement.split()[0] in {"INSERT", "UPDATE", "DELETE", "WITH"}
    )
    assert locked < written, sent


def test_a_match_deleted_while_another_change_regroups_its_night_waits_and_both_go_through(app: Flask) -> None:
    postgresql_only(app)
    user_id, match_id = match_with_a_deal(app)
    locked = threading.Event()
    failures: list[BaseException] = []

    def another_phone() -> None:
        """Change the account as a deal that moves the nights does: the account first, then,
        a moment later, the night of another match (this one)."""
        with app.app_context(), db.engine.connect() as connection:
            try:
                users, matches = User.__table__, Match.__table__
                connection.execute(select(users.c.id).where(users.c.id == user_id).with_for_update(key_share=True))
                locked.set()
                time.sleep(0.5)  # the deletion, meanwhile, reaches its own locks
                connection.execute(update(matches).where(matches.c.id == match_id).values(night_id=match_id))
                connection.commit()
            except BaseException as error:
                failures.append(error)
                locked.set()

    phone = threading.Thread(target=another_phone)
    phone.start()
    assert locked.wait(10)
    with app.app_context():
        services.delete_match(db.session.get(Match, match_id))  # type: ignore[arg-type]
    phone.join(10)
    assert failures == []
    with app.app_context():
        assert db.session.get(Match, match_id) is None


class _BrokenByTheDatabase(Exception):
    """What the driver raises when PostgreSQL breaks a deadlock by rolling this transaction back."""

    sqlstate = "40P01"


class _DiskFull(Exception):
    sqlstate = "53100"


def test_a_transaction_the_database_rolls_back_for_another_is_a_conflict(app: Flask) -> None:
    @atomic
    def broken(error: Exception) -> None:
        raise OperationalError("DELETE FROM matches", {}, error)

    with app.app_context():
        with pytest.raises(services.Conflict) as conflict:
            broken(_BrokenByTheDatabase())
        assert conflict.value.message == "Someone else changed this at the same moment. Reload the page and try again."
        with pytest.raises(OperationalError):  # any other failure of the database stays what it is
            broken(_DiskFull())
