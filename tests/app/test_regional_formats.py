"""Dates and times as the browser's region writes them (en-GB: day first, 24 hours; en-US: month
first, AM/PM), in the page's language, whose words stay the same."""

from __future__ import annotations

import re

from flask import Flask

from ..conftest import Browser
from .matchhelpers import start, tute_form


def _night_page(ana: Browser, accept: str) -> str:
    return str(ana.get("/nights/1", headers={"Accept-Language": accept}).get_data(as_text=True))


def test_a_british_browser_gets_british_dates_and_an_american_one_american_dates(ana: Browser, app: Flask) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    ana.post("/matches/1/deal", data=tute_form(70, 0))
    british, american = _night_page(ana, "en-GB,en;q=0.9"), _night_page(ana, "en-US,en;q=0.9")
    shown = re.compile(r'<time datetime="[^"]+" data-shows="moment">([^<]+)</time>')
    british_time, american_time = shown.findall(british)[0], shown.findall(american)[0]
    assert re.fullmatch(r"\d{1,2} \w{3} \d{4}, \d{2}:\d{2}", british_time), british_time
    assert re.fullmatch(r"\w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M", american_time), american_time
    # The words are English on both.
    assert "Standings of the night" in british and "Standings of the night" in american
    assert '<html lang="en">' in british


def test_a_region_of_another_language_changes_nothing(ana: Browser) -> None:
    """An English page for a browser that asks for German first (de-DE, then en) is written as English is."""
    start(ana, "tute2", ["Ana", "Luis"])
    ana.post("/matches/1/deal", data=tute_form(70, 0))
    page = _night_page(ana, "de-DE,de;q=0.9,en;q=0.8")
    moment = re.search(r'data-shows="moment">([^<]+)<', page)
    assert moment is not None and re.fullmatch(r"\w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M", moment.group(1))
