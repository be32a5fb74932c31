"""The SQL aggregation of each player's results into the rows the upkeep stores: their summary
per game and the record of every pair of players.

Reads only; `upkeep` stores what these return. A fixed number of queries for any number of
players: the work is done by the database (sums, window functions), never by a loop here.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from sqlalchemy import ColumnElement, SQLColumnExpression, and_, case, func, or_, select
from sqlalchemy.orm import aliased

from ..extensions import db
from ..models import ABANDONED, FINISHED, PLAYING, PlayerResult
from ..registry import get_game

#: How many of a player's latest finished matches their summary keeps, newest first.
RECENT = 10
#: The figures a summary row keeps, in the order `reads.GameFigures` takes them after `game`.
COUNTS = (
    "played",
    "won",
    "abandoned",
    "unfinished",
    "finished",
    "deals",
    "points",
    "juegos",
)
#: The other player's results in a match, joined to a player's own (made once: building an
#: alias is slow, and it never changes).
_OTHER = aliased(PlayerResult, name="other")


def summary_rows(user_id: int, game: str, player_ids: Collection[int]) -> list[dict[str, Any]]:
    """Return the summary of each of these players in `game` (the columns of PlayerSummary),
    aggregated in SQL from their results: a fixed number of queries for any number of players."""
    if not player_ids:
        return []
    mine = and_(PlayerResult.user_id == user_id, PlayerResult.game == game, PlayerResult.player_id.in_(player_ids))
    figures = list(get_game(game).figures)
    finished = PlayerResult.status == FINISHED

    def as_int(condition: SQLColumnExpression[bool]) -> ColumnElement[int]:
        return func.sum(case((condition, 1), else_=0))

    def in_finished(column: SQLColumnExpression[int]) -> ColumnElement[int]:
        return func.sum(case((finished, column), else_=0))

    totals = db.session.execute(
        select(
            PlayerResult.player_id,
            func.count(),
            as_int(PlayerResult.won),
            as_int(PlayerResult.status == ABANDONED),
            as_int(PlayerResult.status == PLAYING),
            as_int(finished),
            in_finished(PlayerResult.deals),
            in_finished(PlayerResult.total),
            in_finished(func.coalesce(PlayerResult.juegos, 0)),
            # The game's figures, each summed from its key of the results' tallies.
            *(in_finished(func.coalesce(PlayerResult.tallies[name].as_integer(), 0)) for name in figures),
        )
        .where(mine)
        .group_by(PlayerResult.player_id)
    )
    rows: dict[int, dict[str, Any]] = {}
    for player_id, *counts in totals:
        rows[player_id] = {
            "user_id": user_id,
            "player_id": player_id,
            "game": game,
            **{name: int(value or 0) for name, value in zip(COUNTS, counts)},
            "tallies": {name: int(value or 0) for name, value in zip(figures, counts[len(COUNTS) :])},
            "best_total": None,
            "best_match_id": None,
            "worst_total": None,
            "worst_match_id": None,
            "current_streak": 0,
            "longest_streak": 0,
            "recent": "",
        }
    if not rows:
        return []
    _best_and_worst(mine, rows)
    _streaks(mine, rows)
    _recent(mine, rows)
    return list(rows.values())


def _best_and_worst(mine: Any, rows: dict[int, dict[str, Any]]) -> None:
    """Fill each player's best and worst finished match (the earliest on a tie)."""
    ranked = (
        select(
            PlayerResult.player_id,
            PlayerResult.total,
            PlayerResult.match_id,
            func.row_number()
            .over(partition_by=PlayerResult.player_id, order_by=(PlayerResult.total.desc(), PlayerResult.match_id))
            .label("best"),
            func.row_number()
            .over(partition_by=PlayerResult.player_id, order_by=(PlayerResult.total.asc(), PlayerResult.match_id))
            .label("worst"),
        )
        .where(mine, PlayerResult.status == FINISHED)
        .subquery()
    )
    for player_id, total, match_id, best, worst in db.session.execute(
        select(ranked).where(or_(ranked.c.best == 1, ranked.c.worst == 1))
    ):
        if best == 1:
            rows[player_id].update(best_total=total, best_match_id=match_id)
        if worst == 1:
            rows[player_id].update(worst_total=total, worst_match_id=match_id)


