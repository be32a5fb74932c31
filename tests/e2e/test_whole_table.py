"""The whole table at one match: a second phone, signed in to nothing, joins through the entry link's QR
address and enters deals, which the owner's phone shows by itself within seconds. The owner opens the
app on this computer (127.0.0.1, as on the quick start); the link leads the guest to the address the app
has on the local network, which 127.0.0.2 stands in for."""

from __future__ import annotations

import time

import pytest

from scorekeeper.extensions import db
from scorekeeper.models import Deal

from .conftest import Phone, Server
from .test_table import enter_pocha_deal, enter_tute_deal

#: Phones writing to one match: on PostgreSQL too, whose transactions see each other otherwise than SQLite's.
pytestmark = pytest.mark.both_databases

#: How soon the owner's scoreboard must show a deal entered on another phone.
SOON = 5000


def join_address(owner: Phone) -> str:
    """Make the entry link on the owner's scoreboard; return the address its QR code holds."""
    owner.tap("#entry-link button[type=submit]")
    owner.page.wait_for_selector("#entry-link svg.qr")
    address = owner.page.locator("#entry-link a.share-link").inner_text()
    assert "/join#" in address
    return address


def seen_within(owner: Phone, selector: str) -> float:
    """Wait until the owner's page shows `selector` without being touched; return the seconds it took."""
    began = time.monotonic()
    owner.page.wait_for_selector(selector, timeout=SOON)
    return time.monotonic() - began


def test_a_second_phone_joins_and_enters_tute_and_pocha_deals_that_the_owner_sees(
    browser: object, phone: Phone, server: Server
) -> None:
    owner = phone
    owner.start_match("tute2", ["Ana", "Luis"])
    guest = Phone(browser, server)
    asked: list[str] = []
    guest.page.on("request", lambda request: asked.append(request.url))
    try:
        address = join_address(owner)
        assert address.startswith(f"{server.network_url}/join#")
        assert "the local network, 127.0.0.2" in owner.page.locator("#entry-link").inner_text()
        guest.page.goto(address)
        guest.page.wait_for_selector("#totals")
        assert guest.page.url == f"{server.network_url}/matches/1"  # the secret left the address
        assert guest.page.locator("details.menu").count() == 0  # signed in to nothing
        enter_tute_deal(guest, "copas", 78, 0, ("oros", 0))
        assert seen_within(owner, "text=Ana sang 20 in oros") < SOON / 1000
        assert "Deal 2: Luis deals." in owner.text()

        owner.go("/matches/new/pocha")
        owner.start_match("pocha", ["Ana", "Luis", "Carmen"])
        guest.page.goto(join_address(owner))
        guest.page.wait_for_selector(".trump-start")
        assert guest.page.url == f"{server.network_url}/matches/2"
        enter_pocha_deal(guest, 1)
        assert seen_within(owner, "text=Deal 2: Luis deals.") < SOON / 1000
        with server.app.app_context():
            entered = [deal.entry_link_id for deal in db.session.scalars(db.select(Deal).order_by(Deal.id))]
        assert len(entered) == 2 and None not in entered
        assert asked and all(url.startswith(f"{server.network_url}/") for url in asked)
        assert guest.errors == [] and owner.errors == []
    finally:
        guest.close()


def test_an_entry_address_without_its_secret_says_so_and_offers_no_button(phone: Phone, server: Server) -> None:
    phone.go("/join")
    missing = phone.page.locator("[data-join-missing]")
    missing.wait_for()
    assert "missing its secret part" in missing.inner_text()
    assert not phone.page.locator("form[data-join] button").is_visible()
