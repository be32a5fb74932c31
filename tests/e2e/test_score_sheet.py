"""A finished Pocha of eight with long names (20 characters) as a score sheet at 360×740, in every
language: a row per deal and a column per player, nothing cut or scrolled sideways, every mark named,
and the whole match in a few screens rather than a card per deal."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.registry import check_options, get_game

from .conftest import Phone, Server
from .test_fit_names import LANGUAGES, LONG_NAMES, SMALL_PHONE

#: The sheet's cells whose text reaches past their box, and whether the sheet scrolls inside its frame.
SHEET = """() => {
  const table = document.querySelector('table.deals.sheet');
  const wrap = table.closest('.table-wrap');
  const cut = Array.from(table.querySelectorAll('th, td')).filter(cell => cell.scrollWidth > cell.clientWidth + 1)
    .map(cell => cell.textContent.trim());
  return { cut, scrolls: wrap.scrollWidth > wrap.clientWidth, rows: table.tBodies[0].rows.length,
           columns: table.tHead.rows[0].cells.length, right: table.getBoundingClientRect().right };
}"""


def a_finished_pocha_of_eight(server: Server, language: str) -> tuple[int, int]:
    """Play, for 'ana' in `language`, a Pocha of eight to the end of its schedule; return its id and its deals."""
    with server.app.app_context():
        user = services.user_named("ana")
        assert user is not None
        services.set_language(user, language)
        match = services.start_match(user, "pocha", LONG_NAMES, {"hook": False}, 0)
        schedule = get_game("pocha").browser_rules(check_options("pocha", {"hook": False}, 8), 8)["schedule"]
        for number, cards in enumerate(schedule):
            tricks = [0] * 8
            for trick in range(cards):
                tricks[(number + trick) % 8] += 1
            bids = list(tricks)
            bids[number % 8] = min(cards, bids[number % 8] + 1)  # the dealer misses by one, or hits with all
            services.add_deal(
                match, {"dealer": number % 8, "cards": cards, "trump": "oros", "bids": bids, "tricks": tricks}
            )
        assert match.status == "finished"
        match_id = match.id
        db.session.remove()
    return match_id, len(schedule)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_finished_pocha_of_eight_reads_as_one_score_sheet_on_a_phone(
    browser: Any, server: Server, language: str
) -> None:
    phone = Phone(browser, server, **SMALL_PHONE)
    phone.sign_up()
    match_id, deals = a_finished_pocha_of_eight(server, language)
    for path in (f"/matches/{match_id}", f"/history/{match_id}"):
        phone.go(path)
        sheet = phone.page.evaluate(SHEET)
        assert sheet["rows"] == deals and sheet["columns"] == 9, path  # a row per deal; the number and 8 players
        assert sheet["cut"] == [] and not sheet["scrolls"] and sheet["right"] <= 360, (path, sheet)
        assert phone.page.evaluate("document.documentElement.scrollWidth") <= 360, path
        # Every mark heading a column is named where the page shows its key (the chart's, here).
        marks = phone.page.eval_on_selector_all(
            "table.sheet thead th span[aria-hidden]", "nodes => nodes.map(n => n.textContent)"
        )
        key = " ".join(
            phone.page.locator("svg.chart").all_text_contents() + phone.page.locator(".sheet-key").all_inner_texts()
        )
        assert len(marks) == 8 and all(mark in key for mark in marks), path
        assert all(name in key for name in LONG_NAMES), path
        # Screen readers hear each column's whole name.
        heads = phone.page.eval_on_selector_all(
            "table.sheet thead th .visually-hidden", "nodes => nodes.map(n => n.textContent)"
        )
        assert heads == LONG_NAMES, path
    # The whole match in a handful of screens.
    height = phone.page.evaluate("document.documentElement.scrollHeight")
    assert height <= 6 * 740, height
    assert phone.errors == [], phone.errors
    phone.close()


def test_a_score_sheet_row_says_each_player_s_bid_and_tricks_over_their_running_total(
    browser: Any, server: Server
) -> None:
    phone = Phone(browser, server, **SMALL_PHONE)
    phone.sign_up()
    with server.app.app_context():
        user = services.user_named("ana")
        assert user is not None
        match = services.start_match(user, "pocha", ["Ana", "Luis", "Carmen"], {"schedule": [3, 3]}, 0)
        services.add_deal(match, {"dealer": 0, "cards": 3, "trump": "copas", "bids": [1, 2, 1], "tricks": [1, 2, 0]})
        match_id = match.id
        db.session.remove()
    phone.go(f"/matches/{match_id}")
    heads = phone.page.eval_on_selector_all("table.sheet thead th", "nodes => nodes.map(n => n.textContent.trim())")
    assert heads == ["#", "Ana", "Luis", "Carmen"]  # short names head their columns whole
    row = phone.page.eval_on_selector_all(
        "table.sheet tbody tr:first-child > *", "nodes => nodes.map(n => n.innerText.replace(/\\s+/g, ' ').trim())"
    )
    assert row == ["1 3 C", "1/1 15", "2/2 20", "1/0 -5"]
    lost = phone.page.eval_on_selector_all("table.sheet tbody td.lost", "nodes => nodes.length")
    assert lost == 1  # Carmen's missed bid
    link = phone.page.locator("table.sheet tbody th a").bounding_box()
    assert link is not None and link["height"] >= 44 and link["width"] >= 30, link  # a thumb's target
    phone.tap("table.sheet tbody th a")
    phone.page.wait_for_url(f"**/matches/{match_id}/deals/1/edit")
    phone.close()
