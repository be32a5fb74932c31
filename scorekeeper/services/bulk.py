"""Changes to many matches at once: rebuilding every cached result and derived row from the facts, at a
start that finds some missing too."""

from __future__ import annotations

from sqlalchemy import delete, exists, select
from sqlalchemy.orm import selectinload

from ..extensions import db
from ..figures.upkeep import rebuild_figures, refresh_figures, regroup_nights
from ..models import ABANDONED, FINISHED, PLAYING, Match, PlayerPair, PlayerResult, PlayerSummary, User
from ..reads.documents import match_document
from ..registry import check_match
from .base import atomic


@atomic
def recompute_all() -> int:
    """Rebuild every match's cached result and status from its deals; return how many were done."""
    count = 0
    games: set[tuple[int, str]] = set()
    for match in db.session.scalars(select(Match).options(selectinload(Match.deals))):
        result = check_match(match_document(match))
        match.result = result.to_dict()
        if match.status != ABANDONED:
            match.status = FINISHED if result.finished else PLAYING
        refresh_figures(match, result)
        games.add((match.user_id, match.game))
        count += 1
    db.session.execute(delete(PlayerSummary.__table__))
    db.session.execute(delete(PlayerPair.__table__))
    rebuild_figures(games)
    for user_id in db.session.scalars(select(User.id).order_by(User.id)):
        regroup_nights(user_id)
    return count


def fill_missing_figures() -> None:
    """Derive the statistics' rows, nights and cached results where they are missing (a database from before
    they were kept)."""
    missing = select(Match.id).where(~exists().where(PlayerResult.match_id == Match.id)).limit(1)
    unsummed = (
        select(PlayerResult.id)
        .where(
            ~exists().where(PlayerSummary.player_id == PlayerResult.player_id, PlayerSummary.game == PlayerResult.game)
        )
        .limit(1)
    )
    ungrouped = select(Match.id).where(Match.night_id.is_(None)).limit(1)
    # A match to juegos whose result was cached before each deal said the juegos it earned: its chart,
    # its night's and the API would go on without them.
    unearned = (
        select(Match.id)
        .where(
            Match.result["juegos"].as_string().is_not(None),
            Match.result[("deals", 0, "number")].as_string().is_not(None),
            Match.result[("deals", 0, "juegos")].as_string().is_(None),
        )
        .limit(1)
    )
    if any(db.session.scalar(query) is not None for query in (missing, unsummed, ungrouped, unearned)):
        recompute_all()
