"""An axe-core scan of every main page, in light and in dark, finds no serious or critical violation."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper import services
from scorekeeper.extensions import db

from .conftest import Phone, Server
from .test_fit import choose_language
from .test_offline_table import BANNER, colours, refused_as_finished_elsewhere
from .test_table import ENTER, SAVE, enter_tute_deal

SEVERE = {"serious", "critical"}


def severe_violations(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v.get("impact") in SEVERE
    ]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_main_page_passes_axe(browser: Any, server: Server, scheme: str) -> None:
    phone = Phone(browser, server, color_scheme=scheme)
    found: dict[str, list[str]] = {}

    def scan(name: str) -> None:
        problems = severe_violations(phone.page)
        if problems:
            found[name] = problems

    phone.go("/")
    scan("first account")
    phone.sign_up()
    scan("home, empty")
    phone.go("/matches/new")
    scan("choose a game")
    phone.go("/matches/new/tute4")
    phone.page.click("main summary")
    scan("new match with house rules")
    phone.start_match("tute2", ["Ana", "Luis"])
    enter_tute_deal(phone, "copas", 78, 0, ("oros", 0))
    scan("scoreboard")
    phone.tap(ENTER)
    phone.page.wait_for_selector("form.deal-form")
    phone.page.click("main summary")
    scan("tute deal form")
    phone.tap(".count-open")
    scan("card counter")
    phone.tap("button[data-closes='card-counter']")
    phone.choose("trump", "oros")
    phone.type("#points0", "119")
    phone.tap(SAVE)
    scan("tute deal form with messages")
    phone.start_match("pocha", ["Ana", "Luis", "Carmen"])
    phone.tap(".trump-start a.primary")
    phone.page.wait_for_selector("form.deal-form")
    scan("pocha bids")
    for seat in (1, 2, 0):
        phone.choose(f"bids-{seat}", 0)
    phone.tap(SAVE)
    phone.page.wait_for_selector("input[name^='tricks-']")
    scan("pocha tricks")
    phone.go("/matches/1")
    phone.tap("text=Make a share link")
    phone.page.wait_for_selector("a.share-link")
    link = phone.page.locator("a.share-link").get_attribute("href")
    phone.page.goto(link)
    scan("live view")
    phone.start_match("tute3", ["Ana", "Luis", "Carmen"])
    phone.tap(ENTER)
    phone.page.wait_for_selector("form.deal-form")
    phone.choose("trump", "bastos")
    phone.type("#points0", "50")
    phone.type("#points1", "40")
    assert phone.page.input_value("#points2") == "30"  # the third player's points follow the other two
    phone.page.click("main summary")
    scan("tute3 deal form")
    phone.tap(SAVE)  # no last trick yet: refused at its field
    scan("tute3 deal form with messages")
    phone.start_match("subastado", ["Ana", "Luis", "Carmen", "Pedro"])
    scan("subastado scoreboard, before its first deal")
    phone.tap(".auction-start a[href$='?declarer=1']")
    phone.page.wait_for_selector("form.deal-form")
    phone.choose("trump", "copas")
    phone.type("#points", "62")
    scan("subastado deal form")
    phone.tap(SAVE)  # a bid of 60 with 62 points: made, saved
    phone.page.wait_for_selector("#next")
    scan("subastado scoreboard")
    phone.tap(".auction-start a[href$='?declarer=2']")
    phone.page.wait_for_selector("form.deal-form")
    phone.tap(SAVE)  # no trump nor points: refused at their fields
    scan("subastado deal form with messages")
    for path in ("/history", "/history/1", "/players/", "/nights", "/nights/1", "/", "/account"):
        phone.go(path)
        scan(path)
    phone.tap("text=Sign out")
    phone.page.wait_for_selector("#username")
    scan("sign in")
    phone.close()
    assert found == {}


#: The games whose scoreboard and deal form are scanned in every language, each with its table.
GAMES_IN_EVERY_LANGUAGE = {"tute3": ["Ana", "Luis", "Carmen"], "subastado": ["Ana", "Luis", "Carmen"]}
#: A deal of each, entered on the server, so that the scoreboard shows its deal table.
FIRST_DEALS: dict[str, dict[str, Any]] = {
    "tute3": {
        "dealer": 0,
        "trump": "oros",
        "points": [50, 40, 30],
        "last_trick": 2,
        "cantes": [{"seat": 1, "suit": "oros"}],
    },
    "subastado": {
        "dealer": 0,
        "declarer": 1,
        "bid": 100,
        "trump": "oros",
        "points": 70,
        "last_trick": False,
        "cantes": [{"seat": 1, "suit": "espadas"}],
    },
}


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_each_game_s_scoreboard_and_deal_form_pass_axe_in_every_language(
    browser: Any, server: Server, scheme: str
) -> None:
    phone = Phone(browser, server, color_scheme=scheme)
    phone.sign_up()
    with server.app.app_context():
        user = services.user_named("ana")
        assert user is not None
        matches = {}
        for game, names in GAMES_IN_EVERY_LANGUAGE.items():
            match = services.start_match(user, game, names, {}, 0)
            services.add_deal(match, FIRST_DEALS[game])
            matches[game] = match.id
        db.session.remove()
    found: dict[str, list[str]] = {}
    for language in ("en", "es", "it", "nb"):
        choose_language(phone, language)
        for game, match_id in matches.items():
            for page, path in (("scoreboard", f"/matches/{match_id}"), ("deal form", f"/matches/{match_id}/deal")):
                phone.go(path)
                phone.page.wait_for_load_state("load")
                problems = severe_violations(phone.page)
                if problems:
                    found[f"{game} {page} ({language})"] = problems
    phone.close()
    assert found == {}


def test_the_scan_does_find_what_it_should(browser: Any) -> None:
    page = browser.new_page()
    page.set_content('<html lang="en"><title>x</title><main><input type="text"><img src="x.png"></main></html>')
    found = " ".join(severe_violations(page))
    assert "label" in found and "image-alt" in found
    page.close()


LONG_NAMES = [
    "Maximiliano Fernánde",
    "Guadalupe Rodríguez",
    "Bartolomé Etxeberri",
    "Inmaculada Concepció",
    "Esperanza Villanueva",
    "Leopoldo Castellano",
    "Encarnación Iglesia",
    "Fructuoso Altamiran",
]


def _play_some_deals(server: Server) -> None:
    """Give the 8-player Pocha match three deals and finish a Tute match of long names, so that
    the deal table and the leaderboards have rows to lay out."""
    from scorekeeper import services
    from scorekeeper.extensions import db
    from scorekeeper.models import Match

    with server.app.app_context():
        pocha = db.session.get(Match, 2)
        assert pocha is not None
        for dealer in range(3):
            bids = [0] * 8
            tricks = [0] * 8
            tricks[(dealer + 1) % 8] = 1
            services.add_deal(pocha, {"dealer": dealer, "cards": 1, "trump": "oros", "bids": bids, "tricks": tricks})
        user = services.user_named("ana")
        assert user is not None
        tute = services.start_match(user, "tute2", LONG_NAMES[:2], {"target": 1}, 0)
        services.add_deal(tute, {"dealer": 0, "trump": "oros", "points": [100, 20], "last_trick": 0})
        db.session.remove()


def test_main_pages_fit_360_px_with_thumb_sized_targets(browser: Any, server: Server) -> None:
    """No page is wider than a small phone, none hides a sideways scroll, every target takes a thumb."""
    phone = Phone(browser, server, viewport={"width": 360, "height": 740})
    phone.sign_up()
    phone.start_match("tute4", ["Ana", "Luis", "Carmen", "Pedro"])
    enter_tute_deal(phone, "copas", 78, 0, ("oros", 0))
    phone.start_match("pocha", LONG_NAMES)
    _play_some_deals(phone.server)
    small: dict[str, list[str]] = {}
    wide: dict[str, object] = {}
    targets = (
        "button, a.button, label.choice, select, summary, "
        "input:not([type=hidden]):not([type=radio]):not([type=checkbox])"
    )
    for path in (
        "/",
        "/matches/new",
        "/matches/new/pocha",
        "/matches/1",
        "/matches/1/deal",
        "/matches/2",
        "/matches/2/deal",
        "/matches/3",
        "/history",
        "/history/2",
        "/players/",
        "/players/5",
        "/account",
        "/stats/tute2",
        "/stats/tute4",
        "/stats/pocha",
        "/stats/head-to-head?a=5&b=6",
        "/language",
        "/nights",
        "/nights/1",
    ):
        phone.go(path)
        for summary in phone.page.locator("main details > summary").all():
            summary.click()
        widths = phone.page.evaluate("""[document.documentElement.scrollWidth,
            ...[...document.querySelectorAll('main *')].filter(n => n.scrollWidth > n.clientWidth + 1
                && ['auto', 'scroll'].includes(getComputedStyle(n).overflowX)).map(n => n.className)]""")
        if widths[0] > 360 or len(widths) > 1:
            wide[path] = widths
        tiny = phone.page.eval_on_selector_all(
            targets,
            """nodes => nodes
            .filter(n => n.offsetParent !== null)
            .map(n => [n.outerHTML.slice(0, 60), n.getBoundingClientRect()])
            .filter(([_, r]) => r.height < 47.5 || r.width < 47.5)
            .map(([html, r]) => `${html} ${Math.round(r.width)}x${Math.round(r.height)}`)""",
        )
        if tiny:
            small[path] = tiny[:5]
    phone.close()
    assert wide == {} and small == {}


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_banner_of_kept_deals_refused_passes_axe(browser: Any, server: Server, scheme: str) -> None:
    phone = Phone(browser, server, color_scheme=scheme)
    phone.sign_up()
    other = refused_as_finished_elsewhere(phone, browser, server)
    # axe leaves out text drawn in its background's own colour (as if hidden on purpose): compare them too
    seen = colours(phone, f"{BANNER} button")
    assert seen["color"] != seen["behind"], seen
    found = {"deal form": severe_violations(phone.page)}
    phone.go("/matches/1")
    phone.page.locator(f"{BANNER} button").wait_for()
    found["scoreboard"] = severe_violations(phone.page)
    other.close()
    phone.close()
    assert found == {"deal form": [], "scoreboard": []}
