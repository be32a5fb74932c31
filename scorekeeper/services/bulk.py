"""Changes to many matches at once: rebuilding every cached result and derived row from the facts."""

from __future__ import annotations

from sqlalchemy import delete, select
from sqlalchemy.orm import selectinload

from ..extensions import db
from ..figures.upkeep import rebuild_figures, refresh_figures, regroup_nights
from ..models import ABANDONED, FINISHED, PLAYING, Match, PlayerPair, PlayerSummary, User
from ..reads.documents import match_document
from ..rules import check_match
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
