"""A finished match's result card: a PNG of 1200×630 in the page's language and theme, answered with
an ETag that skips an unchanged card, to the owner and to a phone that joined the table; and the same
result as a short text on the scoreboard."""

from __future__ import annotations

import struct

from flask import Flask
from PIL import Image, ImageChops, ImageDraw

from scorekeeper.pages import boards, card_image, cards
from scorekeeper.reads import matches

from ..conftest import Browser
from .matchhelpers import start, tute_form


def finished_match(browser: Browser) -> None:
    """Ana beats Luis in a Tute match to one juego: 78 + 10 + 20 to 42."""
    start(browser, "tute2", ["Ana", "Luis"], opt_target="1")
    browser.post("/matches/1/deal", data=tute_form(78, 0, cantes={"copas": 0}))


def png_size(body: bytes) -> tuple[int, int]:
    """Return a PNG's width and height, from its header."""
    assert body[:8] == b"\x89PNG\r\n\x1a\n" and body[12:16] == b"IHDR"
    width, height = struct.unpack(">II", body[16:24])
    return width, height


def test_the_card_is_a_png_of_the_size_chats_preview(ana: Browser) -> None:
    finished_match(ana)
    answer = ana.get("/matches/1/card.png")
    assert answer.status_code == 200 and answer.mimetype == "image/png"
    assert png_size(answer.data) == (1200, 630)
    assert answer.headers["Cache-Control"] == "private, no-cache" and answer.headers["ETag"]


def test_an_unchanged_card_is_not_sent_again_and_a_change_makes_a_new_one(ana: Browser) -> None:
    finished_match(ana)
    first = ana.get("/matches/1/card.png")
    tag = first.headers["ETag"]
    again = ana.get("/matches/1/card.png", headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == tag
    dark = ana.get("/matches/1/card.png?theme=dark")
    assert dark.headers["ETag"] != tag and dark.data != first.data
    ana.post("/players/1/rename", data={"rename-name": "Anabel"})
    renamed = ana.get("/matches/1/card.png", headers={"If-None-Match": tag})
    assert renamed.status_code == 200 and renamed.headers["ETag"] != tag


def test_the_card_and_its_text_are_in_the_page_s_language(ana: Browser) -> None:
    finished_match(ana)
    english = ana.get("/matches/1/card.png")
    board = ana.get("/matches/1").get_data(as_text=True)
    assert "Send the result" in board and "Tute (two players), " in board
    assert "Winner: Ana\n1. Ana 1 juego (108) · 2. Luis 0 juegos (42)" in board
    ana.post("/language", data={"language": "es", "next": "/"})
    spanish = ana.get("/matches/1/card.png")
    assert spanish.headers["ETag"] != english.headers["ETag"] and spanish.data != english.data
    board = ana.get("/matches/1").get_data(as_text=True)
    assert "Gana: Ana\n1. Ana 1 juego (108) · 2. Luis 0 juegos (42)" in board


def test_only_a_finished_match_offers_its_result(ana: Browser) -> None:
    start(ana, "tute2", ["Ana", "Luis"], opt_target="3")
    ana.post("/matches/1/deal", data=tute_form(78, 0))
    assert "Send the result" not in ana.get("/matches/1").get_data(as_text=True)
    # the card itself answers all the same, with the standings so far
    answer = ana.get("/matches/1/card.png")
    assert answer.status_code == 200 and png_size(answer.data) == (1200, 630)


def test_another_account_gets_no_card(ana: Browser, bea: Browser) -> None:
    finished_match(ana)
    assert bea.get("/matches/1/card.png").status_code == 404


def test_every_letter_of_the_four_languages_is_drawn(app: Flask) -> None:
    # Pillow's own font has no accented letters: a name like "Ñúñez" was drawn as boxes.
    letters = "ÁÉÍÓÚÜÑáéíóúüñ¿¡ÀÈÌÒÙàèìòùÆØÅæøåÇçßŁłŠšŽž·–…€"
    font = card_image._font(40)

    def drawn(text: str) -> Image.Image:
        image = Image.new("L", (80, 80))
        ImageDraw.Draw(image).text((10, 10), text, font=font, fill=255)
        return image

    missing = drawn("\uffff")
    assert ImageChops.difference(drawn("中"), missing).getbbox() is None  # no glyph: drawn as the missing one
    assert [letter for letter in letters if ImageChops.difference(drawn(letter), missing).getbbox() is None] == []


def test_a_night_s_card_gives_each_game_s_standings_of_the_night(ana: Browser) -> None:
    finished_match(ana)
    start(ana, "tute2", ["Luis", "Carmen"], opt_target="1")
    ana.post("/matches/2/deal", data=tute_form(30, 1))  # Carmen beats Luis: 30 to 90 + 10
    page = ana.get("/nights/1").get_data(as_text=True)
    assert "Send the result" in page
    assert "2 matches: Tute (two players)\nTute (two players): 1. Ana 1/1 · 1. Carmen 1/1" in page
    answer = ana.get("/nights/1/card.png")
    assert answer.status_code == 200 and png_size(answer.data) == (1200, 630)
    assert ana.get("/nights/1/card.png", headers={"If-None-Match": answer.headers["ETag"]}).status_code == 304


def test_another_account_gets_no_night_card(ana: Browser, bea: Browser) -> None:
    finished_match(ana)
    assert bea.get("/nights/1/card.png").status_code == 404


def test_a_match_to_juegos_charts_its_juegos_on_its_card(ana: Browser, app: Flask) -> None:
    start(ana, "tute2", ["Ana", "Luis"], opt_target="2")
    ana.post("/matches/1/deal", data=tute_form(70, 0))  # Ana 80 to 50: a juego
    ana.post("/matches/1/deal", data=tute_form(30, 1, number=2, dealer=1))  # Luis 100 to 30: a juego
    ana.post("/matches/1/deal", data=tute_form(80, 0, number=3))  # Ana 90 to 40: the second juego, the match
    with app.test_request_context():
        card = cards.match_card(boards.scoreboard(matches.match_to_show(1)), dark=False)
    assert card.running == ((1, 0), (1, 1), (2, 1))  # what decided the match, not 80 to 50, 110 to 150...
