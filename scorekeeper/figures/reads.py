"""The statistics pages' reads: each player's figures and the leaderboards, from the derived rows
that `upkeep` keeps (two players' records are in `pairs`).

Each page asks a fixed number of queries, however many matches the account holds. The player
page and the all-time leaderboard read each player's summary row; a period's leaderboard sums
the players' results in it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from typing import Any

from sqlalchemy import BindParameter, Select, and_, bindparam, case, func, select

from ..db.sql import fixed_limit
from ..extensions import db
from ..models import FINISHED, Player, PlayerRating, PlayerResult, PlayerSummary, User
from ..registry import GAMES
from .aggregate import COUNTS


@dataclass
class GameFigures:
    """One player's figures in one game. Rates are None where nothing counts towards them yet."""

    game: str
    played: int = 0
    won: int = 0
    abandoned: int = 0
    unfinished: int = 0
    finished: int = 0
    deals: int = 0
    points: int = 0
    juegos: int = 0
    #: The game's own figures (`Game.figures`), summed over finished matches, by name.
    tallies: dict[str, int] = field(default_factory=dict)
    best: tuple[int, int] | None = None  # (total, match id)
    worst: tuple[int, int] | None = None
    current_streak: int = 0
    longest_streak: int = 0
    recent: list[bool] = field(default_factory=list)  # newest first: True for a win
    rating: float | None = None
    rating_history: list[float] = field(default_factory=list)  # the latest ratings, oldest first

    @property
    def rating_history_cut(self) -> bool:
        """Tell whether the rating chart leaves out older ratings (it shows the latest RATING_CHART_POINTS)."""
        return len(self.rating_history) >= RATING_CHART_POINTS

    @property
    def win_rate(self) -> float | None:
        """Return the share of finished matches won (ties for first count as a win for each)."""
        return self.won / self.finished if self.finished else None

    @property
    def average_deal(self) -> float | None:
        """Return the average deal score in finished matches (the side's, in Tute)."""
        return self.points / self.deals if self.deals else None

    def count(self, figure: str) -> int:
        """Return the sum of one of the game's figures over finished matches."""
        return self.tallies.get(figure, 0)

    def per_deal(self, figure: str) -> float | None:
        """Return a figure's share of the deals of finished matches (the last tricks taken, of all deals)."""
        return self.count(figure) / self.deals if self.deals else None

    def share(self, figure: str, among: tuple[str, ...]) -> float | None:
        """Return a figure's share of the sum of the figures `among` (exact bids, of all bids made)."""
        whole = sum(self.count(name) for name in among)
        return self.count(figure) / whole if whole else None


#: The rating chart shows a player's latest ratings, so that it stays as quick to draw after years.
RATING_CHART_POINTS = 30
#: The statistics' tables, read as plain rows on the session's connection: the ORM's columns and
#: the session's machinery add work to each statement and more to each row read, and a long
#: history's pages read more rows (thirty ratings a game, twenty shared matches).
_RATINGS, _SUMMARIES_TABLE = PlayerRating.__table__, PlayerSummary.__table__
_SUMMARIES = (
    select(_SUMMARIES_TABLE)
    .where(_SUMMARIES_TABLE.c.user_id == bindparam("user_id"), _SUMMARIES_TABLE.c.player_id == bindparam("player_id"))
    .order_by(_SUMMARIES_TABLE.c.game)
)


#: A player's latest ratings in a game, newest first: one walk down the player's own
#: index, which holds the rating too. The player is the account's (`queries.player_for`), so the
#: account is not asked again: checking it read each rating's row besides its index entry, which
#: tripled the work on a long history. Only the values are handed out: turning 30 stored
#: timestamps back into datetimes would cost more than the rest of the page's reads together.
_LATEST_PARTS = {
    game: select(_RATINGS.c.game, _RATINGS.c.rated_at, _RATINGS.c.match_id, _RATINGS.c.ordinal)
    .where(_RATINGS.c.player_id == bindparam("player_id"), _RATINGS.c.game == game)
    .order_by(_RATINGS.c.rated_at.desc(), _RATINGS.c.match_id.desc())
    .limit(fixed_limit(RATING_CHART_POINTS))
    for game in GAMES
}


def _summaries(user: User, player: Player) -> dict[str, GameFigures]:
    """Return the player's figures per game they played, from their summary rows (no ratings yet)."""
    summaries = db.session.connection().execute(_SUMMARIES, {"user_id": user.id, "player_id": player.id})
    return {
        row.game: GameFigures(
            row.game,
            **{name: getattr(row, name) for name in COUNTS},
            tallies=dict(row.tallies or {}),
            best=_match_total(row.best_total, row.best_match_id),
            worst=_match_total(row.worst_total, row.worst_match_id),
            current_streak=row.current_streak,
            longest_streak=row.longest_streak,
            recent=[outcome == "W" for outcome in row.recent],
        )
        for row in summaries
    }


def player_page_figures(user: User, player: Player, asked: str | None) -> tuple[list[GameFigures], GameFigures | None]:
    """Return the player's figures per game they played, and the game their page shows: the one asked
    for, else the one played most (None before any).

    Only the shown game's ratings are read, as the page draws one game at a time. Two queries.
    """
    figures = list(_summaries(user, player).values())
    shown = next((game for game in figures if game.game == asked), None)
    shown = shown or max(figures, key=lambda game: game.played, default=None)
    if shown is not None:
        latest = db.session.connection().execute(_LATEST_PARTS[shown.game], {"player_id": player.id})
        shown.rating_history = [row.ordinal for row in latest][::-1]
        shown.rating = shown.rating_history[-1] if shown.rating_history else None
    return figures, shown


