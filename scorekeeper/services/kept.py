"""Figures kept in `YearReview` rows: read in one step, worked out and stored when stale.

Kept so that what reads many results is read whole once rather than at each look: the years at
the table (`services.years`) and the standings of seasons that are over (`services.season_places`).
Every change of what they read makes their rows stale again (`figures.stale_years`). Stored
lazily, by the first page that finds them stale, in two steps, so that a change made while they
are worked out is never hidden: the rows are there (committed) before the figures are read, so a
change committed after that makes them stale again, and a document is stored only if it did not.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import suppress
from typing import Any

from sqlalchemy import bindparam, delete, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import OperationalError

from ..extensions import db
from ..figures.locks import wait_for_changes
from ..models import YearReview
from .base import atomic

_reviews = YearReview.__table__
#: A kept row's key: its account, the year whose changes make it stale, the time zone whose days it
#: reads, its player (0: the whole table) and what figure it is.
KEY = ("user_id", "year", "zone", "player_id", "figure")
# Bound as key_user_id, ...: an UPDATE binds its columns' own names.
_WHERE = [_reviews.c[column] == bindparam(f"key_{column}") for column in KEY]
_KEPT = select(_reviews.c.review, _reviews.c.stale).where(*_WHERE)
#: The rows of one account, zone and player among some years and figures, in one step.
_KEPT_AMONG = select(_reviews.c.year, _reviews.c.figure, _reviews.c.review, _reviews.c.stale).where(
    _reviews.c.user_id == bindparam("user_id"),
    _reviews.c.zone == bindparam("zone"),
    _reviews.c.player_id == bindparam("player_id"),
    _reviews.c.year.in_(bindparam("years", expanding=True)),
    _reviews.c.figure.in_(bindparam("figures", expanding=True)),
)
_FORGET = delete(_reviews).where(*_WHERE, _reviews.c.stale == bindparam("read_at"))
_STORE = (
    update(_reviews)
    .where(*_WHERE, _reviews.c.stale == bindparam("read_at"))
    .values(review=bindparam("review", type_=_reviews.c.review.type))
)

#: Works out the documents of the keys given, in their order.
WorkOut = Callable[[Sequence[dict[str, Any]]], list[dict[str, Any]]]


def _always(_document: dict[str, Any]) -> bool:
    return True


def kept_documents(
    keys: Sequence[dict[str, Any]], work_out: WorkOut, worth_keeping: Callable[[dict[str, Any]], bool] = _always
) -> list[dict[str, Any]]:
    """Return the document of each key (`KEY`'s columns; one account, zone and player): as kept, or
    worked out again together, and kept, where a change made them stale.

    A document not `worth_keeping` is not kept (its row is forgotten). Nor are documents that could
    not be stored at once (SQLite busy with a long import, say): the page shows them all the same.
    """
    if not keys:
        return []
    first = keys[0]
    values = {
        "user_id": first["user_id"],
        "zone": first["zone"],
        "player_id": first["player_id"],
        "years": sorted({key["year"] for key in keys}),
        "figures": sorted({key["figure"] for key in keys}),
    }
    found = {(row.year, row.figure): row for row in db.session.execute(_KEPT_AMONG, values)}
    kept = [found.get((key["year"], key["figure"])) for key in keys]
    documents: list[dict[str, Any] | None] = [
        dict(row.review) if row is not None and row.review is not None else None for row in kept
    ]
    missing = [at for at, document in enumerate(documents) if document is None]
    if not missing:
        return [document for document in documents if document is not None]
    stale = [keys[at] for at in missing]
    counts = [None if row is None else int(row.stale) for row in (kept[at] for at in missing)]
    read_at: list[int] | None
    try:
        read_at = _keep_rows(stale) if None in counts else [count for count in counts if count is not None]
    except OperationalError:
        read_at = None
    worked_out = work_out(stale)
    for at, document in zip(missing, worked_out, strict=True):
        documents[at] = document
    if read_at is not None:
        kept_again = [document if worth_keeping(document) else None for document in worked_out]
        with suppress(OperationalError):
            _store(list(zip(stale, read_at, kept_again, strict=True)))
    return [document for document in documents if document is not None]


@atomic
def _keep_rows(keys: Sequence[dict[str, Any]]) -> list[int]:
    """Keep an empty row for each key (unless another page just did), committed; return their stale counts.

    Once the account's change in progress has ended (`wait_for_changes`): a change that made the
    figures stale before the rows were there must be committed before they are read.
    """
    wait_for_changes(keys[0]["user_id"])
    dialect = postgresql if db.session.get_bind().dialect.name == "postgresql" else sqlite
    counts = []
    for key in keys:
        db.session.execute(dialect.insert(_reviews).values(**key, stale=0).on_conflict_do_nothing(index_elements=KEY))
        counts.append(int(db.session.execute(_KEPT, _bound(key)).one().stale))
    return counts


@atomic
def _store(stored: Sequence[tuple[dict[str, Any], int, dict[str, Any] | None]]) -> None:
    """Store each document worked out, unless its row was made stale since it was read; a document
    of None has its row forgotten instead, so that looking at empty years keeps nothing."""
    for key, read_at, document in stored:
        if document is None:
            db.session.execute(_FORGET, {**_bound(key), "read_at": read_at})
        else:
            db.session.execute(_STORE, {**_bound(key), "read_at": read_at, "review": document})


def _bound(key: dict[str, Any]) -> dict[str, Any]:
    return {f"key_{column}": value for column, value in key.items()}
