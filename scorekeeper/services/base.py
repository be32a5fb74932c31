"""What every change shares: one transaction per public service function, and the check of the version
a change was meant for."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ParamSpec, Protocol, TypeVar

from flask_babel import gettext as _
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm.exc import StaleDataError

from ..errors import Conflict, PreconditionFailed
from ..extensions import db

P = ParamSpec("P")
T = TypeVar("T")

#: PostgreSQL's codes for a transaction it rolled back to let another one through: a deadlock
#: it broke, or a serialization failure.
_LOST_TO_ANOTHER = {"40P01", "40001"}


@contextmanager
def _transaction() -> Iterator[None]:
    """Commit what the block did, or roll all of it back; turn lost races into `Conflict`."""
    try:
        yield
        db.session.commit()
    except (IntegrityError, StaleDataError) as error:
        db.session.rollback()
        raise _conflict() from error
    except OperationalError as error:
        db.session.rollback()
        if getattr(error.orig, "sqlstate", None) in _LOST_TO_ANOTHER:
            raise _conflict() from error
        raise
    except BaseException:
        db.session.rollback()
        raise


def _conflict() -> Conflict:
    return Conflict(_("Someone else changed this at the same moment. Reload the page and try again."))


def atomic(function: Callable[P, T]) -> Callable[P, T]:
    """Make `function` one transaction: committed when it returns, rolled back whole when it raises."""

    @functools.wraps(function)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        with _transaction():
            return function(*args, **kwargs)

    return wrapper


class Versioned(Protocol):
    """What a change's version check reads: the version of the match as the change found it."""

    version: int


def check_version(match: Versioned, expected_version: int | None, *, deal: bool = False) -> None:
    """Refuse a change meant for another version of the match than the one read (an If-Match, a form's version).

    Read in the change's own transaction; a change made by another phone at the same moment is
    still caught when the match's row is written (its version is checked there too: Conflict).
    """
    if expected_version is not None and expected_version != match.version:
        raise PreconditionFailed(
            _("This match changed since the page was opened. Reload it and check the deal again.")
            if deal
            else _("This match changed since it was read. Read it again before changing it.")
        )