def _match_total(total: int | None, match_id: int | None) -> tuple[int, int] | None:
    """Return a summary's best or worst match as (total, match id), or None while it has none."""
    return None if total is None or match_id is None else (total, match_id)


LEADERBOARD_COLUMNS = ("name", "matches", "won", "win_rate", "average_deal", "rating")
PERIODS = ("all", "month", "year", "range")


@dataclass(frozen=True)
class Standing:
    """One line of a leaderboard."""

    player_id: int
    name: str
    matches: int
    won: int
    points: int
    deals: int
    rating: float | None

    @property
    def win_rate(self) -> float:
        """Return the share of the finished matches won."""
        return self.won / self.matches if self.matches else 0.0

    @property
    def average_deal(self) -> float | None:
        """Return the average deal score."""
        return self.points / self.deals if self.deals else None


def period_bounds(
    period: str, start: datetime | None, end: datetime | None, now: datetime
) -> tuple[datetime | None, datetime | None]:
    """Return the first and last moment a period covers (None: unbounded)."""
    if period == "month":
        return now.replace(day=1, hour=0, minute=0, second=0, microsecond=0), None
    if period == "year":
        return now.replace(month=1, day=1, hour=0, minute=0, second=0, microsecond=0), None
    if period == "range":
        return start, end
    return None, None


def leaderboard(
    user: User, game: str, since: datetime | None, until: datetime | None, minimum: int, sort: str, descending: bool
) -> list[Standing]:
    """Return the players' standings in `game` over finished matches in a period, in one query.

    All time, they come from the players' summary rows; for a period, from their results in it.
    """
    statement = _leaderboard_statement(
        since is not None, until is not None, sort if sort in LEADERBOARD_COLUMNS else "win_rate", descending
    )
    values = {"user_id": user.id, "game": game, "since": since, "until": until, "minimum": max(minimum, 1)}
    return [
        Standing(pid, name, int(m), int(w or 0), int(p or 0), int(d or 0), r)
        for pid, name, m, w, p, d, r in db.session.execute(statement, values)
    ]


def ratings_by_name(user: User, game: str) -> dict[str, float]:
    """Return the latest rating in `game` of each of the account's players rated in it, by their name
    with its spaces collapsed and lower-cased (as the new-match page's draw of even pairs looks the
    names typed up: the browser has no case folding), in one query."""
    standings = leaderboard(user, game, None, None, 1, "name", False)
    return {" ".join(s.name.split()).lower(): s.rating for s in standings if s.rating is not None}


@cache
def _leaderboard_statement(since: bool, until: bool, sort: str, descending: bool) -> Select[Any]:
    """Return the leaderboard's query for a period bounded `since` and `until` (or not), in an
    order, built once rather than on every request. The account, game, bounds and minimum
    are bound when it runs."""
    account: BindParameter[int] = bindparam("user_id")
    game: BindParameter[str] = bindparam("game")
    if not since and not until:
        source = (
            select(
                PlayerSummary.player_id,
                PlayerSummary.finished.label("matches"),
                PlayerSummary.won,
                PlayerSummary.points,
                PlayerSummary.deals,
            )
            .where(PlayerSummary.user_id == account, PlayerSummary.game == game)
            .subquery()
        )
    else:
        finished = and_(PlayerResult.user_id == account, PlayerResult.game == game, PlayerResult.status == FINISHED)
        if since:
            finished = and_(finished, PlayerResult.played_at >= bindparam("since"))
        if until:
            finished = and_(finished, PlayerResult.played_at < bindparam("until"))
        source = (
            select(
                PlayerResult.player_id,
                func.count(PlayerResult.id).label("matches"),
                func.sum(case((PlayerResult.won, 1), else_=0)).label("won"),
                func.sum(PlayerResult.total).label("points"),
                func.sum(PlayerResult.deals).label("deals"),
            )
            .where(finished)
            .group_by(PlayerResult.player_id)
            .subquery()
        )
    # Each player's latest rating: one step down the index on (player, game, rated_at).
    rating = (
        select(PlayerRating.ordinal)
        .where(PlayerRating.player_id == Player.id, PlayerRating.game == game)
        .order_by(PlayerRating.rated_at.desc(), PlayerRating.match_id.desc())
        .limit(fixed_limit(1))
        .correlate(Player)
        .scalar_subquery()
    )
    matches, won = source.c.matches, source.c.won
    columns = {
        "name": Player.name_key,
        "matches": matches,
        "won": won,
        "win_rate": func.cast(won, db.Float) / func.nullif(matches, 0),
        "average_deal": func.cast(source.c.points, db.Float) / func.nullif(source.c.deals, 0),
        "rating": rating,
    }
    order = columns[sort]
    return (
        select(Player.id, Player.name, matches, won, source.c.points, source.c.deals, rating)
        .join(source, source.c.player_id == Player.id)
        .where(Player.user_id == account, matches >= bindparam("minimum"))
        .order_by(order.desc() if descending else order.asc(), Player.name_key)
    )
