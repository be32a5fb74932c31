"""Long names (20 characters) in every language at 360×740: nothing cut, nothing hidden.

Every deal form, the night page, the deal tables and charts of eight players and the card
counter are measured in English, Spanish, Italian and Norwegian: no text cut by its box (an
ellipsis), no sideways scroll, no table head broken inside a word, the dealer's hint above the
Save bar, and the counter's tick clear of its card's name.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper import services
from scorekeeper.extensions import db

from .conftest import Phone, Server
from .test_fit import SUBASTADO_TABLES, TUTE_TABLES, start_every_form

SMALL_PHONE = {"viewport": {"width": 360, "height": 740}}
LANGUAGES = ("en", "es", "it", "nb")
#: Twenty characters each, as long as a full name at the table gets.
LONG_NAMES = [
    "María José Fernández",
    "Guadalupe Etxeberria",
    "Bartolomé Santamaría",
    "Inmaculada Rodríguez",
    "Carmen de Villanueva",
    "Francisco J. Aguirre",
    "Nerea Etxebarria Gil",
    "Encarnación Moragues",
]

#: Elements whose text a box cuts: an overflow that hides or scrolls sideways (what lies past the
#: edge of a table's box is out of sight too), and text wider than the box (a pixel of a glyph's
#: overhang is not a cut word). Boxes a pixel wide are the visually hidden.
CUT = """root => Array.from(root.querySelectorAll('*')).filter(node => {
  const style = getComputedStyle(node);
  if (style.display === 'none' || style.visibility === 'hidden' || node.clientWidth <= 2) return false;
  if (!['hidden', 'clip', 'auto', 'scroll'].includes(style.overflowX) && style.textOverflow !== 'ellipsis') return false;
  return node.textContent.trim() !== '' && node.scrollWidth > node.clientWidth + 1;
}).map(node => node.textContent.trim())"""

#: The buttons in sight whose words spill out of them (a long name wider than its button).
SPILLED = """root => Array.from(root.querySelectorAll('.button, .choice')).filter(node =>
  node.clientWidth > 2 && getComputedStyle(node).display !== 'none' && node.scrollWidth > node.clientWidth + 1
).map(node => node.textContent.trim())"""

#: The words of the table heads in sight that lie on more than one line.
BROKEN_WORDS = """() => {
  const broken = [];
  document.querySelectorAll('thead th').forEach(head => {
    if (head.closest('thead').getBoundingClientRect().width <= 2) return;  /* a head kept for screen readers */
    const walker = document.createTreeWalker(head, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      const pattern = /\\S+/g;
      for (let found = pattern.exec(text.data); found; found = pattern.exec(text.data)) {
        const range = document.createRange();
        range.setStart(text, found.index);
        range.setEnd(text, found.index + found[0].length);
        const tops = new Set(Array.from(range.getClientRects()).filter(r => r.width > 0).map(r => Math.round(r.top)));
        if (tops.size > 1) broken.push(found[0]);
      }
    }
  });
  return broken;
}"""

#: The names written in an SVG chart that reach past its edge.
CHART_CUT = """() => Array.from(document.querySelectorAll('svg.chart')).flatMap(svg => {
  const frame = svg.getBoundingClientRect();
  return Array.from(svg.querySelectorAll('text')).filter(text => {
    const box = text.getBoundingClientRect();
    return box.left < frame.left - 0.5 || box.right > frame.right + 0.5 || box.right > innerWidth;
  }).map(text => text.textContent);
})"""


def _prepare(server: Server, language: str) -> dict[str, int]:
    """Start the matches whose pages are measured, with long names, the account in `language`:
    Tute for two and four with a deal, Pocha for 2 to 8 players at their largest deal waiting
    for bids and for tricks, and a Pocha of eight with two deals for its table and chart."""
    with server.app.app_context():
        user = services.user_named("ana")
        assert user is not None
        services.set_language(user, language)
        ids = start_every_form(user, LONG_NAMES)
        match = services.start_match(user, "pocha", LONG_NAMES, {"schedule": [1, 2]}, 0)
        for dealer, cards in enumerate((1, 2)):
            services.save_bids(match, {"dealer": dealer, "cards": cards, "trump": "oros", "bids": [0] * 8})
            services.add_deal(
                match, {"dealer": dealer, "cards": cards, "trump": "oros", "bids": [0] * 8, "tricks": [cards] + [0] * 7}
            )
        ids["pocha8-played"] = match.id
        assert match.night_id is not None
        ids["night"] = match.night_id
        db.session.remove()
    return ids


def _pages(ids: dict[str, int]) -> list[tuple[str, str]]:
    """Return every page measured: (its name, its path)."""
    pages = [(f"{game} form", f"/matches/{ids[game]}/deal") for game, _ in TUTE_TABLES]
    pages += [(f"{game} correction", f"/matches/{ids[game]}/deals/1/edit") for game, _ in TUTE_TABLES]
    pages += [
        (name, f"/matches/{number}/deal")
        for name, number in ids.items()
        if name.startswith("pocha") and not name.endswith("played")
    ]
    pages += [(f"{case} form", f"/matches/{ids[case]}/deal") for case, _ in SUBASTADO_TABLES]
    pages += [(f"{case} correction", f"/matches/{ids[case]}/deals/1/edit") for case, _ in SUBASTADO_TABLES]
    scoreboards = ("tute2", "tute3", "tute4", "subastado3", "subastado4", "pocha8-played")
    pages += [(f"{game} scoreboard", f"/matches/{ids[game]}") for game in scoreboards]
    pages += [("pocha8 history", f"/history/{ids['pocha8-played']}"), ("night", f"/nights/{ids['night']}")]
    return pages


@pytest.fixture
def small_phone(browser: Any, server: Server) -> Any:
    """A 360×740 phone signed in as 'ana'."""
    device = Phone(browser, server, **SMALL_PHONE)
    device.sign_up()
    yield device
    assert device.errors == [], device.errors
    device.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_long_names_are_never_cut_nor_scroll_the_page_sideways(
    small_phone: Phone, server: Server, language: str
) -> None:
    ids = _prepare(server, language)
    cut: dict[str, list[str]] = {}
    wide: dict[str, int] = {}
    for name, path in _pages(ids):
        small_phone.go(path)
        found = small_phone.page.eval_on_selector("main", CUT) + small_phone.page.eval_on_selector("main", SPILLED)
        if found:
            cut[name] = found
        width = small_phone.page.evaluate("document.documentElement.scrollWidth")
        if width > 360:
            wide[name] = width
    assert small_phone.page.evaluate("document.documentElement.lang") == language
    assert cut == {}
    assert wide == {}


@pytest.mark.parametrize("language", LANGUAGES)
def test_table_heads_break_only_between_words(small_phone: Phone, server: Server, language: str) -> None:
    ids = _prepare(server, language)
    broken: dict[str, list[str]] = {}
    heads = 0
    for name, path in _pages(ids):
        if "form" in name or "correction" in name or (name.startswith("pocha") and "played" not in name):
            continue
        small_phone.go(path)
        heads += small_phone.page.locator("thead th").count()
        found = small_phone.page.evaluate(BROKEN_WORDS)
        if found:
            broken[name] = found
    assert heads > 10  # the heads were there to be measured
    assert broken == {}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_chart_names_its_lines_whole_within_the_screen(small_phone: Phone, server: Server, language: str) -> None:
    ids = _prepare(server, language)
    cut: dict[str, list[str]] = {}
    for name, path in (("pocha8 scoreboard", f"/matches/{ids['pocha8-played']}"), ("night", f"/nights/{ids['night']}")):
        small_phone.go(path)
        assert small_phone.page.locator("svg.chart").count() >= 1, name
        text = " ".join(small_phone.page.locator("svg.chart").all_text_contents())
        missing = [player for player in LONG_NAMES if player not in text]
        found = small_phone.page.evaluate(CHART_CUT)
        if found or missing:
            cut[name] = found + missing
    assert cut == {}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_dealers_forbidden_bid_is_explained_above_the_save_bar(
    small_phone: Phone, server: Server, language: str
) -> None:
    """Six cards, the hook on: the dealer (bidding last, at the foot of the screen) taps the bid
    the hook forbids, and the sentence saying why is in sight, not under the sticky Save bar."""
    with server.app.app_context():
        user = services.user_named("ana")
        assert user is not None
        services.set_language(user, language)
        match = services.start_match(user, "pocha", LONG_NAMES[:6], {"schedule": [6], "hook": True}, 0)
        match_id = match.id
        db.session.remove()
    small_phone.go(f"/matches/{match_id}/deal")
    hint = small_phone.page.locator("#hook-hint")
    assert "6" in hint.inner_text()
    for seat in range(1, 6):
        small_phone.choose(f"bids-{seat}", 0)
    forbidden = small_phone.page.locator("label.choice.forbidden:has(input[name='bids-0'][value='6'])")
    # Scrolled as far as a thumb needs: the button just above the Save bar.
    forbidden.evaluate(
        "node => window.scrollBy(0, node.getBoundingClientRect().bottom + 4"
        " - document.querySelector('.save-bar').getBoundingClientRect().top)"
    )
    forbidden.tap(force=True)
    said = small_phone.page.locator("[data-errors-for='bids-0'] .error")
    said.wait_for()
    small_phone.page.wait_for_timeout(300)  # a smooth scroll, if any, comes to rest
    box, bar = said.bounding_box(), small_phone.page.locator(".save-bar").bounding_box()
    assert box is not None and bar is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= bar["y"], (box, bar)


#: For each card of the counter: its tick's box, and the boxes of its name and its value.
COUNTER_BOXES = """() => Array.from(document.querySelectorAll('#card-counter label.choice')).map(label => {
  const box = node => { const r = node.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const name = document.createRange();
  name.selectNodeContents(label.querySelector('span').firstChild);
  const r = name.getBoundingClientRect();
  return { label: box(label), tick: box(label.querySelector('.tick')), name: [r.left, r.top, r.right, r.bottom],
           value: box(label.querySelector('small')), text: label.textContent.trim() };
})"""


def _apart(one: list[float], other: list[float]) -> bool:
    """Tell whether two boxes (left, top, right, bottom) share no pixel."""
    return one[2] <= other[0] or other[2] <= one[0] or one[3] <= other[1] or other[3] <= one[1]


def _inside(inner: list[float], outer: list[float]) -> bool:
    return inner[0] >= outer[0] and inner[1] >= outer[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_counted_cards_tick_covers_neither_its_name_nor_its_value(
    small_phone: Phone, server: Server, language: str
) -> None:
    ids = _prepare(server, language)
    small_phone.go(f"/matches/{ids['tute2']}/deal")
    small_phone.tap(".count-open")
    for index in range(small_phone.page.locator("#card-counter label.choice").count()):
        small_phone.page.locator("#card-counter label.choice").nth(index).tap()
    assert small_phone.page.locator("#card-counter input:checked").count() == 20
    cards = small_phone.page.evaluate(COUNTER_BOXES)
    covered = [
        card["text"]
        for card in cards
        if not (_apart(card["tick"], card["name"]) and _apart(card["tick"], card["value"]))
    ]
    outside = [
        card["text"]
        for card in cards
        if not (_inside(card["name"], card["label"]) and _inside(card["tick"], card["label"]))
    ]
    assert covered == [] and outside == []
    assert small_phone.page.eval_on_selector("#card-counter", CUT) == []


def test_the_four_seat_cante_grid_tells_who_sang_by_a_key_of_whole_names(small_phone: Phone, server: Server) -> None:
    ids = _prepare(server, "en")
    small_phone.go(f"/matches/{ids['tute4']}/deal")
    key = small_phone.page.locator(".cante-key").inner_text()
    assert all(name in key for name in LONG_NAMES[:4])
    marks = small_phone.page.eval_on_selector_all(
        ".cante-row[data-suit=oros] .cell span[aria-hidden]", "nodes => nodes.map(n => n.textContent)"
    )
    assert marks == ["MJF", "GE", "BS", "IR"] and all(f"{mark} " in key for mark in marks)
    # A screen reader hears the whole name in each cell.
    assert small_phone.page.locator(".cante-grid").get_by_role("radio", name=LONG_NAMES[2], exact=True).count() == 4


#: The cells of the cante grid whose text does not lie whole on one line, or reaches past its cell.
CELLS_BROKEN = """() => Array.from(document.querySelectorAll('.cante-row .cell span:not(.visually-hidden)')).filter(span => {
  const range = document.createRange();
  range.selectNodeContents(span);
  const lines = new Set(Array.from(range.getClientRects()).filter(r => r.width > 0).map(r => Math.round(r.top)));
  const cell = span.closest('.cell').getBoundingClientRect(), text = range.getBoundingClientRect();
  return lines.size > 1 || text.left < cell.left - 0.5 || text.right > cell.right + 0.5;
}).map(span => span.textContent)"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_four_short_names_show_whole_in_the_cante_grid(small_phone: Phone, server: Server, language: str) -> None:
    """Names as short as Carmen need no key: each cell shows its player's whole name, on one line."""
    with server.app.app_context():
        user = services.user_named("ana")
        assert user is not None
        services.set_language(user, language)
        match_id = services.start_match(user, "tute4", ["Ana", "Luis", "Carmen", "Pedro"], {}, 0).id
        db.session.remove()
    small_phone.go(f"/matches/{match_id}/deal")
    assert small_phone.page.locator(".cante-key").count() == 0
    cells = small_phone.page.eval_on_selector_all(
        ".cante-row[data-suit=oros] .cell span", "nodes => nodes.map(n => n.textContent.trim())"
    )
    assert cells == ["Ana", "Luis", "Carmen", "Pedro"]
    assert small_phone.page.evaluate(CELLS_BROKEN) == []
