"""At the table: a note written on the scoreboard is refused when too long (what was typed kept),
saved when it fits, shown on the match's night, and the night is a tap away from the history."""

from __future__ import annotations

from .conftest import Phone


def test_a_note_from_the_scoreboard_reaches_the_match_s_night(phone: Phone) -> None:
    phone.start_match("tute2", ["Ana", "Luis"])
    phone.tap("details.note-edit > summary")
    phone.page.fill("#note", "x" * 201)
    phone.tap("text=Save the note")
    phone.page.wait_for_selector("#note-error .error")
    assert "A note has at most 200 characters." in phone.text()
    assert phone.page.input_value("#note") == "x" * 201
    phone.page.fill("#note", "Casa de Carmen")
    phone.tap("text=Save the note")
    phone.page.wait_for_selector("p.match-note")
    assert "Casa de Carmen" in phone.page.locator("p.match-note").inner_text()
    phone.go("/history")
    phone.tap("a.night-link")
    phone.page.wait_for_selector("table.night-standings")
    assert "Casa de Carmen" in phone.text() and "Standings of the night" in phone.text()
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= phone.page.viewport_size["width"]
