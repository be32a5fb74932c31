"""Entry links: the secret address through which the other phones at the table enter a match's deals."""

from __future__ import annotations

import secrets

from flask_babel import gettext as _
from sqlalchemy import update

from ..errors import Conflict
from ..extensions import db
from ..keys import hash_token
from ..models import PLAYING, EntryLink, Match, utcnow
from .base import atomic


def _stop_all(match: Match) -> None:
    db.session.execute(update(EntryLink).where(EntryLink.match_id == match.id, EntryLink.stopped_at.is_(None))
                       .values(stopped_at=utcnow()))


@atomic
def open_entry_link(match: Match) -> str:
    """Give the match a new entry link (any older one stops at once); return its secret, which is kept only hashed."""
    if match.status != PLAYING:
        raise Conflict(_("This match is over: nobody can enter its deals any more."))
    _stop_all(match)
    # 32 random bytes: 256 bits, far beyond guessing even without the rate limit.
    secret = secrets.token_urlsafe(32)
    db.session.add(EntryLink(match_id=match.id, key_hash=hash_token(secret)))
    return secret


@atomic
def stop_entry_link(match: Match) -> None:
    """Stop the match's entry link: every phone that entered through it is shut out at once."""
    _stop_all(match)
