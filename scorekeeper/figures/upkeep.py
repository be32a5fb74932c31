"""The upkeep of the derived tables (each player's results, ratings, summaries and pair records), written
inside the transaction of the change to the facts they come from.

The write side of the figures: only the services call it, from inside their transaction.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from datetime import datetime, timedelta
from functools import cache
from typing import Any, cast

from sqlalchemy import CursorResult, Update, bindparam, case, delete, insert, select, update
from sqlalchemy.orm import make_transient_to_detached
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.exc import StaleDataError

from ..extensions import db
from ..models import (
    ABANDONED, FINISHED, PLAYING, Deal, Match, PlayerPair, PlayerRating, PlayerResult, PlayerSummary, User, utcnow,
)
from ..rules import MatchResult
from .aggregate import pair_rows, summary_rows
from .increments import at_or_after, before, latest_ratings, move_pairs, move_summaries, rate_latest
from .nights import group_nights, last_deal_at
from .rows import rating_rows, result_rows


def cache_result(match: Match, result: MatchResult) -> None:
    """Cache the engine's result on the match and move its status (and end) with it; no figures."""
    for name, value in _cached_values(match, result).items():
        setattr(match, name, value)


def _cached_values(match: Match, result: MatchResult) -> dict[str, Any]:
    """Return the match's columns that cache the engine's result: the result, and its status and end
    moved with it (an abandoned match stays so; one that was over and still is keeps its end)."""
    now = utcnow()
    status, ended_at = match.status, match.ended_at
    if status != ABANDONED:
        if not (status == FINISHED and result.finished):
            ended_at = now if result.finished else None
        status = FINISHED if result.finished else PLAYING
    return {"result": result.to_dict(), "updated_at": now, "status": status, "ended_at": ended_at}


def _append(match: Match, deal: Deal, result: MatchResult) -> int | None:
    """Store a deal added after the match's last one, and the result it makes, in two plain statements;
    return the id of a match of the account that started after this one, if there is one.

    They are the UPDATE (with the match's version check) and INSERT that a flush of the session
    would send, without the unit of work's own bookkeeping, which took a millisecond of every
    deal entered. The match and its deals are left as that flush would have left them. The
    UPDATE also answers, in its RETURNING, what `night_moved` would ask in a query of its own:
    one round trip fewer for every deal on a database over the network.
    """
    lock_figures(match.user_id)  # before the later match is looked for: see `night_moved`
    values = {**_cached_values(match, result), "pending": None, "version": match.version + 1}
    moves = any(values[name] != getattr(match, name) for name in _MOVED_BY_STATUS)
    # Only the columns the statement sets: SQLAlchemy would set any other column named here too.
    parameters = {name: value for name, value in values.items() if moves or name not in _MOVED_BY_STATUS}
    parameters.update({"at_id": match.id, "at_version": match.version, **_later_parameters(match)})
    returning = db.session.get_bind().dialect.update_returning
    statement = _update_match(moves, returning)
    if returning:
        updated = db.session.execute(statement, parameters).first()
        if updated is None:  # another phone changed the match since it was read
            raise StaleDataError(f"match {match.id} changed meanwhile")
        later = updated[0]
    else:  # SQLite before 3.35
        if cast(CursorResult[Any], db.session.execute(statement, parameters)).rowcount != 1:
            raise StaleDataError(f"match {match.id} changed meanwhile")
        later = db.session.scalar(_LATER_MATCH, parameters)
    for name, value in values.items():
        set_committed_value(match, name, value)
    deal.match_id, deal.created_at, deal.updated_at = match.id, values["updated_at"], values["updated_at"]
    # Its id as the driver gives it (no RETURNING, which SQLite before 3.35 lacks).
    key = cast(CursorResult[Any], db.session.execute(_INSERT_DEAL, {
        "match_id": deal.match_id, "number": deal.number, "data": deal.data, "created_at": deal.created_at,
        "updated_at": deal.updated_at, "entry_link_id": deal.entry_link_id})).inserted_primary_key
    if key is None:  # a driver that gives no id of an inserted row: none this app runs on
        raise RuntimeError("the database gave no id for the stored deal")
    deal.id = key[0]
    make_transient_to_detached(deal)  # as if loaded: in the session, with nothing left to write
    db.session.add(deal)
    set_committed_value(match, "deals", [*match.deals, deal])
    return cast(int | None, later)


#: A match of the account that started after the given one, if there is one. On an alias, so
#: that in the RETURNING of an UPDATE of matches it is a query of its own.
_later = Match.__table__.alias("later")
_LATER_MATCH = select(_later.c.id).where(
    _later.c.user_id == bindparam("of_user"), _later.c.id != bindparam("after_match"),
    at_or_after(_later.c.created_at, _later.c.id, bindparam("started"), bindparam("after_match"))).limit(1)


