"""A Tute deal table says which of a cell's two numbers is the deal's score and which the running total."""

from __future__ import annotations

import re

from ..conftest import Browser
from .matchhelpers import start, tute_form


def test_the_tute_deal_table_keys_its_two_numbers(ana: Browser) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    ana.post("/matches/1/deal", data=tute_form(70, 0))
    for path in ("/matches/1", "/history/1"):
        page = ana.get(path).get_data(as_text=True)
        key = re.search(
            r'<small class="table-key"><span class="score">([^<]+)</span> (\w+) <span class="running">([^<]+)'
            r"</span></small>",
            page,
        )
        assert key is not None and key.groups() == ("deal score", "over", "running total"), path
        # the same two styles as the numbers of each cell
        assert re.search(r'<span class="score">\d+</span><br>\s*<small class="running"', page), path
