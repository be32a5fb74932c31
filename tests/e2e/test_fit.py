"""One phone screen per deal at 360×740: every deal form's Save button in sight without
scrolling, and a header of one row on every page."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.games.pocha.rules import max_cards

from .conftest import Phone, Server
from .test_table import SAVE

SMALL_PHONE = {"viewport": {"width": 360, "height": 740}}
NAMES = ["Ana", "Luis", "Carmen", "Pedro", "Zoe", "Marta", "Iker", "Nerea"]
#: Every Tute game and its seats; a first deal's card points in each.
TUTE_TABLES = (("tute2", 2), ("tute3", 3), ("tute4", 4))
TUTE_POINTS = {"tute2": [70, 50], "tute3": [50, 40, 30], "tute4": [70, 50]}
#: Tute subastado at a table of three and of four (with the tute played, so that its part shows too).
SUBASTADO_TABLES = (("subastado3", 3), ("subastado4", 4))


def save_in_sight(phone: Phone) -> bool:
    """Tell whether the deal form's Save button lies wholly on the first screen, unscrolled."""
    phone.page.evaluate("window.scrollTo(0, 0)")
    box = phone.page.locator(SAVE).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 740


def header_height(phone: Phone) -> float:
    return float(phone.page.evaluate("document.querySelector('header.topbar').getBoundingClientRect().height"))


def start_every_form(user: Any, names: list[str]) -> dict[str, int]:
    """Start, for `user` inside an app context, the matches whose forms are measured, with `names`: Tute
    for two, three and four and Tute subastado for three and four with a deal, and Pocha for 2 to 8 players at their largest deal, once waiting for
    bids and once for tricks; return their ids by case."""
    ids: dict[str, int] = {}
    for game, seats in TUTE_TABLES:
        match = services.start_match(user, game, names[:seats], {}, 0)
        services.add_deal(
            match,
            {
                "dealer": 0,
                "trump": "copas",
                "points": TUTE_POINTS[game],
                "last_trick": 0,
                "cantes": [{"seat": 1, "suit": "oros"}],
            },
        )
        ids[game] = match.id
    for case, seats in SUBASTADO_TABLES:
        match = services.start_match(user, "subastado", names[:seats], {"players": seats, "tute": "match"}, 0)
        services.add_deal(
            match,
            {
                "dealer": 0,
                "declarer": 1,
                "bid": 80,
                "trump": "copas",
                "points": 62,
                "last_trick": True,
                "cantes": [{"seat": 1, "suit": "copas"}],
            },
        )
        ids[case] = match.id
    for players in range(2, 9):
        most = max_cards(players)
        for step in ("bids", "tricks"):
            match = services.start_match(user, "pocha", names[:players], {"schedule": [most]}, 0)
            if step == "tricks":
                services.save_bids(
                    match, {"dealer": 0, "cards": most, "trump": "oros", "bids": [0] * (players - 1) + [1]}
                )
            ids[f"pocha{players}-{step}"] = match.id
    return ids


def _prepare_matches(server: Server) -> dict[str, int]:
    """Start the matches whose forms are measured (`start_every_form`) with short names."""
    with server.app.app_context():
        user = services.user_named("ana")
        assert user is not None
        ids = start_every_form(user, NAMES)
        db.session.remove()
    return ids


def test_every_deal_form_shows_its_save_button_without_scrolling(browser: Any, server: Server) -> None:
    phone = Phone(browser, server, **SMALL_PHONE)
    phone.sign_up()
    ids = _prepare_matches(server)
    below: list[str] = []
    pages = [(f"{game} new", f"/matches/{ids[game]}/deal") for game, _ in TUTE_TABLES]
    pages += [(f"{game} edit", f"/matches/{ids[game]}/deals/1/edit") for game, _ in TUTE_TABLES]
    pages += [(name, f"/matches/{number}/deal") for name, number in ids.items() if name.startswith("pocha")]
    pages += [(f"{case} new", f"/matches/{ids[case]}/deal") for case, _ in SUBASTADO_TABLES]
    pages += [(f"{case} edit", f"/matches/{ids[case]}/deals/1/edit") for case, _ in SUBASTADO_TABLES]
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
    for game, _ in TUTE_TABLES:
        for path in (f"/matches/{ids[game]}/deal", f"/matches/{ids[game]}/deals/1/edit"):
            phone.go(path)
            bottom = phone.page.evaluate("document.querySelector('details.tute').getBoundingClientRect().bottom")
            save_top = phone.page.locator(SAVE).bounding_box()["y"]
            assert bottom <= save_top, path
    phone.close()


