"""Take the README's screenshots of the deal forms, of a scoreboard of eight, of a table joining a match,
of the phone without a connection (a kept deal refused, a deal form reloaded, the scoreboard of twelve kept deals),
of a finished Pocha of eight's score sheet, and of the Pocha scoreboard with
its bids waiting in Spanish, Italian and Norwegian, of a season's league table and of the year at the table: a
phone of 360×740, light and dark; and save a finished match's, a night's and a year's result card, light and dark.

Run from the project, with the test extra installed and Debian's Chromium:
    .venv/bin/python docs/screens/make_screens.py
It fills a throw-away database with an evening's matches, serves it on loopback and writes
one PNG per form and scheme beside this file.
"""

from __future__ import annotations

import logging
import tempfile
import threading
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright
from werkzeug.serving import make_server

from scorekeeper import create_app, services
from scorekeeper.extensions import db
from scorekeeper.models import Match
from scorekeeper.rules import SUITS

HERE = Path(__file__).parent
PASSWORD = "a long secret"
#: Eight players with names of 20 characters, the longest a scoreboard has to fit on one screen.
EIGHT = [
    "Esperanza Villanueva",
    "Maximiliano Quintero",
    "Inmaculada Rodríguez",
    "Guadalupe Echeverría",
    "Bartolomé Castellano",
    "Francisca Bustamante",
    "Constantino Martínez",
    "Wenceslao Montenegro",
]


