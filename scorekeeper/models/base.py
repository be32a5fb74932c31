"""What every table shares: the declarative base, timestamps kept in UTC, and the limits of ids and texts."""

from __future__ import annotations

import unicodedata
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from sqlalchemy import DateTime
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator

from ..extensions import Base, db

if TYPE_CHECKING:
    # Flask-SQLAlchemy builds `db.Model` at run time from the declarative `Base` (adding its
    # table-name and session wiring), so a type checker cannot see it as a class. Models are
    # typed as subclasses of `Base`, which is what `db.Model` is built on; no model uses
    # what Flask-SQLAlchemy adds (`Model.query`).
    Model = Base
else:
    Model = db.Model

PLAYING = "playing"
FINISHED = "finished"
ABANDONED = "abandoned"
STATUSES = (PLAYING, FINISHED, ABANDONED)
#: The largest id an integer column holds on every database; a larger id names nothing.
MAX_ID = 2**31 - 1
#: Room for a game's name (the engine's registry names each game), with space for games to come.
GAME_NAME_LENGTH = 32
#: Room for a name of 40 characters once case-folded (which can make it up to three times longer).
NAME_KEY_LENGTH = 160
#: The longest note that can be typed, in characters once its Unicode is composed (NFC).
MAX_NOTE_LENGTH = 200
#: The room a stored note has: versions before 0.2 counted a note's length before composing it,
#: which can make a text up to three times longer, and an export of theirs must import.
NOTE_ROOM = 3 * MAX_NOTE_LENGTH


#: The pauses between matches, in hours, after which an account may have a new game night begin
#: (its choice), and the one it starts with.
NIGHT_GAP_HOURS = range(1, 13)
DEFAULT_NIGHT_GAP_HOURS = 4


def utcnow() -> datetime:
    """Return the current time in UTC."""
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp kept as naive UTC in every database and handed out aware, in UTC."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("timestamps must carry a time zone")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        return None if value is None else value.replace(tzinfo=UTC)


def name_key(name: str) -> str:
    """Return the form of a name that tells names apart: trimmed, spaces folded, case and composition ignored."""
    return unicodedata.normalize("NFC", " ".join(name.split()).casefold())
