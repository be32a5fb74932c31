"""The years at the table as kept (`YearReview`): read in one step, worked out and stored when stale.

Kept so that a year is read whole once rather than at each look (`figures.years` reads the
year's every result and deal); every change of what a year reads makes it stale again
(`figures.stale_years`). Stored lazily, by the first page that finds it stale, in two steps,
so that a change made while it is worked out is never hidden: the row is there (committed)
before the year is read, so a change committed after that makes the row stale again, and the
review is stored only if it did not.
"""

from __future__ import annotations

from contextlib import suppress
from datetime import UTC, datetime, tzinfo
from typing import Any

from sqlalchemy import bindparam, delete, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import OperationalError

from ..extensions import db
from ..figures.locks import wait_for_changes
from ..figures.years import WHOLE_TABLE, work_out_year
from ..models import User, YearReview
from .base import atomic

_reviews = YearReview.__table__
_KEY = ("user_id", "year", "zone", "player_id")
# Bound as key_user_id, ...: an UPDATE binds its columns' own names.
_WHERE = [_reviews.c[column] == bindparam(f"key_{column}") for column in _KEY]
_KEPT = select(_reviews.c.review, _reviews.c.stale).where(*_WHERE)
_FORGET = delete(_reviews).where(*_WHERE, _reviews.c.stale == bindparam("read_at"))
_STORE = (
    update(_reviews)
    .where(*_WHERE, _reviews.c.stale == bindparam("read_at"))
    .values(review=bindparam("review", type_=_reviews.c.review.type))
)


def year_review(user: User, year: int, zone: tzinfo, player_id: int = WHOLE_TABLE) -> dict[str, Any]:
    """Return the year at the table of the account (or of one of its players), its days in `zone`:
    as kept, or worked out again (and kept) if a change made it stale.

    A year to come is worked out at each look and not kept (it has nothing yet, and each change
    would make it stale), nor is a year with nothing played. Nor is one that could not be stored
    at once (SQLite busy with a long import, say): the page shows it all the same.
    """
    key = {"user_id": user.id, "year": year, "zone": str(zone), "player_id": player_id}
    if year > datetime.now(UTC).year + 1:
        return work_out_year(user, year, zone, player_id)
    kept = db.session.execute(_KEPT, _bound(key)).first()
    if kept is not None and kept.review is not None:
        return dict(kept.review)
    try:
        read_at = kept.stale if kept is not None else _keep_a_row(key)
    except OperationalError:
        return work_out_year(user, year, zone, player_id)
    review = work_out_year(user, year, zone, player_id)
    with suppress(OperationalError):
        _store(key, read_at, review if review["matches"] or review["nights"] else None)
    return review


@atomic
def _keep_a_row(key: dict[str, Any]) -> int:
    """Keep an empty row for the year (unless another page just did), committed; return its stale count.

    Once the account's change in progress has ended (`wait_for_changes`): a change that made the
    year stale before the row was there must be committed before the year is read.
    """
    wait_for_changes(key["user_id"])
    dialect = postgresql if db.session.get_bind().dialect.name == "postgresql" else sqlite
    db.session.execute(dialect.insert(_reviews).values(**key, stale=0).on_conflict_do_nothing(index_elements=_KEY))
    return int(db.session.execute(_KEPT, _bound(key)).one().stale)


@atomic
def _store(key: dict[str, Any], read_at: int, review: dict[str, Any] | None) -> None:
    """Store the review worked out, unless the year was made stale since its row was read; a year
    with nothing played (None) has its row forgotten instead, so that looking at empty years
    keeps nothing."""
    if review is None:
        db.session.execute(_FORGET, {**_bound(key), "read_at": read_at})
    else:
        db.session.execute(_STORE, {**_bound(key), "read_at": read_at, "review": review})


def _bound(key: dict[str, Any]) -> dict[str, Any]:
    return {f"key_{column}": value for column, value in key.items()}
