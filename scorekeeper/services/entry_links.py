"""Entry links: the secret address through which the other phones at the table enter a match's deals."""

from __future__ import annotations

from flask_babel import gettext as _
from sqlalchemy import update

from ..accounts.keys import ENTRY_LINK, new_link_key
from ..errors import Conflict
from ..extensions import db
from ..figures.locks import lock_figures
from ..models import PLAYING, EntryLink, Match, utcnow
from .base import atomic, check_version


def stop_links(match_id: int) -> None:
    """Stop the match's lasting entry link, if any (inside a transaction)."""
    db.session.execute(
        update(EntryLink)
        .where(EntryLink.match_id == match_id, EntryLink.stopped_at.is_(None))
        .values(stopped_at=utcnow())
    )


@atomic
def open_entry_link(match: Match, expected_version: int | None = None) -> str:
    """Give the match a new entry link (any older one stops at once); return its secret, of which
    only a hash and the salt it was drawn from are kept (see `keys.link_secret`). With
    `expected_version`, refuse (PreconditionFailed) if the match is no longer at that version."""
    check_version(match, expected_version)
    if match.status != PLAYING:
        raise Conflict(_("This match is over: nobody can enter its deals any more."))
    # Under the account's lock: a link made at the same moment on another phone is committed before
    # this one stops the lasting links (under READ COMMITTED, an update cannot see a row that another
    # transaction has yet to commit, and both links would last).
    lock_figures(match.user_id)
    stop_links(match.id)
    key = new_link_key(ENTRY_LINK)
    db.session.add(EntryLink(match_id=match.id, key_hash=key.key_hash, salt=key.salt))
    return key.secret


@atomic
def stop_entry_link(match: Match, expected_version: int | None = None) -> None:
    """Stop the match's entry link: every phone that entered through it is shut out at once."""
    check_version(match, expected_version)
    lock_figures(match.user_id)  # as `open_entry_link`: a link made meanwhile is stopped too
    stop_links(match.id)
