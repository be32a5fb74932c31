"""The seasons' reads: a season's league table in a game, the seasons an account can look at, and a
player's place in each of them.

A season is a span of days: a calendar year, or one the account named (`models.Season`). Its
table is read from the players' running sums (`PlayerResult.run_*`, kept by `upkeep`): what a
player did in a season is their running sums at its end minus those at its start, each found in
one step down an index. A season's table therefore costs the same on the thousandth night as on
the first, and needs no table of its own to keep up to date: it follows the results, which a
rebuild (`flask recompute`) writes again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from functools import cache
from typing import Any, cast

from sqlalchemy import Select, and_, bindparam, func, literal, null, select, true, union_all
from sqlalchemy.orm import aliased

from ..db.sql import fixed_limit
from ..extensions import db
from ..models import (
    FINISHED,
    MAX_ID,
    Match,
    Player,
    PlayerRating,
    PlayerResult,
    PlayerSummary,
    Season,
    User,
    UTCDateTime,
)
from ..rules import GAMES

#: A new player's rating as the pages show it: openskill's mu 25 less 3 sigma of 25/3.
NEW_RATING = 0.0
#: The calendar years a season may be: any a group has played in, and none whose last day the
#: calendar cannot follow.
MIN_YEAR, MAX_YEAR = 1900, 9998
#: How many seasons a player's page names their place in, the latest first.
PLACES_SHOWN = 6


@dataclass(frozen=True)
class LeaguePoints:
    """How a season's table counts a match: its points for a win alone, a shared win and any other
    result, and how many of each player's best matches count (None: every one)."""

    win: int = 3
    shared: int = 1
    other: int = 0
    best_of: int | None = None

    def of(self, won: int, shared: int, played: int) -> tuple[int, int]:
        """Return the league points of a player's season and how many matches they counted: all of
        them, or their best `best_of` (each result's points told apart by their kind alone, the best
        matches are the most rewarded kinds first)."""
        kinds = sorted(((self.win, won - shared), (self.shared, shared), (self.other, played - won)), reverse=True)
        room = played if self.best_of is None else min(self.best_of, played)
        counted = points = 0
        for value, count in kinds:
            taken = min(count, room - counted)
            points += value * taken
            counted += taken
        return points, counted


@dataclass(frozen=True)
class SeasonSpan:
    """A season: a calendar year (`season_id` None) or a named one, its days (both included) and points."""

    name: str | None
    starts_on: date
    ends_on: date
    points: LeaguePoints
    season_id: int | None = None

    @property
    def year(self) -> int | None:
        """Return the calendar year this season is, or None for a named season."""
        return self.starts_on.year if self.season_id is None else None

    def bounds(self, zone: tzinfo) -> tuple[datetime, datetime]:
        """Return the first moment of the season and the first after it, in UTC, its days in `zone`."""
        return day_start(self.starts_on, zone), day_start(self.ends_on + timedelta(days=1), zone)

    def has_begun(self, today: date) -> bool:
        """Tell whether the season's first day has come."""
        return self.starts_on <= today

    def is_over(self, today: date) -> bool:
        """Tell whether the season's last day has passed."""
        return self.ends_on < today


def day_start(day: date, zone: tzinfo) -> datetime:
    """Return when `day` begins in `zone`, in UTC."""
    midnight = datetime.combine(day, time())
    # The pages' zones are pytz's (Flask-Babel's), whose offset for a day comes from localize().
    localize = getattr(zone, "localize", None)
    local = localize(midnight) if localize is not None else midnight.replace(tzinfo=zone)
    return cast(datetime, local).astimezone(UTC)


def calendar_year(year: int) -> SeasonSpan:
    """Return a calendar year as a season, with the default points."""
    return SeasonSpan(None, date(year, 1, 1), date(year, 12, 31), LeaguePoints())


def named_season(season: Season) -> SeasonSpan:
    """Return a season the account named as a span."""
    return SeasonSpan(
        season.name,
        season.starts_on,
        season.ends_on,
        LeaguePoints(season.win_points, season.shared_points, season.other_points, season.best_of),
        season.id,
    )


@dataclass(frozen=True)
class SeasonLine:
    """One player's line in a season's table."""

    place: int
    player_id: int
    name: str
    played: int
    won: int  #: wins, shared ones included
    shared: int
    points: int  #: league points
    counted: int  #: the matches the league points count (fewer than played with a best of N)
    scored: int  #: the sum of the player's totals
    rating_change: float | None

    @property
    def lost(self) -> int:
        """Return the matches the player did not win."""
        return self.played - self.won


