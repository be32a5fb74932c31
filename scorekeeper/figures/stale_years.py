"""Make the kept years at the table stale (`YearReview`): the write side of `figures.years`, which
every change of what a year reads calls in its own transaction. The standings kept of seasons that
are over are rows of the year they end in, made stale with it."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import bindparam, update

from ..extensions import db
from ..models import YearReview
from .locks import lock_figures

#: How far before a change the year it may move can begin: a year counts a night in the year its
#: first match began (a night rarely lasts a day), in a time zone up to 14 hours from UTC.
_REACH = timedelta(days=2)

_reviews = YearReview.__table__
#: Its parameters are `stale_parameters`: on PostgreSQL a deal of a match being played sends it
#: inside the statement that stores the deal (`statements.deal_in_one`).
STALE_YEARS = (
    update(_reviews)
    .where(_reviews.c.user_id == bindparam("stale_account"), _reviews.c.year >= bindparam("stale_from_year"))
    .values(review=None, stale=_reviews.c.stale + 1)
)


def stale_parameters(user_id: int, since: datetime | None) -> dict[str, int]:
    """Return the parameters of `STALE_YEARS` that make the account's years from that of `since` on stale."""
    return {"stale_account": user_id, "stale_from_year": 0 if since is None else (since - _REACH).year}


def make_years_stale(user_id: int, since: datetime | None = None) -> None:
    """Make the account's kept years stale from the year of `since` on, in any time zone (None: every year).

    One statement, which finds nothing to change while no year is kept from then on: a deal
    entered tonight leaves last year's review as it is. Under the account's lock, which a year
    being worked out waits for (`services.years`): a change is either seen by the year read
    after it, or makes that year's row stale once the row is there.
    """
    lock_figures(user_id)
    # On the session's connection: as a statement of the session's own, it would flush the change's
    # objects first, in the middle of a change that writes its rows itself (`upkeep.store_result`).
    db.session.connection().execute(STALE_YEARS, stale_parameters(user_id, since))
