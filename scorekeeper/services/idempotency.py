"""Requests sent again (a phone coming back online): the key each change was sent with, kept with it,
so that a change sent twice is made once."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import Row, bindparam, delete, insert, select

from ..errors import Conflict, ServiceError
from ..extensions import db
from ..models import IdempotencyKey, Match, utcnow
from ..reads.documents import api_view
from ..rules import RuleViolation
from ..text import plain_text

MAX_IDEMPOTENCY_KEY = 100


def usable_key(key: str | None) -> str | None:
    """Return an idempotency key that can be stored (printable, at most 100 characters), else None."""
    return plain_text(key, MAX_IDEMPOTENCY_KEY) if key else None


def _earlier(user_id: int, match_id: int, key: str | None) -> Row[Any, Any] | None:
    """Return the stored answer to an earlier request for the account's match with this idempotency
    key, if there was one.

    A key belongs to the one match it was first sent for: raise Conflict if the account used it
    for another match, rather than let the request pass for a retry that stored nothing here.
    """
    if key is None:
        return None
    earlier = db.session.execute(_EARLIER, {"user_id": user_id, "key": key}).first()
    if earlier is not None and earlier.match_id != match_id:
        raise Conflict(
            _(
                "This entry was sent before for another match, so it was not stored here. "
                "Reload the page and enter it again."
            ),
            "idempotency_key",
        )
    return earlier


def sent_before(user_id: int, match_id: int, key: str | None) -> bool:
    """Tell whether a change of the account's match `match_id` was made already with this idempotency key
    (a phone sending again what it sent before its connection dropped), so that it is answered as made
    whatever the match's state."""
    key = usable_key(key)
    try:
        return _earlier(user_id, match_id, key) is not None
    except Conflict:  # the key made a change of another match
        return False


#: How long a phone may take to send a deal again: its key is kept that long, then forgotten.
IDEMPOTENCY_KEY_LIFETIME = timedelta(days=7)


def remember(match: Match, key: str | None, answer: bool) -> None:
    """Keep the idempotency key with the change it made (inside the change's transaction), with
    the API's answer when `answer` is set (the pages answer with the scoreboard as it is then)."""
    row = key_row(match, key)
    if row is not None:
        db.session.flush()
        if answer:
            row["body"] = api_view(match)
        db.session.execute(_KEEP_KEY, [row])


def key_row(match: Match, key: str | None) -> dict[str, Any] | None:
    """Return the row that keeps an idempotency key (if it can be stored) with the change it makes to
    `match`, for that change to store; else None."""
    key = usable_key(key)
    if not key:
        return None
    return {"user_id": match.user_id, "key": key, "match_id": match.id, "body": None, "created_at": utcnow()}


def forget_old_keys(user_id: int) -> None:
    """Forget the account's keys old enough that no phone will send them again (inside a transaction).

    Called when the account starts a match, not with every deal: a deal is the change a table
    waits for, and it waited for this DELETE each time; the keys of a match that lasts for
    weeks stay until the next one starts.
    """
    db.session.execute(_FORGET_OLD_KEYS, {"user_id": user_id, "before": utcnow() - IDEMPOTENCY_KEY_LIFETIME})


# Built once, on the table's columns: plain SQL statements the session sends as they are.
_keys = IdempotencyKey.__table__
#: What a key made: its match, and the API's answer (a plain row: it is read before every keyed change).
_EARLIER = select(_keys.c.match_id, _keys.c.body).where(
    _keys.c.user_id == bindparam("user_id"), _keys.c.key == bindparam("key")
)
_FORGET_OLD_KEYS = delete(_keys).where(
    _keys.c.user_id == bindparam("user_id"), _keys.c.created_at < bindparam("before")
)
_KEEP_KEY = insert(_keys)


@dataclass(frozen=True)
class Sent:
    """What a change sent with an idempotency key came to."""

    match: Match
    #: True when the key had made its change already (a retry): nothing was changed now.
    repeated: bool
    #: What the API answered the first time, when that request kept its answer (the pages keep none).
    first_answer: dict[str, Any] | None = None


def once(match: Match, key: str | None, change: Callable[[str | None], Match]) -> Sent:
    """Make a change of `match` sent with an idempotency key, unless the key made it already.

    `change` is the service that makes it (one transaction), called with the key to keep. The
    change is tried first and the key looked up only when it fails: nearly every request is
    sent once, and looking first cost each a statement (on PostgreSQL a round trip) for the
    rare retry. A retry fails, since storing its key again breaks the key's uniqueness (Conflict)
    if nothing before that refused it (another number expected, a match over, a lost race), and
    then answers as a retry with the first answer; a key first used for another match raises
    Conflict. Any other failure, with a key not seen before, is raised on. Without a key the
    change is simply made.
    """
    key = usable_key(key)
    # Read before the change: its rollback expires the match, which another request may have
    # deleted meanwhile (its keys with it), and reading it again would then fail.
    user_id, match_id = match.user_id, match.id
    try:
        return Sent(change(key), repeated=False)
    except (ServiceError, RuleViolation):
        earlier = _earlier(user_id, match_id, key)
        if earlier is None:
            raise
    return Sent(match, repeated=True, first_answer=earlier.body)
