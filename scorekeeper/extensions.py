"""The Flask extensions, created unbound so that `create_app` can bind them to each app."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from flask import Flask
from flask_babel import Babel
from flask_compress import Compress
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_login import LoginManager
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy import MetaData, Table, event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Session

from .db.private_files import protect_sqlite_database

# Named constraints so that migrations can alter them on every database, SQLite included.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """The declarative base of every model."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)

    if TYPE_CHECKING:
        # SQLAlchemy types `__table__` as any selectable a class may be mapped to; every model
        # here declares a table of its own (`__tablename__`), which Core's insert, update and
        # delete take.
        __table__: ClassVar[Table]


db = SQLAlchemy(model_class=Base)
migrate = Migrate(render_as_batch=True)
csrf = CSRFProtect()
login_manager = LoginManager()
babel = Babel()
#: Compressed answers (zstd, brotli or gzip, as the browser takes them); bound by `assets.register`.
compress = Compress()
#: Rate limits (sign-in attempts); the storage is RATELIMIT_STORAGE_URI (memory by default,
#: redis://… to share the counts between several app processes or hosts).
limiter = Limiter(key_func=get_remote_address)


def configure_sqlite(engine: Engine, busy_timeout: int) -> None:
    """Make the database file owner-only; turn on foreign keys, WAL and a busy timeout on every connection."""
    if engine.dialect.name != "sqlite":
        return
    # The file holds password and token hashes: nobody but its owner may read it.
    protect_sqlite_database(engine.url.database)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout) * 1000}")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()


def end_reads_with_commit(app: Flask) -> None:
    """End the transaction a request leaves open, when it only read, with COMMIT rather than ROLLBACK.

    Flask-SQLAlchemy ends every request by closing its session, which rolls back whatever is
    still open. psycopg forgets on a rollback every statement it has prepared on that connection
    (it prepares one at its fifth use) and has the server deallocate them all: so on PostgreSQL
    no page's read stayed prepared, and the first page after every change waited for a
    DEALLOCATE ALL. Changes are made and committed by the service layer's own transactions;
    a request that failed, left a change unflushed or flushed one is still rolled back.
    """

    @app.teardown_request
    def _commit_reads(error: BaseException | None) -> None:
        session = db.session()
        transaction = session.get_transaction()
        if (
            error is None
            and transaction is not None
            and session.info.get(_FLUSHED) is not transaction
            and not (session.new or session.dirty or session.deleted)
        ):
            try:
                session.commit()
            except SQLAlchemyError:  # the connection was lost: nothing was to be kept
                session.rollback()


#: Where a session notes the transaction in which it last flushed changes.
_FLUSHED = "scorekeeper.flushed_in"


@event.listens_for(db.session, "after_flush")
def _note_flush(session: Session, _context: Any) -> None:
    """Note that the session's transaction has sent changes (which only its own commit may keep)."""
    session.info[_FLUSHED] = session.get_transaction()
