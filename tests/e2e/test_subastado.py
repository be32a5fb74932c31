"""Tute subastado at a phone's size: a whole match to 500 with a failed contract and a deal everyone
passed on the way; deals kept on the phone without a connection, with provisional totals; and a deal
entered on a second phone that joined through the entry link."""

from __future__ import annotations

from playwright.sync_api import expect

from scorekeeper.extensions import db
from scorekeeper.models import Match

from .conftest import Phone, Server
from .test_offline_evening import back_online, queued, start_on_the_server, stored_deals
from .test_table import SAVE
from .test_whole_table import join_address, seen_within


def fill_contract(
    phone: Phone, bid: int, trump: str, points: int, last_trick: bool, cantes: tuple[str, ...] = ()
) -> None:
    """Fill in the rest of a subastado deal once who won the auction is chosen: the bid, the declarer's card
    points (after the keyboard's Next key, a key and not a tap, like the digits), the trump, the last
    trick and the cantes."""
    phone.type("#bid", str(bid))
    phone.page.keyboard.press("Tab")
    expect(phone.page.locator("#points")).to_be_focused()
    phone.page.keyboard.type(str(points))
    phone.choose("trump", trump)
    if last_trick:
        phone.tap("label.choice.last-trick")
    for suit in cantes:
        phone.tap(f"label.choice[data-suit='{suit}']")


def enter_contract(
    phone: Phone, declarer: int, bid: int, trump: str, points: int, last_trick: bool, cantes: tuple[str, ...] = ()
) -> int:
    """Enter a deal of the subastado from the scoreboard, starting at who won the auction; return the taps."""
    before = phone.taps
    phone.tap(f".auction-start a[href$='?declarer={declarer}']")
    expect(phone.page.locator(f"input[name=declarer][value='{declarer}']")).to_be_checked()
    fill_contract(phone, bid, trump, points, last_trick, cantes)
    phone.tap(SAVE)
    phone.page.wait_for_selector("#totals")
    return phone.taps - before


def test_a_whole_subastado_to_500_with_a_failed_contract_and_a_passed_deal(phone: Phone) -> None:
    phone.start_match("subastado", ["Ana", "Luis", "Carmen"])
    assert "Deal 1: Ana deals." in phone.text() and "Luis speaks first in the auction." in phone.text()
    # docs/rules.md's example: Luis bids 80 in copas, takes 62 card points and the last trick, sings copas: 112.
    assert enter_contract(phone, 1, 80, "copas", 62, True, ("copas",)) <= 6
    assert "Carmen speaks first in the auction." in phone.text()
    before = phone.taps
    phone.tap(".auction-start a[href$='?declarer=passed']")
    expect(phone.page.locator("#bid")).to_be_hidden()
    phone.tap(SAVE)
    phone.page.wait_for_selector("#totals")
    assert phone.taps - before == 2
    # Ana bids 100 in oros and makes 70 + 20 (espadas): 90, the contract fails.
    assert enter_contract(phone, 0, 100, "oros", 70, False, ("espadas",)) <= 6
    assert "Winner" not in phone.text()
    # Luis takes every card point and the last trick, and sings all four: 230 for a bid of 230.
    enter_contract(phone, 1, 230, "bastos", 120, True, ("oros", "copas", "espadas", "bastos"))
    enter_contract(phone, 1, 200, "oros", 120, True, ("oros", "copas", "espadas"))
    board = phone.text()
    assert "Winner: Luis" in board and "speaks first" not in board
    with phone.server.app.app_context():
        match = db.session.get(Match, 1)
        assert match is not None and match.result is not None and match.status == "finished"
        assert [deal["winner"] for deal in match.result["deals"]] == [1, None, None, 1, 1]
        assert match.result["totals"] == [-100, 510, 0]
        db.session.remove()
    assert phone.errors == []


def test_subastado_deals_kept_offline_show_provisional_totals_and_are_stored_in_order(
    phone: Phone, server: Server
) -> None:
    start_on_the_server(server, "subastado", ["Ana", "Luis", "Carmen"], {"failed": "others"})
    phone.go("/matches/1/deal")
    phone.context.set_offline(True)
    phone.choose("declarer", 1)
    fill_contract(phone, 80, "copas", 62, True, ("copas",))
    phone.tap(SAVE)
    expect(phone.page.locator("h1")).to_contain_text("Deal 2")
    phone.choose("declarer", "passed")
    phone.tap(SAVE)
    expect(phone.page.locator("h1")).to_contain_text("Deal 3")
    phone.choose("declarer", 0)
    fill_contract(phone, 100, "oros", 70, False, ("espadas",))  # 90 of 100: the others score 100 each
    phone.tap(SAVE)
    expect(phone.page.locator("h1")).to_contain_text("Deal 4")
    assert len(queued(phone)) == 3 and stored_deals(server) == []
    expect(phone.page.locator("#kept-deals")).to_contain_text("Provisional totals: Ana 0 · Luis 180 · Carmen 100")
    back_online(phone)
    expect(phone.page.locator("#offline-banner")).to_contain_text("were sent", timeout=15000)
    deals = stored_deals(server)
    assert [deal.get("declarer") for deal in deals] == [1, None, 0]
    assert deals[1]["passed"] is True and [deal["dealer"] for deal in deals] == [0, 1, 2]
    assert queued(phone) == []


def test_a_phone_that_joined_enters_a_subastado_deal_the_owner_sees(
    browser: object, phone: Phone, server: Server
) -> None:
    owner = phone
    owner.start_match("subastado", ["Ana", "Luis", "Carmen"])
    guest = Phone(browser, server)
    try:
        guest.page.goto(join_address(owner))
        guest.page.wait_for_selector("#totals")
        enter_contract(guest, 2, 90, "espadas", 80, True, ("espadas",))
        assert seen_within(owner, "text=Carmen speaks first in the auction.") < 5
        with server.app.app_context():
            match = db.session.get(Match, 1)
            assert match is not None and match.result is not None
            assert match.result["totals"] == [0, 0, 90] and match.deals[0].entry_link_id is not None
            db.session.remove()
        assert guest.errors == [] and owner.errors == []
    finally:
        guest.close()
