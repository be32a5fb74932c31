"""A whole evening without a connection: any number of deals, Tute and Pocha, kept on the phone
in order, shown with provisional totals, and stored in order when the connection returns; a
kept deal the server refuses stops the sending there, and is corrected on the deal form."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import Deal, Match

from .conftest import Phone, Server
from .test_table import SAVE

#: Phones writing to one match: on PostgreSQL too, whose transactions see each other otherwise than SQLite's.
pytestmark = pytest.mark.both_databases


def queued(phone: Phone) -> list[dict[str, Any]]:
    return list(json.loads(phone.page.evaluate("localStorage.getItem('scorekeeper-queue') || '[]'")))


def wait_for_queue(phone: Phone, length: int) -> None:
    """Wait until the phone keeps `length` requests (sending and keeping answer asynchronously)."""
    for _ in range(100):
        if len(queued(phone)) == length:
            return
        phone.page.wait_for_timeout(100)
    assert len(queued(phone)) == length


def stored_deals(server: Server, match_id: int = 1) -> list[dict[str, Any]]:
    with server.app.app_context():
        deals = db.session.scalars(db.select(Deal).where(Deal.match_id == match_id).order_by(Deal.number)).all()
        found = [{"number": deal.number, **deal.data} for deal in deals]
        db.session.remove()
        return found


def start_on_the_server(server: Server, game: str, names: list[str], options: dict[str, Any]) -> int:
    with server.app.app_context():
        user = services.user_named("ana")
        assert user is not None
        match_id = services.start_match(user, game, names, options, 0).id
        db.session.remove()
        return match_id


def back_online(phone: Phone) -> None:
    phone.context.set_offline(False)
    phone.page.evaluate("window.dispatchEvent(new Event('online'))")


def enter_tute(phone: Phone, points: int, last_trick: int) -> None:
    phone.choose("trump", "copas")
    phone.type("#points0", str(points))
    phone.choose("last_trick", last_trick)
    phone.tap(SAVE)


def keep_tute_deals(phone: Phone, points: list[int] | tuple[int, ...]) -> None:
    """Enter one Tute deal for each of Ana's `points` without a connection, each after the form has
    moved on to the next deal (typing before the form is cleared for it would be lost)."""
    first = int(phone.page.locator("h1").inner_text().split()[-1])
    for number, ana in enumerate(points, start=first):
        enter_tute(phone, ana, 0)
        expect(phone.page.locator("h1")).to_contain_text(f"Deal {number + 1}")


def test_ten_tute_deals_entered_offline_are_stored_in_order_when_the_connection_returns(
    phone: Phone, server: Server
) -> None:
    start_on_the_server(server, "tute2", ["Ana", "Luis"], {"mode": "points", "target": 10000})
    phone.go("/matches/1/deal")
    phone.context.set_offline(True)
    points = [70, 40, 90, 20, 65, 55, 100, 30, 61, 80]
    for number, ana in enumerate(points, start=1):
        enter_tute(phone, ana, number % 2)
        expect(phone.page.locator("h1")).to_contain_text(f"Deal {number + 1}")
    assert len(queued(phone)) == 10 and stored_deals(server) == []
    expect(phone.page.locator(SAVE)).to_have_text("Save deal 11")
    kept = phone.page.locator("#kept-deals")
    expect(kept).to_contain_text("Deal 10: Ana 90 · Luis 40")  # 80 + the last trick; 40
    ana_total = sum(points) + 10 * 5  # Ana took the last trick in the five even deals
    expect(kept).to_contain_text(f"Provisional totals: Ana {ana_total} · Luis {1200 - sum(points) + 50}")
    back_online(phone)
    expect(phone.page.locator("#offline-banner")).to_contain_text("were sent", timeout=15000)
    deals = stored_deals(server)
    assert [deal["number"] for deal in deals] == list(range(1, 11))
    assert [deal["points"][0] for deal in deals] == points
    assert [deal["dealer"] for deal in deals] == [0, 1] * 5  # the dealer went round the table
    assert queued(phone) == []


def test_pocha_deals_go_on_offline_across_the_schedule_s_changes_of_cards(phone: Phone, server: Server) -> None:
    start_on_the_server(server, "pocha", ["Ana", "Luis", "Carmen", "Pedro"], {})  # 1 1 1 1 2 3 …
    phone.go("/matches/1/deal")
    phone.context.set_offline(True)
    for number, cards in enumerate([1, 1, 1, 1, 2, 3], start=1):
        expect(phone.page.locator("h1")).to_contain_text(f"Deal {number}")
        dealer = (number - 1) % 4
        order = [(dealer + step) % 4 for step in range(1, 5)]
        assert (
            phone.page.eval_on_selector_all(".seat-rows > .seat-row", "rows => rows.map(r => +r.dataset.seat)") == order
        )
        assert phone.page.locator(f"input[name='bids-{order[0]}']").count() == cards + 1
        for seat in order:
            phone.choose(f"bids-{seat}", 0)  # 0 in all, never the cards in hand: fine under the hook
        phone.tap(SAVE)
        expect(phone.page.locator("#offline-tricks")).to_be_visible()
        phone.choose(f"tricks-{order[0]}", cards)
        for seat in order[1:-1]:
            phone.choose(f"tricks-{seat}", 0)
        phone.tap(SAVE)
        wait_for_queue(phone, 2 * number)
    expect(phone.page.locator("#kept-deals")).to_contain_text("Provisional totals")
    back_online(phone)
    expect(phone.page.locator("#offline-banner")).to_contain_text("were sent", timeout=15000)
    deals = stored_deals(server)
    assert [(deal["number"], deal["cards"], deal["dealer"]) for deal in deals] == [
        (1, 1, 0),
        (2, 1, 1),
        (3, 1, 2),
        (4, 1, 3),
        (5, 2, 0),
        (6, 3, 1),
    ]
    assert all(deal["tricks"][(deal["dealer"] + 1) % 4] == deal["cards"] for deal in deals)


def test_a_kept_deal_the_server_refuses_stops_the_sending_and_is_corrected(phone: Phone, server: Server) -> None:
    start_on_the_server(server, "tute2", ["Ana", "Luis"], {"mode": "points", "target": 10000})
    phone.go("/matches/1/deal")
    phone.context.set_offline(True)
    keep_tute_deals(phone, (70, 40, 90))
    wait_for_queue(phone, 3)  # all three kept before the connection returns, the last one's save included
    refusal = '<main><p class="error">⚠ Say which side took the last trick.</p></main>'
    # On the context: its routes also see what the page's service worker sends on its behalf.
    phone.context.route(
        "**/matches/1/deal",
        lambda route: (
            route.fulfill(status=422, body=refusal, content_type="text/html")
            if route.request.method == "POST"
            else route.continue_()
        ),
    )
    back_online(phone)
    banner = phone.page.locator("#offline-banner")
    expect(banner).to_contain_text("Deal 1, kept on this phone, was refused: Say which side took the last trick.")
    expect(banner).to_contain_text("(3 in all)")
    assert len(queued(phone)) == 3 and stored_deals(server) == []
    phone.context.unroute("**/matches/1/deal")
    phone.go("/matches/1")  # the scoreboard shows what waits on the phone, and the refusal
    expect(phone.page.locator("#kept-deals")).to_contain_text("Deal 3: Ana 100 · Luis 30")
    expect(phone.page.locator("#kept-deals")).to_contain_text("Provisional totals: Ana 230 · Luis 160")
    assert phone.page.locator("tr.unsent").count() == 0  # a refused deal is not on the board as if stored
    expect(phone.page.locator("#offline-banner")).to_contain_text("was refused")
    phone.tap("#offline-banner a")
    phone.page.wait_for_url("**/matches/1/deal")
    assert phone.page.input_value("#points0") == "70" and phone.page.is_checked("input[name='trump'][value='copas']")
    phone.choose("last_trick", 1)  # the correction
    phone.tap(SAVE)
    phone.page.wait_for_url("**/matches/1")
    wait_for_queue(phone, 0)
    deals = stored_deals(server)
    assert [(deal["number"], deal["points"][0], deal["last_trick"]) for deal in deals] == [
        (1, 70, 1),
        (2, 40, 0),
        (3, 90, 0),
    ]


def test_a_deal_saved_while_older_ones_wait_joins_them_in_order(phone: Phone, server: Server) -> None:
    start_on_the_server(server, "tute2", ["Ana", "Luis"], {"mode": "points", "target": 10000})
    phone.go("/matches/1/deal")
    phone.context.set_offline(True)
    enter_tute(phone, 70, 0)
    expect(phone.page.locator("h1")).to_contain_text("Deal 2")
    phone.context.route(
        "**/matches/1/deal", lambda route: route.abort() if route.request.method == "POST" else route.continue_()
    )
    back_online(phone)  # the connection says it is back, but the server cannot be reached
    enter_tute(phone, 40, 1)  # waits behind deal 1 instead of overtaking it
    wait_for_queue(phone, 2)
    assert stored_deals(server) == []
    phone.context.unroute("**/matches/1/deal")
    phone.page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(phone.page.locator("#offline-banner")).to_contain_text("were sent", timeout=15000)
    assert [(deal["number"], deal["points"][0]) for deal in stored_deals(server)] == [(1, 70), (2, 40)]


def test_a_kept_deal_stays_on_the_phone_while_the_session_has_ended(phone: Phone, server: Server) -> None:
    start_on_the_server(server, "tute2", ["Ana", "Luis"], {"mode": "points", "target": 10000})
    phone.go("/matches/1/deal")
    phone.context.set_offline(True)
    enter_tute(phone, 70, 0)
    wait_for_queue(phone, 1)
    phone.context.clear_cookies()  # signed out meanwhile: the deal would meet the sign-in page
    back_online(phone)
    phone.page.wait_for_timeout(1500)
    assert len(queued(phone)) == 1 and stored_deals(server) == []
    phone.go("/login")
    phone.page.fill("#username", "ana")
    phone.page.fill("#password", "a long secret")
    phone.page.click("button[type=submit]")
    phone.page.wait_for_url(server.url + "/")
    wait_for_queue(phone, 0)  # sent from the first page after signing in
    assert [deal["points"][0] for deal in stored_deals(server)] == [70]


def test_a_refused_kept_deal_can_be_dropped_and_the_rest_follow(phone: Phone, server: Server) -> None:
    start_on_the_server(server, "tute2", ["Ana", "Luis"], {"mode": "points", "target": 10000})
    phone.go("/matches/1/deal")
    phone.context.set_offline(True)
    keep_tute_deals(phone, (70, 40))
    wait_for_queue(phone, 2)
    with server.app.app_context():  # another phone entered deal 1 meanwhile
        match = db.session.get(Match, 1)
        assert match is not None
        services.add_deal(match, {"dealer": 0, "trump": "oros", "points": [100, 20], "last_trick": 0})
        db.session.remove()
    back_online(phone)
    expect(phone.page.locator("#offline-banner")).to_contain_text("Deal 1, kept on this phone, was refused")
    phone.page.once("dialog", lambda dialog: dialog.accept())
    phone.tap("#offline-banner button")
    wait_for_queue(phone, 0)
    assert [(deal["number"], deal["points"][0]) for deal in stored_deals(server)] == [(1, 100), (2, 40)]
