"""Fixtures shared by the app tests of the statistics pages."""

from __future__ import annotations

import pytest

from ..conftest import Browser
from .matchhelpers import bids_form, start, tricks_form, tute_form


@pytest.fixture
def evening(ana: Browser) -> Browser:
    """Three Tute matches (Ana wins, loses, wins), one abandoned, and one Pocha with a tie for first."""
    for number, (points, last, cantes) in enumerate(
        ((78, 0, {"oros": 0, "copas": 1}), (30, 1, {}), (100, 0, {})), start=1
    ):
        start(ana, "tute2", ["Ana", "Luis"], opt_target="1")
        ana.post(f"/matches/{number}/deal", data=tute_form(points, last, trump="copas", cantes=cantes))
    start(ana, "tute2", ["Ana", "Luis"])
    ana.post("/matches/4/deal", data=tute_form(70, 0))
    ana.post("/matches/4/abandon")
    start(ana, "pocha", ["Ana", "Luis", "Carmen"], opt_schedule="custom", schedule_list="2")
    ana.post("/matches/5/bids", data=bids_form([1, 1, 1], number=1, dealer=0, cards=2))
    ana.post("/matches/5/deal", data=tricks_form([1, 1, 1], [1, 1, 0], number=1, dealer=0, cards=2))
    return ana