def test_a_subastado_deal_form_fits_one_screen_whole(browser: Any, server: Server) -> None:
    """Tute subastado's form needs no scrolling at all, the tute's part included, and shows the
    declarer's total against the bid as it is filled in."""
    phone = Phone(browser, server, **SMALL_PHONE)
    phone.sign_up()
    ids = _prepare_matches(server)
    for case, _ in SUBASTADO_TABLES:
        for path in (f"/matches/{ids[case]}/deal", f"/matches/{ids[case]}/deals/1/edit"):
            phone.go(path)
            bottom = phone.page.evaluate("document.querySelector('details.tute').getBoundingClientRect().bottom")
            save_top = phone.page.locator(SAVE).bounding_box()["y"]
            assert bottom <= save_top, path
    phone.go(f"/matches/{ids['subastado3']}/deal")
    phone.choose("declarer", 2)
    phone.page.click("button.step[data-step='5']")  # 60 becomes 65
    phone.choose("trump", "oros")
    phone.type("#points", "50")
    assert "failed" in (phone.page.text_content("#contract-state") or "")  # 50 for a bid of 65
    phone.tap("label.last-trick")
    assert phone.page.input_value("#bid") == "65"
    assert phone.page.text_content("#contract-state") == "Total 60 for a bid of 65: contract failed."
    phone.type("#points", "55")
    assert phone.page.text_content("#contract-state") == "Total 65 for a bid of 65: contract made."
    phone.choose("declarer", "passed")
    assert phone.page.locator(".contract").is_hidden()
    phone.close()


def test_the_header_is_one_row_of_at_most_56_px_on_every_page(browser: Any, server: Server) -> None:
    phone = Phone(browser, server, **SMALL_PHONE)
    phone.go("/")
    tall = {"first account": header_height(phone)} if header_height(phone) > 56 else {}
    phone.sign_up()
    ids = _prepare_matches(server)
    for path in (
        "/",
        "/matches/new",
        "/matches/new/pocha",
        f"/matches/{ids['tute4']}",
        f"/matches/{ids['tute4']}/deal",
        f"/matches/{ids['pocha8-bids']}",
        "/history",
        "/players/",
        "/stats/tute2",
        "/stats/pocha",
        "/account",
        "/language",
    ):
        phone.go(path)
        if header_height(phone) > 56:
            tall[path] = header_height(phone)
    phone.page.click("details.menu summary")
    phone.page.click("details.menu >> text=History")
    phone.page.wait_for_url("**/history")
    phone.close()
    assert tall == {}


def test_the_bids_waiting_for_tricks_are_in_sight_on_the_scoreboard_and_the_live_view(
    browser: Any, server: Server
) -> None:
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
        # Each bid stands on its player's line of the standings, in the Bid column.
        rows = page.locator("#totals tbody tr")
        expect(rows).to_have_count(3, timeout=10000)
        expect(page.locator("#totals thead th.bid")).to_have_text("Bids")
        bids = {
            rows.nth(index).locator(".name").inner_text(): rows.nth(index).locator("td.bid").inner_text().strip()
            for index in range(3)
        }
        assert bids == {"Luis": "2", "Carmen": "0", "Ana": "1"}
        expect(page.locator(".bids-sum")).to_have_text(
            "The bids add up to 3 of 4: 1 trick is left over, so someone will take more than they bid."
        )
        for index in range(3):
            box = rows.nth(index).bounding_box()
            assert box is not None and box["x"] + box["width"] <= 360 and box["y"] + box["height"] <= 740
    other.close()
    phone.close()


def test_a_checked_button_keeps_its_size(browser: Any, server: Server) -> None:
    phone = Phone(browser, server, **SMALL_PHONE)
    phone.sign_up()
    phone.start_match("tute4", ["Ana", "Luis", "Carmen", "Pedro"])
    phone.go("/matches/1/deal")
    labels = "label.choice:has(input[name^='cante_']), label.choice:has(input[name='trump'])"
    boxes = lambda: phone.page.eval_on_selector_all(  # noqa: E731
        labels,
        "nodes => nodes.map(n => { const r = n.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })",
    )
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
            services.add_deal(
                match,
                {
                    "dealer": won,
                    "trump": "oros",
                    "points": [70, 50] if won == 0 else [50, 70],
                    "last_trick": won,
                    "cantes": [],
                },
            )
        match_id = match.id
        db.session.remove()
    phone.go(f"/history/{match_id}")
    number = phone.page.locator("table.deals tbody th").nth(9)
    assert number.inner_text().strip() == "10"
    line = float(number.evaluate("node => parseFloat(getComputedStyle(node).lineHeight)"))
    box = number.evaluate(
        "node => { const r = document.createRange(); r.selectNodeContents(node);"
        " return r.getBoundingClientRect().height; }"
    )
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
        box = head.evaluate(
            "node => { const r = document.createRange(); r.selectNodeContents(node);"
            " return r.getBoundingClientRect().height; }"
        )
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


