"""One phone screen per deal at 360×740: every deal form's Save button in sight without
scrolling, and a header of one row on every page."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.rules.pocha import max_cards

from .conftest import Phone, Server
from .test_table import SAVE

SMALL_PHONE = {"viewport": {"width": 360, "height": 740}}
NAMES = ["Ana", "Luis", "Carmen", "Pedro", "Zoe", "Marta", "Iker", "Nerea"]


def save_in_sight(phone: Phone) -> bool:
    """Tell whether the deal form's Save button lies wholly on the first screen, unscrolled."""
    phone.page.evaluate("window.scrollTo(0, 0)")
    box = phone.page.locator(SAVE).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 740


def header_height(phone: Phone) -> float:
    return float(phone.page.evaluate("document.querySelector('header.topbar').getBoundingClientRect().height"))


def _prepare_matches(server: Server) -> dict[str, int]:
    """Start the matches whose forms are measured: Tute for two and four with a deal, and Pocha
    for 2 to 8 players at their largest deal, once waiting for bids and once for tricks."""
    ids: dict[str, int] = {}
    with server.app.app_context():
        user = services.user_named("ana")
        assert user is not None
        for game, seats in (("tute2", 2), ("tute4", 4)):
            match = services.start_match(user, game, NAMES[:seats], {}, 0)
            services.add_deal(match, {"dealer": 0, "trump": "copas", "points": [70, 50], "last_trick": 0,
                                      "cantes": [{"seat": 1, "suit": "oros"}]})
            ids[game] = match.id
        for players in range(2, 9):
            most = max_cards(players)
            for step in ("bids", "tricks"):
                match = services.start_match(user, "pocha", NAMES[:players], {"schedule": [most]}, 0)
                if step == "tricks":
                    services.save_bids(match, {"dealer": 0, "cards": most, "trump": "oros",
                                               "bids": [0] * (players - 1) + [1]})
                ids[f"pocha{players}-{step}"] = match.id
        db.session.remove()
    return ids


def test_every_deal_form_shows_its_save_button_without_scrolling(browser: Any, server: Server) -> None:
    phone = Phone(browser, server, **SMALL_PHONE)
    phone.sign_up()
    ids = _prepare_matches(server)
    below: list[str] = []
    pages = [(f"{game} new", f"/matches/{ids[game]}/deal") for game in ("tute2", "tute4")]
    pages += [(f"{game} edit", f"/matches/{ids[game]}/deals/1/edit") for game in ("tute2", "tute4")]
    pages += [(name, f"/matches/{number}/deal") for name, number in ids.items() if name.startswith("pocha")]
    for name, path in pages:
        phone.go(path)
        phone.page.wait_for_selector("form.deal-form")
        if not save_in_sight(phone):
            below.append(name)
    phone.close()
    assert below == []


def test_a_tute_deal_form_fits_one_screen_whole(browser: Any, server: Server) -> None:
    """Tute's form is short enough to need no scrolling at all, its tute toggle included."""
    phone = Phone(browser, server, **SMALL_PHONE)
    phone.sign_up()
    ids = _prepare_matches(server)
    for game in ("tute2", "tute4"):
        for path in (f"/matches/{ids[game]}/deal", f"/matches/{ids[game]}/deals/1/edit"):
            phone.go(path)
            bottom = phone.page.evaluate("document.querySelector('details.tute').getBoundingClientRect().bottom")
            save_top = phone.page.locator(SAVE).bounding_box()["y"]
            assert bottom <= save_top, path
    phone.close()


def test_the_header_is_one_row_of_at_most_56_px_on_every_page(browser: Any, server: Server) -> None:
    phone = Phone(browser, server, **SMALL_PHONE)
    phone.go("/")
    tall = {"first account": header_height(phone)} if header_height(phone) > 56 else {}
    phone.sign_up()
    ids = _prepare_matches(server)
    for path in ("/", "/matches/new", "/matches/new/pocha", f"/matches/{ids['tute4']}",
                 f"/matches/{ids['tute4']}/deal", f"/matches/{ids['pocha8-bids']}", "/history", "/players/",
                 "/stats/tute2", "/stats/pocha", "/account", "/language"):
        phone.go(path)
        if header_height(phone) > 56:
            tall[path] = header_height(phone)
    phone.page.click("details.menu summary")
    phone.page.click("details.menu >> text=History")
    phone.page.wait_for_url("**/history")
    phone.close()
    assert tall == {}


