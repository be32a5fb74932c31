"""The account's lock, which every change of its matches' facts takes before it writes, and the reads
made under it: a match's deals (as objects or as facts), and the owner's match to change with them.

The write side: the services and the upkeep of the derived tables call it, from inside their transaction.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Text, bindparam, func, inspect, literal, select
from sqlalchemy.dialects.postgresql import aggregate_order_by
from sqlalchemy.orm import joinedload
from sqlalchemy.orm.attributes import set_committed_value

from ..extensions import db
from ..models import MAX_ID, Deal, Match, User
from ..reads.table import DEALS_TO_CHANGE, deals_to_change


def lock_figures(user_id: int) -> None:
    """Make the account's changes that rebuild ratings, summaries and pair records wait for each other.

    Each of those is built from the account's other matches: two matches of the same players
    finishing at the same moment must not each rebuild them from a reading without the other
    (on PostgreSQL, under READ COMMITTED, the second would also re-insert rows the first just
    inserted). Locking the account's row serialises them, and every statement after the lock
    sees what the first one committed. FOR NO KEY UPDATE, because every insert of a derived
    row holds a KEY SHARE lock on it (its foreign key), which plain FOR UPDATE would wait for.
    A transaction locks once: the lock lasts until it ends. The changes of a match take it before
    they write anything (`services.matches`), since under the lock they also write other
    matches' rows (their nights): one order for all, or two phones could deadlock. SQLite has
    no row locks: there the transaction takes the database's write lock instead
    (`_begin_writing_on_sqlite`), which makes every other change wait, the account's among them.
    """
    if db.session.get_bind().dialect.name == "sqlite":
        _begin_writing_on_sqlite()
    elif _to_lock(user_id):
        db.session.execute(_LOCK_ACCOUNT, {"user_id": user_id})
        _locked(user_id)


def _begin_writing_on_sqlite() -> None:
    """Begin the session's transaction on SQLite as one that writes (BEGIN IMMEDIATE), unless it has written.

    Python's sqlite3 begins a transaction at its first write, not before: what a change reads
    first (is there a season of that name already? a rematch of this match?) is read outside it,
    and another phone's change could commit between that read and the write, each of two phones
    then finding nothing and both writing. Begun as a write, the transaction holds SQLite's write
    lock until it ends: another change waits for it (up to the busy timeout), and every read after
    this one sees what the changes before it committed.
    """
    connection = db.session.connection()
    if not getattr(connection.connection.dbapi_connection, "in_transaction", True):
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def wait_for_changes(user_id: int) -> None:
    """Wait until the account's change in progress, if any, has ended, so that what is read next holds it.

    A share lock on the account's row, which `lock_figures` holds exclusively until its change
    commits; readers do not wait for each other, and a change that begins meanwhile waits only
    until this transaction ends. SQLite writes one transaction at a time: the write that follows
    waits instead, and nothing is sent.
    """
    if db.session.get_bind().dialect.name != "sqlite":
        db.session.execute(_WAIT_FOR_CHANGES, {"user_id": user_id})


def lock_match(match: Match) -> None:
    """Lock the match's account (`lock_figures`) and read its deals, as objects to change, if they
    were not read yet (`reads.table.match_at_table` without them): on PostgreSQL in the lock's own
    statement, one round trip fewer for every deal entered, and so under the lock."""
    if "deals" in inspect(match).dict:  # read already
        lock_figures(match.user_id)
        return
    if _to_lock(match.user_id):
        deals = list(db.session.scalars(_DEALS_UNDER_LOCK, {"match_id": match.id, "user_id": match.user_id}))
        _locked(match.user_id)
    else:
        deals = deals_to_change(match.id)
    set_committed_value(match, "deals", deals)


def facts_under_lock(match: Match) -> list[dict[str, Any]]:
    """Lock the match's account (`lock_figures`) and return its deals' facts in order: those of the
    deals read already, else read as rows (on PostgreSQL in the lock's own statement, as `lock_match`).

    Adding a deal needs the facts alone: loading a long match's deals as objects through the
    session is several times the work of reading them as rows, on every deal entered.
    """
    if "deals" in inspect(match).dict:  # read already
        lock_figures(match.user_id)
        return [deal.data for deal in match.deals]
    session = db.session()
    kept: tuple[object, int, list[dict[str, Any]]] | None = session.info.pop(_FACTS_KEPT, None)
    if kept is not None and kept[0] is session.get_transaction() and kept[1] == match.id:
        return kept[2]  # read with the match, under the lock (`own_match_to_change`)
    locking = _to_lock(match.user_id)
    facts = list(
        db.session.connection()
        .execute(_FACTS_UNDER_LOCK if locking else _FACTS, {"match_id": match.id, "user_id": match.user_id})
        .scalars()
    )
    if locking:
        _locked(match.user_id)
    return facts


def _to_lock(user_id: int) -> bool:
    """Tell whether the account is still to be locked: not on SQLite, nor where the transaction holds it."""
    session = db.session()
    if session.get_bind().dialect.name == "sqlite":
        return False
    held: tuple[object, set[int]] | None = session.info.get(_LOCKED)
    transaction = session.get_transaction()
    return not (transaction is not None and held is not None and held[0] is transaction and user_id in held[1])


def _locked(user_id: int) -> None:
    """Note that the session's transaction (begun by the statement that locked it) holds the account's lock."""
    session = db.session()
    held: tuple[object, set[int]] | None = session.info.get(_LOCKED)
    transaction = session.get_transaction()
    if held is None or held[0] is not transaction:
        held = session.info[_LOCKED] = (transaction, set())
    held[1].add(user_id)


#: Where the session notes the accounts its transaction has locked (with that transaction).
_LOCKED = "scorekeeper.figures_locked"
_users = User.__table__
_LOCK_ACCOUNT = select(_users.c.id).where(_users.c.id == bindparam("user_id")).with_for_update(key_share=True)
_WAIT_FOR_CHANGES = select(_users.c.id).where(_users.c.id == bindparam("user_id")).with_for_update(read=True)
#: A match's deals as `reads.table.deals_to_change` reads them, read once the account is locked: the
#: lock is an uncorrelated EXISTS, which PostgreSQL evaluates once, before it reads any deal.
_DEALS_UNDER_LOCK = DEALS_TO_CHANGE.where(_LOCK_ACCOUNT.exists())
_deals = Deal.__table__
#: A match's deals' facts in order, as rows; and the same once the account is locked.
_FACTS = select(_deals.c.data).where(_deals.c.match_id == bindparam("match_id")).order_by(_deals.c.number)
_FACTS_UNDER_LOCK = _FACTS.where(_LOCK_ACCOUNT.exists())


def own_match_to_change(user_id: int, match_id: int) -> Match | None:
    """Return the account's match `match_id` with its seats, to change it, its deals' facts read in the same
    statement; None if the account has no such match, or where the account's lock is held already.

    `facts_under_lock` then hands those facts to the change: a deal entered from the owner's
    phone reads its match once. On PostgreSQL the statement also locks the account
    (`lock_figures`), so it is sent only where the transaction does not hold the lock yet; SQLite
    writes one transaction at a time and takes no lock. Only the account's own match is read
    so, so that a request locks no account but that of whoever sent it (a phone that joined
    through an entry link reads the match as before, and the change locks it).
    """
    session = db.session()
    sqlite = session.get_bind().dialect.name == "sqlite"
    if not (0 < match_id <= MAX_ID and (sqlite or _to_lock(user_id))):
        return None
    statement = _OWN_MATCH_WITH_FACTS if sqlite else _OWN_MATCH_UNDER_LOCK
    found = session.execute(statement, {"match_id": match_id, "user_id": user_id}).unique().first()
    if found is None:
        # The lock is taken first as a rule (a one-time filter), but no row cannot prove it: not noted
        # as held, it is at worst asked for again by a change that follows.
        return None
    if not sqlite:
        _locked(user_id)
    if not found[0].seats:
        return None
    match: Match = found[0]
    facts: list[Any] = json.loads(found[1]) if found[1] else []
    if sqlite:  # numbered, since SQLite's json_group_array keeps no order it is told
        facts = [data for _number, data in sorted(facts, key=lambda numbered: numbered[0])]
    session.info[_FACTS_KEPT] = (session.get_transaction(), match_id, facts)
    return match


#: Where the session keeps the facts `own_match_to_change` read under the lock, with the transaction and match.
_FACTS_KEPT = "scorekeeper.facts_kept"
#: The facts of the match's deals in order as one JSON array (NULL for none), as text: the ORM's
#: joined seats make one row per seat, and the result keeps each match once by hashing its rows.
#: Correlated with the match's row, not given its id: PostgreSQL then estimates the deals a match
#: has the same for every match, keeps one plan for the statement, and does not plan it again
#: at every deal, as it did on a short history, where the estimate for the id given was lower.
_FACTS_IN_ONE = (
    select(func.json_agg(aggregate_order_by(_deals.c.data, _deals.c.number)).cast(Text))
    .where(_deals.c.match_id == Match.id)
    .scalar_subquery()
)
#: The owner's match with its seats and its deals' facts, once the account is locked (PostgreSQL only).
_OWN_MATCH_UNDER_LOCK = (
    select(Match, _FACTS_IN_ONE)
    .options(joinedload(Match.seats))
    .where(Match.id == bindparam("match_id"), Match.user_id == bindparam("user_id"), _LOCK_ACCOUNT.exists())
)
#: The same on SQLite, without a lock: a JSON array of [number, facts] pairs, since SQLite (before 3.44)
#: cannot order what it gathers. Joined as text: the facts are stored as JSON text already, and
#: SQLite's json functions would parse each deal's again only to write it back. Given the match's id,
#: not correlated with its row: SQLite then reads the deals once, not once for each seat's row.
_NUMBERED_FACTS = (
    select(
        literal("[")
        + func.group_concat(
            literal("[") + _deals.c.number.cast(Text) + literal(",") + _deals.c.data.cast(Text) + literal("]")
        )
        + literal("]")
    )
    .where(_deals.c.match_id == bindparam("match_id"))
    .scalar_subquery()
)
_OWN_MATCH_WITH_FACTS = (
    select(Match, _NUMBERED_FACTS)
    .options(joinedload(Match.seats))
    .where(Match.id == bindparam("match_id"), Match.user_id == bindparam("user_id"))
)
