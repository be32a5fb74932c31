"""The scoreboard without a connection: after deals kept on the phone, and reloaded offline, it shows
the standings those deals give (marked as provisional), who deals next and the kept deals in the deal
table, marked as not sent; once they are sent, the server shows the same standings and next deal."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import Match

from .conftest import Phone, Server
from .test_offline_evening import (
    back_online,
    enter_tute,
    keep_tute_deals,
    queued,
    start_on_the_server,
    stored_deals,
    wait_for_queue,
)
from .test_offline_table import BANNER, wait_for_kept
from .test_table import SAVE

#: What the scoreboard says of the standings and the next deal, as a player reads them.
BOARD = """() => ({
  standings: Array.from(document.querySelectorAll('#totals tr.standing')).map(row => row.innerText.replace(/\\s+/g, ' ').trim()),
  next: document.querySelector('#next .next-dealer').innerText.trim(),
  cards: (document.querySelector('#next .next-cards:not([hidden])') || { innerText: '' }).innerText.trim(),
})"""


def keep_the_table(phone: Phone, match_id: int = 1) -> None:
    """Open the scoreboard through the service worker, so that it and its deal form are kept on the phone."""
    phone.go(f"/matches/{match_id}")
    phone.wait_for_the_service_worker()
    phone.go(f"/matches/{match_id}")
    wait_for_kept(phone, {f"/matches/{match_id}", f"/matches/{match_id}/deal"})


def sent_and_shown(phone: Phone, match_id: int = 1) -> dict[str, Any]:
    """Let the kept deals go, then read the server's own scoreboard."""
    with phone.page.expect_navigation(timeout=15000):  # the page reloads itself once they are sent
        back_online(phone)
        expect(phone.page.locator(BANNER)).to_contain_text("were sent", timeout=15000)
    wait_for_queue(phone, 0)
    phone.go(f"/matches/{match_id}")
    assert phone.page.locator("tr.unsent").count() == 0 and phone.page.locator("#provisional-note").is_hidden()
    return dict(phone.page.evaluate(BOARD))


def test_twelve_tute_deals_kept_offline_show_on_the_scoreboard_as_the_server_then_shows_them(
    phone: Phone, server: Server
) -> None:
    start_on_the_server(server, "tute2", ["Ana", "Luis"], {"mode": "juegos", "target": 20})
    keep_the_table(phone)
    phone.go("/matches/1/deal")
    phone.context.set_offline(True)
    points = [70, 40, 90, 20, 65, 55, 100, 30, 61, 80, 50, 75]
    for number, ana in enumerate(points, start=1):
        enter_tute(phone, ana, number % 2)
        expect(phone.page.locator("h1")).to_have_text(f"Deal {number + 1}")
        if number == 1:  # Ana 70 to Luis 50 and the last trick: one juego, said in the singular
            expect(phone.page.locator("#kept-deals .provisional")).to_have_text(
                "Provisional totals: Ana 1 juego, 70 points · Luis 0 juegos, 60 points"
            )
    wait_for_queue(phone, 12)
    assert phone.page.title().startswith("Deal 13 ")  # the tab's title follows the heading
    phone.tap("a.button:has-text('Back to the scoreboard')")
    phone.page.wait_for_url("**/matches/1")
    note = phone.page.locator("#provisional-note")
    expect(note).to_have_text("Provisional, with 12 deals kept on this phone and not sent yet.")
    expect(phone.page.locator("#next .next-dealer")).to_have_text("Deal 13: Ana deals.")
    expect(phone.page.locator("#kept-next")).to_have_text("Enter deal 13")
    assert phone.page.locator("#next .next-step").is_hidden()
    assert phone.page.locator("#no-deals").is_hidden()
    unsent = phone.page.locator("tr.unsent")
    expect(unsent).to_have_count(12)
    assert [unsent.nth(n).locator("th").inner_text() for n in (0, 11)] == ["1", "12"]
    offline = phone.page.evaluate(BOARD)
    phone.page.reload()  # the copy kept when the match had no deal, said again from the kept ones
    expect(note).to_be_visible()
    assert phone.page.evaluate(BOARD) == offline
    assert phone.page.title().startswith("Tute (two players) ")
    assert phone.page.locator(".chart-box").count() == 0 or phone.page.locator(".chart-box").is_hidden()
    phone.tap("#kept-next")
    phone.page.wait_for_selector("form.deal-form")
    phone.go("/matches/1")
    assert sent_and_shown(phone) == offline
    assert [deal["points"][0] for deal in stored_deals(server)] == points