def _later_parameters(match: Match) -> dict[str, Any]:
    return {"of_user": match.user_id, "started": match.created_at, "after_match": match.id}


#: The match's columns that only a change of its status moves (a deal that finishes it).
_MOVED_BY_STATUS = ("status", "ended_at")


@cache
def _update_match(moves_status: bool, returning_later: bool) -> Update:
    """Return the match's UPDATE for a deal added, with its version check; built once for each kind.

    Its status and end are set only when they move (the deal that finishes the match): SQLite
    rewrites the entries of every index on a column an UPDATE sets, changed or not, and two
    indexes of the matches hold the status. On the table's columns: a plain SQL statement the
    session sends as it is. With `returning_later`, it answers whether a later match exists.
    """
    table = Match.__table__
    names = ("result", "updated_at", "pending", "version") + (_MOVED_BY_STATUS if moves_status else ())
    statement = (update(table).where(table.c.id == bindparam("at_id"), table.c.version == bindparam("at_version"))
                 .values({name: bindparam(name) for name in names}))
    return statement.returning(_LATER_MATCH.scalar_subquery()) if returning_later else statement


_INSERT_DEAL = insert(Deal.__table__)


def store_result(match: Match, result: MatchResult, appended: Deal | None = None) -> None:
    """Cache the engine's result on the match, move its status with it, and refresh the figures;
    with the deal just `appended` to the match's deals (not yet in its list), stored with them, and
    the nights of the matches started after this one grouped again (as `night_moved` does)."""
    status_before = match.status
    was_finished = status_before == FINISHED
    ended_before = match.ended_at if was_finished else None
    later: int | None = None
    if appended is None:
        cache_result(match, result)
    else:
        later = _append(match, appended, result)
    changed = was_finished or match.status == FINISHED
    # The summaries count matches by status and sum finished ones only: a deal of a match
    # still being played leaves them as they are.
    summarize = match.status != status_before or match.status == FINISHED
    refresh_figures(match, result, rerate_since=(ended_before or match.ended_at) if changed else None,
                    summarize=summarize, rows_exist=status_before is not None, status_before=status_before)
    if appended is not None:
        _regroup_if_later(match, later)


#: Where ratings are to be redone from: a finished match's end and id; None for all of them.
RatingKey = tuple[datetime, int]


def insert_rows(model: type[db.Model], rows: Sequence[Mapping[str, Any]]) -> None:  # type: ignore[name-defined]
    """Insert rows in one statement, as plain table rows: nothing in the change reads them back as
    objects (and so neither do these statements, nor the deletes beside them, touch the session's)."""
    if rows:
        db.session.execute(insert(model.__table__), list(rows))


#: The columns of a player's result that a change to the match's deals or status can move.
_RESULT_FIGURES = ("side", "status", "won", "played_at", "deals", "total", "juegos", "cantes_20", "cantes_40", "tutes",
                   "last_tricks", "exact_bids", "over_bids", "under_bids")


#: Those that a deal of a match being played before and after it can move: its side, status,
#: win and date stay as they are.
_DEAL_FIGURES = _RESULT_FIGURES[4:]
_results = PlayerResult.__table__


@cache
def _update_results(seats: int, figures: tuple[str, ...]) -> Update:
    """Return the UPDATE that rewrites these `figures` of a match's `seats` results in one statement.

    One statement, each column set by seat (CASE seat WHEN :seat_0 THEN :total_0 ...), rather than
    one UPDATE per seat: every deal entered rewrites them, and on a database over the network each
    statement is a round trip. Only the figures that can move are set: SQLite rewrites the entries
    of every index on a column an UPDATE sets, changed or not (a player's matches by date, for
    each seat). On the table's columns, not the model's: a plain SQL statement, which the session
    sends without looking for the rows among its objects (they are never read back as objects in
    a change).
    """
    column = _results.c
    return update(_results).where(column.match_id == bindparam("at_match")).values({
        name: case(*[(bindparam(f"seat_{index}"), bindparam(f"{name}_{index}", type_=column[name].type))
                     for index in range(seats)], value=column.seat, else_=column[name])
        for name in figures})


def _update_parameters(match_id: int, rows: Sequence[Mapping[str, Any]], figures: tuple[str, ...]) -> dict[str, Any]:
    """Return the parameters of `_update_results(len(rows), figures)` that write `rows`."""
    parameters: dict[str, Any] = {"at_match": match_id}
    for index, row in enumerate(rows):
        parameters[f"seat_{index}"] = row["seat"]
        parameters.update({f"{name}_{index}": row[name] for name in figures})
    return parameters


