"""How a request's transaction ends: its reads with COMMIT (what keeps PostgreSQL's prepared
statements), anything else it left with ROLLBACK."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from flask import Flask

from scorekeeper.extensions import db
from scorekeeper.models import User

from ..conftest import make_user, signed_in


def test_a_pages_reads_stay_prepared_from_one_request_to_the_next(app: Flask) -> None:
    with app.app_context():
        if db.engine.dialect.name != "postgresql":
            pytest.skip("prepared statements are psycopg's, on PostgreSQL")
    ana = signed_in(app, "ana")
    for _ in range(7):  # psycopg prepares a statement at its fifth use on a connection
        assert ana.get("/").status_code == 200
    with app.app_context():
        # The requests ran one after the other, so the pool holds the one connection they used.
        prepared = db.session.scalars(sa.text("SELECT statement FROM pg_prepared_statements")).all()
    assert any("sign_ins" in statement for statement in prepared), prepared


@pytest.mark.parametrize("flushed", [False, True], ids=["left unflushed", "flushed"])
def test_a_change_a_request_made_outside_the_services_is_rolled_back(app: Flask, flushed: bool) -> None:
    user_id = make_user(app, "ana")

    def change_outside_a_service() -> str:
        user = db.session.get(User, user_id)
        assert user is not None
        user.language = "de"
        if flushed:
            db.session.execute(sa.select(User.id))  # the query flushes the change first
        return "changed"

    app.add_url_rule("/test/change", "test_change", change_outside_a_service)
    ana = signed_in(app, "ana")
    assert ana.get("/test/change").status_code == 200
    with app.app_context():
        assert db.session.get(User, user_id).language != "de"  # type: ignore[union-attr]


def test_a_request_that_failed_leaves_nothing_behind(app: Flask) -> None:
    user_id = make_user(app, "ana")

    def fail_after_a_change() -> str:
        user = db.session.get(User, user_id)
        assert user is not None
        user.language = "de"
        db.session.flush()
        raise RuntimeError("failed midway")

    app.add_url_rule("/test/fail", "test_fail", fail_after_a_change)
    ana = signed_in(app, "ana")
    with pytest.raises(RuntimeError):  # a testing app passes the view's error on to the client
        ana.get("/test/fail")
    with app.app_context():
        assert db.session.get(User, user_id).language != "de"  # type: ignore[union-attr]