@dataclass(frozen=True)
class _Run:
    """A player's running sums at a moment: their finished matches so far, wins, shared wins, points."""

    finished: int = 0
    won: int = 0
    shared: int = 0
    points: int = 0

    def __sub__(self, other: _Run) -> _Run:
        return _Run(
            self.finished - other.finished, self.won - other.won, self.shared - other.shared, self.points - other.points
        )


_results, _ratings, _summaries, _players = (
    PlayerResult.__table__,
    PlayerRating.__table__,
    PlayerSummary.__table__,
    Player.__table__,
)
_RUN = aliased(PlayerResult, name="run")


@cache
def _runs_statement(bounds: int, ratings: bool) -> Select[Any]:
    """Return the query of every player of a game's running sums before each of `bounds` moments
    (bound as `bound_0` ...), and with `ratings` their latest rating before it: one row per moment
    and player, the sums None before their first match.

    Each sum is the latest finished result before the moment, one step down the running index.
    """
    moments = union_all(
        *[
            select(literal(index).label("at"), bindparam(f"bound_{index}", type_=UTCDateTime()).label("moment"))
            for index in range(bounds)
        ]
    ).subquery("moments")
    latest = (
        select(_results.c.id)
        .where(
            _results.c.player_id == _summaries.c.player_id,
            _results.c.game == bindparam("game"),
            _results.c.status == FINISHED,
            _results.c.played_at < moments.c.moment,
        )
        .order_by(_results.c.played_at.desc(), _results.c.match_id.desc())
        .limit(fixed_limit(1))
        .correlate(_summaries, moments)
        .scalar_subquery()
    )
    rated = (
        select(_ratings.c.ordinal)
        .where(
            _ratings.c.player_id == _summaries.c.player_id,
            _ratings.c.game == bindparam("game"),
            _ratings.c.rated_at < moments.c.moment,
        )
        .order_by(_ratings.c.rated_at.desc(), _ratings.c.match_id.desc())
        .limit(fixed_limit(1))
        .correlate(_summaries, moments)
        .scalar_subquery()
    )
    pairs = (
        select(
            moments.c.at,
            _summaries.c.player_id,
            latest.label("result_id"),
            (rated if ratings else null()).label("rating"),
        )
        .select_from(_summaries)
        .join(moments, true())
        .where(_summaries.c.user_id == bindparam("user_id"), _summaries.c.game == bindparam("game"))
        .subquery("pairs")
    )
    return (
        select(
            pairs.c.at,
            pairs.c.player_id,
            _players.c.name,
            _RUN.run_finished,
            _RUN.run_won,
            _RUN.run_shared,
            _RUN.run_points,
            pairs.c.rating,
        )
        .select_from(pairs)
        .join(_players, _players.c.id == pairs.c.player_id)
        .outerjoin(_RUN, _RUN.id == pairs.c.result_id)
    )


@dataclass(frozen=True)
class _PlayerAt:
    name: str
    run: _Run
    rating: float | None


def _runs(user: User, game: str, moments: Sequence[datetime], ratings: bool = True) -> list[dict[int, _PlayerAt]]:
    """Return, for each moment, every player of `game`'s running sums and (with `ratings`) rating just before
    it, in one query."""
    values: dict[str, Any] = {"user_id": user.id, "game": game}
    values.update({f"bound_{index}": moment for index, moment in enumerate(moments)})
    found: list[dict[int, _PlayerAt]] = [{} for _moment in moments]
    for at, player_id, name, finished, won, shared, points, rating in db.session.execute(
        _runs_statement(len(moments), ratings), values
    ):
        run = _Run(finished or 0, won or 0, shared or 0, points or 0)
        found[at][player_id] = _PlayerAt(name, run, rating)
    return found


def _table(points: LeaguePoints, start: dict[int, _PlayerAt], end: dict[int, _PlayerAt]) -> list[SeasonLine]:
    """Return the table of the players who finished a match between two moments, placed by league
    points, then wins, then points scored (equal on all three: the same place), then by name."""
    unplaced = []
    for player_id, at_end in end.items():
        at_start = start.get(player_id)
        season = at_end.run - (at_start.run if at_start else _Run())
        if season.finished <= 0:
            continue
        league, counted = points.of(season.won, season.shared, season.finished)
        before = at_start.rating if at_start and at_start.rating is not None else NEW_RATING
        change = None if at_end.rating is None else at_end.rating - before
        unplaced.append((league, season, counted, change, player_id, at_end.name))
    unplaced.sort(key=lambda line: (-line[0], -line[1].won, -line[1].points, line[5].casefold(), line[4]))
    lines: list[SeasonLine] = []
    for index, (league, season, counted, change, player_id, name) in enumerate(unplaced):
        place = index + 1
        if lines:
            previous = lines[-1]
            if (previous.points, previous.won, previous.scored) == (league, season.won, season.points):
                place = previous.place
        lines.append(
            SeasonLine(
                place,
                player_id,
                name,
                season.finished,
                season.won,
                season.shared,
                league,
                counted,
                season.points,
                change,
            )
        )
    return lines


