"""Sentences that say a count say it in its plural form: "the 1 card in hand", "the 2 cards"."""

from __future__ import annotations

from flask import Flask

from scorekeeper import i18n
from scorekeeper.rules.common import Code, RuleError
from scorekeeper.rules.messages import MESSAGES, PLURALS

from ..conftest import Browser
from .matchhelpers import bids_form, start


def test_the_engine_says_one_card_in_the_singular_and_more_in_the_plural() -> None:
    one = RuleError(1, "tricks", Code.TRICKS_TOTAL, "tricks_total", {"cards": 1, "total": 2})
    two = RuleError(1, "tricks", Code.TRICKS_TOTAL, "tricks_total", {"cards": 2, "total": 3})
    assert one.message == "The tricks must add up to the 1 card in hand; these add up to 2."
    assert two.message == "The tricks must add up to the 2 cards in hand; these add up to 3."


def test_every_counted_sentence_names_its_count_and_keeps_the_plural_as_its_message() -> None:
    for message_id, (count, (singular, plural)) in PLURALS.items():
        assert MESSAGES[message_id] == plural
        assert f"{{{count}}}" in singular and f"{{{count}}}" in plural and singular != plural


def test_a_one_card_deal_s_forbidden_bid_is_said_in_the_singular(ana: Browser) -> None:
    start(ana, "pocha", ["Ana", "Luis", "Carmen", "Pedro"])
    page = ana.post("/matches/1/bids", data=bids_form([1, 0, 0, 0], number=1, dealer=0, cards=1)).get_data(as_text=True)
    assert "the bids would add up to the 1 card in hand" in page
    assert "1 cards" not in page


def test_the_browser_gets_both_forms_of_a_counted_sentence(app: Flask) -> None:
    with app.test_request_context("/", headers={"Accept-Language": "en"}):
        words = i18n.browser_messages()
    assert words["bid_hook_one"].endswith("to the {cards} card in hand, and everyone could make their bid.")
    assert words["bid_hook"].endswith("to the {cards} cards in hand, and everyone could make their bid.")
    assert "{cards} card in hand" in words["tricks_total_one"]
