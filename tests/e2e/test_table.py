"""Whole evenings at a phone's size: matches to their end, counted taps, corrections, edits."""

from __future__ import annotations

import re

from scorekeeper.extensions import db
from scorekeeper.models import Deal

from .conftest import Phone

ENTER = "a.button.primary.big"
SAVE = "form.deal-form button[type=submit]"


def enter_tute_deal(
    phone: Phone, trump: str, points: int, last_trick: int, cante: tuple[str, int] | None = None
) -> int:
    """Enter a typical Tute deal from the scoreboard; return the taps it took."""
    before = phone.taps
    phone.tap(ENTER)
    phone.choose("trump", trump)
    phone.type("#points0", str(points))
    phone.choose("last_trick", last_trick)
    if cante:
        phone.choose(f"cante_{cante[0]}", cante[1])
    phone.tap(SAVE)
    phone.page.wait_for_selector("#totals")
    return phone.taps - before


def seats_in_order(phone: Phone) -> list[int]:
    return [
        int(s)
        for s in phone.page.eval_on_selector_all(".seat-rows > .seat-row", "rows => rows.map(r => r.dataset.seat)")
    ]


def enter_pocha_deal(phone: Phone, cards: int, trump: str = "none") -> int:
    """Enter a Pocha deal from the scoreboard: everyone bids 0, the first bidder takes every trick."""
    before = phone.taps
    phone.tap(f".trump-start a[href$='trump={trump}']")  # starts the bids and says the trump
    phone.page.wait_for_selector(".seat-row")
    order = seats_in_order(phone)
    for seat in order:
        phone.choose(f"bids-{seat}", 0)
    phone.tap(SAVE)
    phone.page.wait_for_selector("input[name^='tricks-']")
    phone.choose(f"tricks-{order[0]}", cards)
    for seat in order[1:-1]:
        phone.choose(f"tricks-{seat}", 0)
    # the last player's tricks are filled in: what is left
    assert phone.page.is_checked(f"input[name='tricks-{order[-1]}'][value='0']")
    phone.tap(SAVE)
    phone.page.wait_for_selector("#totals")
    return phone.taps - before


def test_a_whole_tute2_match_to_its_end_in_six_taps_a_deal(phone: Phone) -> None:
    phone.start_match("tute2", ["Ana", "Luis"])
    assert "Deal 1: Ana deals." in phone.text()
    assert enter_tute_deal(phone, "copas", 78, 0, ("oros", 0)) <= 6
    assert "Ana sang 20 in oros" in phone.text()
    assert enter_tute_deal(phone, "bastos", 30, 1, ("bastos", 1)) <= 6
    assert enter_tute_deal(phone, "espadas", 90, 0) <= 6
    assert enter_tute_deal(phone, "oros", 100, 0, ("copas", 0)) <= 6
    board = phone.text()
    assert "Winner: Ana" in board
    assert re.search(r"juegos of 3\s+Points\s+1\s+Ana\s+winner\s+3\s", board)
    phone.tap("text=Rematch: same seats, same rules")
    phone.page.wait_for_selector("#totals")
    assert "Deal 1: Luis deals." in phone.text()


def test_a_tute4_match_with_cantes_and_a_tute(phone: Phone) -> None:
    phone.start_match("tute4", ["Ana", "Luis", "Carmen", "Pedro"], leader="2")
    assert "Deal 1: Luis deals." in phone.text()  # Carmen holds the 2 of oros and leads
    assert enter_tute_deal(phone, "bastos", 64, 0, ("espadas", 2)) <= 6
    phone.tap(ENTER)
    phone.choose("trump", "oros")
    phone.choose("cante_copas", 1)  # after a tute only its holder can have sung
    phone.tap("main summary")
    phone.choose("tute_seat", 1)
    phone.choose("tute_kind", "caballos")
    phone.tap(SAVE)
    phone.page.wait_for_selector("#totals")
    board = phone.text()
    assert "Carmen sang 20 in espadas" in board
    assert "Luis: tute of Caballos" in board and "won by Luis & Pedro" in board
    assert "Luis sang 20 in copas" in board
    assert re.search(r"juegos of 3\s+Points\s+1\s+Ana & Carmen\s+1\s+\d+\s+1\s+Luis & Pedro\s+1\s+\d+\s", board)


def test_a_whole_classic_pocha_match_for_four_in_ten_taps_a_deal(phone: Phone) -> None:
    phone.start_match("pocha", ["Ana", "Luis", "Carmen", "Pedro"])
    schedule = [1, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1, 1, 1]
    suits = ["none", "oros", "copas", "espadas", "bastos"]
    for number, cards in enumerate(schedule, start=1):
        assert f"Deal {number}:" in phone.text()
        assert enter_pocha_deal(phone, cards, suits[number % 5]) <= 10, f"deal {number}"
    board = phone.text()
    assert "Winner" in board and "Enter the bids" not in board
    # each seat bid first 7 times: -5 per trick then, +10 in the other 21 deals
    with phone.server.app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Deal)) == 28


def test_a_wrong_entry_is_shown_before_sending_and_corrected_without_retyping(phone: Phone) -> None:
    phone.start_match("tute2", ["Ana", "Luis"])
    phone.tap(ENTER)
    phone.choose("trump", "copas")
    phone.type("#points0", "119")
    phone.choose("cante_copas", 1)
    assert "A side cannot capture 119 card points" in phone.text()
    phone.tap(SAVE)  # refused in the browser: nothing is sent
    assert "/deal" in phone.page.url
    assert "Say which side took the last trick." in phone.text()
    phone.page.fill("#points0", "70")
    assert phone.page.input_value("#points1") == "50"  # the other side follows
    phone.choose("last_trick", 1)
    assert "cannot capture" not in phone.text()
    assert phone.page.is_checked("input[name='cante_copas'][value='1']")  # kept, not retyped
    phone.tap(SAVE)
    phone.page.wait_for_selector("#totals")
    assert "Luis sang 40 in copas" in phone.text()