LANGUAGES = ("en", "es", "it", "nb")
#: Eight distinct names of 20 characters, the longest the standings have to fit.
LONG_NAMES = [f"Bartolomé Fernández{seat}" for seat in range(1, 9)]

#: Where each part of the board lies, unscrolled: the standings' lines (with each name as written
#: and as titled), the next step's buttons, the lines saying who deals and how many cards.
MEASURE = """() => {
  window.scrollTo(0, 0);
  const box = (node) => { const r = node.getBoundingClientRect(); return [r.top, r.bottom, r.left, r.right]; };
  const all = (selector) => [...document.querySelectorAll(selector)];
  return {
    rows: all("#totals tbody tr").map((row) => ({
      name: row.querySelector(".name").textContent, title: row.querySelector(".name").title,
      total: row.querySelector("td.score").textContent.trim(), bid: (row.querySelector("td.bid") || {}).textContent,
      box: box(row), nameBox: box(row.querySelector(".name"))})),
    steps: all("#next .button:not([hidden])").map(box),
    lines: all("#next .next-dealer, #next .next-cards").map(box),
    width: document.documentElement.scrollWidth,
  };
}"""


def choose_language(phone: Phone, language: str) -> None:
    """Switch the phone's pages to `language` through the language page, as a player would."""
    phone.go("/language")
    with phone.page.expect_navigation():
        phone.page.click(f"button[name=language][value={language}]")


def _prepare_long_named_matches(server: Server) -> dict[str, tuple[int, str, int, str]]:
    """Start Pocha for 2 to 8 (waiting for bids, and for tricks) and Tute for two, three and four, all with
    names of 20 characters and shared; return each case's match, live-view secret, number of sides and
    next step ("bids", "tricks" or "deal")."""
    cases: dict[str, tuple[int, str, int, str]] = {}
    with server.app.app_context():
        user = services.user_named("ana")
        assert user is not None
        for game, seats in TUTE_TABLES:
            match = services.start_match(user, game, LONG_NAMES[:seats], {}, 0)
            services.add_deal(
                match,
                {
                    "dealer": 0,
                    "trump": "copas",
                    "points": TUTE_POINTS[game],
                    "last_trick": 0,
                    "cantes": [{"seat": 1, "suit": "oros"}],
                },
            )
            cases[game] = (match.id, services.share_match(match), len(TUTE_POINTS[game]), "deal")
        for players in range(2, 9):
            most = max_cards(players)
            for step in ("bids", "tricks"):
                match = services.start_match(user, "pocha", LONG_NAMES[:players], {"schedule": [most, most]}, 0)
                if step == "tricks":
                    services.save_bids(
                        match, {"dealer": 0, "cards": most, "trump": "oros", "bids": [1] * (players - 1) + [0]}
                    )
                cases[f"pocha{players}-{step}"] = (match.id, services.share_match(match), players, step)
        db.session.remove()
    return cases


def _misfits(where: str, seen: dict[str, Any], sides: int, step: str | None) -> list[str]:
    """Say what of one board is not on the first screen of 360×740, or not as it should be there."""
    wrong: list[str] = []
    in_sight = lambda box: box[0] >= 0 and box[1] <= 740 and box[2] >= 0 and box[3] <= 360  # noqa: E731
    if len(seen["rows"]) != sides:
        wrong.append(f"{where}: {len(seen['rows'])} lines of standings for {sides} sides")
    for row in seen["rows"]:
        if not in_sight(row["box"]) or not in_sight(row["nameBox"]):
            wrong.append(f"{where}: the line of {row['name']} at {row['box']}")
        if row["title"] != row["name"]:  # a name cut short by "…" is whole in its title
            wrong.append(f"{where}: {row['name']!r} titled {row['title']!r}")
        if not re.fullmatch(r"-?\d+", row["total"]):
            wrong.append(f"{where}: {row['name']}'s total reads {row['total']!r}")
        if step == "tricks" and not re.fullmatch(r"\s*\d+\s*", row["bid"] or ""):
            wrong.append(f"{where}: {row['name']}'s bid reads {row['bid']!r}")
    names = {name for row in seen["rows"] for name in row["name"].split(" & ")}
    if names != set(LONG_NAMES[: len(names)]) or len(names) < sides:
        wrong.append(f"{where}: the standings name {sorted(names)}")
    if not seen["lines"] or not all(in_sight(line) for line in seen["lines"]):
        wrong.append(f"{where}: who deals and how many cards at {seen['lines']}")
    if step is not None:
        wanted = 5 if step == "bids" else 1  # no trump and the four suits; else one big button
        if len(seen["steps"]) != wanted or not all(in_sight(button) for button in seen["steps"]):
            wrong.append(f"{where}: the next step's buttons at {seen['steps']}")
    if seen["width"] > 360:
        wrong.append(f"{where}: {seen['width']} px wide")
    return wrong


