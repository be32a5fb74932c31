"""A match as a page that only shows it reads it: rows of its columns, its players' names and its
deals' facts, not objects to change.

The scoreboard, the deal form's page and a match's page in the history change nothing. Read
through the ORM, a match came as an object for the match, one for each seat and one for each
player, its cached result decoded once per seat row, and every statement went through the
session's machinery, which took more than the page's own layout.
Here the statements are plain SQL on the tables, built once, and run on the session's
connection, in its transaction. What changes a match reads it as objects (`reads.table.match_at_table`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import bindparam, select

from ..errors import NotFound
from ..extensions import db
from ..i18n import gettext
from ..models import MAX_ID, Deal, EntryLink, Match, Player, Seat, User


class DealFacts(NamedTuple):
    """A stored deal as a page shows it: its number and its facts, read as a row."""

    number: int
    data: dict[str, Any]


@dataclass(frozen=True, slots=True)
class ShownMatch:
    """A match as a page shows it: the columns the pages read, its players in seat order, its deals."""

    id: int
    user_id: int
    game: str
    options: dict[str, Any]
    first_dealer: int
    status: str
    pending: dict[str, Any] | None
    version: int
    #: The rules engine's result cached beside the deals (a `Match.result`).
    result: dict[str, Any] | None
    share_key_hash: str | None
    share_salt: str | None
    share_preview: str | None
    note: str | None
    night_id: int | None
    created_at: datetime
    player_names: list[str]
    deals: list[DealFacts]


_matches, _seats, _players, _deals, _links = (model.__table__ for model in (Match, Seat, Player, Deal, EntryLink))
#: The match's columns that a `ShownMatch` holds, by the same names.
_COLUMNS = (
    "id",
    "user_id",
    "game",
    "options",
    "first_dealer",
    "status",
    "pending",
    "version",
    "result",
    "share_key_hash",
    "share_salt",
    "share_preview",
    "note",
    "night_id",
    "created_at",
)
_MATCH = select(*(_matches.c[name] for name in _COLUMNS)).where(_matches.c.id == bindparam("match_id"))
_PLAYER_NAMES = (
    select(_players.c.name)
    .select_from(_seats.join(_players, _players.c.id == _seats.c.player_id))
    .where(_seats.c.match_id == bindparam("match_id"))
    .order_by(_seats.c.seat)
)
_DEALS = (
    select(_deals.c.number, _deals.c.data).where(_deals.c.match_id == bindparam("match_id")).order_by(_deals.c.number)
)
_LASTING_LINK = select(_links.c.key_hash, _links.c.salt).where(
    _links.c.match_id == bindparam("match_id"), _links.c.stopped_at.is_(None)
)


def match_to_show(match_id: int) -> ShownMatch:
    """Return a match with its players' names and its deals' facts, for a page that only shows it;
    or raise NotFound if it is gone."""
    connection = db.session.connection()
    found = connection.execute(_MATCH, {"match_id": match_id}).first() if 0 < match_id <= MAX_ID else None
    # Each statement reads what was committed when it began (PostgreSQL's READ COMMITTED): a match
    # deleted from another phone after its row was read has no players left by the second one.
    names = list(connection.execute(_PLAYER_NAMES, {"match_id": match_id}).scalars()) if found else []
    if found is None or not names:
        raise NotFound(gettext("There is no such match."))
    deals = [DealFacts(number, data) for number, data in connection.execute(_DEALS, {"match_id": match_id})]
    return ShownMatch(**found._mapping, player_names=names, deals=deals)


def match_to_show_for(user: User, match_id: int) -> ShownMatch:
    """Return the account's match as `match_to_show` does; NotFound for another account's match."""
    match = match_to_show(match_id)
    if match.user_id != user.id:
        raise NotFound(gettext("There is no such match."))
    return match


def lasting_link(match_id: int) -> tuple[str, str | None] | None:
    """Return the hash and the salt of the match's entry link that lasts (at most one does), or None."""
    found = db.session.connection().execute(_LASTING_LINK, {"match_id": match_id}).first()
    return (found[0], found[1]) if found is not None else None
