"""The account's lock, which makes the changes that rebuild an account's figures and nights wait
for each other (see `figures.upkeep.lock_figures`, which explains why and when).

It is taken by a statement of its own, or, for a match about to be changed, by the very
statement that reads the match (`queries.match_at_table`): on a database over the network
each statement is a round trip, and every deal entered takes the lock. Either way the session
notes it, so that a transaction locks once. Here, not with the writers: a read takes it too.
"""

from __future__ import annotations

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from .models import User

#: Where the session notes the accounts its transaction has locked (with that transaction).
_LOCKED = "scorekeeper.figures_locked"
_users = User.__table__
#: FOR NO KEY UPDATE, because every insert of a derived row holds a KEY SHARE lock on the
#: account's row (its foreign key), which plain FOR UPDATE would wait for.
LOCK_ACCOUNT = select(_users.c.id).where(_users.c.id == bindparam("user_id")).with_for_update(key_share=True)


def has_row_locks(session: Session) -> bool:
    """Tell whether the database locks rows: SQLite writes one transaction at a time instead (and
    SQLAlchemy would send a plain SELECT for it)."""
    return session.get_bind().dialect.name != "sqlite"


def holds_lock(session: Session, user_id: int) -> bool:
    """Tell whether the session's transaction has locked the account already."""
    held: tuple[object, set[int]] | None = session.info.get(_LOCKED)
    transaction = session.get_transaction()
    return transaction is not None and held is not None and held[0] is transaction and user_id in held[1]


def note_locked(session: Session, user_id: int) -> None:
    """Note that the session's transaction (begun by the statement that took it) holds the account's lock."""
    held: tuple[object, set[int]] | None = session.info.get(_LOCKED)
    transaction = session.get_transaction()
    if held is None or held[0] is not transaction:
        held = session.info[_LOCKED] = (transaction, set())
    held[1].add(user_id)
