"""What every change shares: one transaction per public service function, and the checks of typed text."""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ParamSpec, TypeVar

from flask_babel import gettext as _
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from ..errors import Conflict, InvalidInput
from ..extensions import db

MAX_NAME_LENGTH = 40

P = ParamSpec("P")
T = TypeVar("T")


@contextmanager
def _transaction() -> Iterator[None]:
    """Commit what the block did, or roll all of it back; turn lost races into `Conflict`."""
    try:
        yield
        db.session.commit()
    except (IntegrityError, StaleDataError) as error:
        db.session.rollback()
        raise Conflict(_("Someone else changed this at the same moment. Reload the page and try again.")) from error
    except BaseException:
        db.session.rollback()
        raise


def atomic(function: Callable[P, T]) -> Callable[P, T]:
    """Make `function` one transaction: committed when it returns, rolled back whole when it raises."""
    @functools.wraps(function)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        with _transaction():
            return function(*args, **kwargs)

    return wrapper


def clean_name(name: str, field: str = "name") -> str:
    """Return a player or token name with its spaces tidied and its Unicode composed;
    refuse an empty or overlong one, or one with invisible control characters."""
    tidy = unicodedata.normalize("NFC", " ".join(str(name).split()))
    if not tidy:
        raise InvalidInput(_("Type a name."), field)
    if len(tidy) > MAX_NAME_LENGTH:
        raise InvalidInput(_("A name has at most %(count)s characters.", count=MAX_NAME_LENGTH), field)
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs") for ch in tidy):  # Cs: half a UTF-16 pair, from JSON
        raise InvalidInput(_("A name cannot hold invisible or control characters."), field)
    return tidy


def plain_text(value: object, longest: int) -> str | None:
    """Return `value` if it is text without control characters (NUL included) or lone surrogates, of at most `longest`."""
    if not isinstance(value, str) or len(value) > longest:
        return None
    return None if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in value) else value
