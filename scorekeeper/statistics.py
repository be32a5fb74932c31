"""Reads for the statistics pages: figures aggregated in SQL from the derived rows.

Each page asks a fixed number of queries, however many matches the account holds: the
work is done by the database (sums, window functions), never by a loop over matches here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import and_, case, func, select

from markupsafe import Markup

from .charts import bars_svg, running_totals_svg
from .extensions import db
from .models import ABANDONED, FINISHED, PLAYING, Player, PlayerRating, PlayerResult, User

RECENT = 10


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
    cantes_20: int = 0
    cantes_40: int = 0
    tutes: int = 0
    last_tricks: int = 0
    exact_bids: int = 0
    over_bids: int = 0
    under_bids: int = 0
    best: tuple[int, int] | None = None  # (total, match id)
    worst: tuple[int, int] | None = None
    current_streak: int = 0
    longest_streak: int = 0
    recent: list[bool] = field(default_factory=list)  # newest first: True for a win
    rating: float | None = None
    rating_history: list[tuple[datetime, float]] = field(default_factory=list)

    def bid_chart(self, labels: tuple[str, str, str], description: str) -> Markup:
        """Return the Pocha bids made exactly, too high and too low as an SVG bar chart."""
        counts = (self.exact_bids, self.over_bids, self.under_bids)
        return bars_svg(list(zip(labels, counts)), description)

    def rating_chart(self, description: str) -> Markup:
        """Return the rating after each finished match as an SVG line chart."""
        return running_totals_svg([description], [(round(value),) for _, value in self.rating_history],
                                  description)

    @property
    def win_rate(self) -> float | None:
        """Return the share of finished matches won (ties for first count as a win for each)."""
        return self.won / self.finished if self.finished else None

    @property
    def average_deal(self) -> float | None:
        """Return the average deal score in finished matches (the side's, in Tute)."""
        return self.points / self.deals if self.deals else None

    @property
    def last_trick_rate(self) -> float | None:
        """Return the share of deals whose last trick this player's side took."""
        return self.last_tricks / self.deals if self.deals else None

    @property
    def bids(self) -> int:
        """Return how many bids this player made in finished matches."""
        return self.exact_bids + self.over_bids + self.under_bids

    @property
    def exact_rate(self) -> float | None:
        """Return the share of bids made exactly."""
        return self.exact_bids / self.bids if self.bids else None

    @property
    def tendency(self) -> int:
        """Return over-bids minus under-bids: above 0 the player bids too high, below too low."""
        return self.over_bids - self.under_bids


def _rows(user: User, player: Player) -> Any:
    return and_(PlayerResult.user_id == user.id, PlayerResult.player_id == player.id)


def player_figures(user: User, player: Player) -> list[GameFigures]:
    """Return the player's figures per game they played, in a fixed number of queries."""
    mine = _rows(user, player)
    finished = PlayerResult.status == FINISHED
    as_int = lambda condition: func.sum(case((condition, 1), else_=0))  # noqa: E731
    in_finished = lambda column: func.sum(case((finished, column), else_=0))  # noqa: E731
    totals = db.session.execute(
        select(PlayerResult.game, func.count(), as_int(PlayerResult.won), as_int(PlayerResult.status == ABANDONED),
               as_int(PlayerResult.status == PLAYING), as_int(finished), in_finished(PlayerResult.deals),
               in_finished(PlayerResult.total), in_finished(func.coalesce(PlayerResult.juegos, 0)),
               in_finished(PlayerResult.cantes_20), in_finished(PlayerResult.cantes_40),
               in_finished(PlayerResult.tutes), in_finished(PlayerResult.last_tricks),
               in_finished(PlayerResult.exact_bids), in_finished(PlayerResult.over_bids),
               in_finished(PlayerResult.under_bids))
        .where(mine).group_by(PlayerResult.game).order_by(PlayerResult.game))
    figures = {row[0]: GameFigures(row[0], *[int(v or 0) for v in row[1:]]) for row in totals}
    if not figures:
        return []
    for order, attribute in ((PlayerResult.total.desc(), "best"), (PlayerResult.total.asc(), "worst")):
        ranked = select(PlayerResult.game, PlayerResult.total, PlayerResult.match_id, func.row_number().over(
            partition_by=PlayerResult.game, order_by=(order, PlayerResult.match_id)).label("place")).where(
            mine, finished).subquery()
        for game, total, match_id in db.session.execute(
                select(ranked.c.game, ranked.c.total, ranked.c.match_id).where(ranked.c.place == 1)):
            setattr(figures[game], attribute, (total, match_id))
    _streaks(mine, figures)
    _recent(mine, figures)
    for game, rated_at, ordinal in db.session.execute(
            select(PlayerRating.game, PlayerRating.rated_at, PlayerRating.ordinal)
            .where(PlayerRating.user_id == user.id, PlayerRating.player_id == player.id)
            .order_by(PlayerRating.game, PlayerRating.rated_at, PlayerRating.match_id)):
        figures[game].rating_history.append((rated_at, ordinal))
        figures[game].rating = ordinal
    return list(figures.values())


def _streaks(mine: Any, figures: dict[str, GameFigures]) -> None:
    """Fill the current and longest winning streaks (gaps and islands, in SQL)."""
    ordered = select(
        PlayerResult.game, PlayerResult.won,
        func.row_number().over(partition_by=PlayerResult.game,
                               order_by=(PlayerResult.played_at, PlayerResult.match_id)).label("n"),
        func.row_number().over(partition_by=(PlayerResult.game, PlayerResult.won),
                               order_by=(PlayerResult.played_at, PlayerResult.match_id)).label("k"),
    ).where(mine, PlayerResult.status == FINISHED).subquery()
    runs = select(ordered.c.game, func.count().label("length"), func.max(ordered.c.n).label("last")).where(
        ordered.c.won.is_(True)).group_by(ordered.c.game, ordered.c.n - ordered.c.k).subquery()
    last = select(ordered.c.game, func.max(ordered.c.n).label("last")).group_by(ordered.c.game).subquery()
    query = select(runs.c.game, func.max(runs.c.length),
                   func.max(case((runs.c.last == last.c.last, runs.c.length), else_=0))).join(
        last, last.c.game == runs.c.game).group_by(runs.c.game)
    for game, longest, current in db.session.execute(query):
        figures[game].longest_streak, figures[game].current_streak = int(longest), int(current)


def _recent(mine: Any, figures: dict[str, GameFigures]) -> None:
    """Fill the last ten finished matches' outcomes, newest first."""
    ranked = select(PlayerResult.game, PlayerResult.won, func.row_number().over(
        partition_by=PlayerResult.game, order_by=(PlayerResult.played_at.desc(), PlayerResult.match_id.desc()))
        .label("place")).where(mine, PlayerResult.status == FINISHED).subquery()
    for game, won in db.session.execute(select(ranked.c.game, ranked.c.won).where(
            ranked.c.place <= RECENT).order_by(ranked.c.game, ranked.c.place)):
        figures[game].recent.append(bool(won))



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


def period_bounds(period: str, start: datetime | None, end: datetime | None,
                  now: datetime) -> tuple[datetime | None, datetime | None]:
    """Return the first and last moment a period covers (None: unbounded)."""
    if period == "month":
        return now.replace(day=1, hour=0, minute=0, second=0, microsecond=0), None
    if period == "year":
        return now.replace(month=1, day=1, hour=0, minute=0, second=0, microsecond=0), None
    if period == "range":
        return start, end
    return None, None


def leaderboard(user: User, game: str, since: datetime | None, until: datetime | None, minimum: int,
                sort: str, descending: bool) -> list[Standing]:
    """Return the players' standings in `game` over finished matches in a period, in one query."""
    finished = and_(PlayerResult.user_id == user.id, PlayerResult.game == game, PlayerResult.status == FINISHED)
    if since is not None:
        finished = and_(finished, PlayerResult.played_at >= since)
    if until is not None:
        finished = and_(finished, PlayerResult.played_at < until)
    latest = select(PlayerRating.player_id, PlayerRating.ordinal, func.row_number().over(
        partition_by=PlayerRating.player_id, order_by=(PlayerRating.rated_at.desc(), PlayerRating.match_id.desc()))
        .label("place")).where(PlayerRating.user_id == user.id, PlayerRating.game == game).subquery()
    matches = func.count(PlayerResult.id)
    won = func.sum(case((PlayerResult.won, 1), else_=0))
    points, deals = func.sum(PlayerResult.total), func.sum(PlayerResult.deals)
    columns = {
        "name": Player.name_key, "matches": matches, "won": won,
        "win_rate": func.cast(won, db.Float) / func.nullif(matches, 0),
        "average_deal": func.cast(points, db.Float) / func.nullif(deals, 0),
        "rating": func.max(latest.c.ordinal),
    }
    order = columns.get(sort, columns["win_rate"])
    query = (select(Player.id, Player.name, matches, won, points, deals, func.max(latest.c.ordinal))
             .join(PlayerResult, PlayerResult.player_id == Player.id)
             .outerjoin(latest, and_(latest.c.player_id == Player.id, latest.c.place == 1))
             .where(finished).group_by(Player.id, Player.name, Player.name_key)
             .having(matches >= max(minimum, 1))
             .order_by(order.desc() if descending else order.asc(), Player.name_key))
    return [Standing(pid, name, int(m), int(w or 0), int(p or 0), int(d or 0), r)
            for pid, name, m, w, p, d, r in db.session.execute(query)]


@dataclass(frozen=True)
class SharedMatch:
    """A match two players both sat in."""

    match_id: int
    game: str
    played_at: datetime
    status: str
    first_won: bool
    second_won: bool
    partners: bool


def head_to_head(user: User, first: Player, second: Player) -> list[SharedMatch]:
    """Return every match both players sat in, newest first, in one query."""
    mine, theirs = PlayerResult, db.aliased(PlayerResult)
    rows = db.session.execute(
        select(mine.match_id, mine.game, mine.played_at, mine.status, mine.won, theirs.won, mine.side == theirs.side)
        .join(theirs, theirs.match_id == mine.match_id)
        .where(mine.user_id == user.id, mine.player_id == first.id, theirs.player_id == second.id)
        .order_by(mine.played_at.desc(), mine.match_id.desc()))
    return [SharedMatch(*row[:4], bool(row[4]), bool(row[5]), bool(row[6])) for row in rows]
