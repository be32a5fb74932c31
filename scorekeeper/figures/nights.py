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
from functools import cache
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from sqlalchemy import ARRAY, BindParameter, Integer, Select, any_, bindparam, func, select
from sqlalchemy.orm import raiseload

from ..errors import NotFound
from ..extensions import db
from ..i18n import gettext
from ..models import MAX_ID, Deal, Match, Player, PlayerResult, Seat, User
from ..paging import Page

#: The gaps an account may choose, in hours, and the one it starts with.
GAP_HOURS = range(1, 13)
DEFAULT_GAP_HOURS = 4
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
    return select(func.max(Deal.created_at)).where(Deal.match_id == Match.id).correlate(Match)


# ---------------------------------------------------------------- reads for the pages and the API


class Seated(NamedTuple):
    """What one player did in one match of a night, from the derived results (a tuple: a page of
    nights reads a hundred of them, which a frozen dataclass took three times as long to make)."""

    match_id: int
    player_id: int
    name: str
    side: int
    won: bool
    total: int
    juegos: int | None


#: What a page of nights reads of each match (its summary reads nothing else), without the rest of the match.
PLAYED_COLUMNS = (Match.id, Match.game, Match.options, Match.status, Match.note, Match.night_id, Match.created_at)


@dataclass(frozen=True)
class NightRows:
    """What a night's summary is made of: its matches in order, each one's results, last deal and deal count.

    The matches are whole (`Match`) for a night's own page, and only their `PLAYED_COLUMNS` in a page of nights.
    """

    first: Any
    matches: list[Any]
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
    conditions: list[Any] = [Match.user_id == account, Match.night_id == Match.id]
    if of_a_player:
        played = (select(Match.night_id).join(Seat, Seat.match_id == Match.id)
                  .where(Match.user_id == account, Seat.player_id == bindparam("player_id")))
        conditions.append(Match.id.in_(played))
    # Counted on the index of the nights alone: the rows themselves are never read.
    return (select(func.count()).select_from(Match).where(*conditions),
            select(Match.id).where(*conditions).order_by(Match.created_at.desc(), Match.id.desc())
            .limit(bindparam("limit")).offset(bindparam("offset")))


def night_page(user: User, page: int, per_page: int = PAGE_SIZE, player_id: int | None = None) -> Page:
    """Return one page of the account's nights, newest first (optionally those `player_id` played),
    each as its `NightRows`; two queries whatever the history's length."""
    per_page = max(1, min(per_page, 100))
    page = max(1, min(page, MAX_ID // per_page))
    of_a_player = player_id is not None and 0 < player_id <= MAX_ID
    values = {"user_id": user.id, "player_id": player_id, "limit": per_page, "offset": (page - 1) * per_page}
    read = list(db.session.execute(_night_page_statement(of_a_player), values))
    # The count comes with every match read; a page past the last (or emptied meanwhile) asks for it alone.
    total = read[0].nights if read else db.session.scalar(_night_list_statements(of_a_player)[0], values) or 0
    rows = _rows_read(read, with_results=False)
    rows.sort(key=lambda night: (night.first.created_at, night.first.id), reverse=True)
    return Page(items=rows, page=page, per_page=per_page, total=total)


def night_for(user: User, night_id: int) -> NightRows:
    """Return the account's night with this id (its first match's) with its matches and their cached
    results, or raise NotFound (also for another account's night, or a match that does not begin a night)."""
    found = db.session.execute(select(Match.user_id, Match.night_id).where(Match.id == night_id)).first() \
        if 0 < night_id <= MAX_ID else None
    if found is None or found.user_id != user.id or found.night_id != night_id:
        raise NotFound(gettext("There is no such night."))
    # The first match is read with the others, as whole as they are.
    read = db.session.execute(_night_statements()["whole"], {"user_id": user.id, "nights": [night_id]})
    rows = _rows_read(read, with_results=True)
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
    chosen = (Match.user_id == bindparam("user_id"), Match.night_id.in_(bindparam("nights", expanding=True)))
    deals = (select(func.count()).where(Deal.match_id == Match.id).correlate(Match).scalar_subquery().label("deals"),
             last_deal_at().scalar_subquery().label("ends"))
    return {"whole": select(Match, *deals).where(*chosen).options(raiseload(Match.seats)), "deals": deals}


@cache
def _seats_statement(dialect: str) -> Select[int, int, str, int, bool, int, int | None]:
    """Return the statement that reads the results of matches given by id, built once for each database.

    On PostgreSQL the ids travel as one array rather than one parameter each: a night's matches
    grow through the evening, and each new count of them made a statement of its own, which
    PostgreSQL planned anew at every view (a third of a millisecond of the nights' page).
    """
    ids = (PlayerResult.match_id == any_(bindparam("ids", type_=ARRAY(Integer))) if dialect == "postgresql"
           else PlayerResult.match_id.in_(bindparam("ids", expanding=True)))
    return (select(PlayerResult.match_id, PlayerResult.player_id, Player.name, PlayerResult.side,
                   PlayerResult.won, PlayerResult.total, PlayerResult.juegos)
            .join(Player, Player.id == PlayerResult.player_id).where(ids)
            .order_by(PlayerResult.match_id, PlayerResult.seat))


@cache
def _night_page_statement(of_a_player: bool) -> Select[Any]:
    """Return the statement that reads a page of nights whole, built once: the `PLAYED_COLUMNS` of
    every match of the page's nights (chosen as `_night_list_statements` pages them), each with its
    deal count and last deal, and the count of all the nights beside each. One statement, not
    three: on PostgreSQL each one waits for its round trip, which cost as much as its work here."""
    count, firsts = _night_list_statements(of_a_player)
    deals = _night_statements()["deals"]
    return select(*PLAYED_COLUMNS, *deals, count.scalar_subquery().label("nights")).where(
        Match.user_id == bindparam("user_id"), Match.night_id.in_(firsts.scalar_subquery()))


def _rows_read(read: Iterable[Any], with_results: bool) -> list[NightRows]:
    """Gather the nights' matches just read (each with its deal count and last deal) with their
    results, read in one more query; a night or a match deleted meanwhile is left out.

    The players' names come from the results, in seat order, so no match's seats are loaded; nor
    are its deals: a night's page shows the totals the cached result keeps (`with_results`, with
    whole matches), whose deal count the count read beside it checks. A page of nights reads only each
    match's `PLAYED_COLUMNS`: turning whole matches into objects cost more than the rest of its reads.
    """
    counted = [(row[0] if with_results else row, row.deals, row.ends) for row in read]
    if not counted:
        return []
    deals = {match.id: count for match, count, _ in counted}
    ends = {match.id: at for match, _, at in counted if at is not None}
    statement = _seats_statement(db.session.get_bind().dialect.name)
    seats = [Seated(*row) for row in db.session.execute(statement, {"ids": list(deals)})]
    # A match deleted by another phone after the first read has no results left: it is left out.
    seated = {seat.match_id for seat in seats}
    # Sorted here, not in SQL: an ORDER BY on the start would have the database walk the account's
    # matches by start rather than look the nights' matches up by night.
    matches = sorted((match for match, _, _ in counted if match.id in seated),
                     key=lambda match: (match.created_at, match.id))
    by_night: dict[int, list[Any]] = {}
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
            found.append(NightRows(first=first, matches=night, seats=seats_of.get(night_id, []), ends=ends,
                                   deals=deals))
    return found
