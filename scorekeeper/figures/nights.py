"""Game nights: which matches were played in one sitting, and the reads of the nights' pages.

A match belongs to the night of the match before it when it started less than the account's
gap (4 hours unless the account says otherwise) after that night's last deal so far: the
latest last deal of every earlier match of the night, a match without deals ending where it
began. Matches played side by side therefore share their night, and a night that runs past
midnight keeps the day it began.

A match's night depends on every match that started before it, so it is not worked out at
read time: each match keeps `night_id`, the id of the first match of its night, written by
the services whenever a start, a deal, an undo, a deletion, an import or the account's gap
can move it (`figures.upkeep.regroup_nights`) and rebuilt by `recompute`. The nights are
then the matches whose `night_id` is their own id, so a page of nights is an indexed page of
matches, and reading it takes the same few queries for 10 nights as for 500.

This module is the read side: the grouping itself (pure), and the SQL the pages read.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from typing import Any, NamedTuple

from sqlalchemy import ARRAY, BindParameter, Integer, Row, Select, any_, bindparam, func, select

from ..errors import NotFound
from ..extensions import db
from ..i18n import gettext
from ..models import MAX_ID, NIGHT_GAP_HOURS, Deal, Match, Player, PlayerResult, Seat, User
from ..reads.paging import Page

#: The gaps an account may choose, in hours (kept beside the accounts' table, which every layer reads).
GAP_HOURS = NIGHT_GAP_HOURS
#: Nights per page (and in the API, unless it asks for another size).
PAGE_SIZE = 10

#: A match as the grouping sees it: id, start, and its last deal (None without deals).
Timed = tuple[int, datetime, datetime | None]


@dataclass
class OpenNight:
    """The night being filled as matches are read in the order they started."""

    night_id: int
    ends: datetime


def group_nights(matches: Iterable[Timed], gap: timedelta, night: OpenNight | None = None) -> dict[int, int]:
    """Return each match's night (the id of its night's first match), for matches in the order they started.

    `night` is the night open before the first of them, when they continue an account's history.
    """
    found: dict[int, int] = {}
    for match_id, started, last_deal in matches:
        ends = started if last_deal is None else max(started, last_deal)
        if night is None or started >= night.ends + gap:
            night = OpenNight(match_id, ends)
        else:
            night.ends = max(night.ends, ends)
        found[match_id] = night.night_id
    return found


def last_deal_at() -> Select[datetime]:
    """Return the time of a match's latest deal, correlated with `Match` (one index range per match)."""
    deals, matches = Deal.__table__, Match.__table__
    return select(func.max(deals.c.created_at)).where(deals.c.match_id == matches.c.id).correlate(matches)


# ---------------------------------------------------------------- reads for the pages and the API


class Seated(NamedTuple):
    """What one player did in one match of a night, from the derived results (a tuple: a page of
    nights reads a hundred of them, and a tuple is the quickest of Python's records to make)."""

    match_id: int
    player_id: int
    name: str
    side: int
    won: bool
    total: int
    juegos: int | None


#: The nights' pages change nothing: their statements are plain SQL on the tables, run on the
#: session's connection. Through the ORM's columns and the session, each statement did more
#: work, and a night's matches came as objects, which took more than reading them.
_matches, _deals, _results, _players = (model.__table__ for model in (Match, Deal, PlayerResult, Player))
#: What a page of nights reads of each match (its summary reads nothing else), without the rest of the match.
PLAYED_COLUMNS = tuple(
    _matches.c[name] for name in ("id", "game", "options", "status", "note", "night_id", "created_at")
)
#: A match as the nights read it: a row of its `PLAYED_COLUMNS` (with `result` on a night's own page).
MatchRow = Row[Any]


@dataclass(frozen=True)
class NightRows:
    """What a night's summary is made of: its matches in order, each one's results, last deal and deal count.

    The matches are rows of their `PLAYED_COLUMNS`, with their cached `result` too for a night's own page.
    """

    first: MatchRow
    matches: list[MatchRow]
    seats: list[Seated]
    ends: dict[int, datetime]
    deals: dict[int, int]

    def names(self, match_id: int) -> list[str]:
        """Return the players of a match in seat order (the results are read in seat order)."""
        return [seat.name for seat in self.seats if seat.match_id == match_id]


