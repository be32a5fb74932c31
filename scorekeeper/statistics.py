"""Reads for the statistics pages: figures aggregated in SQL from the derived rows.

Each page asks a fixed number of queries, however many matches the account holds: the
work is done by the database (sums, window functions), never by a loop over matches here.
The player page and the all-time leaderboard read each player's summary row, which the
services rebuild with `summary_rows` whenever one of the player's matches changes status.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from collections.abc import Collection
from functools import cache
from typing import Any

from sqlalchemy import Select, and_, bindparam, case, func, or_, select, union_all
from sqlalchemy.orm import aliased

from markupsafe import Markup

from .charts import bars_svg, running_totals_svg
from .paging import Page
from .extensions import db
from .models import (
    ABANDONED, FINISHED, PLAYING, Player, PlayerPair, PlayerRating, PlayerResult, PlayerSummary, User,
)
from .rules import GAMES

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
    rating_history: list[float] = field(default_factory=list)  # the latest ratings, oldest first

    def bid_chart(self, labels: tuple[str, str, str], description: str) -> Markup:
        """Return the Pocha bids made exactly, too high and too low as an SVG bar chart."""
        counts = (self.exact_bids, self.over_bids, self.under_bids)
        return bars_svg(list(zip(labels, counts)), description)

    def rating_chart(self, description: str, label: str) -> Markup:
        """Return the rating after each finished match as an SVG line chart, its line named `label`."""
        return running_totals_svg([label], [(round(value),) for value in self.rating_history], description)

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


#: The figures a summary row keeps, in the order `GameFigures` takes them after `game`.
COUNTS = ("played", "won", "abandoned", "unfinished", "finished", "deals", "points", "juegos", "cantes_20",
          "cantes_40", "tutes", "last_tricks", "exact_bids", "over_bids", "under_bids")
#: The rating chart shows a player's latest ratings, so that it stays as quick to draw after years.
RATING_CHART_POINTS = 30


def summary_rows(user_id: int, game: str, player_ids: Collection[int]) -> list[dict[str, Any]]:
    """Return the summary of each of these players in `game` (the columns of PlayerSummary),
    aggregated in SQL from their results: a fixed number of queries for any number of players."""
    if not player_ids:
        return []
    mine = and_(PlayerResult.user_id == user_id, PlayerResult.game == game, PlayerResult.player_id.in_(player_ids))
    finished = PlayerResult.status == FINISHED
    as_int = lambda condition: func.sum(case((condition, 1), else_=0))  # noqa: E731
    in_finished = lambda column: func.sum(case((finished, column), else_=0))  # noqa: E731
    totals = db.session.execute(
        select(PlayerResult.player_id, func.count(), as_int(PlayerResult.won), as_int(PlayerResult.status == ABANDONED),
               as_int(PlayerResult.status == PLAYING), as_int(finished), in_finished(PlayerResult.deals),
               in_finished(PlayerResult.total), in_finished(func.coalesce(PlayerResult.juegos, 0)),
               in_finished(PlayerResult.cantes_20), in_finished(PlayerResult.cantes_40),
               in_finished(PlayerResult.tutes), in_finished(PlayerResult.last_tricks),
               in_finished(PlayerResult.exact_bids), in_finished(PlayerResult.over_bids),
               in_finished(PlayerResult.under_bids))
        .where(mine).group_by(PlayerResult.player_id))
    rows: dict[int, dict[str, Any]] = {}
    for player_id, *counts in totals:
        rows[player_id] = {"user_id": user_id, "player_id": player_id, "game": game,
                           **{name: int(value or 0) for name, value in zip(COUNTS, counts)},
                           "best_total": None, "best_match_id": None, "worst_total": None, "worst_match_id": None,
                           "current_streak": 0, "longest_streak": 0, "recent": ""}
    if not rows:
        return []
    _best_and_worst(mine, rows)
    _streaks(mine, rows)
    _recent(mine, rows)
    return list(rows.values())


def _best_and_worst(mine: Any, rows: dict[int, dict[str, Any]]) -> None:
    """Fill each player's best and worst finished match (the earliest on a tie)."""
    ranked = select(
        PlayerResult.player_id, PlayerResult.total, PlayerResult.match_id,
        func.row_number().over(partition_by=PlayerResult.player_id,
                               order_by=(PlayerResult.total.desc(), PlayerResult.match_id)).label("best"),
        func.row_number().over(partition_by=PlayerResult.player_id,
                               order_by=(PlayerResult.total.asc(), PlayerResult.match_id)).label("worst"),
    ).where(mine, PlayerResult.status == FINISHED).subquery()
    for player_id, total, match_id, best, worst in db.session.execute(
            select(ranked).where(or_(ranked.c.best == 1, ranked.c.worst == 1))):
        if best == 1:
            rows[player_id].update(best_total=total, best_match_id=match_id)
        if worst == 1:
            rows[player_id].update(worst_total=total, worst_match_id=match_id)