def refresh_figures(match: Match, result: MatchResult, rerate_since: datetime | None = None,
                    summarize: bool = False, rows_exist: bool | None = None,
                    status_before: str | None = FINISHED) -> None:
    """Rewrite the match's derived rows (inside the change's transaction).

    With `rerate_since` (when the match ended, or ended before this change), the ratings of
    its game are redone from there on: only this match when it is the latest to end. With
    `summarize`, its players' summaries in its game and their pair records are brought up to
    date. `rows_exist` says that the match has its rows already (its seats never change), so
    they are updated in place; False that it has none yet; None that any it has are replaced.
    `status_before` is the match's status before the change (None: a new match). Unless the
    match was over (or that is not known: the default), the summaries, pair records and
    ratings take this match's part alone (see `increments`); else, or when that cannot be
    exact, they are aggregated again.
    """
    db.session.flush()
    if rerate_since is not None or summarize:
        lock_figures(match.user_id)
    rows = result_rows(match, result)
    if rows_exist:
        figures = _DEAL_FIGURES if status_before == match.status == PLAYING else _RESULT_FIGURES
        db.session.execute(_update_results(len(rows), figures), _update_parameters(match.id, rows, figures))
    else:
        if rows_exist is None:
            db.session.execute(delete(PlayerResult.__table__).where(PlayerResult.match_id == match.id))
        insert_rows(PlayerResult, rows)
    step = status_before != FINISHED
    if rerate_since is not None and not (step and match.status == FINISHED and rate_latest(match)):
        rate_again(match.user_id, match.game, (rerate_since, match.id))
    if summarize:
        players = [seat.player_id for seat in match.seats]
        if not (step and move_summaries(match.user_id, match.game, status_before, rows)):
            sum_up(match.user_id, match.game, players)
        if step:
            move_pairs(match.user_id, status_before, rows)
        else:
            pair_up(match.user_id, players)


def lock_figures(user_id: int) -> None:
    """Make the account's changes that rebuild ratings, summaries and pair records wait for each other.

    Each of those is built from the account's other matches: two matches of the same players
    finishing at the same moment must not each rebuild them from a reading without the other
    (on PostgreSQL, under READ COMMITTED, the second would also re-insert rows the first just
    inserted). Locking the account's row serialises them, and every statement after the lock
    sees what the first one committed. FOR NO KEY UPDATE, because every insert of a derived
    row holds a KEY SHARE lock on it (its foreign key), which plain FOR UPDATE would wait for.
    A transaction locks once: the lock lasts until it ends. The changes of a match take it before
    they write anything (`services.matches`), since under the lock they also write other
    matches' rows (their nights): one order for all, or two phones could deadlock. SQLite
    writes one transaction at a time already (it has no row locks, and SQLAlchemy would send a
    plain SELECT): nothing is sent.
    """
    session = db.session()
    if session.get_bind().dialect.name == "sqlite":
        return
    held: tuple[object, set[int]] | None = session.info.get(_LOCKED)
    transaction = session.get_transaction()
    if transaction is not None and held is not None and held[0] is transaction and user_id in held[1]:
        return
    session.execute(_LOCK_ACCOUNT, {"user_id": user_id})
    transaction = session.get_transaction()  # begun by the statement, if it was not yet
    if held is None or held[0] is not transaction:
        held = session.info[_LOCKED] = (transaction, set())
    held[1].add(user_id)


#: Where the session notes the accounts its transaction has locked (with that transaction).
_LOCKED = "scorekeeper.figures_locked"
_users = User.__table__
_LOCK_ACCOUNT = select(_users.c.id).where(_users.c.id == bindparam("user_id")).with_for_update(key_share=True)


def sum_up(user_id: int, game: str, player_ids: Collection[int] | None = None) -> None:
    """Rebuild the summaries of these players (None: all the account's) in `game` from their results."""
    db.session.flush()
    stale = delete(PlayerSummary.__table__).where(PlayerSummary.user_id == user_id, PlayerSummary.game == game)
    if player_ids is None:
        player_ids = list(db.session.scalars(select(PlayerResult.player_id).distinct().where(
            PlayerResult.user_id == user_id, PlayerResult.game == game)))
    else:
        stale = stale.where(PlayerSummary.player_id.in_(player_ids))
    db.session.execute(stale)
    insert_rows(PlayerSummary, summary_rows(user_id, game, player_ids))


def pair_up(user_id: int, player_ids: Collection[int] | None = None) -> None:
    """Rebuild the records of the pairs among these players (None: all the account's) from their results."""
    db.session.flush()
    stale = delete(PlayerPair.__table__).where(PlayerPair.user_id == user_id)
    if player_ids is not None:
        stale = stale.where(PlayerPair.first_id.in_(player_ids), PlayerPair.second_id.in_(player_ids))
    db.session.execute(stale)
    insert_rows(PlayerPair, pair_rows(user_id, player_ids))


