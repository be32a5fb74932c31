"""A player's place in the latest seasons of a game: the standings of seasons that are over as kept
(`services.kept`), those of a season under way counted at each look."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, tzinfo
from typing import Any

from sqlalchemy import bindparam, delete

from ..extensions import db
from ..figures.seasons import SeasonPlace, place_in, seasons_placed, standings, standings_figure
from ..figures.years import WHOLE_TABLE
from ..models import Player, User, YearReview
from ..registry import GAMES
from ..season_rules import SeasonSpan
from .kept import kept_documents

_reviews = YearReview.__table__
_FORGET_STANDINGS = delete(_reviews).where(
    _reviews.c.user_id == bindparam("user_id"), _reviews.c.figure.in_(bindparam("figures", expanding=True))
)


def player_places(user: User, player: Player, game: str, zone: tzinfo, today: date) -> list[SeasonPlace]:
    """Return the player's place in the latest seasons of `game` they finished a match in
    (`figures.seasons.seasons_placed`), the latest to end first."""
    spans = seasons_placed(user, player, game, zone, today)
    placed = zip(spans, season_standings(user, game, spans, zone, today), strict=True)
    return [place for span, standing in placed if (place := place_in(span, standing, player.id)) is not None]


def season_standings(
    user: User, game: str, spans: Sequence[SeasonSpan], zone: tzinfo, today: date
) -> list[dict[str, Any]]:
    """Return every player's standings in each season of `game` (`figures.seasons.standings`), its
    days in `zone`.

    A season that is over is placed once and kept until a change of its matches (any player's page
    then reads it in one step); a season under way is counted from the running sums at each look,
    as each deal would make it stale.
    """
    over = {standings_figure(game, span): span for span in spans if span.is_over(today)}
    keys = [
        {
            "user_id": user.id,
            # Made stale by any change from the season's last year on (`figures.stale_years`).
            "year": span.ends_on.year,
            "zone": str(zone),
            "player_id": WHOLE_TABLE,
            "figure": figure,
        }
        for figure, span in over.items()
    ]
    kept = kept_documents(keys, lambda stale: standings(user, game, [over[key["figure"]] for key in stale], zone))
    placed = dict(zip(over.values(), kept, strict=True))
    under_way = [span for span in spans if span not in placed]
    placed.update(zip(under_way, standings(user, game, under_way, zone), strict=True))
    return [placed[span] for span in spans]


def forget_kept_standings(user: User, span: SeasonSpan) -> None:
    """Forget the standings kept of a season in every game, as it is named again or forgotten."""
    figures = [standings_figure(game, span) for game in GAMES]
    db.session.execute(_FORGET_STANDINGS, {"user_id": user.id, "figures": figures})
