"""The upkeep of the derived tables (each player's results, ratings, summaries and pair records), written
inside the transaction of the change to the facts they come from.

The write side of the figures: only the services call it, from inside their transaction.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import CursorResult, bindparam, delete, insert, inspect, select, update
from sqlalchemy.orm import make_transient_to_detached
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.exc import StaleDataError

from ..extensions import db
from ..models import (
    ABANDONED,
    FINISHED,
    PLAYING,
    Deal,
    Match,
    PlayerPair,
    PlayerRating,
    PlayerResult,
    PlayerSummary,
    User,
    utcnow,
)
from ..rules import MatchResult
from .aggregate import pair_rows, summary_rows
from .increments import at_or_after, before, latest_ratings, move_pairs, move_summaries, rate_latest
from .locks import lock_figures
from .nights import group_nights, last_deal_at
from .rows import rating_rows, result_rows
from .running import add_running_sums, run_up
from .stale_years import make_years_stale, stale_parameters
from .statements import (
    DEAL_FIGURES,
    INSERT_DEAL,
    INSERT_KEY,
    LATER_MATCH,
    MOVED_BY_STATUS,
    RESULT_FIGURES,
    deal_in_one,
    deal_parameters,
    key_parameters,
    later_parameters,
    results_parameters,
    update_match,
    update_results,
)


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


def _append(
    match: Match,
    deal: Deal,
    result: MatchResult,
    kept_key: Mapping[str, Any] | None,
    facts: Sequence[Mapping[str, Any]],
) -> tuple[int | None, bool]:
    """Store a deal added after the match's deals (whose facts are `facts`), the result it makes and
    the request's idempotency key (`kept_key`, a row of its table, or None); return the id of a match
    of the account that started after this one, if any, and whether the players' results were rewritten.

    These are the UPDATE (with the match's version check) and INSERT that a flush of the session
    would send, without the unit of work's own bookkeeping, which every deal entered would pay
    for. The match is left as that flush would have left it, and its deals too when
    they were read as objects (else they are left to load if asked for). The
    UPDATE also answers, in its RETURNING, what `night_moved` would ask in a query of its own.
    On PostgreSQL a deal that leaves the match being played (nearly every one) is stored with the
    results and the key in one statement (`deal_in_one`): each statement is a round trip there.
    """
    lock_figures(match.user_id)  # before the later match is looked for: see `night_moved`
    values = {**_cached_values(match, result), "pending": None, "version": match.version + 1}
    moves = any(values[name] != getattr(match, name) for name in MOVED_BY_STATUS)
    # Only the columns the statement sets: SQLAlchemy would set any other column named here too.
    parameters = {name: value for name, value in values.items() if moves or name not in MOVED_BY_STATUS}
    parameters.update({"at_id": match.id, "at_version": match.version, **later_parameters(match)})
    deal.match_id, deal.created_at, deal.updated_at = match.id, values["updated_at"], values["updated_at"]
    row = {
        "match_id": deal.match_id,
        "number": deal.number,
        "data": deal.data,
        "created_at": deal.created_at,
        "updated_at": deal.updated_at,
        "entry_link_id": deal.entry_link_id,
    }
    dialect = db.session.get_bind().dialect
    in_one = dialect.name == "postgresql" and dialect.update_returning and not moves and values["status"] == PLAYING
    if in_one:
        rows = result_rows(match, result, [*facts, deal.data])
        parameters.update(deal_parameters(row), **results_parameters(match.id, rows, DEAL_FIGURES))
        parameters.update(stale_parameters(match.user_id, match.created_at))
        if kept_key is not None:
            parameters.update(key_parameters(kept_key))
        stored = db.session.execute(deal_in_one(len(rows), kept_key is not None), parameters).first()
        if stored is None:  # another phone changed the match since it was read
            raise StaleDataError(f"match {match.id} changed meanwhile")
        later, deal.id = stored
    else:
        later = _update_match_row(match, moves, parameters, dialect.update_returning)
        # Its id as the driver gives it (no RETURNING, which SQLite before 3.35 lacks).
        key = cast(CursorResult[Any], db.session.execute(INSERT_DEAL, row)).inserted_primary_key
        if key is None:  # a driver that gives no id of an inserted row: none this app runs on
            raise RuntimeError("the database gave no id for the stored deal")
        deal.id = key[0]
        if kept_key is not None:
            db.session.execute(INSERT_KEY, [kept_key])
    for name, value in values.items():
        set_committed_value(match, name, value)
    make_transient_to_detached(deal)  # as if loaded: in the session, with nothing left to write
    db.session.add(deal)
    if "deals" in inspect(match).dict:
        set_committed_value(match, "deals", [*match.deals, deal])
    return cast(int | None, later), in_one


def _update_match_row(match: Match, moves: bool, parameters: Mapping[str, Any], returning: bool) -> int | None:
    """Send the match's UPDATE for a deal added; return the later match it found (see `_append`)."""
    statement = update_match(moves, returning)
    if returning:
        updated = db.session.execute(statement, parameters).first()
        if updated is None:  # another phone changed the match since it was read
            raise StaleDataError(f"match {match.id} changed meanwhile")
        return cast(int | None, updated[0])
    # SQLite before 3.35
    if cast(CursorResult[Any], db.session.execute(statement, parameters)).rowcount != 1:
        raise StaleDataError(f"match {match.id} changed meanwhile")
    return cast(int | None, db.session.scalar(LATER_MATCH, parameters))


def store_result(
    match: Match,
    result: MatchResult,
    appended: Deal | None = None,
    kept_key: Mapping[str, Any] | None = None,
    facts: Sequence[Mapping[str, Any]] = (),
) -> None:
    """Cache the engine's result on the match, move its status with it, and refresh the figures;
    with the deal just `appended` after the match's deals (whose facts are `facts`, as
    `facts_under_lock` read them), stored with them (and `kept_key`, the row of the request's
    idempotency key), and the nights of the matches started after this one grouped again (as
    `night_moved` does)."""
    status_before = match.status
    was_finished = status_before == FINISHED
    ended_before = match.ended_at if was_finished else None
    later: int | None = None
    rescored = False
    deals = None  # with a deal appended: the facts of the match's deals, that one included
    if appended is None:
        cache_result(match, result)
    else:
        later, rescored = _append(match, appended, result, kept_key, facts)
        deals = [*facts, appended.data]
    changed = was_finished or match.status == FINISHED
    # The summaries count matches by status and sum finished ones only: a deal of a match
    # still being played leaves them as they are.
    summarize = match.status != status_before or match.status == FINISHED
    if not rescored:  # else the statement that stored the deal did, and made the years stale
        refresh_figures(
            match,
            result,
            rerate_since=(ended_before or match.ended_at) if changed else None,
            summarize=summarize,
            rows_exist=status_before is not None,
            status_before=status_before,
            deals=deals,
        )
    if appended is not None:
        _regroup_if_later(match, later)


#: Where ratings are to be redone from: a finished match's end and id; None for all of them.
RatingKey = tuple[datetime, int]


def insert_rows(model: type[db.Model], rows: Sequence[Mapping[str, Any]]) -> None:  # type: ignore[name-defined]
    """Insert rows in one statement, as plain table rows: nothing in the change reads them back as
    objects (and so neither do these statements, nor the deletes beside them, touch the session's)."""
    if rows:
        db.session.execute(insert(model.__table__), list(rows))


def refresh_figures(
    match: Match,
    result: MatchResult,
    rerate_since: datetime | None = None,
    summarize: bool = False,
    rows_exist: bool | None = None,
    status_before: str | None = FINISHED,
    deals: Sequence[Mapping[str, Any]] | None = None,
) -> None:
    """Rewrite the match's derived rows (inside the change's transaction).

    With `rerate_since` (when the match ended, or ended before this change), the ratings of
    its game are redone from there on: only this match when it is the latest to end. With
    `summarize`, its players' summaries in its game and their pair records are brought up to
    date. `rows_exist` says that the match has its rows already (its seats never change), so
    they are updated in place; False that it has none yet; None that any it has are replaced.
    `status_before` is the match's status before the change (None: a new match). Unless the
    match was over (or that is not known: the default), the summaries, pair records and
    ratings take this match's part alone (see `increments`); else, or when that cannot be
    exact, they are aggregated again. `deals`: the match's deals' facts, if not read as objects.
    """
    db.session.flush()
    if rerate_since is not None or summarize:
        lock_figures(match.user_id)
    make_years_stale(match.user_id, match.created_at)
    rows = result_rows(match, result, deals)
    if rows_exist:
        figures = DEAL_FIGURES if status_before == match.status == PLAYING else RESULT_FIGURES
        db.session.execute(update_results(len(rows), figures), results_parameters(match.id, rows, figures))
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
        elif match.status == FINISHED:  # the latest finished match of each of its players
            add_running_sums(match.game, rows)
        if step:
            move_pairs(match.user_id, status_before, rows)
        else:
            pair_up(match.user_id, players)


def sum_up(user_id: int, game: str, player_ids: Collection[int] | None = None) -> None:
    """Rebuild the summaries of these players (None: all the account's) in `game` from their results,
    and the running sums of their results."""
    db.session.flush()
    stale = delete(PlayerSummary.__table__).where(PlayerSummary.user_id == user_id, PlayerSummary.game == game)
    if player_ids is None:
        player_ids = list(
            db.session.scalars(
                select(PlayerResult.player_id)
                .distinct()
                .where(PlayerResult.user_id == user_id, PlayerResult.game == game)
            )
        )
    else:
        stale = stale.where(PlayerSummary.player_id.in_(player_ids))
    db.session.execute(stale)
    insert_rows(PlayerSummary, summary_rows(user_id, game, player_ids))
    run_up(user_id, game, player_ids)


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
    finished = (
        select(Match)
        .where(Match.user_id == user_id, Match.game == game, Match.status == FINISHED)
        .order_by(Match.ended_at, Match.id)
    )
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
        make_years_stale(user_id)
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
    make_years_stale(user_id, None if since is None else since[0])
    gap = timedelta(hours=db.session.scalar(select(User.night_gap_hours).where(User.id == user_id)) or 4)
    ends = last_deal_at().scalar_subquery()
    timed = select(Match.id, Match.created_at, ends, Match.night_id).where(Match.user_id == user_id)
    if since is not None:
        earlier = before(Match.created_at, Match.id, *since)
        before_since = (
            select(Match.night_id)
            .where(Match.user_id == user_id, earlier)
            .order_by(Match.created_at.desc(), Match.id.desc())
            .limit(1)
        )
        open_night = db.session.scalar(before_since)
        start = db.session.get(Match, open_night) if open_night is not None else None
        if start is not None:
            timed = timed.where(_from((start.created_at, start.id)))
        elif open_night is None:
            timed = timed.where(_from(since))
    rows = list(db.session.execute(timed.order_by(Match.created_at, Match.id)))
    nights = group_nights([(match_id, started, last) for match_id, started, last, _night in rows], gap)
    moved = [
        {"at_match": match_id, "night": nights[match_id]}
        for match_id, _s, _l, night in rows
        if night != nights[match_id]
    ]
    if moved:
        db.session.execute(
            update(Match.__table__)
            .where(Match.__table__.c.id == bindparam("at_match"))
            .values(night_id=bindparam("night"))
            .execution_options(synchronize_session=False),
            moved,
        )


def night_moved(match: Match) -> None:
    """Group the nights again after the match's last deal was undone (`store_result` does it for one added).

    Its own night does not depend on it: only the matches that started after it can move, so
    when none did (the match being played is the latest) there is nothing to do. The account
    is locked first, so that a match started at the same moment on another phone is either
    seen here or groups itself after this change is committed.
    """
    db.session.flush()
    lock_figures(match.user_id)
    _regroup_if_later(match, db.session.scalar(LATER_MATCH, later_parameters(match)))


def _regroup_if_later(match: Match, later: int | None) -> None:
    """Group the nights again from `match` on, when a match (`later`) started after it."""
    if later is not None:
        regroup_nights(match.user_id, (match.created_at, match.id))
