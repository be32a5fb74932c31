"""A page of a long list whose total is already known, and where its neighbouring pages are: the one
page every list of the app (the history, the API's matches, nights, head-to-head) is cut into.

Written here rather than taken from Flask-SQLAlchemy, whose pages hold each row's first
column and count their total with a query of their own: the head-to-head rows are whole,
the pair's record already knows how many there are, and the history reads its total beside
its rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Page:
    """One page of `total` items, `per_page` to a page (the pager of `_forms.html` shows it)."""

    items: list[Any]
    page: int
    per_page: int
    total: int

    @property
    def pages(self) -> int:
        """Return how many pages the items fill."""
        return -(-self.total // self.per_page)

    @property
    def has_prev(self) -> bool:
        """Tell whether a page comes before this one."""
        return self.page > 1

    @property
    def has_next(self) -> bool:
        """Tell whether a page follows this one."""
        return self.page < self.pages

    @property
    def prev_num(self) -> int | None:
        """Return the number of the page before, if there is one."""
        return self.page - 1 if self.has_prev else None

    @property
    def next_num(self) -> int | None:
        """Return the number of the page after, if there is one."""
        return self.page + 1 if self.has_next else None
