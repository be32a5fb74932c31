"""The pager of a list whose total is known: where the neighbouring pages are."""

from __future__ import annotations

from scorekeeper.paging import Page


def test_a_page_knows_its_neighbours() -> None:
    first, middle, last = (Page([], number, 20, 45) for number in (1, 2, 3))
    assert first.pages == 3 and (first.has_prev, first.has_next, first.prev_num, first.next_num) == (False, True, None, 2)
    assert (middle.prev_num, middle.next_num) == (1, 3)
    assert (last.has_next, last.next_num, last.prev_num) == (False, None, 2)
    assert Page([], 1, 20, 40).pages == 2 and Page([], 1, 20, 0).pages == 0 and not Page([], 1, 20, 0).has_next
    beyond = Page([], 9, 20, 45)
    assert beyond.has_prev and beyond.prev_num == 8 and not beyond.has_next