def _streaks(mine: Any, rows: dict[int, dict[str, Any]]) -> None:
    """Fill the current and longest winning streaks (gaps and islands, in SQL)."""
    ordered = select(
        PlayerResult.player_id, PlayerResult.won,
        func.row_number().over(partition_by=PlayerResult.player_id,
                               order_by=(PlayerResult.played_at, PlayerResult.match_id)).label("n"),
        func.row_number().over(partition_by=(PlayerResult.player_id, PlayerResult.won),
                               order_by=(PlayerResult.played_at, PlayerResult.match_id)).label("k"),
    ).where(mine, PlayerResult.status == FINISHED).subquery()
    runs = select(ordered.c.player_id, func.count().label("length"), func.max(ordered.c.n).label("last")).where(
        ordered.c.won.is_(True)).group_by(ordered.c.player_id, ordered.c.n - ordered.c.k).subquery()
    last = select(ordered.c.player_id, func.max(ordered.c.n).label("last")).group_by(ordered.c.player_id).subquery()
    query = select(runs.c.player_id, func.max(runs.c.length),
                   func.max(case((runs.c.last == last.c.last, runs.c.length), else_=0))).join(
        last, last.c.player_id == runs.c.player_id).group_by(runs.c.player_id)
    for player_id, longest, current in db.session.execute(query):
        rows[player_id].update(longest_streak=int(longest), current_streak=int(current))


def _recent(mine: Any, rows: dict[int, dict[str, Any]]) -> None:
    """Fill the last ten finished matches' outcomes, newest first."""
    ranked = select(PlayerResult.player_id, PlayerResult.won, func.row_number().over(
        partition_by=PlayerResult.player_id,
        order_by=(PlayerResult.played_at.desc(), PlayerResult.match_id.desc())).label("place")).where(
        mine, PlayerResult.status == FINISHED).subquery()
    for player_id, won in db.session.execute(select(ranked.c.player_id, ranked.c.won).where(
            ranked.c.place <= RECENT).order_by(ranked.c.player_id, ranked.c.place)):
        rows[player_id]["recent"] += "W" if won else "L"


@cache
def _latest_ratings() -> Select[tuple[str, float]]:
    """Return the query of a player's latest ratings in each game, oldest first.

    Each game is looked up by the index on its own; the query is built once, as building it
    costs more than running it.
    """
    latest = [select(PlayerRating.game, PlayerRating.rated_at, PlayerRating.match_id, PlayerRating.ordinal)
              .where(PlayerRating.user_id == bindparam("user_id"), PlayerRating.player_id == bindparam("player_id"),
                     PlayerRating.game == game)
              .order_by(PlayerRating.rated_at.desc(), PlayerRating.match_id.desc())
              .limit(RATING_CHART_POINTS).subquery() for game in GAMES]
    ratings = union_all(*[select(part) for part in latest]).subquery()
    # Only the values are handed out: turning 300 stored timestamps back into datetimes
    # would cost more than the rest of the page's reads together.
    return select(ratings.c.game, ratings.c.ordinal).order_by(ratings.c.game, ratings.c.rated_at, ratings.c.match_id)


