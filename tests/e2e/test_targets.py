"""Small mends at the table: every link of the review pages is a target of at least 24 × 24 px,
and the Tute form's tute part speaks at the form's size with the form's rows of buttons."""

from __future__ import annotations

import re

from .conftest import Phone
from .test_fit_names import SMALL_PHONE, _prepare  # noqa: F401  (the same matches, long names)

SMALL = """() => Array.from(document.querySelectorAll('main a')).filter(a => a.getClientRects().length)
  .map(a => { const r = a.getBoundingClientRect(); return [a.textContent.trim(), r.width, r.height]; })
  .filter(([, width, height]) => width < 24 || height < 24)"""


def test_every_link_on_the_review_pages_is_at_least_24_px_each_way(phone: Phone) -> None:
    ids = _prepare(phone.server, "en")
    phone.go("/players/")
    players = sorted({int(n) for n in re.findall(r"/players/(\d+)", phone.page.content())})
    assert len(players) >= 2
    pages = [
        "/history",
        "/players/",
        f"/players/{players[0]}",
        "/nights",
        f"/nights/{ids['night']}",
        "/stats/tute2",
        "/stats/tute4",
        "/stats/pocha",
        f"/stats/head-to-head?a={players[0]}&b={players[1]}",
    ]
    small: dict[str, list[object]] = {}
    links = 0
    for path in pages:
        phone.go(path)
        links += phone.page.locator("main a").count()
        found = phone.page.evaluate(SMALL)
        if found:
            small[path] = found
    assert links > 20
    assert small == {}


def test_the_tute_part_of_the_form_speaks_at_the_form_s_size(phone: Phone) -> None:
    phone.start_match("tute4", ["Ana", "Luis", "Carmen", "Pedro"])
    phone.go("/matches/1/deal")
    phone.tap("details.tute summary")
    size = lambda selector: phone.page.eval_on_selector(selector, "n => getComputedStyle(n).fontSize")  # noqa: E731
    assert size("details.tute summary") == size("fieldset.points legend")
    assert size("details.tute label.choice") == size("fieldset.sides:not(details *) label.choice")
    assert size("details.tute legend") == size("fieldset.points legend")
    rows = phone.page.eval_on_selector_all(
        "details.tute fieldset:first-of-type label.choice",
        "nodes => nodes.map(n => Math.round(n.getBoundingClientRect().top))",
    )
    assert len(rows) == 5 and len(set(rows)) == 2  # three to a row, as wide as a third each
