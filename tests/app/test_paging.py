"""The pager of a list whose total is known: where the neighbouring pages are."""

from __future__ import annotations

from typing import Any

from flask import Flask, render_template_string

from scorekeeper.reads.paging import Page

#: The pager as a list's page shows it.
PAGER = '{% from "_pager.html" import pager %}{{ pager(pages_around(page, endpoint, **kept)) }}'


def pager(page: Page, endpoint: str, **kept: Any) -> str:
    """Return the pager of `page` as the templates write it."""
    return render_template_string(PAGER, page=page, endpoint=endpoint, kept=kept)


def test_a_page_knows_its_neighbours() -> None:
    first, middle, last = (Page([], number, 20, 45) for number in (1, 2, 3))
    assert first.pages == 3 and (first.has_prev, first.has_next, first.prev_num, first.next_num) == (
        False,
        True,
        None,
        2,
    )
    assert (middle.prev_num, middle.next_num) == (1, 3)
    assert (last.has_next, last.next_num, last.prev_num) == (False, None, 2)
    assert Page([], 1, 20, 40).pages == 2 and Page([], 1, 20, 0).pages == 0 and not Page([], 1, 20, 0).has_next
    beyond = Page([], 9, 20, 45)
    assert beyond.has_prev and beyond.prev_num == 8 and not beyond.has_next


def test_the_pager_links_the_neighbours_keeping_the_filters_set(app: Flask) -> None:
    with app.test_request_context("/"):
        assert pager(Page([], 1, 20, 20), "matches.history", game="pocha") == ""
        first = pager(Page([], 1, 20, 45), "matches.history", status="", game="pocha", player=None)
        middle = pager(Page([], 2, 20, 45), "matches.history", status="playing", game="pocha")
    assert first == (
        '<nav class="pager" aria-label="Pages">\n    <span></span>\n    <span>Page 1 of 3</span>\n'
        '    <a class="button" rel="next" href="/history?game=pocha&amp;page=2">Older →</a>\n  </nav>'
    )
    assert '<a class="button" rel="prev" href="/history?game=pocha&amp;status=playing&amp;page=1">← Newer</a>' in middle
    assert 'rel="next" href="/history?game=pocha&amp;status=playing&amp;page=3"' in middle


def test_the_pager_speaks_the_page_s_language(app: Flask) -> None:
    with app.test_request_context("/", headers={"Accept-Language": "es"}):
        shown = pager(Page([], 2, 20, 45), "nights.index")
    assert "Página 2 de 3" in shown and "Más recientes" in shown and 'href="/nights?page=3"' in shown
