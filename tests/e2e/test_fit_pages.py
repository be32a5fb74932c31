"""No page wider than the phone: every page a player or the owner opens, at 360 px, in each of the four
languages, with matches of eight players whose names are 20 characters long."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import Player

from .conftest import Phone, Server
from .test_fit import SMALL_PHONE, choose_language

LANGUAGES = ("en", "es", "it", "nb")
#: Eight names of 20 characters, as long as a name may be and a table has.
LONG = [
    "Bartolomé Castellano",
    "Esperanza Villanueva",
    "Maximiliano Quintero",
    "Constantino Martínez",
    "Wenceslao Montenegro",
    "Francisca Bustamante",
    "Inmaculada Rodríguez",
    "Guadalupe Echeverría",
]
#: The widest the page is, against the phone's width; the elements that reach past its right edge, and the
#: table heads whose words reach past their cell.
MEASURE = """() => {
  const width = document.documentElement.clientWidth;
  const over = [...document.querySelectorAll('body *')].filter((node) => {
    const box = node.getBoundingClientRect();
    return box.width > 0 && box.right > width + 0.5 && getComputedStyle(node).position !== 'fixed'
      && !node.closest('.table-wrap, .visually-hidden, .skip, dialog:not([open])');
  }).map((node) => node.tagName.toLowerCase() + (node.className && typeof node.className === 'string' ? '.' + node.className.split(' ')[0] : ''));
  /* a table head whose words in sight reach past its cell, over the next head (what is read out only,
     visually hidden, is laid out whole but never seen) */
  const heads = [...document.querySelectorAll('th')].filter((head) => {
    const cell = head.getBoundingClientRect();
    const walker = document.createTreeWalker(head, NodeFilter.SHOW_TEXT);
    const boxes = [];
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      if (text.parentElement.closest('.visually-hidden') || !text.data.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(text);
      boxes.push(...Array.from(range.getClientRects()).filter((r) => r.width > 0));
    }
    return cell.width > 2 && boxes.some((r) => r.right > cell.right + 0.5 || r.left < cell.left - 0.5);
  }).map((head) => 'th: ' + head.textContent.trim());
  return [document.documentElement.scrollWidth, width, [...new Set(over.concat(heads))].slice(0, 5)];
}"""


#: How far a league table reaches past the box it scrolls in (0 when it fits, or there is none).
LEAGUE = """() => {
  const table = document.querySelector('table.league');
  return table ? Math.max(0, table.scrollWidth - table.parentElement.clientWidth) : 0;
}"""


def _prepare(server: Server) -> dict[str, str]:
    """Play matches of long names to every state a page shows: Pocha of eight with deals and its bids waiting,
    Tute for four and for two finished (a night, statistics, ratings), Tute for three and Tute subastado
    begun, and share the Pocha match."""
    with server.app.app_context():
        user = services.user_named("ana")
        assert user is not None
        pocha = services.start_match(user, "pocha", LONG, {"schedule": [1, 1, 1, 1]}, 0)
        for number in range(3):
            tricks = [0] * 8
            tricks[number] = 1
            services.add_deal(
                pocha, {"dealer": number, "cards": 1, "trump": "oros", "bids": [0] * 7 + [0], "tricks": tricks}
            )
        services.save_bids(pocha, {"dealer": 3, "cards": 1, "trump": "copas", "bids": [1, 1] + [0] * 6})
        secret = services.share_match(pocha)
        tute4 = services.start_match(user, "tute4", LONG[:4], {"target": 1}, 0)
        services.add_deal(
            tute4,
            {
                "dealer": 0,
                "trump": "copas",
                "points": [70, 50],
                "last_trick": 0,
                "cantes": [{"seat": 2, "suit": "oros"}],
            },
        )
        tute2 = services.start_match(user, "tute2", LONG[4:6], {"target": 2}, 0)
        services.add_deal(tute2, {"dealer": 0, "trump": "bastos", "points": [61, 59], "last_trick": 1, "cantes": []})
        tute3 = services.start_match(user, "tute3", LONG[5:8], {"target": 2}, 0)
        services.add_deal(
            tute3,
            {
                "dealer": 0,
                "trump": "oros",
                "points": [50, 40, 30],
                "last_trick": 2,
                "cantes": [{"seat": 1, "suit": "oros"}],
            },
        )
        subastado = services.start_match(user, "subastado", LONG[:4], {"players": 4}, 0)
        services.add_deal(
            subastado,
            {
                "dealer": 0,
                "declarer": 1,
                "bid": 100,
                "trump": "oros",
                "points": 70,
                "last_trick": False,
                "cantes": [{"seat": 1, "suit": "espadas"}],
            },
        )
        services.add_deal(subastado, {"dealer": 1, "passed": True})
        today = datetime.now(UTC).date()
        # A season named as long as a name may be, covering the finished Tute for four.
        season = services.name_season(
            user, services.SeasonRules("Liga de otoño de los martes, bar Pepe", today - timedelta(days=9), today)
        )
        players = sorted(db.session.scalars(db.select(Player.id).where(Player.user_id == user.id)))
        ids = {
            "pocha": pocha.id,
            "tute4": tute4.id,
            "tute2": tute2.id,
            "tute3": tute3.id,
            "subastado": subastado.id,
            "night": pocha.night_id or pocha.id,
            "season": season.id,
            "year": today.year,
        }
        db.session.remove()
    pages = {
        "home": "/",
        "choose a game": "/matches/new",
        "new pocha": "/matches/new/pocha",
        "new tute4": "/matches/new/tute4",
        "new tute2": "/matches/new/tute2",
        "pocha scoreboard": f"/matches/{ids['pocha']}",
        "pocha tricks": f"/matches/{ids['pocha']}/deal",
        "pocha edit": f"/matches/{ids['pocha']}/deals/1/edit",
        "tute4 scoreboard": f"/matches/{ids['tute4']}",
        "tute4 edit": f"/matches/{ids['tute4']}/deals/1/edit",
        "tute2 scoreboard": f"/matches/{ids['tute2']}",
        "tute2 deal": f"/matches/{ids['tute2']}/deal",
        "new tute3": "/matches/new/tute3",
        "tute3 scoreboard": f"/matches/{ids['tute3']}",
        "tute3 deal": f"/matches/{ids['tute3']}/deal",
        "tute3 edit": f"/matches/{ids['tute3']}/deals/1/edit",
        "tute3 in the history": f"/history/{ids['tute3']}",
        "new subastado": "/matches/new/subastado",
        "subastado scoreboard": f"/matches/{ids['subastado']}",
        "subastado deal": f"/matches/{ids['subastado']}/deal",
        "subastado edit": f"/matches/{ids['subastado']}/deals/1/edit",
        "subastado in the history": f"/history/{ids['subastado']}",
        "history": "/history",
        "pocha in the history": f"/history/{ids['pocha']}",
        "tute4 in the history": f"/history/{ids['tute4']}",
        "nights": "/nights",
        "night": f"/nights/{ids['night']}",
        "players": "/players/",
        # A player's page shows one game at a time: the first player's three, then the sixth's Tute for three.
        **{f"player, {game}": f"/players/{players[0]}?game={game}" for game in ("pocha", "tute4", "subastado")},
        "player, tute3": f"/players/{players[5]}?game=tute3",
        "tute4 statistics": "/stats/tute4",
        "tute2 statistics": "/stats/tute2",
        "tute3 statistics": "/stats/tute3",
        "subastado statistics": "/stats/subastado",
        "pocha statistics": "/stats/pocha",
        "head to head": f"/stats/head-to-head?a={players[0]}&b={players[1]}",
        "seasons": "/seasons/",
        "a year's table": f"/seasons/{ids['year']}?game=tute4",
        "a named season's table": f"/seasons/named/{ids['season']}?game=tute4",
        "a named season's table, best of 1": f"/seasons/named/{ids['season']}?game=tute4&best=1",
        "changing a season": f"/seasons/named/{ids['season']}/edit",
        "the year at the table": f"/years/{ids['year']}",
        "a player's year at the table": f"/years/{ids['year']}/players/{players[0]}",
        "account": "/account",
        "language": "/language",
    }
    return {**pages, "live view": f"/live#{secret}"}


def test_no_page_is_wider_than_the_phone_in_any_language(browser: Any, server: Server) -> None:
    phone = Phone(browser, server, **SMALL_PHONE)
    phone.sign_up()
    pages = _prepare(server)
    wide: list[str] = []
    for language in LANGUAGES:
        choose_language(phone, language)
        for name, path in pages.items():
            phone.page.goto("about:blank")
            phone.go(path)
            phone.page.wait_for_load_state("load")
            if name == "live view":
                phone.page.wait_for_selector("#live-board #totals")
            scroll_width, width, over = phone.page.evaluate(MEASURE)
            if scroll_width > width or over:
                wide.append(f"{name} ({language}): {scroll_width} px wide, past the edge: {over}")
            # A league table fits whole: none of its columns waits behind a sideways scroll of its own.
            league = phone.page.evaluate(LEAGUE)
            if league:
                wide.append(f"{name} ({language}): the league table is {league} px wider than its box")
    assert phone.errors == []
    phone.close()
    assert wide == []
