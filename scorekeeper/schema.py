"""Bring the database schema up to date with the migrations in migrations/."""

from __future__ import annotations

from alembic import command
from flask import current_app


def apply_migrations() -> None:
    """Apply every pending migration to the app's database (inside an app context)."""
    config = current_app.extensions["migrate"].migrate.get_config()
    # Starting the app must not reconfigure the host's logging, as alembic.ini would.
    config.attributes["skip_logging_config"] = True
    command.upgrade(config, "head")
