"""Sending a finished match's result from the phone: its card handed to the share sheet as a PNG of
1200×630 in the page's theme where the phone shares files, else saved, every name of 20 letters
written whole in each language; and its short text."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.pages.card_fit import ELLIPSIS

from ..app.test_card_layout import overlap, recorded
from .conftest import Phone, Server
from .test_fit import SMALL_PHONE, choose_language
from .test_fit_pages import LONG
from .test_table import enter_tute_deal

#: A share sheet that keeps what it was handed, for the test to read.
RECORD_SHARES = """
window.shared = [];
navigator.canShare = (data) => !!(data && data.files);
navigator.share = async (data) => {
  const files = [];
  for (const file of data.files || []) {
    const bitmap = await createImageBitmap(file);
    const head = Array.from(new Uint8Array(await file.slice(0, 8).arrayBuffer()));
    files.push({ name: file.name, type: file.type, width: bitmap.width, height: bitmap.height, head });
  }
  window.shared.push({ text: data.text || null, files });
};
"""


def finish_a_match(phone: Phone) -> None:
    phone.start_match("tute2", ["Ana", "Luis"])
    for _ in range(3):
        enter_tute_deal(phone, "oros", 80, 0)
        if "Winner" in phone.text():
            break


def shared(phone: Phone, count: int = 1) -> list[dict[str, Any]]:
    """Return what the share sheet was handed, once it was handed `count` things (the page's
    policy allows no script from text, so the test asks rather than waits in the page)."""
    for _ in range(100):
        if phone.page.evaluate("window.shared.length") >= count:
            break
        phone.page.wait_for_timeout(50)
    return list(phone.page.evaluate("window.shared"))


def test_the_result_goes_to_the_share_sheet_as_a_png_in_one_tap(phone: Phone) -> None:
    phone.page.add_init_script(RECORD_SHARES)
    finish_a_match(phone)
    expect(phone.page.locator("main")).to_contain_text("Winner: Ana")
    before = phone.taps
    phone.tap("button[data-card-url]")
    assert phone.taps - before == 1
    [sent] = shared(phone)
    [card] = sent["files"]
    assert card["type"] == "image/png" and (card["width"], card["height"]) == (1200, 630)
    assert card["head"] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    assert card["name"] == "scorekeeper-tute2-1.png"
    assert sent["text"].startswith("Tute (two players), ") and "Winner: Ana" in sent["text"]
    phone.tap("button[data-result-text]")
    assert shared(phone, 2)[1] == {"text": sent["text"], "files": []}
    assert phone.errors == []


def test_a_phone_that_shares_no_files_saves_the_card(phone: Phone) -> None:
    phone.page.add_init_script("navigator.canShare = () => false;")
    finish_a_match(phone)
    with phone.page.expect_download() as download:
        phone.tap("button[data-card-url]")
    assert download.value.suggested_filename == "scorekeeper-tute2-1.png"
    path = download.value.path()
    with open(path, "rb") as saved:
        assert saved.read(8) == b"\x89PNG\r\n\x1a\n"


def test_the_dark_theme_sends_the_dark_card(phone: Phone) -> None:
    phone.page.add_init_script(RECORD_SHARES)
    phone.page.emulate_media(color_scheme="dark")
    finish_a_match(phone)
    requested: list[str] = []
    phone.page.on("request", lambda request: requested.append(request.url))
    phone.tap("button[data-card-url]")
    shared(phone)
    assert any(url.endswith("/matches/1/card.png?theme=dark") for url in requested), requested


def test_the_year_at_the_table_goes_to_the_share_sheet_as_its_card(phone: Phone) -> None:
    phone.page.add_init_script(RECORD_SHARES)
    finish_a_match(phone)
    phone.go("/years/")
    expect(phone.page.locator("main")).to_contain_text("Champion of Tute (two players)")
    phone.tap("button[data-card-url]")
    [sent] = shared(phone)
    [card] = sent["files"]
    assert card["type"] == "image/png" and (card["width"], card["height"]) == (1200, 630)
    assert card["name"].startswith("scorekeeper-20") and "Tute (two players): Ana" in sent["text"]
    assert phone.errors == []


@pytest.mark.parametrize("language", ["en", "es", "it", "nb"])
def test_a_card_of_20_letter_names_goes_to_the_share_sheet_with_every_name_whole(
    browser: Any, server: Server, language: str
) -> None:
    phone = Phone(browser, server, **SMALL_PHONE)
    phone.page.add_init_script(RECORD_SHARES)
    phone.sign_up()
    with server.app.app_context():  # Tute for three and in pairs, scored in juegos: the names' least room
        user = services.user_named("ana")
        assert user is not None
        three = services.start_match(user, "tute3", LONG[:3], {"target": 1}, 0)
        services.add_deal(three, {"dealer": 0, "trump": "oros", "points": [70, 30, 20], "last_trick": 0})
        four = services.start_match(user, "tute4", LONG[3:7], {"target": 1}, 0)
        services.add_deal(four, {"dealer": 0, "trump": "oros", "points": [80, 40], "last_trick": 0})
        matches = {three.id: LONG[:3], four.id: [f"{LONG[3]} & {LONG[5]}", f"{LONG[4]} & {LONG[6]}"]}
        db.session.remove()
    choose_language(phone, language)
    for number, (match_id, names) in enumerate(matches.items(), 1):
        with recorded() as (_, drawn):  # what the server writes on the card, with the box of its letters
            phone.go(f"/matches/{match_id}")
            phone.tap("button[data-card-url]")
            [card] = shared(phone, number)[-1]["files"]
        assert (card["width"], card["height"]) == (1200, 630)
        assert [words for words, _ in drawn if ELLIPSIS in words] == []
        assert [words for words, box in drawn if box[0] < 57 or box[2] > 1143 or box[3] > 614] == []
        assert [(a, b) for n, (a, one) in enumerate(drawn) for b, other in drawn[n + 1 :] if overlap(one, other)] == []
        written = " ".join(words for words, _ in drawn)
        assert [name for name in names if name not in written] == [], language
    assert phone.errors == []
    phone.close()
