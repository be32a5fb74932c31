"""The reads of the match a table is playing: the match to change, with its seats and deals, and
how a phone reaches it (a live view's secret, an entry link, the version the page shows).

Scoped like every read: a match of another account, or one deleted meanwhile, is NotFound.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.orm import joinedload, load_only
from sqlalchemy.orm.attributes import set_committed_value

from ..accounts.keys import hash_token, looks_like_key, looks_like_preview_key
from ..errors import NotFound
from ..extensions import db
from ..i18n import gettext
from ..models import (
    MAX_ID,
    Deal,
    EntryLink,
    Match,
    User,
)
from .queries import deleted_while_read


def match_for(user: User, match_id: int, *, deals: bool = True) -> Match:
    """Return the account's match, or raise NotFound (also for another account's match); `deals` as
    `match_at_table` takes it."""
    return _of_account(user, match_at_table(match_id, deals=deals))


def _of_account(user: User, match: Match) -> Match:
    """Return the match if it is the account's, else raise NotFound (as for a match that does not exist)."""
    if match.user_id != user.id:
        raise NotFound(gettext("There is no such match."))
    return match


def match_for_share(secret: str) -> Match:
    """Return the match shared under this live-view secret, or raise NotFound."""
    match = (
        db.session.scalar(select(Match).where(Match.share_key_hash == hash_token(secret)))
        if looks_like_key(secret)
        else None
    )
    if match is None or deleted_while_read(match):
        raise NotFound(gettext("This live view is no longer shared."))
    return match


def match_for_preview(key: str) -> Match:
    """Return the match whose live view's link preview has this key, or raise NotFound.

    The key opens no live view: it shows the match's card, so that a chat app given the link can
    preview it.
    """
    found = looks_like_preview_key(key)
    match = db.session.scalar(select(Match).where(Match.share_preview == key)) if found else None
    if match is None or match.share_key_hash is None or deleted_while_read(match):
        raise NotFound(gettext("This live view is no longer shared."))
    return match


def entry_link_by_secret(secret: str) -> tuple[EntryLink, int] | None:
    """Return the lasting (not stopped) entry link with this secret, with the account whose match it
    opens; or None."""
    if not looks_like_key(secret):
        return None
    found = db.session.execute(_LASTING_LINKS["by secret"], {"key_hash": hash_token(secret)}).first()
    return (found[0], found[1]) if found is not None else None


def joined_link(link_id: int, match_id: int, key_hash: str, account_id: int) -> EntryLink | None:
    """Return the lasting entry link a phone joined match `match_id` through, or None.

    The phone's session names the link by its id, its hash and the match's account, and all of
    them must still be what they were: ids alone could name another link and match one day.
    """
    link: EntryLink | None = db.session.scalar(
        _LASTING_LINKS["joined"],
        {"link_id": link_id, "match_id": match_id, "key_hash": key_hash, "account_id": account_id},
    )
    return link


#: The lasting entry links, found two ways, built once: a phone at the table asks on every request.
_lasting = EntryLink.stopped_at.is_(None)
_of_match = Match.id == EntryLink.match_id
_LASTING_LINKS: dict[str, Any] = {
    "by secret": select(EntryLink, Match.user_id)
    .join(Match, _of_match)
    .where(_lasting, EntryLink.key_hash == bindparam("key_hash")),
    "joined": select(EntryLink)
    .join(Match, _of_match)
    .where(
        _lasting,
        EntryLink.id == bindparam("link_id"),
        EntryLink.match_id == bindparam("match_id"),
        EntryLink.key_hash == bindparam("key_hash"),
        Match.user_id == bindparam("account_id"),
    ),
}


def match_version(match_id: int) -> tuple[int, int] | None:
    """Return the account and the version of match `match_id` (what a scoreboard asks every few seconds), or None."""
    if not 0 < match_id <= MAX_ID:
        return None
    found = db.session.execute(select(Match.user_id, Match.version).where(Match.id == match_id)).first()
    return (found[0], found[1]) if found is not None else None


#: A match with its seats and their players in one statement, and its deals in a second, as objects
#: to change them (a page that only shows a match reads rows: `shown_matches`). Built once:
#: building the statements and their cache keys on every request (as `Session.get` and a
#: relationship's loader do) cost as much as the reads themselves.
_MATCH_WITH_SEATS = select(Match).options(joinedload(Match.seats)).where(Match.id == bindparam("match_id"))
#: A match's deals as objects, to be changed: each one's number and facts (their dates, which only
#: an export shows, are left to load if asked for: a change never reads them, and turning two
#: stored dates back into datetimes for each of a long match's deals is work for nothing).
DEALS_TO_CHANGE = (
    select(Deal)
    .options(load_only(Deal.number, Deal.data))
    .where(Deal.match_id == bindparam("match_id"))
    .order_by(Deal.number)
)


def _match_with_seats(match_id: int) -> Match:
    """Return a match with its seats and their players, without its deals; or raise NotFound if it is gone."""
    match = (
        db.session.execute(_MATCH_WITH_SEATS, {"match_id": match_id}).unique().scalar_one_or_none()
        if 0 < match_id <= MAX_ID
        else None
    )
    if match is None or deleted_while_read(match):
        raise NotFound(gettext("There is no such match."))
    return match


def match_at_table(match_id: int, *, deals: bool = True) -> Match:
    """Return a match, whole, to be changed (its deals as objects), or raise NotFound if it is gone.

    Without `deals`, its deals are left for the change to read under the account's lock
    (`figures.locks.facts_under_lock` or `lock_match`), or else for the relationship to load when asked for.
    """
    match = _match_with_seats(match_id)
    if deals:
        # The deals filled in as the relationship's loader would, by a statement built once (the
        # loader builds its statement and cache key again for every match).
        set_committed_value(match, "deals", deals_to_change(match_id))
    return match


def deals_to_change(match_id: int) -> list[Deal]:
    """Return a match's deals as objects to change, by number (each one's number and facts)."""
    return list(db.session.scalars(DEALS_TO_CHANGE, {"match_id": match_id}))