@cache
def _night_list_statements(of_a_player: bool) -> tuple[Select[int], Select[int]]:
    """Return the count of the account's nights (optionally those a player played) and the ids of
    a page of them, newest first, built once rather than on every request. The account, the
    player and the page are bound when they run."""
    account: BindParameter[int] = bindparam("user_id")
    matches, seats = _matches.c, Seat.__table__.c
    # `created_at IS NOT NULL` is always true: it points SQLite's planner, which keeps no table
    # statistics here, to the nights' own index, where it would count on the index of every
    # match's night instead, which has an entry for every match rather than for every night.
    conditions: list[Any] = [
        matches.user_id == account,
        matches.night_id == matches.id,
        matches.created_at.is_not(None),
    ]
    if of_a_player:
        played = (
            select(matches.night_id)
            .join_from(_matches, Seat.__table__, seats.match_id == matches.id)
            .where(matches.user_id == account, seats.player_id == bindparam("player_id"))
        )
        conditions.append(matches.id.in_(played))
    # Counted on the index of the nights alone: the rows themselves are never read.
    return (
        select(func.count()).select_from(_matches).where(*conditions),
        select(matches.id)
        .where(*conditions)
        .order_by(matches.created_at.desc(), matches.id.desc())
        .limit(bindparam("limit"))
        .offset(bindparam("offset")),
    )


