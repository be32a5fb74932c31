"""The app as the benchmark serves it: the product, plus two floors to compare every page with.

The read floor is the same stack (sign-in check, session, CSRF token, translations, the base
template) rendering an empty body: what any page costs before it does any work of its own.
The write floor is the same stack's smallest POST that changes data: the sign-in check, the
session, the form's CSRF token checked, one row inserted and committed, and a redirect. A POST
that stores something pays for a commit that no read pays for (on SQLite, the write lock and
the write-ahead log; on PostgreSQL, a round trip and the flush of its log), so the POSTs are
held against the write floor and the pages that only read against the read floor.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa
from flask import Flask, redirect, render_template, url_for
from flask_login import current_user
from sqlalchemy.schema import CreateTable
from werkzeug.wrappers import Response

from scorekeeper import create_app
from scorekeeper.extensions import db

FLOOR_PATH = "/bench/floor"
WRITE_FLOOR_PATH = "/bench/write-floor"

#: The write floor's rows: a table of the benchmark's own, outside the app's models and
#: migrations, so that it changes nothing the app reads.
WRITES = sa.Table(
    "bench_writes",
    sa.MetaData(),
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("user_id", sa.Integer, nullable=False),
)


def write_floor() -> Response:
    """Insert one row for the signed-in account, commit it, and send the browser on, as a form's POST does."""
    db.session.execute(sa.insert(WRITES).values(user_id=current_user.id))
    db.session.commit()
    return redirect(url_for("bench_floor"))


def bench_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Create the app with the two floors added."""
    app = create_app(test_config)
    app.add_url_rule(FLOOR_PATH, "bench_floor", lambda: render_template("base.html"))
    app.add_url_rule(WRITE_FLOOR_PATH, "bench_write_floor", write_floor, methods=["POST"])
    # IF NOT EXISTS: gunicorn's workers each create the app, and a kept history has the table already.
    with app.app_context(), db.engine.begin() as connection:
        connection.execute(CreateTable(WRITES, if_not_exists=True))
    return app
