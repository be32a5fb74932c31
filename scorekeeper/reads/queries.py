"""Reads, always scoped to one account: the SQL behind the pages and the API.

Nothing here writes, and nothing here lays anything out: the pages' view models are in `pages`,
the statistics' reads in `figures.reads` and `figures.pairs`.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from datetime import datetime
from functools import cache
from typing import Any

from sqlalchemy import ColumnElement, Row, Select, bindparam, func, select
from sqlalchemy.orm import defer, raiseload, selectinload

from ..accounts.keys import hash_token, looks_like_key, sign_in_lifetime
from ..db.sql import fixed_limit
from ..errors import NotFound
from ..extensions import db
from ..i18n import gettext
from ..models import (
    MAX_ID,
    STATUSES,
    ApiToken,
    Match,
    Player,
    PlayerResult,
    Seat,
    SignIn,
    User,
    utcnow,
)
from ..registry import GAMES
from .paging import Page

_players = Player.__table__


def has_users() -> bool:
    """Tell whether any account exists yet."""
    return db.session.scalar(select(User.id).limit(fixed_limit(1))) is not None


def user_for_sign_in(key: str) -> User | None:
    """Return the account a browser's sign-in key belongs to, while that sign-in lasts; else None."""
    if not looks_like_key(key):
        return None
    user = db.session.scalar(
        select(User)
        .join(SignIn, SignIn.user_id == User.id)
        .where(SignIn.key_hash == hash_token(key), SignIn.created_at >= utcnow() - sign_in_lifetime())
    )
    if user is not None:
        user.sign_in_key = key
    return user


def api_token(token: str) -> ApiToken | None:
    """Return the API token with this secret, or None."""
    return db.session.scalar(select(ApiToken).where(ApiToken.token_hash == hash_token(token))) if token else None


def sign_in_count(user: User) -> int:
    """Return how many browsers are signed in to the account."""
    return db.session.scalar(select(func.count()).select_from(SignIn).where(SignIn.user_id == user.id)) or 0


def deleted_while_read(match: Match) -> bool:
    """Tell whether the match was deleted between reading its row and reading its seats.

    Where the seats are read by a statement of their own (the live view's read), under
    PostgreSQL's READ COMMITTED each statement sees what was committed when it began, so a
    deletion from another phone in between leaves a match without players, which the rules
    engine would rightly refuse. Every match has at least two seats, so none means it is gone.
    (`match_at_table` reads them with the row, where this cannot happen; it asks all the same.)
    """
    return not match.seats


def player_for(user: User, player_id: int) -> Player:
    """Return the account's player, or raise NotFound."""
    player = db.session.get(Player, player_id) if 0 < player_id <= MAX_ID else None
    if player is None or player.user_id != user.id:
        raise NotFound(gettext("There is no such player."))
    return player


def players(user: User, *, include_archived: bool = True) -> list[Player]:
    """Return the account's players by name."""
    query = select(Player).where(Player.user_id == user.id).order_by(Player.name_key)
    if not include_archived:
        query = query.where(Player.archived.is_(False))
    return list(db.session.scalars(query))


def player_choices(user: User) -> list[Row[tuple[int, str]]]:
    """Return the account's players by name as (id, name) rows, for a list to choose from.

    Only the two columns: whole players cost a filter's page more than the rest of its reads.
    """
    return list(db.session.connection().execute(_PLAYER_CHOICES, {"user_id": user.id}))


#: Built once, not on every page with a filter by player.
#: Read as plain rows on the session's connection, as a page that changes nothing reads (`shown_matches`).
_PLAYER_CHOICES = (
    select(_players.c.id, _players.c.name)
    .where(_players.c.user_id == bindparam("user_id"))
    .order_by(_players.c.name_key)
)


def api_tokens(user: User) -> list[ApiToken]:
    """Return the account's API tokens, newest first."""
    return list(
        db.session.scalars(select(ApiToken).where(ApiToken.user_id == user.id).order_by(ApiToken.created_at.desc()))
    )


