"""The words at the table in each language: the sentences a player reads most, exactly as a native
player would say them, and no English left inside a translated page."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from flask import Flask

from ..conftest import Browser
from .matchhelpers import bids_form, start, tute_form

#: English a translated page must not show: words of the interface, and the joins of its sentences.
ENGLISH = ("whole number", "must be", " to ", "off)", "(off", " deals", "Deal ", "Save", "match", "player",
           "trick", "bid", "Enter ", "points", "tap ", "phone", "link", "Undo", "Delete", "House rule", "any more",
           "Not done", "true or false", " or ", " and ", "the ")
#: Attributes whose text a player reads or hears, or that the page's script shows.
READ_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt", "value")


class ReadText(HTMLParser):
    """Collect what a page says: its text, and the attributes read out or shown by its scripts."""

    def __init__(self) -> None:
        super().__init__()
        self.said: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        for name, value in attrs:
            if value and (name in READ_ATTRIBUTES and tag != "input" or name.startswith("data-")
                          and name not in ("data-plan", "data-path", "data-watch-url", "data-sw", "data-offline-js",
                                           "data-time-zone", "data-share-url", "data-bids-action", "data-tricks-action",
                                           "data-words", "data-rules")):
                self.said.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.said.append(data.strip())


def english_in(page: str) -> list[str]:
    """Return the English words found in what the page says."""
    reader = ReadText()
    reader.feed(page)
    found = []
    for text in reader.said:
        if text.startswith(("{", "[")) or "/" in text and " " not in text:
            continue  # data for the scripts, an address
        found += [f"{word!r} in {text!r}" for word in ENGLISH if word in text]
    return found


@pytest.mark.parametrize("language", ("es", "it", "nb"))
def test_no_english_is_left_in_a_translated_page(ana: Browser, app: Flask, language: str) -> None:
    ana.post("/language", data={"language": language, "next": "/"})
    start(ana, "tute2", ["Rosa", "Juan"])
    ana.post("/matches/1/deal", data=tute_form(70, 0, cantes={"oros": 1}))
    start(ana, "pocha", ["Rosa", "Juan", "Nuria"], opt_schedule="custom", schedule_list="1,2")
    ana.post("/matches/2/bids", data=bids_form([0, 0, 0], number=1, dealer=0, cards=1))
    start(ana, "tute4", ["Rosa", "Juan", "Nuria", "Iker"])
    pages = {path: ana.get(path).get_data(as_text=True) for path in (
        "/", "/matches/new", "/matches/new/tute2", "/matches/new/pocha", "/matches/1", "/matches/1/deal",
        "/matches/2", "/matches/2/deal", "/matches/3/deal", "/history", "/players/", "/nights", "/stats/tute2",
        "/stats/pocha", "/account", "/language", "/offline", "/matches/99")}
    refused = {
        "119 card points": ana.post("/matches/1/deal", data=tute_form(119, 0, number=2, dealer=1)),
        "the hook": ana.post("/matches/2/deal", data=bids_form([1, 0, 0], number=1, dealer=0, cards=1)),
        "a house rule out of range": start(ana, "tute2", ["Rosa", "Juan"], opt_last_trick_bonus="99"),
        "one player": start(ana, "pocha", ["Rosa"]),
    }
    pages.update({name: answer.get_data(as_text=True) for name, answer in refused.items()})
    found = {name: english_in(page) for name, page in pages.items()}
    assert {name: words for name, words in found.items() if words} == {}