def test_the_standings_who_deals_and_the_next_step_fit_the_first_screen(browser: Any, server: Server) -> None:
    """For Pocha of 2 to 8 and both Tutes, with names of 20 characters, in every language: every side's
    line of the standings, who deals and how many cards, and the next step's buttons lie on the first
    screen of the scoreboard, and all but the buttons (which it has none of) on the live view's."""
    phone = Phone(browser, server, **SMALL_PHONE)
    phone.sign_up()
    watcher = Phone(browser, server, **SMALL_PHONE)
    cases = _prepare_long_named_matches(server)
    wrong: list[str] = []
    for language in LANGUAGES:
        choose_language(phone, language)
        choose_language(watcher, language)
        for case, (match_id, secret, sides, step) in cases.items():
            phone.go(f"/matches/{match_id}")
            wrong += _misfits(f"{case} scoreboard {language}", phone.page.evaluate(MEASURE), sides, step)
            watcher.page.goto("about:blank")  # else only the fragment changes, and the page stays as it was
            watcher.go(f"/live#{secret}")
            watcher.page.wait_for_selector("#live-board #totals")
            wrong += _misfits(f"{case} live view {language}", watcher.page.evaluate(MEASURE), sides, None)
    assert watcher.errors == [] and phone.errors == []
    watcher.close()
    phone.close()
    assert wrong == []


def test_the_standings_rank_the_sides_and_mark_the_winner(browser: Any, server: Server) -> None:
    """First to last; sides level share a rank and the next rank skips; a finished match's winner is marked."""
    phone = Phone(browser, server, **SMALL_PHONE)
    phone.sign_up()
    with server.app.app_context():
        user = services.user_named("ana")
        assert user is not None
        pocha = services.start_match(user, "pocha", NAMES[:4], {"schedule": [1, 1]}, 0)
        # Ana, Carmen and Pedro make their bids (10, 10 and 15), Luis misses his (−5).
        services.add_deal(
            pocha, {"dealer": 0, "cards": 1, "trump": "oros", "bids": [0, 1, 0, 1], "tricks": [0, 0, 0, 1]}
        )
        tute = services.start_match(user, "tute2", NAMES[:2], {"target": 1}, 0)
        services.add_deal(tute, {"dealer": 0, "trump": "copas", "points": [50, 70], "last_trick": 1, "cantes": []})
        ids = (pocha.id, tute.id)
        db.session.remove()
    read = (
        "rows => rows.map((row) => [row.className, row.querySelector('.rank').textContent,"
        " row.querySelector('.who').textContent.trim(), row.querySelector('td.score').textContent])"
    )
    phone.go(f"/matches/{ids[0]}")
    assert phone.page.eval_on_selector_all("#totals tbody tr", read) == [
        ["standing", "1", "Pedro", "15"],
        ["standing", "2", "Ana", "10"],
        ["standing", "2", "Carmen", "10"],
        ["standing", "4", "Luis", "-5"],
    ]
    phone.go(f"/matches/{ids[1]}")
    assert phone.page.eval_on_selector_all("#totals tbody tr", read) == [
        ["standing winner", "1", "Luis winner", "1"],
        ["standing", "2", "Ana", "0"],
    ]
    expect(phone.page.locator("#totals thead th.score")).to_have_text("juegos of 1")
    expect(phone.page.locator("#totals tbody tr").first.locator("td.points")).to_have_text("80")
    phone.close()


def test_new_match_is_on_the_home_pages_first_screen_with_ten_matches_in_progress(browser: Any, server: Server) -> None:
    phone = Phone(browser, server, **SMALL_PHONE)
    phone.sign_up()
    with server.app.app_context():
        user = services.user_named("ana")
        assert user is not None
        for _ in range(10):
            services.start_match(user, "pocha", LONG_NAMES, {}, 0)
        db.session.remove()
    phone.go("/")
    expect(phone.page.locator("ul.cards > li")).not_to_have_count(0)
    box = phone.page.get_by_role("link", name="New match").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 740
    phone.close()
