"""What the statements of every layer share."""

from __future__ import annotations

from sqlalchemy import ColumnElement, Integer, literal_column


def fixed_limit(count: int) -> ColumnElement[int]:
    """Return a LIMIT of `count` rows written into the statement rather than sent as a parameter.

    PostgreSQL keeps one plan for a prepared statement only while that plan looks no dearer
    than planning again for the values at hand. Not knowing how many rows a LIMIT parameter
    asks for, it supposes a tenth of all those the query could find, and then prices a kept
    plan for "the latest one" like a walk of the whole account: each statement with such a
    LIMIT was planned anew at every run, which took longer than running it.
    """
    return literal_column(str(int(count)), Integer)