def rate_again(user_id: int, game: str, since: RatingKey | None = None) -> None:
    """Rate the account's finished matches of `game` again, in the order they ended.

    Ratings only depend on the matches that ended before, so with `since` only the matches
    from that (end, id) on are rated again, starting from each player's rating just before.
    """
    db.session.flush()
    ratings = delete(PlayerRating.__table__).where(PlayerRating.user_id == user_id, PlayerRating.game == game)
    finished = (select(Match).where(Match.user_id == user_id, Match.game == game, Match.status == FINISHED)
                .order_by(Match.ended_at, Match.id))
    if since is not None:
        ended, match_id = since
        ratings = ratings.where(at_or_after(PlayerRating.rated_at, PlayerRating.match_id, ended, match_id))
        finished = finished.where(at_or_after(Match.ended_at, Match.id, ended, match_id))
    db.session.execute(ratings)
    matches = list(db.session.scalars(finished))
    players = {seat.player_id for match in matches for seat in match.seats}
    insert_rows(PlayerRating, rating_rows(matches, _ratings_before(game, players) if since is not None else {}))


def _ratings_before(game: str, players: set[int]) -> dict[int, tuple[float, float]]:
    """Return each player's latest (mu, sigma) in `game` among the ratings kept, in one query."""
    return {player: (mu, sigma) for player, mu, sigma, _at, _match in latest_ratings(game, sorted(players))}


def rebuild_figures(games: set[tuple[int, str]]) -> None:
    """Rate again and sum up again every (account, game) given, and the accounts' pair records."""
    accounts = sorted({user_id for user_id, _game in games})
    for user_id in accounts:
        lock_figures(user_id)
    for user_id, game in sorted(games):
        rate_again(user_id, game)
        sum_up(user_id, game)
    for user_id in accounts:
        pair_up(user_id)


#: A match's place in the order matches started in: its start and id.
StartKey = tuple[datetime, int]


def _from(key: StartKey) -> Any:
    started, match_id = key
    return at_or_after(Match.created_at, Match.id, started, match_id)


def regroup_nights(user_id: int, since: StartKey | None = None) -> None:
    """Work out again the night of the account's matches that started from `since` on (None: all of them).

    A match's night depends only on the matches that started before it, so the matches before
    `since` keep theirs; the night open just before `since` (that of the latest match before
    it) is read back whole, and every match from its first one on is grouped again.
    """
    db.session.flush()
    gap = timedelta(hours=db.session.scalar(select(User.night_gap_hours).where(User.id == user_id)) or 4)
    ends = last_deal_at().scalar_subquery()
    timed = select(Match.id, Match.created_at, ends, Match.night_id).where(Match.user_id == user_id)
    if since is not None:
        earlier = before(Match.created_at, Match.id, *since)
        before_since = (select(Match.night_id).where(Match.user_id == user_id, earlier)
                  .order_by(Match.created_at.desc(), Match.id.desc()).limit(1))
        open_night = db.session.scalar(before_since)
        start = db.session.get(Match, open_night) if open_night is not None else None
        if start is not None:
            timed = timed.where(_from((start.created_at, start.id)))
        elif open_night is None:
            timed = timed.where(_from(since))
    rows = list(db.session.execute(timed.order_by(Match.created_at, Match.id)))
    nights = group_nights([(match_id, started, last) for match_id, started, last, _night in rows], gap)
    moved = [{"at_match": match_id, "night": nights[match_id]} for match_id, _s, _l, night in rows
             if night != nights[match_id]]
    if moved:
        db.session.execute(update(Match.__table__).where(Match.__table__.c.id == bindparam("at_match"))
                           .values(night_id=bindparam("night")).execution_options(synchronize_session=False), moved)


def night_moved(match: Match) -> None:
    """Group the nights again after the match's last deal was undone (`store_result` does it for one added).

    Its own night does not depend on it: only the matches that started after it can move, so
    when none did (the match being played is the latest) there is nothing to do. The account
    is locked first, so that a match started at the same moment on another phone is either
    seen here or groups itself after this change is committed.
    """
    db.session.flush()
    lock_figures(match.user_id)
    _regroup_if_later(match, db.session.scalar(_LATER_MATCH, _later_parameters(match)))


def _regroup_if_later(match: Match, later: int | None) -> None:
    """Group the nights again from `match` on, when a match (`later`) started after it."""
    if later is not None:
        regroup_nights(match.user_id, (match.created_at, match.id))