def nights_on_page(user: User, page: int, per_page: int = PAGE_SIZE, player_id: int | None = None) -> Page:
    """Return one page of the account's nights, newest first (optionally those `player_id` played),
    each as its `NightRows`; two queries whatever the history's length."""
    per_page = max(1, min(per_page, 100))
    page = max(1, min(page, MAX_ID // per_page))
    of_a_player = player_id is not None and 0 < player_id <= MAX_ID
    values = {"user_id": user.id, "player_id": player_id, "limit": per_page, "offset": (page - 1) * per_page}
    connection = db.session.connection()
    # Fetched whole (`all()`): iterating a result asks SQLite's cursor for one row at a time.
    read = connection.execute(_night_page_statement(of_a_player), values).all()
    # The count comes with every match read; a page past the last (or emptied meanwhile) asks for it alone.
    total = read[0].nights if read else connection.execute(_night_list_statements(of_a_player)[0], values).scalar()
    rows = _rows_read(read)
    rows.sort(key=lambda night: (night.first.created_at, night.first.id), reverse=True)
    return Page(items=rows, page=page, per_page=per_page, total=total or 0)


def night_for(user: User, night_id: int) -> NightRows:
    """Return the account's night with this id (its first match's) with its matches and their cached
    results, or raise NotFound (also for another account's night, or a match that does not begin a night)."""
    connection = db.session.connection()
    statements = _night_statements()
    found = connection.execute(statements["night"], {"night_id": night_id}).first() if 0 < night_id <= MAX_ID else None
    if found is None or found.user_id != user.id or found.night_id != night_id:
        raise NotFound(gettext("There is no such night."))
    # The first match is read with the others, with their cached results.
    rows = _rows_read(connection.execute(statements["with results"], {"user_id": user.id, "nights": [night_id]}).all())
    if not rows:  # deleted by another phone meanwhile
        raise NotFound(gettext("There is no such night."))
    return rows[0]


@cache
def _night_statements() -> dict[str, Any]:
    """Return the statements that read nights' matches, built once: their lists of ids are bound
    when they run (building a statement around each list cost more than running it).

    Each match is read with its deal count and last deal in the same statement, so that on
    PostgreSQL, where every statement reads what was committed when it began, the count agrees
    with the cached result beside it even while another phone enters a deal.
    """
    matches, deals_of = _matches.c, _deals.c
    chosen = (matches.user_id == bindparam("user_id"), matches.night_id.in_(bindparam("nights", expanding=True)))
    deals = (
        select(func.count())
        .where(deals_of.match_id == matches.id)
        .correlate(_matches)
        .scalar_subquery()
        .label("deals"),
        last_deal_at().scalar_subquery().label("ends"),
    )
    return {
        "night": select(matches.user_id, matches.night_id).where(matches.id == bindparam("night_id")),
        "with results": select(*PLAYED_COLUMNS, matches.result, *deals).where(*chosen),
        "deals": deals,
    }


@cache
def _seats_statement(dialect: str) -> Select[int, int, str, int, bool, int, int | None]:
    """Return the statement that reads the results of matches given by id, built once for each database.

    On PostgreSQL the ids travel as one array rather than one parameter each: a night's matches
    grow through the evening, and each new count of them would make a statement of its own,
    which PostgreSQL would plan anew at every view instead of keeping one plan. SQLite has no
    arrays, and keeps no plans between statements: there the ids are one parameter each.
    """
    results = _results.c
    ids = (
        results.match_id == any_(bindparam("ids", type_=ARRAY(Integer)))
        if dialect == "postgresql"
        else results.match_id.in_(bindparam("ids", expanding=True))
    )
    return (
        select(
            results.match_id,
            results.player_id,
            _players.c.name,
            results.side,
            results.won,
            results.total,
            results.juegos,
        )
        .join_from(_results, _players, _players.c.id == results.player_id)
        .where(ids)
        .order_by(results.match_id, results.seat)
    )


@cache
def _night_page_statement(of_a_player: bool) -> Select[Any]:
    """Return the statement that reads a page of nights whole, built once: the `PLAYED_COLUMNS` of
    every match of the page's nights (chosen as `_night_list_statements` pages them), each with its
    deal count and last deal, and the count of all the nights beside each. One statement, not
    three: on PostgreSQL each one waits for its round trip, which cost as much as its work here."""
    count, firsts = _night_list_statements(of_a_player)
    deals = _night_statements()["deals"]
    return select(*PLAYED_COLUMNS, *deals, count.scalar_subquery().label("nights")).where(
        _matches.c.user_id == bindparam("user_id"), _matches.c.night_id.in_(firsts.scalar_subquery())
    )


def _rows_read(read: Iterable[Any]) -> list[NightRows]:
    """Gather the nights' matches just read (each with its deal count and last deal) with their
    results, read in one more query; a night or a match deleted meanwhile is left out.

    The players' names come from the results, in seat order, so no match's seats are read; nor
    are its deals: a night's page shows the totals its cached result keeps, whose deal count
    the count read beside it checks.
    """
    counted = list(read)
    if not counted:
        return []
    deals = {row.id: row.deals for row in counted}
    ends = {row.id: row.ends for row in counted if row.ends is not None}
    connection = db.session.connection()
    statement = _seats_statement(connection.dialect.name)
    seats = [Seated(*row) for row in connection.execute(statement, {"ids": list(deals)}).all()]
    # A match deleted by another phone after the first read has no results left: it is left out.
    seated = {seat.match_id for seat in seats}
    # Sorted here, not in SQL: an ORDER BY on the start would have the database walk the account's
    # matches by start rather than look the nights' matches up by night.
    matches = sorted((row for row in counted if row.id in seated), key=lambda match: (match.created_at, match.id))
    by_night: dict[int, list[MatchRow]] = {}
    seats_of: dict[int, list[Seated]] = {}
    night_of = {match.id: match.night_id or match.id for match in matches}
    for match in matches:
        by_night.setdefault(night_of[match.id], []).append(match)
    for seat in seats:
        seats_of.setdefault(night_of[seat.match_id], []).append(seat)
    found = []
    for night_id, night in by_night.items():
        first = next((match for match in night if match.id == night_id), None)
        if first is not None:  # else deleted by another phone between the reads
            found.append(
                NightRows(first=first, matches=night, seats=seats_of.get(night_id, []), ends=ends, deals=deals)
            )
    return found
