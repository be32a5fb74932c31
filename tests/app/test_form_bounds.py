"""No posted value sizes a loop, a page or an allocation: the server says how many cards are in hand,
and every number a form reads is bounded."""

from __future__ import annotations

import gc
import inspect
import re
import time

from flask import Flask
from wtforms import FieldList
from wtforms.validators import InputRequired, Optional

from scorekeeper import forms
from scorekeeper.forms.fields import LeftEmpty
from scorekeeper.registry import GAMES

from ..conftest import Browser
from .matchhelpers import bids_form, start, tricks_form, tute_form
from .test_matches import field_value, text

HOSTILE_CARDS = ("200000000", "1e9", "-5", "99999999999999999999", "", "x")


def timed_post(browser: Browser, path: str, data: dict[str, object]) -> tuple[object, float]:
    """Post a form; return the response and the processor time the app spent on it.

    The garbage collector is run first and held off meanwhile: a full collection of what
    earlier tests left behind would otherwise be counted as this request's work.
    """
    gc.collect()
    gc.disable()
    try:
        started = time.process_time()
        response = browser.post(path, data=data)
        return response, time.process_time() - started
    finally:
        gc.enable()


def bid_buttons(page: str, seat: int) -> list[str]:
    return re.findall(rf'name="bids-{seat}" value="(\d+)"', page)


def test_a_posted_card_count_is_ignored_and_the_page_stays_small_and_quick(ana: Browser) -> None:
    start(ana, "pocha", ["Ana", "Luis", "Carmen"])
    ana.get("/matches/1/deal")  # the templates are compiled once, before anything is timed
    for cards in HOSTILE_CARDS:
        # Bids the dealer may not make (they add up to the one card in hand), so the form comes back.
        data = {**bids_form([1, 0, 0], number=1, dealer=0, cards=1), "cards": cards}
        response, spent = timed_post(ana, "/matches/1/bids", data)
        page = response.get_data(as_text=True)  # type: ignore[attr-defined]
        assert response.status_code == 422, cards  # type: ignore[attr-defined]
        assert len(page.encode()) < 100_000 and spent < 0.1, (cards, len(page), spent)
        assert bid_buttons(page, 0) == ["0", "1"], cards  # the first deal of the classic schedule has 1 card
        assert "1 card each" in text(response)


def test_bids_saved_with_a_hostile_card_count_keep_the_schedule_s_cards(ana: Browser) -> None:
    start(ana, "pocha", ["Ana", "Luis"])
    ana.get("/matches/1/deal")  # the templates are compiled once, before anything is timed
    saved = ana.post("/matches/1/bids", data={**bids_form([1, 1], number=1, dealer=0, cards=1), "cards": "200000000"})
    assert saved.status_code == 302
    response, spent = timed_post(
        ana, "/matches/1/deal", {**tricks_form([1, 1], [1, 1], number=1, dealer=0, cards=1), "cards": "200000000"}
    )
    assert response.status_code == 422 and spent < 0.1  # type: ignore[attr-defined]
    assert "The tricks must add up to the 1 card in hand" in text(response)
    done = ana.post("/matches/1/deal", data={**tricks_form([1, 1], [1, 0], number=1, dealer=0, cards=1), "cards": "7"})
    assert done.status_code == 302
    version = field_value(ana.get("/matches/1/deals/1/edit").get_data(as_text=True), "version")
    edit, spent = timed_post(
        ana,
        "/matches/1/deals/1/edit",
        {**tricks_form([1, 1], [0, 0], number=1, dealer=0, cards=1), "cards": "200000000", "version": version},
    )
    page = edit.get_data(as_text=True)  # type: ignore[attr-defined]
    assert edit.status_code == 422 and len(page.encode()) < 100_000 and spent < 0.1  # type: ignore[attr-defined]
    assert re.findall(r'name="tricks-0" value="(\d+)"', page) == ["0", "1"]


def test_numbers_longer_than_any_game_needs_are_refused_at_their_field(ana: Browser) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    response = ana.post("/matches/1/deal", data=tute_form("1234567", 0))
    assert response.status_code == 422
    assert "Type a whole number of at most 6 digits." in text(response)
    assert 'value="1234567"' in response.get_data(as_text=True)  # what was typed comes back
    start(ana, "pocha", ["Ana", "Luis"])
    response = ana.post("/matches/2/bids", data=bids_form([10**30, 0], number=1, dealer=0, cards=1))
    assert response.status_code == 422 and "Type a whole number of at most 6 digits." in text(response)
    response = ana.post(
        "/matches/new/tute2",
        data={
            "players-0": "Ana",
            "players-1": "Luis",
            "first_dealer": "0",
            "opt_target": "9" * 400,
            "opt_mode": "points",
        },
    )
    assert response.status_code == 422 and "Type a whole number of at most 6 digits." in text(response)


def test_no_form_takes_spaces_for_nothing_typed_or_for_a_choice(app: Flask) -> None:
    # WTForms' Optional takes a space for nothing typed and clears a choice's "Not a valid choice"
    # with it; its InputRequired takes a space for something typed, which a number field reads as
    # nothing. Every form checks with the forms' own LeftEmpty and Typed instead.
    classes = [cls for _, cls in inspect.getmembers(forms, inspect.isclass) if issubclass(cls, forms.base.Form)]
    classes += [forms.new_match_form_class(game) for game in GAMES.values()]
    checked = 0
    with app.test_request_context():
        for cls in classes:
            for field in cls(meta={"csrf": False}):
                inner = field.unbound_field if isinstance(field, FieldList) else None
                for check in inner.kwargs.get("validators", []) if inner else field.validators:
                    checked += 1
                    assert not isinstance(check, InputRequired), (cls.__name__, field.name)
                    assert not isinstance(check, Optional) or isinstance(check, LeftEmpty), (cls.__name__, field.name)
    assert checked > 30