def fill(app: object) -> dict[str, str]:
    """Start the matches the screenshots show; return each screenshot's name and path."""
    with app.app_context():  # type: ignore[attr-defined]
        db.create_all()
        user = services.create_user("ana", PASSWORD)
        tute2 = services.start_match(user, "tute2", ["Ana", "Luis"], {}, 0)
        services.add_deal(
            tute2,
            {
                "dealer": 0,
                "trump": "copas",
                "points": [78, 42],
                "last_trick": 0,
                "cantes": [{"seat": 0, "suit": "oros"}],
            },
        )
        tute3 = services.start_match(user, "tute3", ["Ana", "Luis", "Carmen"], {}, 0)
        tute4 = services.start_match(user, "tute4", ["Ana", "Luis", "Carmen", "Pedro"], {}, 1)
        subastado = services.start_match(user, "subastado", ["Ana", "Luis", "Carmen"], {}, 0)
        services.add_deal(
            subastado,
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
        pocha = services.start_match(user, "pocha", ["Ana", "Luis", "Carmen", "Pedro"], {"schedule": [4, 4]}, 0)
        tricks = services.start_match(user, "pocha", ["Ana", "Luis", "Carmen", "Pedro"], {"schedule": [4, 4]}, 0)
        services.save_bids(tricks, {"dealer": 0, "cards": 4, "trump": "oros", "bids": [0, 2, 1, 2]})
        # Eight at the table, two deals played and the third's bids waiting for its tricks.
        eight = services.start_match(user, "pocha", EIGHT, {"schedule": [5, 5, 5, 5]}, 0)
        services.add_deal(
            eight,
            {
                "dealer": 0,
                "cards": 5,
                "trump": "copas",
                "bids": [1, 0, 2, 0, 1, 0, 1, 1],
                "tricks": [1, 0, 1, 0, 1, 0, 1, 1],
            },
        )
        services.add_deal(
            eight,
            {
                "dealer": 1,
                "cards": 5,
                "trump": "espadas",
                "bids": [0, 1, 1, 0, 2, 0, 0, 0],
                "tricks": [0, 1, 1, 1, 2, 0, 0, 0],
            },
        )
        services.save_bids(eight, {"dealer": 2, "cards": 5, "trump": "bastos", "bids": [1, 0, 1, 2, 0, 1, 0, 1]})
        return {
            "tute2-deal": f"/matches/{tute2.id}/deal",
            "tute2-correction": f"/matches/{tute2.id}/deals/1/edit",
            "tute3-deal": f"/matches/{tute3.id}/deal",
            "tute4-deal": f"/matches/{tute4.id}/deal",
            "subastado-deal": f"/matches/{subastado.id}/deal",
            "pocha-bids": f"/matches/{pocha.id}/deal?trump=espadas",
            "pocha-tricks": f"/matches/{tricks.id}/deal",
            "pocha-scoreboard": f"/matches/{tricks.id}",
            "pocha8-bids-waiting": f"/matches/{eight.id}",
        }


def a_league(app: Any) -> str:
    """Play, for an account of its own ("carmen"), a winter league of Tute for two among six players
    (short matches, one deal each, the second of every five a Pocha match of three) and name its
    season; return the address of its table."""
    names = ["Carmen", "Luis", "Begoña", "Íñigo", "Maximiliano Quintero", "Pedro"]
    with app.app_context():
        user = services.create_user("carmen", PASSWORD)
        for number in range(24):
            first, second = names[number % 6], names[(number * 5 + 1) % 6]
            if first == second:
                second = names[(number + 3) % 6]
            match = services.start_match(user, "tute2", [first, second], {"target": 1}, 0)
            points = [80, 40] if number % 3 else [30, 90]
            services.add_deal(match, {"dealer": 0, "trump": "oros", "points": points, "last_trick": 0, "cantes": []})
        today = datetime.now(UTC).date()
        rules = services.SeasonRules("Liga de invierno", today - timedelta(days=30), today + timedelta(days=60))
        season_id = services.name_season(user, rules).id
        db.session.remove()
        return f"/seasons/named/{season_id}?game=tute2"


def a_year(app: Any) -> str:
    """Import, for the league's account ("carmen"), a year of Thursday evenings (Pocha for four with a
    comeback, then Tute in pairs with cantes, dated as the table entered them); return its page's address."""
    four = ["Carmen", "Luis", "Begoña", "Íñigo"]
    year = datetime.now(UTC).year
    matches = []
    for week in range(30):
        evening = datetime(year, 1, 8, 19, 30, tzinfo=UTC) + timedelta(weeks=week)
        players = four[week % 4 :] + four[: week % 4]
        # Pocha of four deals: the last seat bids wrong twice, then makes both of the big ones.
        deals = [
            {"dealer": 0, "cards": 1, "trump": "oros", "bids": [1, 0, 0, 1], "tricks": [1, 0, 0, 0]},
            {"dealer": 1, "cards": 2, "trump": "copas", "bids": [1, 1, 0, 1], "tricks": [1, 1, 0, 0]},
            {"dealer": 2, "cards": 3, "trump": "espadas", "bids": [1, 0, 0, 3], "tricks": [0, 0, 0, 3]},
            {"dealer": 3, "cards": 4, "trump": "bastos", "bids": [1, 1, 0, 4], "tricks": [0, 0, 0, 4]},
        ]
        matches.append(_imported(evening, "pocha", players, deals, 15, {"schedule": [1, 2, 3, 4], "hook": False}))
        for game in range(2):
            start = evening + timedelta(minutes=75 + 35 * game)
            won = [80, 40] if (week + game) % 3 else [40, 80]
            cantes = [{"seat": week % 4, "suit": "oros"}] + ([{"seat": 1, "suit": "copas"}] if week % 2 else [])
            deal = {
                "dealer": 0,
                "trump": "oros",
                "points": won,
                "last_trick": 0 if won[0] > 40 else 1,
                "cantes": cantes,
            }
            matches.append(_imported(start, "tute4", players, [deal], 30, {"target": 1}))
    with app.app_context():
        services.import_accounts(
            [
                {
                    "username": "carmen",
                    "password_hash": "",
                    "created_at": datetime(year, 1, 1, tzinfo=UTC),
                    "players": [],
                    "matches": matches,
                }
            ],
            into=services.user_named("carmen"),
        )
        db.session.remove()
    return f"/years/{year}"


def _imported(
    start: datetime, game: str, players: list[str], deals: list[dict[str, Any]], minutes: int, options: dict[str, Any]
) -> dict[str, Any]:
    """Return a finished match as an export carries it, a deal every `minutes` minutes from `start`."""
    dates = [(start + timedelta(minutes=minutes * (n + 1)),) * 2 for n in range(len(deals))]
    return {
        "uid": uuid.uuid4().hex,
        "status": "finished",
        "first_dealer": 0,
        "pending": None,
        "document": {"game": game, "players": players, "options": options, "deals": deals},
        "created_at": start,
        "updated_at": dates[-1][0],
        "ended_at": dates[-1][0],
        "deal_dates": dates,
        "note": None,
    }


def year_page(browser: Any, base: str, scheme: str, address: str) -> None:
    """Photograph the year at the table, its first screen and its records."""
    context = browser.new_context(
        viewport={"width": 360, "height": 740},
        is_mobile=True,
        has_touch=True,
        color_scheme=scheme,
        timezone_id="Europe/Madrid",
    )
    page = context.new_page()
    sign_in(page, base, "carmen")
    page.goto(base + address)
    page.wait_for_load_state("networkidle")
    page.screenshot(path=str(HERE / f"year-{scheme}.png"))
    page.locator("h2").last.scroll_into_view_if_needed()
    page.screenshot(path=str(HERE / f"year-records-{scheme}.png"))
    theme = "?theme=dark" if scheme == "dark" else ""
    (HERE / f"year-card-{scheme}.png").write_bytes(page.request.get(f"{base}{address}/card.png{theme}").body())
    print(HERE / f"year-{scheme}.png", HERE / f"year-records-{scheme}.png", HERE / f"year-card-{scheme}.png")
    context.close()


def season_table(browser: Any, base: str, scheme: str, address: str) -> None:
    """Photograph a season's league table, its first screen."""
    context = browser.new_context(
        viewport={"width": 360, "height": 740},
        is_mobile=True,
        has_touch=True,
        color_scheme=scheme,
        timezone_id="Europe/Madrid",
    )
    page = context.new_page()
    sign_in(page, base, "carmen")
    page.goto(base + address)
    page.wait_for_load_state("networkidle")
    page.screenshot(path=str(HERE / f"season-table-{scheme}.png"))
    print(HERE / f"season-table-{scheme}.png")
    context.close()


def start(app: Any, options: dict[str, Any]) -> int:
    """Start a Tute match for two on the server; return its id."""
    with app.app_context():
        user = services.user_named("ana")
        assert user is not None
        match_id = services.start_match(user, "tute2", ["Ana", "Luis"], options, 0).id
        db.session.remove()
        return match_id


def keep_deal(page: Any, points: int) -> None:
    """Save a Tute deal on a deal form without a connection: it is kept on the phone."""
    kept = page.evaluate("(JSON.parse(localStorage.getItem('scorekeeper-queue')) || []).length")
    page.locator("label.choice:has(input[name='trump'][value='copas'])").click()
    page.fill("#points0", str(points))
    page.locator("label.choice:has(input[name='last_trick'][value='0'])").click()
    page.locator("form.deal-form button[type=submit]").click()
    page.wait_for_function(f"(JSON.parse(localStorage.getItem('scorekeeper-queue')) || []).length > {kept}")


def offline_screens(app: Any, context: Any, base: str, scheme: str) -> None:
    """Photograph the banner of kept deals refused because the match was finished on another
    phone, a deal form reloaded without a connection with the deals kept so far, and the
    scoreboard reloaded without a connection after twelve kept deals."""
    page = context.new_page()
    match_id = start(app, {"mode": "points", "target": 101})
    page.goto(f"{base}/matches/{match_id}/deal")
    context.set_offline(True)
    keep_deal(page, 70)
    keep_deal(page, 40)
    with app.app_context():  # another phone finishes the match meanwhile
        match = db.session.get(Match, match_id)
        services.add_deal(match, {"dealer": 0, "trump": "oros", "points": [100, 20], "last_trick": 0})
        db.session.remove()
    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.wait_for_selector("#offline-banner button")
    page.screenshot(path=str(HERE / f"offline-refused-{scheme}.png"))
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#offline-banner button").click()
    page.wait_for_url(f"{base}/matches/{match_id}")
    match_id = start(app, {"mode": "points", "target": 1000})
    page.goto(f"{base}/matches/{match_id}")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.goto(f"{base}/matches/{match_id}")  # through the worker: kept, with its deal form
    page.wait_for_function(
        f"caches.open('scorekeeper-pages').then(c => c.match('{base}/matches/{match_id}/deal')).then(Boolean)"
    )
    page.goto(f"{base}/matches/{match_id}/deal")
    context.set_offline(True)
    keep_deal(page, 70)
    keep_deal(page, 40)
    page.reload()
    page.wait_for_selector("#kept-deals:not([hidden])")
    page.screenshot(path=str(HERE / f"offline-reload-{scheme}.png"), full_page=True)
    for points in (90, 20, 65, 55, 100, 30, 61, 80, 50, 75):  # twelve deals kept in all
        keep_deal(page, points)
    page.goto(f"{base}/matches/{match_id}")  # the scoreboard's copy, said again from the kept deals
    page.reload()
    page.wait_for_selector("#provisional-note:not([hidden])")
    page.screenshot(path=str(HERE / f"offline-scoreboard-{scheme}.png"))
    print(
        HERE / f"offline-refused-{scheme}.png",
        HERE / f"offline-reload-{scheme}.png",
        HERE / f"offline-scoreboard-{scheme}.png",
    )
    context.set_offline(False)
    page.evaluate("localStorage.removeItem('scorekeeper-queue')")  # the other scheme keeps its own
    page.close()


def a_score_sheet(app: Any) -> str:
    """Play a Pocha of eight to its end (the classic schedule, a miss or two a deal); return its address."""
    with app.app_context():
        user = services.user_named("ana")
        match = services.start_match(user, "pocha", EIGHT, {"hook": False}, 0)
        number = 0
        while match.status == "playing":
            cards = match.result["next_cards"]
            tricks = [0] * 8
            for trick in range(cards):
                tricks[(number * 3 + trick) % 8] += 1
            bids = list(tricks)
            for seat in ((number + 2) % 8, (number + 5) % 8):  # two players miss by one
                bids[seat] = bids[seat] + 1 if bids[seat] < cards else bids[seat] - 1
            services.add_deal(
                match,
                {"dealer": number % 8, "cards": cards, "trump": SUITS[number % 4], "bids": bids, "tricks": tricks},
            )
            number += 1
        match_id = match.id
        db.session.remove()
    return f"/matches/{match_id}"


def score_sheet(page: Any, base: str, scheme: str, address: str) -> None:
    """Photograph a finished Pocha of eight's score sheet, a screen from its head."""
    page.goto(base + address)
    page.wait_for_load_state("networkidle")
    page.locator("table.sheet").evaluate("node => window.scrollTo(0, node.getBoundingClientRect().top + scrollY - 8)")
    page.screenshot(path=str(HERE / f"pocha-sheet-{scheme}.png"))
    print(HERE / f"pocha-sheet-{scheme}.png")


def a_night(app: Any) -> tuple[int, int]:
    """Play, for an account of its own ("bea"), a Tute match for three to one juego and a Pocha match for
    five to its end (a deal of one card, three of two), names of 20 letters among them; return the Pocha
    match's id and the night's."""
    names = ["Inmaculada Rodríguez", "Begoña", "Íñigo", "Guadalupe Echeverría", "Bartolomé Villalobos"]
    with app.app_context():
        user = services.create_user("bea", PASSWORD)
        tute = services.start_match(
            user, "tute3", ["Maximiliano Quintero", "Bartolomé Villalobos", "Begoña"], {"target": 1}, 0
        )
        services.add_deal(tute, {"dealer": 0, "trump": "espadas", "points": [70, 30, 20], "last_trick": 0})
        match = services.start_match(user, "pocha", names, {"schedule": [1, 2, 2, 2]}, 0)
        for dealer, cards, bids, tricks in (
            (0, 1, [0, 1, 1, 0, 0], [0, 1, 0, 0, 0]),
            (1, 2, [1, 0, 1, 1, 0], [1, 0, 1, 0, 0]),
            (2, 2, [0, 1, 0, 1, 1], [0, 1, 0, 1, 0]),
            (3, 2, [1, 1, 0, 0, 1], [1, 1, 0, 0, 0]),
        ):
            services.add_deal(
                match, {"dealer": dealer, "cards": cards, "trump": "oros", "bids": bids, "tricks": tricks}
            )
        ids = match.id, match.night_id or match.id
        db.session.remove()
        return ids


def sign_in(page: Any, base: str, username: str) -> None:
    """Sign a page in to the account `username`."""
    page.goto(f"{base}/login")
    page.fill("#username", username)
    page.fill("#password", PASSWORD)
    page.press("#password", "Enter")
    page.wait_for_url(f"{base}/")


def result_cards(browser: Any, base: str, scheme: str, match_id: int, night_id: int) -> None:
    """Save the result cards of a finished Pocha match and of its night (`a_night`'s), in Spanish, as
    the page's theme sends them."""
    context = browser.new_context(color_scheme=scheme, timezone_id="Europe/Madrid")
    page = context.new_page()
    sign_in(page, base, "bea")
    page.goto(f"{base}/language")
    page.click("button[name=language][value=es]")
    theme = "?theme=dark" if scheme == "dark" else ""
    for name, path in (("result-card", f"/matches/{match_id}"), ("night-card", f"/nights/{night_id}")):
        (HERE / f"{name}-{scheme}.png").write_bytes(page.request.get(f"{base}{path}/card.png{theme}").body())
        print(HERE / f"{name}-{scheme}.png")
    context.close()


def as_on_every_address(app: Any) -> Any:
    """Wrap the app as a server listening on every address runs it (what its pages say of their links)."""

    def served(environ: dict[str, Any], start_response: Any) -> Any:
        environ["SERVER_NAME"] = "0.0.0.0"
        return app(environ, start_response)

    return served


def main() -> None:
    """Serve a filled app and photograph each page in light and dark."""
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory() as folder:
        # The owner's phone opens the app on 127.0.0.1 and hands out links under the address of the
        # local network, which 127.0.0.2 stands in for (served too), as a server started for the
        # network (--host 0.0.0.0) does.
        app = create_app(
            {
                "SECRET_KEY": "screens",
                "INSTANCE_PATH": folder,
                "LOCAL_NETWORK_ADDRESS": "127.0.0.2",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/screens.sqlite",
            }
        )
        pages = fill(app)
        sheet = a_score_sheet(app)
        night = a_night(app)
        league = a_league(app)
        year = a_year(app)
        served = as_on_every_address(app)
        server = make_server("127.0.0.1", 0, served, threaded=True)
        network = make_server("127.0.0.2", server.server_port, served, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        threading.Thread(target=network.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}"
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            for scheme in ("light", "dark"):
                context = browser.new_context(
                    viewport={"width": 360, "height": 740},
                    is_mobile=True,
                    has_touch=True,
                    color_scheme=scheme,
                    timezone_id="Europe/Madrid",
                )
                page = context.new_page()
                sign_in(page, base, "ana")
                for name, path in pages.items():
                    page.goto(base + path)
                    page.wait_for_load_state("networkidle")
                    page.screenshot(path=str(HERE / f"{name}-{scheme}.png"))
                    print(HERE / f"{name}-{scheme}.png")
                # The owner makes the entry link; a second phone, signed in to nothing, opens it.
                page.goto(base + pages["tute2-deal"].removesuffix("/deal"))
                page.on("dialog", lambda dialog: dialog.accept())  # a new link replaces the other scheme's
                page.locator("#entry-link form[action$='/entry-link'] button").click()
                page.wait_for_selector("#entry-link svg.qr")
                page.locator("#entry-link h2").scroll_into_view_if_needed()
                page.screenshot(path=str(HERE / f"entry-link-{scheme}.png"))
                address = page.locator("#entry-link a.share-link").inner_text()
                table_phone = browser.new_context(
                    viewport={"width": 360, "height": 740},
                    is_mobile=True,
                    has_touch=True,
                    color_scheme=scheme,
                    timezone_id="Europe/Madrid",
                )
                joined = table_phone.new_page()
                joined.goto(address)
                joined.wait_for_selector("#totals")
                joined.screenshot(path=str(HERE / f"table-phone-{scheme}.png"))
                print(HERE / f"entry-link-{scheme}.png", HERE / f"table-phone-{scheme}.png")
                table_phone.close()
                score_sheet(page, base, scheme, sheet)
                offline_screens(app, context, base, scheme)
                result_cards(browser, base, scheme, *night)
                season_table(browser, base, scheme, league)
                year_page(browser, base, scheme, year)
                # The Pocha scoreboard with its bids waiting, as a table of each language reads it.
                for language in ("es", "it", "nb"):
                    page.goto(f"{base}/language")
                    page.click(f"button[name=language][value={language}]")
                    page.goto(base + pages["pocha-scoreboard"])
                    page.wait_for_load_state("networkidle")
                    page.screenshot(path=str(HERE / f"pocha-scoreboard-{language}-{scheme}.png"))
                    print(HERE / f"pocha-scoreboard-{language}-{scheme}.png")
                page.goto(f"{base}/language")
                page.click("button[name=language][value=en]")
                context.close()
            browser.close()
        server.shutdown()


if __name__ == "__main__":
    main()