def test_the_bids_waiting_for_tricks_are_in_sight_on_the_scoreboard_and_the_live_view(browser: Any,
                                                                                      server: Server) -> None:
    phone = Phone(browser, server, **SMALL_PHONE)
    phone.sign_up()
    phone.start_match("pocha", ["Ana", "Luis", "Carmen"], opt_schedule="custom", schedule_list="4")
    phone.tap("text=Make a share link")
    link = phone.page.locator("a.share-link").get_attribute("href")
    other = Phone(browser, server, **SMALL_PHONE)
    other.page.goto(link)
    phone.tap(".trump-start a.primary")
    for seat, bid in ((1, 2), (2, 0), (0, 1)):
        phone.choose(f"bids-{seat}", bid)
    phone.tap(SAVE)
    phone.page.wait_for_selector("input[name^='tricks-']")
    phone.go("/matches/1")
    for page in (phone.page, other.page):
        bids = page.locator(".pending-bids")
        expect(bids).to_have_text(re.compile(r"Luis\s*2\s*Carmen\s*0\s*Ana\s*1"), timeout=10000)
        expect(page.locator(".bids-sum")).to_have_text("The bids add up to 3 of 4: 1 trick too few for everyone.")
        box = bids.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 360
    other.close()
    phone.close()


def test_a_checked_button_keeps_its_size(browser: Any, server: Server) -> None:
    phone = Phone(browser, server, **SMALL_PHONE)
    phone.sign_up()
    phone.start_match("tute4", ["Ana", "Luis", "Carmen", "Pedro"])
    phone.go("/matches/1/deal")
    labels = "label.choice:has(input[name^='cante_']), label.choice:has(input[name='trump'])"
    boxes = lambda: phone.page.eval_on_selector_all(  # noqa: E731
        labels, "nodes => nodes.map(n => { const r = n.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })")
    before = boxes()
    phone.choose("trump", "espadas")
    phone.choose("cante_oros", 3)
    assert boxes() == before
    phone.close()


def test_a_deal_number_of_two_digits_stays_on_one_line_in_a_read_only_deal_table(browser: Any, server: Server) -> None:
    """Without an edit button beside it, the number column is as narrow as its number: "10" must not break."""
    phone = Phone(browser, server, **SMALL_PHONE)
    phone.sign_up()
    with server.app.app_context():
        user = services.user_named("ana")
        assert user is not None
        match = services.start_match(user, "tute2", NAMES[:2], {"target": 15}, 0)
        for number in range(10):  # each side wins every other deal: the match goes on
            won = number % 2
            services.add_deal(match, {"dealer": won, "trump": "oros", "points": [70, 50] if won == 0 else [50, 70],
                                      "last_trick": won, "cantes": []})
        match_id = match.id
        db.session.remove()
    phone.go(f"/history/{match_id}")
    number = phone.page.locator("table.deals tbody th").nth(9)
    assert number.inner_text().strip() == "10"
    line = float(number.evaluate("node => parseFloat(getComputedStyle(node).lineHeight)"))
    box = number.evaluate("node => { const r = document.createRange(); r.selectNodeContents(node);"
                          " return r.getBoundingClientRect().height; }")
    assert box < 1.5 * line
    phone.close()


def test_a_short_name_heads_its_column_of_the_deal_table_on_one_line(browser: Any, server: Server) -> None:
    """The deal description may wrap; the players' columns keep room for a name like "Ana" whole."""
    phone = Phone(browser, server, **SMALL_PHONE)
    phone.sign_up()
    ids = _prepare_matches(server)
    phone.go(f"/matches/{ids['tute2']}")
    heads = phone.page.locator("table.deals th.num")
    assert heads.count() == 2
    for index in range(2):
        head = heads.nth(index)
        line = float(head.evaluate("node => parseFloat(getComputedStyle(node).lineHeight)"))
        box = head.evaluate("node => { const r = document.createRange(); r.selectNodeContents(node);"
                            " return r.getBoundingClientRect().height; }")
        assert box < 1.5 * line, head.inner_text()
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= 360
    phone.close()


def test_a_servers_page_without_accounts_fits_the_phone(browser: Any, server: Server) -> None:
    """A server leaves its first account to its host: /setup shows the command, within 360 px."""
    server.app.config["SETUP_OPEN"] = False
    phone = Phone(browser, server, **SMALL_PHONE)
    phone.go("/setup")
    expect(phone.page.locator("p.command code")).to_have_text("flask --app scorekeeper user create NAME")
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= 360
    phone.close()