def _streaks(mine: Any, rows: dict[int, dict[str, Any]]) -> None:
    """Fill the current and longest winning streaks (gaps and islands, in SQL)."""
    ordered = (
        select(
            PlayerResult.player_id,
            PlayerResult.won,
            func.row_number()
            .over(partition_by=PlayerResult.player_id, order_by=(PlayerResult.played_at, PlayerResult.match_id))
            .label("n"),
            func.row_number()
            .over(
                partition_by=(PlayerResult.player_id, PlayerResult.won),
                order_by=(PlayerResult.played_at, PlayerResult.match_id),
            )
            .label("k"),
        )
        .where(mine, PlayerResult.status == FINISHED)
        .subquery()
    )
    runs = (
        select(ordered.c.player_id, func.count().label("length"), func.max(ordered.c.n).label("last"))
        .where(ordered.c.won.is_(True))
        .group_by(ordered.c.player_id, ordered.c.n - ordered.c.k)
        .subquery()
    )
    last = select(ordered.c.player_id, func.max(ordered.c.n).label("last")).group_by(ordered.c.player_id).subquery()
    query = (
        select(
            runs.c.player_id,
            func.max(runs.c.length),
            func.max(case((runs.c.last == last.c.last, runs.c.length), else_=0)),
        )
        .join(last, last.c.player_id == runs.c.player_id)
        .group_by(runs.c.player_id)
    )
    for player_id, longest, current in db.session.execute(query):
        rows[player_id].update(longest_streak=int(longest), current_streak=int(current))


def _recent(mine: Any, rows: dict[int, dict[str, Any]]) -> None:
    """Fill the last ten finished matches' outcomes, newest first."""
    ranked = (
        select(
            PlayerResult.player_id,
            PlayerResult.won,
            func.row_number()
            .over(
                partition_by=PlayerResult.player_id,
                order_by=(PlayerResult.played_at.desc(), PlayerResult.match_id.desc()),
            )
            .label("place"),
        )
        .where(mine, PlayerResult.status == FINISHED)
        .subquery()
    )
    for player_id, won in db.session.execute(
        select(ranked.c.player_id, ranked.c.won)
        .where(ranked.c.place <= RECENT)
        .order_by(ranked.c.player_id, ranked.c.place)
    ):
        rows[player_id]["recent"] += "W" if won else "L"


def pair_rows(user_id: int, player_ids: Collection[int] | None = None) -> list[dict[str, Any]]:
    """Return the record of every pair among these players (None: all the account's), lower id first
    (the columns of PlayerPair), aggregated in SQL from their results in one query."""
    first, second = PlayerResult, _OTHER
    apart, together = first.side != second.side, first.side == second.side

    def count(condition: SQLColumnExpression[bool]) -> ColumnElement[int]:
        return func.sum(case((condition, 1), else_=0))

    query = (
        select(
            first.player_id,
            second.player_id,
            func.count(),
            count(and_(apart, first.status == FINISHED)),
            count(and_(apart, first.won)),
            count(and_(apart, second.won)),
            count(and_(together, first.status == FINISHED)),
            count(and_(together, first.won)),
        )
        .join(second, and_(second.match_id == first.match_id, second.player_id > first.player_id))
        .where(first.user_id == user_id)
        .group_by(first.player_id, second.player_id)
    )
    if player_ids is not None:
        query = query.where(first.player_id.in_(player_ids), second.player_id.in_(player_ids))
    names = ("first_id", "second_id", "shared", "met", "first_wins", "second_wins", "together", "together_won")
    return [
        {"user_id": user_id, **{name: int(value or 0) for name, value in zip(names, row)}}
        for row in db.session.execute(query)
    ]