def test_pocha_deals_kept_offline_show_in_the_score_sheet_with_the_next_cards_as_the_server_then_does(
    phone: Phone, server: Server
) -> None:
    start_on_the_server(server, "pocha", ["Ana", "Luis", "Carmen", "Pedro"], {})  # 1 1 1 1 2 3 …
    keep_the_table(phone)
    phone.go("/matches/1/deal")
    phone.context.set_offline(True)
    for number in range(1, 6):
        dealer = (number - 1) % 4
        order = [(dealer + step) % 4 for step in range(1, 5)]
        cards = 1 if number <= 4 else 2
        # One card: the first two to bid bid one each, and the second misses; two cards: the first bids one
        # and the second none, and both take one (the bids never add up to the cards: the dealer's hook).
        for seat in order:
            phone.choose(f"bids-{seat}", 1 if seat == order[0] or (cards == 1 and seat == order[1]) else 0)
        phone.tap(SAVE)
        expect(phone.page.locator("#offline-tricks")).to_be_visible()
        phone.choose(f"tricks-{order[0]}", 1)
        phone.choose(f"tricks-{order[1]}", cards - 1)
        for seat in order[2:-1]:
            phone.choose(f"tricks-{seat}", 0)
        phone.tap(SAVE)
        wait_for_queue(phone, 2 * number)
    phone.go("/matches/1")
    expect(phone.page.locator("#provisional-note")).to_have_text(
        "Provisional, with 5 deals kept on this phone and not sent yet."
    )
    rows = phone.page.locator("table.sheet tr.unsent")
    expect(rows).to_have_count(5)
    # deal 5, Ana deals two cards: Luis bids 1 and takes 1, Carmen bids 0 and takes 1 (−5)
    cells = rows.nth(4).locator("td")
    assert [cells.nth(seat).locator("small").inner_text() for seat in range(4)] == ["0/0", "1/1", "0/1", "0/0"]
    assert "lost" in (cells.nth(2).get_attribute("class") or "")
    offline = phone.page.evaluate(BOARD)
    assert offline["next"] == "Deal 6: Luis deals." and offline["cards"] == "3 cards each; Carmen bids first."
    phone.page.reload()
    assert phone.page.evaluate(BOARD) == offline
    assert sent_and_shown(phone) == offline
    assert len(stored_deals(server)) == 5 and queued(phone) == []


#: The standings alone, as a player reads them (a finished match's scoreboard has no next deal).
STANDINGS = """() => Array.from(document.querySelectorAll('#totals tr.standing'))
  .map(row => row.innerText.replace(/\\s+/g, ' ').trim())"""


def test_kept_deals_that_end_the_match_rank_and_mark_its_winner_as_the_server_then_does(
    phone: Phone, server: Server
) -> None:
    start_on_the_server(server, "tute3", ["Ana", "Luis", "Carmen"], {"mode": "points", "target": 101})
    keep_the_table(phone)
    phone.go("/matches/1/deal")
    phone.context.set_offline(True)
    # Ana then Luis lead after a deal each; in the third Carmen passes both (130 to 110 and 110)
    for number, points in enumerate(([60, 40, 20], [20, 60, 40], [20, 10, 90]), start=1):
        phone.choose("trump", "copas")
        for side, value in enumerate(points[:2]):
            phone.type(f"#points{side}", str(value))
        phone.choose("last_trick", 2)
        phone.tap(SAVE)
        wait_for_queue(phone, number)
    phone.go("/matches/1")
    expect(phone.page.locator("#next .next-dealer")).to_have_text(
        "With the deals kept on this phone the match is over: its result shows once they are sent."
    )
    assert phone.page.locator("#kept-next").is_hidden()
    offline = phone.page.evaluate(STANDINGS)
    assert offline == ["1 Carmen winner 180", "2 Luis 110", "3 Ana 100"]
    with phone.page.expect_navigation(timeout=15000):
        back_online(phone)
        expect(phone.page.locator(BANNER)).to_contain_text("were sent", timeout=15000)
    phone.go("/matches/1")
    assert phone.page.evaluate(STANDINGS) == offline