def test_the_server_s_refusal_keeps_every_value_when_the_browser_let_it_through(phone: Phone) -> None:
    phone.start_match("pocha", ["Ana", "Luis"], opt_schedule="custom", schedule_list="3")
    phone.tap(".trump-start a.primary")
    phone.choose("bids-1", 1)
    phone.choose("bids-0", 1)  # Ana deals; 1 + 1 is not 3, so this is allowed
    phone.tap(SAVE)
    phone.choose("tricks-1", 3)
    phone.page.evaluate("document.querySelectorAll('input[name=\"tricks-0\"]').forEach(i => i.checked = false)")
    phone.page.evaluate('document.querySelector(\'input[name="tricks-0"][value="1"]\').checked = true')
    with phone.page.expect_navigation():  # sent around the browser's check, as an old phone might
        phone.page.evaluate("document.querySelector('form.deal-form').submit()")
    assert "The tricks must add up to the 3 cards in hand; these add up to 4." in phone.text()
    assert phone.page.is_checked("input[name='tricks-1'][value='3']")


def test_the_dealer_s_forbidden_bid_cannot_be_tapped(phone: Phone) -> None:
    phone.start_match("pocha", ["Ana", "Luis", "Carmen"], opt_schedule="custom", schedule_list="4", first_dealer="2")
    phone.tap(".trump-start a.primary")
    phone.choose("bids-0", 2)
    phone.choose("bids-1", 1)
    assert phone.page.get_attribute("input[name='bids-2'][value='1']", "aria-disabled") == "true"
    assert phone.page.get_attribute("input[name='bids-2'][value='0']", "aria-disabled") == "false"
    phone.page.locator("label.choice:has(input[name='bids-2'][value='1'])").tap(force=True)  # as a thumb would
    assert not phone.page.is_checked("input[name='bids-2'][value='1']")
    assert "Carmen deals and bids last, and may not bid 1" in phone.text()  # says why


def test_the_new_match_choices_say_the_names_as_they_are_typed(phone: Phone) -> None:
    phone.go("/matches/new/tute4")
    for seat, name in enumerate(["Ana", "Luis", "Carmen"]):
        phone.page.fill(f"#players-{seat}", name)
    options = phone.page.eval_on_selector_all("#leader option", "nodes => nodes.map(n => n.textContent)")
    assert options == ["Ana (Seat 1)", "Luis (Seat 2)", "Carmen (Seat 3)", "Seat 4"]
    phone.go("/matches/new/pocha")
    phone.page.fill("#players-1", "Zoe")
    assert phone.page.eval_on_selector("#first_dealer option[value='1']", "n => n.textContent") == "Zoe (Seat 2)"


def test_an_old_deal_is_edited_and_the_totals_follow(phone: Phone) -> None:
    phone.start_match("tute2", ["Ana", "Luis"])
    enter_tute_deal(phone, "copas", 70, 0)
    enter_tute_deal(phone, "oros", 30, 1)
    assert re.search(r"juegos of 3\s+Points\s+1\s+Ana\s+1\s+\d+\s+1\s+Luis\s+1\s", phone.text())
    phone.tap("a[aria-label='Edit deal 1']")
    assert phone.page.input_value("#points0") == "70" and phone.page.input_value("#points1") == "50"
    phone.page.fill("#points1", "90")  # either side can be typed: the other follows, no clearing by hand
    assert phone.page.input_value("#points0") == "30"
    phone.page.fill("#points0", "20")
    assert phone.page.input_value("#points1") == "100"
    assert "add up to" not in phone.text()
    phone.choose("last_trick", 1)
    phone.tap(SAVE)
    phone.page.wait_for_selector("#totals")
    board = phone.text()
    assert "Deal 1 was corrected." in board
    assert re.search(r"juegos of 3\s+Points\s+1\s+Luis\s+2\s+210\s+2\s+Ana\s+0\s+50\s", board)


def test_the_card_counter_sums_the_cards_tapped_into_a_side_s_points(phone: Phone) -> None:
    phone.start_match("tute2", ["Ana", "Luis"])
    phone.tap(ENTER)
    phone.tap(".count-open")
    tapped = {
        "As · Oros · 11": 11,
        "Tres · Copas · 10": 10,
        "Rey · Bastos · 4": 4,
        "Caballo · Espadas · 3": 3,
        "Sota · Oros · 2": 2,
        "As · Bastos · 11": 11,
    }
    for label in tapped:
        phone.page.get_by_label(label).tap()
    phone.page.get_by_label("Rey · Bastos · 4").tap()  # tapped again: out of the pile
    expected = sum(tapped.values()) - 4
    assert phone.page.locator("#counter-sum").inner_text() == str(expected)
    phone.tap("button[data-counts-for='points1']")
    assert not phone.page.locator("#card-counter").is_visible()
    assert phone.page.input_value("#points1") == str(expected)
    assert phone.page.input_value("#points0") == str(120 - expected)  # the other side follows
    phone.tap(".count-open")  # a new count starts from nothing
    assert phone.page.locator("#counter-sum").inner_text() == "0"
    phone.tap("button[data-closes='card-counter']")
    assert phone.page.input_value("#points1") == str(expected)
