"""What every change shares: one transaction per public service function."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ParamSpec, TypeVar

from flask_babel import gettext as _
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm.exc import StaleDataError

from ..errors import Conflict
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