def _listed(query: Select[Match], with_deals: bool) -> Select[Match]:
    """Load the seats and deals too, for whole match documents; or else neither the seats nor the
    cached result, which a list of matches takes from `card_facts` instead."""
    if with_deals:
        return query.options(selectinload(Match.seats), selectinload(Match.deals))
    return query.options(defer(Match.result), raiseload(Match.seats))


#: The filters of the lists of matches, each one chosen or not: (note, game, status, player).
Chosen = tuple[bool, bool, bool, bool]
NEWEST_FIRST = (Match.created_at.desc(), Match.id.desc())


#: The kinds of Unicode characters no note holds (`text.clean_note`): control, format and half a UTF-16 pair.
_NO_NOTE_HOLDS = frozenset({"Cc", "Cf", "Cs"})


def _chosen(
    user: User, game: str | None, player_id: int | None, status: str | None, note: str | None
) -> tuple[Chosen, dict[str, Any]]:
    """Return which filters apply and the values the statements of `_conditions` are run with."""
    # The note tidied as the notes are, so that what was typed is found. No note holds an invisible or
    # control character (the notes refuse them, and PostgreSQL could not even be sent a NUL byte to
    # look for): one typed here parts words as a space does.
    typed = "".join(" " if unicodedata.category(ch) in _NO_NOTE_HOLDS else ch for ch in note or "")
    words = unicodedata.normalize("NFC", " ".join(typed.split())).casefold()
    chosen = (bool(words), game in GAMES, status in STATUSES, player_id is not None and 0 < player_id <= MAX_ID)
    return chosen, {
        "user_id": user.id,
        "pattern": f"%{like_escaped(words)}%",
        "game": game,
        "status": status,
        "player_id": player_id,
    }


def _conditions(note: bool, game: bool, status: bool, player: bool) -> list[ColumnElement[bool]]:
    """Return the conditions of the account's matches filtered by what is chosen; the values are
    bound when the statement runs (see `_chosen`)."""
    conditions = [Match.user_id == bindparam("user_id")]
    if note:
        conditions.append(Match.note_key.like(bindparam("pattern"), escape="\\"))
    if game:
        conditions.append(Match.game == bindparam("game"))
    if status:
        conditions.append(Match.status == bindparam("status"))
    if player:
        conditions.append(Match.id.in_(select(Seat.match_id).where(Seat.player_id == bindparam("player_id"))))
    return conditions


def _filtered(
    user: User, game: str | None, player_id: int | None, status: str | None, note: str | None = None
) -> Select[Match]:
    chosen, values = _chosen(user, game, player_id, status, note)
    return select(Match).where(*_conditions(*chosen)).order_by(*NEWEST_FIRST).params(values)


def like_escaped(text: str) -> str:
    """Return text to be found as it is inside a LIKE pattern (escape character: backslash)."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def matches(user: User, *, with_deals: bool = False) -> list[Match]:
    """Return all the account's matches, newest first (`with_deals`: whole, for their documents)."""
    return list(db.session.scalars(_listed(_filtered(user, None, None, None), with_deals)))


def latest_matches(user: User, status: str, count: int) -> list[Match]:
    """Return the account's latest `count` matches of `status` (one of `STATUSES`), newest first, for a list."""
    return list(db.session.scalars(_latest_statement(status, count), {"user_id": user.id}))


@cache
def _latest_statement(status: str, count: int) -> Select[Match]:
    """Return the query of `latest_matches`, built once for each status and count, not on every home page.

    The status is written into it, and the count as a `fixed_limit`, so that PostgreSQL keeps a
    plan for each: priced for any status (a third of the account's matches) and any count, a
    kept plan looked dearer than planning again, and the home page's two lists were planned
    anew at every view.
    """
    assert status in STATUSES, status
    return _listed(
        select(Match)
        .where(Match.user_id == bindparam("user_id"), Match.status == bindparam("status", status, literal_execute=True))
        .order_by(*NEWEST_FIRST)
        .limit(fixed_limit(count)),
        False,
    )


#: Matches per page of the history (and of the API's list, unless it asks for another size).
PAGE_SIZE = 25
MAX_PAGE_SIZE = 100


