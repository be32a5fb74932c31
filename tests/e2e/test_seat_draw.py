"""Drawing the seats of a new match at a phone's size: at random for any game, and for Tute for four
as even pairs by the players' ratings, each in one tap, the seats still changeable by hand."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.extensions import db

from .conftest import Phone, Server

NAMES = ["Ana", "Carmen", "Luis", "Pedro"]


def seats(phone: Phone, count: int) -> list[str]:
    return [phone.page.input_value(f"#players-{seat}") for seat in range(count)]


def type_names(phone: Phone, names: list[str]) -> None:
    for seat, name in enumerate(names):
        phone.page.fill(f"#players-{seat}", name)


def test_the_seats_are_drawn_in_one_tap_and_stay_changeable(phone: Phone) -> None:
    phone.go("/matches/new/pocha")
    names = ["Ana", "Bea", "Carmen", "Dani", "Elena"]
    type_names(phone, names)
    orders = set()
    for _ in range(10):
        before = phone.taps
        phone.tap("button[data-draw='random']")
        assert phone.taps - before == 1
        drawn = seats(phone, 5)
        assert sorted(drawn) == sorted(names)
        orders.add(tuple(drawn))
    assert len(orders) > 1  # ten draws of 120 orders: all alike once in 10^18
    expect(phone.page.locator("#seat-draw-said")).to_contain_text("The seats were drawn")
    assert phone.page.locator("button[data-draw='balanced']").count() == 0  # no pairs in Pocha
    # Whoever was chosen to deal first deals from their new seat, and the choice names them.
    phone.page.select_option("#first_dealer", "2")
    dealer = seats(phone, 5)[2]
    for _ in range(3):
        phone.tap("button[data-draw='random']")
        assert phone.page.input_value("#first_dealer") == str(seats(phone, 5).index(dealer))
        expect(phone.page.locator("#first_dealer option:checked")).to_contain_text(dealer)
    phone.page.fill("#players-0", "Fran")  # changed by hand after the draw
    phone.page.click("text=Start the match")
    phone.page.wait_for_selector("#totals")
    assert "Fran" in phone.text()


def rate_pairs(server: Server, matches: int) -> None:
    """Finish `matches` matches of Tute for four that Ana and Luis (seats 1 and 3) win against Carmen and Pedro."""
    with server.app.app_context():
        user = services.user_named("ana")
        assert user is not None
        for _ in range(matches):
            match = services.start_match(user, "tute4", NAMES, {"target": 1}, 3)
            deal: dict[str, Any] = {"dealer": 3, "trump": "oros", "points": [80, 40], "last_trick": 0, "cantes": []}
            services.add_deal(match, deal)
        db.session.remove()


def test_tute_for_four_draws_even_pairs_by_rating(phone: Phone, server: Server) -> None:
    rate_pairs(server, 3)
    phone.go("/matches/new/tute4")
    ratings = json.loads(phone.page.get_attribute(".seat-draw", "data-ratings") or "{}")
    assert sorted(ratings) == ["ana", "carmen", "luis", "pedro"]
    assert min(ratings["ana"], ratings["luis"]) > max(ratings["carmen"], ratings["pedro"])
    type_names(phone, ["ana", "Luis", "Carmen", "Pedro"])  # a name typed in another case is the same player
    # Drawn at random, the winners would sit together once in three draws: twelve draws apart
    # would happen by chance less than once in a hundred runs.
    for _ in range(12):
        phone.tap("button[data-draw='balanced']")
        drawn = seats(phone, 4)
        assert sorted(drawn) == sorted(["ana", "Luis", "Carmen", "Pedro"])
        # the two who won together sit apart: each with one of the two who lost
        pairs = [{drawn[0], drawn[2]}, {drawn[1], drawn[3]}]
        assert {"ana", "Luis"} not in pairs and {"Carmen", "Pedro"} not in pairs, drawn
    expect(phone.page.locator("#seat-draw-said")).to_contain_text("as even as their ratings allow")
    last = phone.page.input_value("#players-3")
    phone.page.fill("#players-3", "")
    phone.tap("button[data-draw='balanced']")
    expect(phone.page.locator("#seat-draw-said")).to_have_text("Type the four players first.")
    phone.page.fill("#players-3", last)
    phone.page.click("text=Start the match")
    phone.page.wait_for_selector("#totals")
    assert phone.errors == []
