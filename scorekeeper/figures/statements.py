"""The statements that store a deal added to a match and rewrite its players' results, built once.

The write side: only `upkeep` sends them. Each is built on the tables' columns, not the models':
plain SQL statements the session sends as they are, without looking for their rows among its
objects (a change never reads them back as objects). Building a statement and its cache key on
every deal cost as much as sending it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from sqlalchemy import Select, Update, bindparam, case, insert, select, true, update

from ..db.sql import fixed_limit
from ..models import Deal, IdempotencyKey, Match, PlayerResult
from .increments import at_or_after
from .stale_years import STALE_YEARS

_matches = Match.__table__
_deals = Deal.__table__
_keys = IdempotencyKey.__table__
_results = PlayerResult.__table__

#: The first match of the account that started after the given one, if there is one. On an alias,
#: so that in the RETURNING of an UPDATE of matches it is a query of its own. Read in start order
#: with a `fixed_limit`, so that PostgreSQL keeps one plan for the statement of every deal
#: (priced for any time, a walk of the account's matches in start order stops at the first).
_later = _matches.alias("later")
LATER_MATCH = (
    select(_later.c.id)
    .where(
        _later.c.user_id == bindparam("of_user"),
        _later.c.id != bindparam("after_match"),
        at_or_after(_later.c.created_at, _later.c.id, bindparam("started"), bindparam("after_match")),
    )
    .order_by(_later.c.created_at)
    .limit(fixed_limit(1))
)


def later_parameters(match: Match) -> dict[str, Any]:
    """Return the parameters of `LATER_MATCH` for the matches started after `match`."""
    return {"of_user": match.user_id, "started": match.created_at, "after_match": match.id}


#: The match's columns that only a change of its status moves (a deal that finishes it).
MOVED_BY_STATUS = ("status", "ended_at")


@cache
def update_match(moves_status: bool, returning_later: bool) -> Update:
    """Return the match's UPDATE for a deal added, with its version check; built once for each kind.

    Its status and end are set only when they move (the deal that finishes the match): SQLite
    rewrites the entries of every index on a column an UPDATE sets, changed or not, and two
    indexes of the matches hold the status. With `returning_later`, it answers (as `later`)
    whether a later match exists.
    """
    names = ("result", "updated_at", "pending", "version") + (MOVED_BY_STATUS if moves_status else ())
    statement = (
        update(_matches)
        .where(_matches.c.id == bindparam("at_id"), _matches.c.version == bindparam("at_version"))
        .values({name: bindparam(name) for name in names})
    )
    return statement.returning(LATER_MATCH.scalar_subquery().label("later")) if returning_later else statement


INSERT_DEAL = insert(_deals)
INSERT_KEY = insert(_keys)

#: The columns of a player's result that a change to the match's deals or status can move.
RESULT_FIGURES = (
    "side",
    "status",
    "won",
    "shared",
    "played_at",
    "comeback",
    "deals",
    "total",
    "juegos",
    "tallies",
)
#: Those that a deal of a match being played before and after it can move: its side, status,
#: wins and date stay as they are.
DEAL_FIGURES = RESULT_FIGURES[RESULT_FIGURES.index("deals") :]


@cache
def update_results(seats: int, figures: tuple[str, ...]) -> Update:
    """Return the UPDATE that rewrites these `figures` of a match's `seats` results in one statement.

    One statement, each column set by seat (CASE seat WHEN :seat_0 THEN :total_0 ...), rather than
    one UPDATE per seat: every deal entered rewrites them, and on a database over the network each
    statement is a round trip. Only the figures that can move are set: SQLite rewrites the entries
    of every index on a column an UPDATE sets, changed or not (a player's matches by date, for
    each seat).
    """
    column = _results.c
    return (
        update(_results)
        .where(column.match_id == bindparam("at_match"))
        .values(
            {
                name: case(
                    *[
                        (bindparam(f"seat_{index}"), bindparam(f"{name}_{index}", type_=column[name].type))
                        for index in range(seats)
                    ],
                    value=column.seat,
                    else_=column[name],
                )
                for name in figures
            }
        )
    )


def results_parameters(match_id: int, rows: Sequence[Mapping[str, Any]], figures: tuple[str, ...]) -> dict[str, Any]:
    """Return the parameters of `update_results(len(rows), figures)` that write `rows`."""
    parameters: dict[str, Any] = {"at_match": match_id}
    for index, row in enumerate(rows):
        parameters[f"seat_{index}"] = row["seat"]
        parameters.update({f"{name}_{index}": row[name] for name in figures})
    return parameters


_DEAL_COLUMNS = ("match_id", "number", "data", "created_at", "updated_at", "entry_link_id")
_KEY_COLUMNS = ("user_id", "key", "match_id", "body", "created_at")


@cache
def deal_in_one(seats: int, with_key: bool) -> Select[Any]:
    """Return one statement that stores a deal added to a match still being played after it, on PostgreSQL.

    It sends in one round trip what would be five: the match's UPDATE (`update_match`, with its
    version check and whether a later match exists), the deal's INSERT, the UPDATE of its `seats`
    players' results (`update_results` of `DEAL_FIGURES`), the UPDATE that makes the account's kept
    years stale (`stale_years.STALE_YEARS`) and, `with_key`, the INSERT of the request's
    idempotency key, each a data-modifying WITH query. It answers one row (`later`,
    the deal's id), or none when the match changed meanwhile; the other writes are then made all
    the same, and rolled back with the rest of the change. SQLite has no data-modifying WITH.
    The deal's parameters are its columns' names after `deal_`, the key's after `key_`
    (`deal_parameters`, `key_parameters`), the years' `stale_parameters`.
    """
    matched = update_match(False, True).cte("matched")
    stored = (
        insert(_deals)
        .values({name: bindparam(f"deal_{name}") for name in _DEAL_COLUMNS})
        .returning(_deals.c.id)
        .cte("stored")
    )
    writes = [update_results(seats, DEAL_FIGURES).cte("rescored"), STALE_YEARS.cte("aged")]
    if with_key:
        writes.append(insert(_keys).values({name: bindparam(f"key_{name}") for name in _KEY_COLUMNS}).cte("kept"))
    return select(matched.c.later, stored.c.id).select_from(matched.join(stored, true())).add_cte(*writes)


def deal_parameters(row: Mapping[str, Any]) -> dict[str, Any]:
    """Return the parameters of `deal_in_one` that store the deal `row` (a deal's columns)."""
    return {f"deal_{name}": row[name] for name in _DEAL_COLUMNS}


def key_parameters(row: Mapping[str, Any]) -> dict[str, Any]:
    """Return the parameters of `deal_in_one` that keep the idempotency key `row` (a key's columns)."""
    return {f"key_{name}": row[name] for name in _KEY_COLUMNS}