def player_figures(user: User, player: Player) -> list[GameFigures]:
    """Return the player's figures per game they played: their summary rows and latest ratings, in two queries."""
    summaries = db.session.scalars(select(PlayerSummary).where(
        PlayerSummary.user_id == user.id, PlayerSummary.player_id == player.id).order_by(PlayerSummary.game))
    figures = {
        row.game: GameFigures(
            row.game, *[getattr(row, name) for name in COUNTS],
            best=None if row.best_match_id is None else (row.best_total, row.best_match_id),
            worst=None if row.worst_match_id is None else (row.worst_total, row.worst_match_id),
            current_streak=row.current_streak, longest_streak=row.longest_streak,
            recent=[outcome == "W" for outcome in row.recent])
        for row in summaries}
    for game, ordinal in db.session.execute(_latest_ratings(), {"user_id": user.id, "player_id": player.id}):
        if game in figures:
            figures[game].rating_history.append(ordinal)
            figures[game].rating = ordinal
    return list(figures.values())


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
    """Return the players' standings in `game` over finished matches in a period, in one query.

    All time, they come from the players' summary rows; for a period, from their results in it.
    """
    if since is None and until is None:
        source = select(PlayerSummary.player_id, PlayerSummary.finished.label("matches"), PlayerSummary.won,
                        PlayerSummary.points, PlayerSummary.deals).where(
            PlayerSummary.user_id == user.id, PlayerSummary.game == game).subquery()
    else:
        finished = and_(PlayerResult.user_id == user.id, PlayerResult.game == game, PlayerResult.status == FINISHED)
        if since is not None:
            finished = and_(finished, PlayerResult.played_at >= since)
        if until is not None:
            finished = and_(finished, PlayerResult.played_at < until)
        source = select(PlayerResult.player_id, func.count(PlayerResult.id).label("matches"),
                        func.sum(case((PlayerResult.won, 1), else_=0)).label("won"),
                        func.sum(PlayerResult.total).label("points"), func.sum(PlayerResult.deals).label("deals"),
                        ).where(finished).group_by(PlayerResult.player_id).subquery()
    # Each player's latest rating: one step down the index on (player, game, rated_at).
    rating = (select(PlayerRating.ordinal).where(PlayerRating.player_id == Player.id, PlayerRating.game == game)
              .order_by(PlayerRating.rated_at.desc(), PlayerRating.match_id.desc()).limit(1)
              .correlate(Player).scalar_subquery())
    matches, won = source.c.matches, source.c.won
    columns = {
        "name": Player.name_key, "matches": matches, "won": won,
        "win_rate": func.cast(won, db.Float) / func.nullif(matches, 0),
        "average_deal": func.cast(source.c.points, db.Float) / func.nullif(source.c.deals, 0),
        "rating": rating,
    }
    order = columns.get(sort, columns["win_rate"])
    query = (select(Player.id, Player.name, matches, won, source.c.points, source.c.deals, rating)
             .join(source, source.c.player_id == Player.id)
             .where(Player.user_id == user.id, matches >= max(minimum, 1))
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


#: The other player's results in a match, joined to a player's own (made once: an alias costs a
#: millisecond to build).
_OTHER = aliased(PlayerResult, name="other")
#: Shared matches per page of the head-to-head list.
SHARED_PAGE_SIZE = 20


@dataclass(frozen=True)
class Rivalry:
    """What two players' shared matches add up to."""

    shared: int
    first_wins: int
    second_wins: int
    together: int
    together_won: int


def pair_rows(user_id: int, player_ids: Collection[int] | None = None) -> list[dict[str, Any]]:
    """Return the record of every pair among these players (None: all the account's), lower id first
    (the columns of PlayerPair), aggregated in SQL from their results in one query."""
    first, second = PlayerResult, _OTHER
    apart, together = first.side != second.side, first.side == second.side
    count = lambda condition: func.sum(case((condition, 1), else_=0))  # noqa: E731
    query = (select(first.player_id, second.player_id, func.count(), count(and_(apart, first.won)),
                    count(and_(apart, second.won)), count(and_(together, first.status == FINISHED)),
                    count(and_(together, first.won)))
             .join(second, and_(second.match_id == first.match_id, second.player_id > first.player_id))
             .where(first.user_id == user_id).group_by(first.player_id, second.player_id))
    if player_ids is not None:
        query = query.where(first.player_id.in_(player_ids), second.player_id.in_(player_ids))
    names = ("first_id", "second_id", "shared", "first_wins", "second_wins", "together", "together_won")
    return [{"user_id": user_id, **{name: int(value or 0) for name, value in zip(names, row)}}
            for row in db.session.execute(query)]


def rivalry(user: User, first: Player, second: Player) -> Rivalry:
    """Return how often two players met and who won, and their record as partners (one row)."""
    low, high = sorted((first.id, second.id))
    row = db.session.scalar(select(PlayerPair).where(PlayerPair.user_id == user.id, PlayerPair.first_id == low,
                                                     PlayerPair.second_id == high))
    if row is None:
        return Rivalry(0, 0, 0, 0, 0)
    wins = (row.first_wins, row.second_wins) if first.id == low else (row.second_wins, row.first_wins)
    return Rivalry(row.shared, *wins, row.together, row.together_won)


def head_to_head(user: User, first: Player, second: Player, shared: int, page: int = 1) -> Page:
    """Return a page of the `shared` matches both players sat in, newest first.

    The first player's matches are walked newest first down their index until the page is
    full, so a page costs the same however long the two have played.
    """
    mine, theirs = PlayerResult, _OTHER
    query = (select(mine.match_id, mine.game, mine.played_at, mine.status, mine.won, theirs.won, mine.side == theirs.side)
             .join(theirs, and_(theirs.match_id == mine.match_id, theirs.player_id == second.id))
             .where(mine.player_id == first.id, mine.user_id == user.id)
             .order_by(mine.played_at.desc(), mine.match_id.desc()))
    page = max(page, 1)
    rows = db.session.execute(query.limit(SHARED_PAGE_SIZE).offset((page - 1) * SHARED_PAGE_SIZE))
    items = [SharedMatch(*row[:4], bool(row[4]), bool(row[5]), bool(row[6])) for row in rows]
    return Page(items=items, page=page, per_page=SHARED_PAGE_SIZE, total=shared)
