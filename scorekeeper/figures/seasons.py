"""The seasons' reads: a season's league table in a game, the seasons an account can look at, and a
player's place in each of them.

A season is a span of days: a calendar year, or one the account named (`models.Season`). Its
table is read from the players' running sums (`PlayerResult.run_*`, kept by `upkeep`): what a
player did in a season is their running sums at its end minus those at its start, each found in
one step down an index. A season's table therefore costs the same on the thousandth night as on
the first, and needs no table of its own to keep up to date: it follows the results, which a
rebuild (`flask recompute`) writes again. Only the standings a player's page places them in are
kept once a season is over (`services.season_places`), so that every player's page reads them in one
step rather than counting every player's sums again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, tzinfo
from functools import cache
from typing import Any

from sqlalchemy import Select, bindparam, func, literal, select, union_all

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
from ..registry import GAMES
from ..season_rules import LeaguePoints, SeasonSpan, calendar_year

#: A new player's rating as the pages show it: openskill's mu 25 less 3 sigma of 25/3.
NEW_RATING = 0.0
#: A player's page names their place in the seasons of this many calendar years, up to that of their
#: last match of the game (those years, and the named seasons that end in them), at most PLACES_SHOWN,
#: the latest first; the seasons' page has every one.
PLACES_YEARS = 2
PLACES_SHOWN = 4


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


#: A player's running sums at a moment: their finished matches so far, wins, shared wins, points.
_Sums = tuple[int, int, int, int]
_NONE: _Sums = (0, 0, 0, 0)

_results, _ratings, _summaries, _players = (
    PlayerResult.__table__,
    PlayerRating.__table__,
    PlayerSummary.__table__,
    Player.__table__,
)


@cache
def _sums_statement(bounds: int, ratings: bool) -> Select[Any]:
    """Return the query of every player of a game (`game` of the account `user_id`) with, when
    `ratings`, their name; their running sums before each of `bounds` moments (bound as `bound_0`
    ...; None before their first match there) and, with `ratings`, their latest rating before each:
    one row a player.

    Each moment's sums are the player's latest finished result before it, found in one step down
    the running index and joined by its id; each rating one step down the ratings' index.
    """
    columns: list[Any] = [_summaries.c.player_id]
    source: Any = _summaries
    if ratings:  # a season's table; a player's places need neither names nor ratings, only the sums
        columns.append(_players.c.name)
        source = source.join(_players, _players.c.id == _summaries.c.player_id)
    for index in range(bounds):
        moment = bindparam(f"bound_{index}", type_=UTCDateTime())
        latest = (
            select(_results.c.id)
            .where(
                _results.c.player_id == _summaries.c.player_id,
                _results.c.game == bindparam("game"),
                _results.c.status == FINISHED,
                _results.c.played_at < moment,
            )
            .order_by(_results.c.played_at.desc(), _results.c.match_id.desc())
            .limit(fixed_limit(1))
            .correlate(_summaries)
            .scalar_subquery()
        )
        run = _results.alias(f"run_{index}")
        source = source.outerjoin(run, run.c.id == latest)
        columns += [run.c.run_finished, run.c.run_won, run.c.run_shared, run.c.run_points]
        if ratings:
            columns.append(
                select(_ratings.c.ordinal)
                .where(
                    _ratings.c.player_id == _summaries.c.player_id,
                    _ratings.c.game == bindparam("game"),
                    _ratings.c.rated_at < moment,
                )
                .order_by(_ratings.c.rated_at.desc(), _ratings.c.match_id.desc())
                .limit(fixed_limit(1))
                .correlate(_summaries)
                .scalar_subquery()
            )
    return (
        select(*columns)
        .select_from(source)
        .where(_summaries.c.user_id == bindparam("user_id"), _summaries.c.game == bindparam("game"))
    )


def _sums(user: User, game: str, moments: Sequence[datetime], ratings: bool) -> Any:
    """Return the rows of `_sums_statement` for these moments, as plain rows on the session's connection
    (read for every player of the game: the ORM's row machinery would cost more than the query)."""
    values: dict[str, Any] = {"user_id": user.id, "game": game}
    values.update({f"bound_{index}": moment for index, moment in enumerate(moments)})
    return db.session.connection().execute(_sums_statement(len(moments), ratings), values)


def _placed(points: LeaguePoints, unplaced: list[tuple[int, str, _Sums, float | None]]) -> list[SeasonLine]:
    """Return the table of players given as (id, name, sums over the season, rating change), those who
    finished a match in it placed by league points, then wins, then points scored (equal on all
    three: the same place), then by name."""
    lines: list[SeasonLine] = []
    ordered = []
    for player_id, name, (played, won, shared, scored), change in unplaced:
        if played > 0:
            league, counted = points.of(won, shared, played)
            ordered.append((-league, -won, -scored, name.casefold(), player_id, name, played, shared, counted, change))
    ordered.sort()
    for index, (league, won, scored, _key, player_id, name, played, shared, counted, change) in enumerate(ordered):
        place = index + 1
        if lines and (lines[-1].points, lines[-1].won, lines[-1].scored) == (-league, -won, -scored):
            place = lines[-1].place
        lines.append(SeasonLine(place, player_id, name, played, -won, shared, -league, counted, -scored, change))
    return lines


def _between(start: tuple[Any, ...], end: tuple[Any, ...]) -> _Sums:
    """Return what running sums grew by from `start` to `end` (either None before a first match)."""
    first = start if start[0] is not None else _NONE
    last = end if end[0] is not None else _NONE
    return (last[0] - first[0], last[1] - first[1], last[2] - first[2], last[3] - first[3])


def season_table(user: User, game: str, season: SeasonSpan, zone: tzinfo, best_of: int | None) -> list[SeasonLine]:
    """Return a season's league table in `game`, its days in `zone`, counting each player's best
    `best_of` matches (None: every one). One query."""
    unplaced = []
    for player_id, name, *start, rated_before, f, w, sh, p, rated_after in _sums(user, game, season.bounds(zone), True):
        before = rated_before if rated_before is not None else NEW_RATING
        change = None if rated_after is None else rated_after - before
        unplaced.append((player_id, name, _between(tuple(start), (f, w, sh, p)), change))
    return _placed(replace(season.points, best_of=best_of), unplaced)


_seasons = Season.__table__
#: The account's named seasons as plain rows (a list every player page asks for).
_NAMED = (
    select(
        _seasons.c.name,
        _seasons.c.starts_on,
        _seasons.c.ends_on,
        _seasons.c.win_points,
        _seasons.c.shared_points,
        _seasons.c.other_points,
        _seasons.c.best_of,
        _seasons.c.id,
    )
    .where(_seasons.c.user_id == bindparam("user_id"))
    .order_by(_seasons.c.starts_on.desc(), _seasons.c.id.desc())
)


def named_seasons(user: User) -> list[SeasonSpan]:
    """Return the seasons the account named, the latest to begin first."""
    return [
        SeasonSpan(row.name, row.starts_on, row.ends_on, LeaguePoints(*row[3:7]), row.id)
        for row in db.session.connection().execute(_NAMED, {"user_id": user.id})
    ]


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


_ENDS_OF_ANY = union_all(*_ENDS.values())


def years_played(user: User, zone: tzinfo, game: str | None = None) -> list[int]:
    """Return the calendar years (in `zone`) from the account's first finished match to its last
    (of `game`, or of any game), the latest first; none before the first match."""
    statement = _ENDS_OF_ANY if game is None else _ENDS[game]
    return _years(db.session.connection().execute(statement, {"user_id": user.id}), zone)


def _years(ends: Any, zone: tzinfo) -> list[int]:
    """Return the calendar years (in `zone`) from the first of (first, last) moments to the last, the latest first."""
    found = [(first, last) for first, last in ends if first is not None and last is not None]
    if not found:
        return []
    first, last = min(first for first, _last in found), max(last for _first, last in found)
    return list(range(last.astimezone(zone).year, first.astimezone(zone).year - 1, -1))


def _player_end(ordered: Any) -> Any:
    return (
        select(_results.c.played_at)
        .where(
            _results.c.player_id == bindparam("player_id"),
            _results.c.game == bindparam("game"),
            _results.c.status == FINISHED,
        )
        .order_by(ordered)
        .limit(fixed_limit(1))
        .scalar_subquery()
    )


#: A player's first and last finished match of a game: a step to each end of their running index.
_PLAYER_ENDS = select(_player_end(_results.c.played_at.asc()), _player_end(_results.c.played_at.desc()))


#: How many finished matches of each game ended between two moments: a count along the index of the
#: account's finished matches of each game by their end, game by game.
_GAME_COUNTS = union_all(
    *[
        select(literal(game).label("game"), func.count().label("matches")).where(
            Match.user_id == bindparam("user_id"),
            Match.game == game,
            Match.status == FINISHED,
            Match.ended_at >= bindparam("since"),
            Match.ended_at < bindparam("until"),
        )
        for game in GAMES
    ]
)


def games_of_season(user: User, season: SeasonSpan, zone: tzinfo) -> list[tuple[str, int]]:
    """Return the games finished in a season with how many matches of each, the most played first."""
    since, until = season.bounds(zone)
    counted = db.session.connection().execute(_GAME_COUNTS, {"user_id": user.id, "since": since, "until": until})
    return sorted(((game, count) for game, count in counted if count), key=lambda pair: (-pair[1], pair[0]))


def seasons_placed(user: User, player: Player, game: str, zone: tzinfo, today: date) -> list[SeasonSpan]:
    """Return the seasons of `game` a player's page places them in: the calendar year of their last
    match of it and the PLACES_YEARS - 1 before, and the named seasons that have begun and end in
    those years, the latest to end first, at most PLACES_SHOWN.

    Two queries: the years they played, and the named seasons. Bounding the seasons bounds what
    placing them costs: a player of ten years is placed in as many seasons as one of two.
    """
    ends = db.session.connection().execute(_PLAYER_ENDS, {"player_id": player.id, "game": game})
    years = _years(ends, zone)[:PLACES_YEARS]
    if not years:
        return []
    spans = [calendar_year(year) for year in years]
    spans += [
        span for span in named_seasons(user) if span.has_begun(today) and years[-1] <= span.ends_on.year <= years[0]
    ]
    spans.sort(key=lambda span: (span.ends_on, span.season_id or 0), reverse=True)
    return spans[:PLACES_SHOWN]


def standings_figure(game: str, span: SeasonSpan) -> str:
    """Return the name a season's standings in `game` are kept under (`YearReview.figure`): the game,
    the season's days and its league points, so that a season named again with other days or points
    is placed again."""
    points = span.points
    return f"{game} {span.starts_on} {span.ends_on} {points.win} {points.shared} {points.other} {points.best_of or 0}"


def standings(user: User, game: str, spans: Sequence[SeasonSpan], zone: tzinfo) -> list[dict[str, Any]]:
    """Return each season's standings in `game`, its days in `zone`, as a document of plain values:
    {"of": how many players are placed, "placed": {player id (as text, as JSON keeps it): [place,
    league points, matches played]}}.

    One query for every season: every player's running sums at each season's bounds. Placed as
    `season_table` places them, without laying the table out: by league points, then wins, then
    points scored, those equal on all three sharing a place.
    """
    moments = sorted({moment for span in spans for moment in span.bounds(zone)})
    index = {moment: at for at, moment in enumerate(moments)}
    rows = [(row[0], row[1:]) for row in _sums(user, game, moments, False)] if moments else []
    documents = []
    for span in spans:
        since, until = (4 * index[moment] for moment in span.bounds(zone))
        ranked = []
        for player_id, sums in rows:
            played, won, shared, scored = _between(sums[since : since + 4], sums[until : until + 4])
            if played > 0:
                league = span.points.of(won, shared, played)[0]
                ranked.append(((league, won, scored), player_id, played))
        ranked.sort(reverse=True)
        placed: dict[str, list[int]] = {}
        place, previous = 0, None
        for at, (standing, player_id, played) in enumerate(ranked):
            if standing != previous:
                place, previous = at + 1, standing
            placed[str(player_id)] = [place, standing[0], played]
        documents.append({"of": len(ranked), "placed": placed})
    return documents


@dataclass(frozen=True)
class SeasonPlace:
    """A player's place in one season of a game: out of how many players, with their league points."""

    season: SeasonSpan
    place: int
    of: int
    points: int
    played: int


def place_in(span: SeasonSpan, standings: dict[str, Any], player_id: int) -> SeasonPlace | None:
    """Return the player's place in a season's `standings`, or None if they are not placed in it."""
    line = standings["placed"].get(str(player_id))
    if line is None:
        return None
    place, points, played = line
    return SeasonPlace(span, place, standings["of"], points, played)