def test_pocha_bids_kept_without_their_tricks_show_in_the_standings_as_the_server_then_shows_them(
    phone: Phone, server: Server
) -> None:
    start_on_the_server(server, "pocha", ["Ana", "Luis", "Carmen"], {})  # 1 1 1 2 …
    phone.go("/matches/1/deal")
    for seat in (1, 2, 0):  # deal 1's bids, online: waiting on the server for their tricks
        phone.choose(f"bids-{seat}", 0)
    phone.tap(SAVE)
    phone.page.wait_for_selector("#offline-tricks, input[name='tricks-1']")
    keep_the_table(phone)
    phone.go("/matches/1/deal")
    phone.context.set_offline(True)
    phone.choose("tricks-1", 1)  # deal 1's tricks
    phone.choose("tricks-2", 0)
    phone.tap(SAVE)
    wait_for_queue(phone, 1)
    for seat, bid in ((2, 1), (0, 0), (1, 1)):  # deal 2's bids, Luis deals
        phone.choose(f"bids-{seat}", bid)
    phone.tap(SAVE)
    wait_for_queue(phone, 2)
    phone.go("/matches/1")
    offline = phone.page.evaluate(STANDINGS)
    assert offline == ["1 Ana 0 10", "1 Carmen 1 10", "3 Luis 1 -5"]  # rank, name, bid, total
    assert phone.page.locator("#totals th.bid").is_visible()
    with phone.page.expect_navigation(timeout=15000):
        back_online(phone)
        expect(phone.page.locator(BANNER)).to_contain_text("were sent", timeout=15000)
    phone.go("/matches/1")
    assert phone.page.evaluate(STANDINGS) == offline


def test_kept_deals_that_do_not_follow_the_page_s_last_deal_are_listed_without_totals(
    phone: Phone, server: Server
) -> None:
    start_on_the_server(server, "tute2", ["Ana", "Luis"], {"mode": "points", "target": 10000})
    keep_the_table(phone)
    phone.go("/matches/1/deal")
    phone.context.set_offline(True)
    keep_tute_deals(phone, (70, 40, 90))
    wait_for_queue(phone, 3)
    # The first two went before the connection dropped again; the scoreboard kept is of before them.
    with server.app.app_context():
        match = db.session.get(Match, 1)
        assert match is not None
        for dealer, ana in enumerate((70, 40)):
            services.add_deal(match, {"dealer": dealer, "trump": "copas", "points": [ana, 120 - ana], "last_trick": 0})
        db.session.remove()
    phone.page.evaluate(
        "localStorage.setItem('scorekeeper-queue', JSON.stringify(JSON.parse(localStorage.getItem('scorekeeper-queue')).slice(2)))"
    )
    phone.go("/matches/1")  # the copy of before any deal, with deal 3 kept
    box = phone.page.locator("#kept-deals")
    expect(box).to_contain_text("Deal 3: Ana 100 · Luis 30")
    assert "Provisional totals" not in box.inner_text()  # the deals between are not on this copy
    assert phone.page.locator("#provisional-note").is_hidden() and phone.page.locator("tr.unsent").count() == 0
    expect(phone.page.locator("#next .next-dealer")).to_have_text("Deal 1: Ana deals.")  # the copy, as kept
