"""The rows of the deal forms with long names (20 characters) in every language at 360×740: the
dealer's label beside its list, three players' names over their points each in its own column,
the Pocha dealer's row whole when the forbidden bid is explained, and the subastado's contract line
saying what it needs from the start."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from scorekeeper import services
from scorekeeper.extensions import db

from .conftest import Phone, Server
from .test_fit import start_every_form
from .test_fit_names import LANGUAGES, LONG_NAMES, SMALL_PHONE

#: Three names of twenty characters whose first words are among the longest a Spanish table has.
LONG_WORDS = ["Maximiliano Quintero", "Bartolomé Villalobos", "Encarnación Moragues"]


@pytest.fixture
def small_phone(browser: Any, server: Server) -> Any:
    """A 360×740 phone signed in as 'ana'."""
    device = Phone(browser, server, **SMALL_PHONE)
    device.sign_up()
    yield device
    assert device.errors == [], device.errors
    device.close()


def _in_language(server: Server, language: str, start: Any) -> Any:
    """Set the account's language and start its matches (`start(user)`, inside an app context)."""
    with server.app.app_context():
        user = services.user_named("ana")
        assert user is not None
        services.set_language(user, language)
        started = start(user)
        db.session.remove()
    return started


#: The dealer's label and list: each one's box, and whether the list lies on the label's line.
DEALER_LINE = """() => {
  const label = document.querySelector('label[for=dealer]').getBoundingClientRect();
  const list = document.querySelector('select#dealer').getBoundingClientRect();
  const middle = label.top + label.height / 2;
  return { sameLine: middle > list.top && middle < list.bottom, before: label.right <= list.left,
           inside: list.left >= 0 && list.right <= innerWidth };
}"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_dealer_s_label_stays_beside_its_list_with_long_names(
    small_phone: Phone, server: Server, language: str
) -> None:
    ids = _in_language(server, language, lambda user: start_every_form(user, LONG_NAMES))
    apart: dict[str, Any] = {}
    for case in ("tute2", "tute3", "tute4", "subastado3", "subastado4"):
        for path in (f"/matches/{ids[case]}/deal", f"/matches/{ids[case]}/deals/1/edit"):
            small_phone.go(path)
            found = small_phone.page.evaluate(DEALER_LINE)
            if found != {"sameLine": True, "before": True, "inside": True}:
                apart[path] = found
    assert apart == {}


#: Each card points label's text, by the boxes of its lines, and the label's own column.
POINT_LABELS = """() => Array.from(document.querySelectorAll('.points-row .field > label')).map(label => {
  const range = document.createRange();
  range.selectNodeContents(label);
  const lines = Array.from(range.getClientRects()).filter(r => r.width > 0);
  const box = label.getBoundingClientRect();
  return { name: label.textContent.trim(), left: Math.min(...lines.map(r => r.left)),
           right: Math.max(...lines.map(r => r.right)), top: Math.min(...lines.map(r => r.top)),
           bottom: Math.max(...lines.map(r => r.bottom)), boxLeft: box.left, boxRight: box.right };
})"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_three_players_names_over_their_points_never_run_into_each_other(
    small_phone: Phone, server: Server, language: str
) -> None:
    ids = _in_language(server, language, lambda user: start_every_form(user, LONG_WORDS + LONG_NAMES[:5]))
    for path in (f"/matches/{ids['tute3']}/deal", f"/matches/{ids['tute3']}/deals/1/edit"):
        small_phone.go(path)
        labels = small_phone.page.evaluate(POINT_LABELS)
        assert [label["name"] for label in labels] == LONG_WORDS
        for label in labels:  # each name's text within its own column (a pixel of a glyph's overhang aside)
            assert label["left"] >= label["boxLeft"] - 1 and label["right"] <= label["boxRight"] + 1, (path, label)
        for first, second in itertools.pairwise(labels):
            assert first["right"] < second["left"], (path, first, second)
        count = small_phone.page.locator(".count-open").bounding_box()
        assert count is not None
        for label in labels:  # the Count button covers no name
            assert (
                count["x"] >= label["right"]
                or count["x"] + count["width"] <= label["left"]
                or count["y"] >= label["bottom"]
                or count["y"] + count["height"] <= label["top"]
            ), (path, label, count)


#: The Pocha dealer's row: its name, its bids' buttons and the sentence under them, each box from the row's top.
DEALER_ROW = """() => {
  const row = document.querySelector(".seat-rows > .seat-row[data-seat='0']");
  const top = row.getBoundingClientRect().top;
  const box = node => { if (!node) return null; const r = node.getBoundingClientRect();
                        return { left: r.left, top: r.top - top, bottom: r.bottom - top }; };
  return { name: box(row.querySelector('.seat-name')), buttons: box(row.querySelector('fieldset.bids')),
           sentence: box(row.querySelector("[data-errors-for='bids-0'] .error")) };
}"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_pocha_dealer_s_bids_stay_beside_the_name_when_the_forbidden_bid_is_explained(
    small_phone: Phone, server: Server, language: str
) -> None:
    match_id = _in_language(
        server,
        language,
        lambda user: services.start_match(user, "pocha", LONG_NAMES[:6], {"schedule": [2], "hook": True}, 0).id,
    )
    small_phone.go(f"/matches/{match_id}/deal")
    for seat in range(1, 6):
        small_phone.choose(f"bids-{seat}", 0)
    forbidden = small_phone.page.locator("label.choice.forbidden:has(input[name='bids-0'][value='2'])")
    # Scrolled as far as a thumb needs: the dealer's row just above the Save bar.
    forbidden.evaluate(
        "node => window.scrollBy(0, node.getBoundingClientRect().bottom + 4"
        " - document.querySelector('.save-bar').getBoundingClientRect().top)"
    )
    before = small_phone.page.evaluate(DEALER_ROW)
    assert before["buttons"]["top"] < before["name"]["bottom"]  # beside the name, to begin with
    forbidden.tap(force=True)
    small_phone.page.locator("[data-errors-for='bids-0'] .error").wait_for()
    after = small_phone.page.evaluate(DEALER_ROW)
    assert after["buttons"] == before["buttons"] and after["name"] == before["name"]  # nothing moved in the row
    assert after["sentence"]["top"] >= after["buttons"]["bottom"] - 1  # the sentence under the row, not beside it


def test_the_subastado_form_says_what_the_contract_needs_before_the_points_are_in(
    small_phone: Phone, server: Server
) -> None:
    ids = _in_language(server, "en", lambda user: start_every_form(user, LONG_NAMES))
    small_phone.go(f"/matches/{ids['subastado3']}/deal")
    small_phone.choose("declarer", 1)
    state = small_phone.page.locator("#contract-state")
    assert state.inner_text() == "The declarer needs a total of 60: card points, last trick and cantes."
    small_phone.tap("button.step[data-step='5']")
    assert "a total of 65" in state.inner_text()
    small_phone.choose("trump", "oros")
    small_phone.type("#points", "62")
    assert state.inner_text() == "Total 62 for a bid of 65: contract failed."
    small_phone.choose("declarer", "passed")
    assert not state.is_visible()
