"""The app factory: configuration layers, the instance folder, the SQLite default, migrations."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask import Flask

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.web.hosting import StartRefused


def test_default_database_is_sqlite_in_the_instance_folder_with_foreign_keys_and_wal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path))
    app = create_app()
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{tmp_path / 'scorekeeper.sqlite'}"
    with app.app_context():
        with db.engine.connect() as connection:
            assert connection.execute(sa.text("PRAGMA foreign_keys")).scalar() == 1
            assert connection.execute(sa.text("PRAGMA journal_mode")).scalar() == "wal"
            assert connection.execute(sa.text("PRAGMA busy_timeout")).scalar() == 15000
        db.engine.dispose()
    assert (tmp_path / "scorekeeper.sqlite").exists()


def test_a_secret_key_is_generated_once_into_the_instance_folder(tmp_path: Path) -> None:
    config = {"INSTANCE_PATH": str(tmp_path), "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'db.sqlite'}"}
    first = create_app(config)
    second = create_app(config)
    key_file = tmp_path / "secret_key"
    assert key_file.read_text() == first.config["SECRET_KEY"] == second.config["SECRET_KEY"]
    assert len(first.config["SECRET_KEY"]) >= 32
    assert key_file.stat().st_mode & 0o077 == 0


def test_instance_config_then_environment_override_the_defaults(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "config.py").write_text("SIGNUP_OPEN = False\nSQLITE_BUSY_TIMEOUT = 3\nSECRET_KEY = 'from file'\n")
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path))
    monkeypatch.setenv("SCOREKEEPER_SQLITE_BUSY_TIMEOUT", "7")
    app = create_app()
    assert app.config["SIGNUP_OPEN"] is False
    assert app.config["SQLITE_BUSY_TIMEOUT"] == 7
    assert app.config["SECRET_KEY"] == "from file"
    assert not (tmp_path / "secret_key").exists()


def test_database_url_setting_picks_the_database_and_postgres_urls_use_psycopg(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path))
    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", f"sqlite:///{tmp_path / 'other.sqlite'}")
    assert create_app().config["SQLALCHEMY_DATABASE_URI"].endswith("other.sqlite")
    # Nothing listens there: the start stops, naming the database as psycopg 3 was asked to open
    # it (without its password).
    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", "postgresql://u:secret@127.0.0.1:1/none")
    with pytest.raises(StartRefused, match=r"open its database, postgresql\+psycopg://u:\*\*\*@127\.0\.0\.1:1/none"):
        create_app()


def test_migrations_produce_exactly_the_models_schema(app: Flask) -> None:
    with app.app_context(), db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, db.metadata) == []


def test_the_database_is_at_the_single_head_migration(app: Flask) -> None:
    with app.app_context():
        config = app.extensions["migrate"].migrate.get_config()
        heads = ScriptDirectory.from_config(config).get_heads()
        with db.engine.connect() as connection:
            assert MigrationContext.configure(connection).get_current_heads() == tuple(heads)
        assert len(heads) == 1


def test_no_id_a_phone_or_an_address_holds_is_ever_handed_out_twice(app: Flask) -> None:
    """Every table whose ids leave the server keeps SQLite's AUTOINCREMENT after the last migration (a
    migration that rebuilds such a table without it would let a deleted match's id come back)."""
    with app.app_context():
        if db.engine.dialect.name != "sqlite":
            return  # PostgreSQL's sequences never hand out an id twice
        never_reused = {
            table.name for table in db.metadata.sorted_tables if table.dialect_kwargs.get("sqlite_autoincrement")
        }
        assert never_reused == {"users", "sign_ins", "api_tokens", "players", "matches", "entry_links", "seasons"}
        with db.engine.connect() as connection:
            made = dict(connection.execute(sa.text("SELECT name, sql FROM sqlite_master WHERE type = 'table'")).all())
        assert {name for name in never_reused if "AUTOINCREMENT" not in made[name]} == set()