def season_table(user: User, game: str, season: SeasonSpan, zone: tzinfo, best_of: int | None) -> list[SeasonLine]:
    """Return a season's league table in `game`, its days in `zone`, counting each player's best
    `best_of` matches (None: every one). One query."""
    since, until = season.bounds(zone)
    start, end = _runs(user, game, [since, until])
    return _table(replace(season.points, best_of=best_of), start, end)


def named_seasons(user: User) -> list[SeasonSpan]:
    """Return the seasons the account named, the latest to begin first."""
    seasons = db.session.scalars(
        select(Season).where(Season.user_id == user.id).order_by(Season.starts_on.desc(), Season.id.desc())
    )
    return [named_season(season) for season in seasons]


def named_season_for(user: User, season_id: int) -> Season | None:
    """Return the account's season of that id, or None."""
    if not 0 < season_id <= MAX_ID:
        return None
    return db.session.scalar(select(Season).where(Season.id == season_id, Season.user_id == user.id))


#: The first and the last end of the account's finished matches of a game: two steps down its index.
_ENDS = {
    game: select(
        select(func.min(Match.ended_at))
        .where(Match.user_id == bindparam("user_id"), Match.game == game, Match.status == FINISHED)
        .scalar_subquery(),
        select(func.max(Match.ended_at))
        .where(Match.user_id == bindparam("user_id"), Match.game == game, Match.status == FINISHED)
        .scalar_subquery(),
    )
    for game in GAMES
}


def years_played(user: User, zone: tzinfo, game: str | None = None) -> list[int]:
    """Return the calendar years (in `zone`) from the account's first finished match to its last
    (of `game`, or of any game), the latest first; none before the first match."""
    games = [game] if game is not None else list(GAMES)
    statement = union_all(*[_ENDS[name] for name in games])
    firsts, lasts = [], []
    for first, last in db.session.execute(statement, {"user_id": user.id}):
        if first is not None and last is not None:
            firsts.append(first)
            lasts.append(last)
    if not firsts:
        return []
    return list(range(max(lasts).astimezone(zone).year, min(firsts).astimezone(zone).year - 1, -1))


def games_of_season(user: User, season: SeasonSpan, zone: tzinfo) -> list[tuple[str, int]]:
    """Return the games finished in a season with how many matches of each, the most played first."""
    since, until = season.bounds(zone)
    counted = db.session.execute(
        select(Match.game, func.count())
        .where(
            Match.user_id == user.id,
            Match.status == FINISHED,
            and_(Match.ended_at >= since, Match.ended_at < until),
        )
        .group_by(Match.game)
    )
    return sorted(((game, count) for game, count in counted), key=lambda pair: (-pair[1], pair[0]))


@dataclass(frozen=True)
class SeasonPlace:
    """A player's place in one season of a game: out of how many players, with their league points."""

    season: SeasonSpan
    place: int
    of: int
    points: int
    played: int


def player_places(user: User, player: Player, game: str, zone: tzinfo, today: date) -> list[SeasonPlace]:
    """Return the player's place in the latest seasons of `game` they finished a match in (calendar
    years and named seasons that have begun, the latest to end first; at most PLACES_SHOWN).

    Three queries: the years played, the named seasons, and every player's running sums at each
    season's bounds, together.
    """
    spans = [calendar_year(year) for year in years_played(user, zone, game)]
    spans += [span for span in named_seasons(user) if span.has_begun(today)]
    spans.sort(key=lambda span: (span.ends_on, span.season_id or 0), reverse=True)
    spans = spans[: PLACES_SHOWN * 2]  # a few the player may have missed, but a bounded query
    if not spans:
        return []
    moments = sorted({moment for span in spans for moment in span.bounds(zone)})
    index = {moment: at for at, moment in enumerate(moments)}
    runs = _runs(user, game, moments, ratings=False)
    places = []
    for span in spans:
        since, until = span.bounds(zone)
        table = _table(span.points, runs[index[since]], runs[index[until]])
        mine = next((line for line in table if line.player_id == player.id), None)
        if mine is not None:
            places.append(SeasonPlace(span, mine.place, len(table), mine.points, mine.played))
    return places[:PLACES_SHOWN]