def match_page(
    user: User,
    page: int,
    *,
    game: str | None = None,
    player_id: int | None = None,
    status: str | None = None,
    note: str | None = None,
    per_page: int = PAGE_SIZE,
    with_deals: bool = False,
) -> Page:
    """Return one page of the account's matches, newest first, filtered by game, player, status and
    words of their note (any case); a page past the last is empty."""
    chosen, values = _chosen(user, game, player_id, status, note)
    per_page = max(1, min(per_page, MAX_PAGE_SIZE))
    page = max(1, min(page, MAX_ID // per_page))
    query = select(Match).where(*_conditions(*chosen)).order_by(*NEWEST_FIRST)
    shown = _listed(query, with_deals).limit(per_page).offset((page - 1) * per_page)
    items = list(db.session.scalars(shown, values))
    count, _ = _history_statements(*chosen)
    return Page(items=items, page=page, per_page=per_page, total=db.session.scalar(count, values) or 0)


#: What the history shows of each match (its cards need nothing more): read as rows, not whole matches.
LISTED_COLUMNS = (Match.id, Match.game, Match.status, Match.note, Match.night_id, Match.created_at)
Listed = tuple[int, str, str, str | None, int | None, datetime]


def history_page(
    user: User,
    page: int,
    *,
    game: str | None = None,
    player_id: int | None = None,
    status: str | None = None,
    note: str | None = None,
) -> Page:
    """Return one page of the account's matches as rows of `LISTED_COLUMNS` (and their `total`), newest
    first, filtered as `match_page` filters them (one query; two for a page past the last)."""
    chosen, values = _chosen(user, game, player_id, status, note)
    count, rows = _history_statements(*chosen)
    page = max(1, min(page, MAX_ID // PAGE_SIZE))
    items = list(db.session.execute(rows, {**values, "limit": PAGE_SIZE, "offset": (page - 1) * PAGE_SIZE}))
    if items:
        total = items[0].total
    else:  # none on the first page: none at all; past the last page, counted on its own
        total = 0 if page == 1 else db.session.scalar(count, values) or 0
    return Page(items=items, page=page, per_page=PAGE_SIZE, total=total)


@cache
def _history_statements(*chosen: bool) -> tuple[Select[int], Select[*Listed, int]]:
    """Return the count and the page of the history with the filters chosen, built once rather
    than on every request (the values are bound when they run).

    The page carries the count beside each row: an uncorrelated subquery, which the database
    runs once, and one round trip fewer for the page on a database over the network.
    """
    conditions = _conditions(*chosen)
    # count(*), not count(id): PostgreSQL then counts on the account's index alone instead of
    # reading the whole table for the ids.
    count = select(func.count()).select_from(Match).where(*conditions)
    total = count.correlate(None).scalar_subquery().label("total")
    return (
        count,
        select(*LISTED_COLUMNS, total)
        .where(*conditions)
        .order_by(*NEWEST_FIRST)
        .limit(bindparam("limit"))
        .offset(bindparam("offset")),
    )


def seat_outcomes(match_ids: Sequence[int]) -> list[tuple[int, int, bool, int, str]]:
    """Return each seat of these matches as (match, side, won, deals, player's name), in seat order,
    from the derived rows in one query."""
    if not match_ids:
        return []
    return [
        (match_id, side, bool(won), deals, name)
        for match_id, side, won, deals, name in db.session.execute(_seat_outcomes_query(), {"ids": list(match_ids)})
    ]


@cache
def _seat_outcomes_query() -> Select[int, int, bool, int, str]:
    """Return the query of `seat_outcomes`, built once: the ids are bound when it runs, as building a
    statement around a page's 25 ids cost more than running it."""
    return (
        select(PlayerResult.match_id, PlayerResult.side, PlayerResult.won, PlayerResult.deals, Player.name)
        .join(Player, Player.id == PlayerResult.player_id)
        .where(PlayerResult.match_id.in_(bindparam("ids", expanding=True)))
        .order_by(PlayerResult.match_id, PlayerResult.seat)
    )
