"""Tute for three at a phone's size: a whole match to its end, with a tie at the top settled by the
order of play; deals kept on the phone without a connection, with provisional totals; and a deal
entered on a second phone that joined through the entry link."""

from __future__ import annotations

from playwright.sync_api import expect

from scorekeeper.extensions import db
from scorekeeper.models import Match

from .conftest import Phone, Server
from .test_offline_evening import back_online, queued, start_on_the_server, stored_deals
from .test_table import ENTER, SAVE
from .test_whole_table import join_address, seen_within


def enter_tute3_deal(
    phone: Phone, trump: str, points: tuple[int, int], last_trick: int, cante: tuple[str, int] | None = None
) -> int:
    """Enter a deal of Tute for three from the scoreboard; return the taps it took.

    Two players' card points are typed, the second after the keyboard's Next key (a key, not a
    tap, like the digits); the third player's follow.
    """
    before = phone.taps
    phone.tap(ENTER)
    phone.choose("trump", trump)
    phone.type("#points0", str(points[0]))
    phone.page.keyboard.press("Tab")
    phone.page.keyboard.type(str(points[1]))
    expect(phone.page.locator("#points2")).to_have_value(str(120 - sum(points)))
    phone.choose("last_trick", last_trick)
    if cante:
        phone.choose(f"cante_{cante[0]}", cante[1])
    phone.tap(SAVE)
    phone.page.wait_for_selector("#totals")
    return phone.taps - before


def test_a_whole_match_of_tute_for_three_to_its_end_in_six_taps_a_deal(phone: Phone) -> None:
    phone.start_match("tute3", ["Ana", "Luis", "Carmen"])
    assert "Deal 1: Ana deals." in phone.text()
    # docs/rules.md's example: 50 / 40 / 30, Carmen took the last trick, Luis sang 40 in oros: 50 / 80 / 40.
    assert enter_tute3_deal(phone, "oros", (50, 40), 2, ("oros", 1)) <= 6
    assert "Luis sang 40 in oros" in phone.text()
    assert "Deal 2: Luis deals." in phone.text()
    # 60 / 60 / 0 and Carmen's last trick: Ana and Luis tie on 60, neither took it, and after
    # Luis, who deals, Carmen plays first, then Ana: Ana wins the deal.
    assert enter_tute3_deal(phone, "copas", (60, 60), 2) <= 6
    assert enter_tute3_deal(phone, "bastos", (20, 80), 1) <= 6
    assert "Winner" not in phone.text()
    assert enter_tute3_deal(phone, "espadas", (30, 70), 1) <= 6
    board = phone.text()
    assert "Winner: Luis" in board and "Enter the next deal" not in board
    with phone.server.app.app_context():
        match = db.session.get(Match, 1)
        assert match is not None and match.result is not None
        assert [deal["winner"] for deal in match.result["deals"]] == [1, 0, 1, 1]
        assert match.result["juegos"] == [1, 3, 0] and match.status == "finished"
        db.session.remove()
    phone.tap("text=Rematch: same seats, same rules")
    phone.page.wait_for_selector("#totals")
    assert "Deal 1: Luis deals." in phone.text()
    assert phone.errors == []


def test_tute_for_three_deals_kept_offline_show_provisional_totals_and_are_stored_in_order(
    phone: Phone, server: Server
) -> None:
    start_on_the_server(server, "tute3", ["Ana", "Luis", "Carmen"], {"mode": "points", "target": 10000})
    phone.go("/matches/1/deal")
    phone.context.set_offline(True)
    played = [((50, 40), 2), ((20, 30), 0), ((40, 40), 1)]
    for number, (points, last_trick) in enumerate(played, start=1):
        phone.choose("trump", "copas")
        phone.type("#points0", str(points[0]))
        phone.type("#points1", str(points[1]))
        phone.choose("last_trick", last_trick)
        phone.tap(SAVE)
        expect(phone.page.locator("h1")).to_contain_text(f"Deal {number + 1}")
    assert len(queued(phone)) == 3 and stored_deals(server) == []
    kept = phone.page.locator("#kept-deals")
    expect(kept).to_contain_text("Deal 3: Ana 40 · Luis 50 · Carmen 40")  # Luis took the last trick
    # Ana 50 + 30 + 40, Luis 40 + 30 + 50, Carmen 30 + 10 + 70 + 40
    expect(kept).to_contain_text("Provisional totals: Ana 120 · Luis 120 · Carmen 150")
    back_online(phone)
    expect(phone.page.locator("#offline-banner")).to_contain_text("were sent", timeout=15000)
    deals = stored_deals(server)
    assert [deal["points"] for deal in deals] == [[50, 40, 30], [20, 30, 70], [40, 40, 40]]
    assert [deal["dealer"] for deal in deals] == [0, 1, 2]  # the dealer went round the table
    assert queued(phone) == []


def test_a_phone_that_joined_enters_a_tute_for_three_deal_the_owner_sees(
    browser: object, phone: Phone, server: Server
) -> None:
    owner = phone
    owner.start_match("tute3", ["Ana", "Luis", "Carmen"])
    guest = Phone(browser, server)
    try:
        guest.page.goto(join_address(owner))
        guest.page.wait_for_selector("#totals")
        enter_tute3_deal(guest, "espadas", (30, 50), 1, ("copas", 2))
        assert seen_within(owner, "text=Carmen sang 20 in copas") < 5
        assert "Deal 2: Luis deals." in owner.text()
        with server.app.app_context():
            match = db.session.get(Match, 1)
            assert match is not None and len(match.deals) == 1 and match.deals[0].entry_link_id is not None
            db.session.remove()
        assert guest.errors == [] and owner.errors == []
    finally:
        guest.close()
