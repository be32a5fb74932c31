"""The year at the table: what an account's table, or one of its players, did in a calendar year.

Worked out from the results and the deals of the year (a few queries over it: the year's size),
as a plain document of numbers and player ids that `services.years` keeps in `YearReview` until
a change makes it stale, so that a year is read whole once and then in one step. The names are
not in it: a player renamed since is named as they are now (`player_names`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, datetime, tzinfo
from typing import Any

from sqlalchemy import Integer, Select, and_, bindparam, case, func, select

from ..extensions import db
from ..models import FINISHED, Deal, Match, Player, PlayerResult, Seat, User
from ..registry import GAMES
from ..season_rules import calendar_year, day_start
from .seasons import games_of_season, season_table

_results, _matches, _deals, _seats = PlayerResult.__table__, Match.__table__, Deal.__table__, Seat.__table__
#: The whole table's year, as `YearReview.player_id` names it.
WHOLE_TABLE = 0


def _rows(statement: Any, values: dict[str, Any]) -> Any:
    """Return a statement's rows as plain rows on the session's connection (a year's thousands of
    results: the ORM's row machinery would cost more than the queries)."""
    return db.session.connection().execute(statement, values)


def year_bounds(year: int, zone: tzinfo) -> tuple[datetime, datetime]:
    """Return the first moment of the year and the first after it, in UTC, its days in `zone`."""
    return day_start(date(year, 1, 1), zone), day_start(date(year + 1, 1, 1), zone)


def _in_year(column: Any) -> Any:
    return and_(column >= bindparam("since"), column < bindparam("until"))


def _year_results(player_id: int, *columns: Any) -> Select[Any]:
    """Return a query of the account's results played in the year (of one player, unless WHOLE_TABLE)."""
    statement = select(*columns).where(_results.c.user_id == bindparam("user_id"), _in_year(_results.c.played_at))
    return statement.where(_results.c.player_id == player_id) if player_id != WHOLE_TABLE else statement


def _matches_played(
    user: User, year: int, zone: tzinfo, player_id: int, values: dict[str, Any]
) -> dict[str, list[int]]:
    """Return the finished matches of each game in the year, and how many the player won: {game: [played, won]}
    (the whole table's: each game's matches, counted along the index of their ends)."""
    if player_id == WHOLE_TABLE:
        return {game: [count, count] for game, count in games_of_season(user, calendar_year(year), zone)}
    statement = _year_results(player_id, _results.c.game, func.count(), func.sum(_results.c.won.cast(Integer)))
    rows = _rows(statement.where(_results.c.status == FINISHED).group_by(_results.c.game), values)
    return {game: [int(played), int(won or 0)] for game, played, won in rows}


def _time_at_table(player_id: int, values: dict[str, Any]) -> tuple[int, int]:
    """Return the nights that began in the year (their first match did) with a deal entered, and the
    seconds from each night's first deal to its last, summed (a player's: those of their matches).

    Each match's first and last deal are one step each down the index of its deals by time."""
    night = _matches.alias("night")
    first_deal, last_deal = (
        select(ordered(_deals.c.created_at))
        .where(_deals.c.match_id == _matches.c.id)
        .correlate(_matches)
        .scalar_subquery()
        for ordered in (func.min, func.max)
    )
    matches = (
        select(_matches.c.night_id, first_deal.label("first"), last_deal.label("last"))
        .join(night, night.c.id == _matches.c.night_id)
        # The account named on both sides: each night's matches are then one seek down (user_id, night_id).
        .where(
            night.c.user_id == bindparam("user_id"),
            _matches.c.user_id == bindparam("user_id"),
            _in_year(night.c.created_at),
        )
    )
    if player_id != WHOLE_TABLE:
        sat = select(_seats.c.match_id).where(_seats.c.player_id == player_id)
        matches = matches.where(_matches.c.id.in_(sat))
    spans = matches.subquery()
    nights = (
        select(func.min(spans.c.first), func.max(spans.c.last))
        .where(spans.c.first.is_not(None))
        .group_by(spans.c.night_id)
    )
    count = seconds = 0
    for first, last in _rows(nights, values):
        count += 1
        seconds += int((last - first).total_seconds())
    return count, seconds


def _longest_streak(player_id: int, values: dict[str, Any]) -> dict[str, Any] | None:
    """Return the year's longest run of wins in a row by one player in one game (the first to reach
    it, on a tie): its player, game, length and the ends of its first and last match."""
    ordered = _year_results(
        player_id, _results.c.player_id, _results.c.game, _results.c.won, _results.c.played_at
    ).where(_results.c.status == FINISHED)
    ordered = ordered.order_by(_results.c.player_id, _results.c.game, _results.c.played_at, _results.c.match_id)
    best: dict[str, Any] | None = None
    run, run_of, started = 0, None, None
    for player, game, won, played_at in _rows(ordered, values):
        if (player, game) != run_of:
            run, run_of = 0, (player, game)
        if not won:
            run = 0
            continue
        run += 1
        if run == 1:
            started = played_at
        if best is None or run > best["length"] or (run == best["length"] and played_at < _moment(best["to"])):
            best = {"player_id": player, "game": game, "length": run, "from": _iso(started), "to": _iso(played_at)}
    return best


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def _moment(text: str) -> datetime:
    return datetime.fromisoformat(text)


def _most_sung(player_id: int, values: dict[str, Any]) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """Return who sang the most cantes in the year (with their twenties and forties) and who sang the
    most tutes, counted over every match of the year (ties: the first by player id)."""
    sums = _year_results(
        player_id,
        _results.c.player_id,
        *(
            func.sum(func.coalesce(_results.c.tallies[name].as_integer(), 0))
            for name in ("cantes_20", "cantes_40", "tutes")
        ),
    ).group_by(_results.c.player_id)
    rows = [
        (player, int(twenties or 0), int(forties or 0), int(tutes or 0))
        for player, twenties, forties, tutes in _rows(sums, values)
    ]
    cantes = max(rows, key=lambda row: (row[1] + row[2], -row[0]), default=None)
    tutes = max(rows, key=lambda row: (row[3], -row[0]), default=None)
    return (
        None
        if cantes is None or cantes[1] + cantes[2] == 0
        else {"player_id": cantes[0], "twenties": cantes[1], "forties": cantes[2]},
        None if tutes is None or tutes[3] == 0 else {"player_id": tutes[0], "tutes": tutes[3]},
    )


#: A side has at most this many players: the rows of a match's winning side come together within it.
_SIDE_ROOM = 8


def _biggest_comeback(player_id: int, values: dict[str, Any]) -> dict[str, Any] | None:
    """Return the year's largest deficit turned into a win (the first to end, on a tie): its match,
    game, the points behind, and the players of the side that won. One query: the won results by
    comeback, the first match's side's rows together."""
    best = (
        _year_results(
            player_id, _results.c.match_id, _results.c.game, _results.c.comeback, _results.c.side, _results.c.player_id
        )
        .where(_results.c.status == FINISHED, _results.c.comeback > 0)
        .order_by(
            _results.c.comeback.desc(), _results.c.played_at, _results.c.match_id, _results.c.side, _results.c.seat
        )
        .limit(_SIDE_ROOM)
    )
    rows = list(_rows(best, values))
    if not rows:
        return None
    match_id, game, deficit, side, _player = rows[0]
    if player_id == WHOLE_TABLE:
        players = [row.player_id for row in rows if (row.match_id, row.side) == (match_id, side)]
    else:  # the player's own comeback: their partners are named from the match's side
        partners = select(_results.c.player_id).where(_results.c.match_id == match_id, _results.c.side == side)
        players = [row[0] for row in _rows(partners.order_by(_results.c.seat), {})]
    return {"match_id": match_id, "game": game, "deficit": deficit, "player_ids": players}


def _pairs(player_id: int, values: dict[str, Any]) -> list[tuple[int, int, int, int, int, int, int]]:
    """Return each two players' finished matches of the year together, lower id first (or the player
    first): (first id, second id, matches as partners, those won, matches as opponents, the first's
    wins in them, the second's). One pass over the year's pairs of results."""
    mine, theirs = _results.alias("mine"), _results.alias("theirs")
    partners, won = mine.c.side == theirs.c.side, mine.c.won.cast(Integer)
    statement = (
        select(
            mine.c.player_id,
            theirs.c.player_id,
            func.sum(partners.cast(Integer)),
            func.sum(case((partners, won), else_=0)),
            func.sum(case((partners, 0), else_=1)),
            func.sum(case((partners, 0), else_=won)),
            func.sum(case((partners, 0), else_=theirs.c.won.cast(Integer))),
        )
        .join(theirs, and_(theirs.c.match_id == mine.c.match_id, theirs.c.player_id != mine.c.player_id))
        .where(mine.c.user_id == bindparam("user_id"), mine.c.status == FINISHED, _in_year(mine.c.played_at))
        .group_by(mine.c.player_id, theirs.c.player_id)
    )
    if player_id != WHOLE_TABLE:
        statement = statement.where(mine.c.player_id == player_id)
    else:
        statement = statement.where(mine.c.player_id < theirs.c.player_id)
    return [(a, b, *(int(n or 0) for n in counts)) for a, b, *counts in _rows(statement, values)]


def _best_pair(pairs: list[tuple[int, int, int, int, int, int, int]]) -> dict[str, Any] | None:
    """Return the two partners who won the most matches together in the year (then in fewest matches)."""
    won = [pair for pair in pairs if pair[3] > 0]
    best = max(won, key=lambda pair: (pair[3], -pair[2], -pair[0], -pair[1]), default=None)
    return None if best is None else {"player_ids": [best[0], best[1]], "together": best[2], "won": best[3]}


def _top_rivalry(pairs: list[tuple[int, int, int, int, int, int, int]]) -> dict[str, Any] | None:
    """Return the two players who met most often in the year on opposite sides, with each one's wins."""
    met = [pair for pair in pairs if pair[4] > 0]
    top = max(met, key=lambda pair: (pair[4], -pair[0], -pair[1]), default=None)
    return None if top is None else {"player_ids": [top[0], top[1]], "met": top[4], "wins": [top[5], top[6]]}


def _champions(user: User, year: int, zone: tzinfo, games: Iterable[str], player_id: int) -> list[dict[str, Any]]:
    """Return each game's year table's leaders (the season of the calendar year, `figures.seasons`),
    or, for a player, their place in each game they finished a match of: the most played first.

    Every game's table is read, played or not: a year is worked out in as many queries whatever
    was played in it."""
    tables = {game: season_table(user, game, calendar_year(year), zone, None) for game in GAMES}
    found = []
    for game in games:
        lines = tables[game]
        if player_id == WHOLE_TABLE:
            leaders = [line for line in lines if line.place == 1]
            found.append(
                {
                    "game": game,
                    "player_ids": [line.player_id for line in leaders],
                    "points": leaders[0].points if leaders else 0,
                }
            )
        else:
            for line in lines:
                if line.player_id == player_id:
                    found.append({"game": game, "place": line.place, "of": len(lines), "points": line.points})
    return found


def work_out_year(user: User, year: int, zone: tzinfo, player_id: int = WHOLE_TABLE) -> dict[str, Any]:
    """Return the year at the table of the account (or of the player `player_id`), its days in `zone`,
    as a document of plain values (`YearReview.review`)."""
    since, until = year_bounds(year, zone)
    values = {"user_id": user.id, "since": since, "until": until}
    played = _matches_played(user, year, zone, player_id, values)
    nights, seconds = _time_at_table(player_id, values)
    cantes, tutes = _most_sung(player_id, values)
    pairs = _pairs(player_id, values)
    games = sorted(played, key=lambda game: (-played[game][0], game))
    return {
        "matches": {game: played[game][0] for game in games},
        "won": {game: played[game][1] for game in games},
        "nights": nights,
        "seconds": seconds,
        "champions": _champions(user, year, zone, games, player_id),
        "streak": _longest_streak(player_id, values),
        "cantes": cantes,
        "tutes": tutes,
        "comeback": _biggest_comeback(player_id, values),
        "pair": _best_pair(pairs),
        "rivalry": _top_rivalry(pairs),
    }


def named_ids(review: dict[str, Any]) -> set[int]:
    """Return the ids of every player a year's review names."""
    ids: set[int] = set()
    for champion in review["champions"]:
        ids.update(champion.get("player_ids", ()))
    for key in ("streak", "cantes", "tutes"):
        if review[key] is not None:
            ids.add(review[key]["player_id"])
    for key in ("comeback", "pair", "rivalry"):
        if review[key] is not None:
            ids.update(review[key]["player_ids"])
    return ids


def player_names(user: User, ids: Sequence[int] | set[int]) -> dict[int, str]:
    """Return the account's players of these ids by id, with their names as they are now."""
    rows = _rows(select(Player.id, Player.name).where(Player.user_id == user.id, Player.id.in_(sorted(ids))), {})
    return {player_id: name for player_id, name in rows}
