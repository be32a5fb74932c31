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


def fill_missing_figures() -> None:
    """Derive the statistics' rows and nights for matches that have none yet (a database from before they were kept)."""
    from sqlalchemy import exists, select

    from ..extensions import db
    from ..models import Match, PlayerResult, PlayerSummary
    from ..services import recompute_all

    missing = select(Match.id).where(~exists().where(PlayerResult.match_id == Match.id)).limit(1)
    unsummed = (
        select(PlayerResult.id)
        .where(
            ~exists().where(PlayerSummary.player_id == PlayerResult.player_id, PlayerSummary.game == PlayerResult.game)
        )
        .limit(1)
    )
    ungrouped = select(Match.id).where(Match.night_id.is_(None)).limit(1)
    if any(db.session.scalar(query) is not None for query in (missing, unsummed, ungrouped)):
        recompute_all()
