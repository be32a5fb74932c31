"""A result card's layout, measured with the card's own fonts: a name too long for its line is written
a step smaller or on two lines and cut only past all reason, a title and a subtitle likewise, a game's
heading stays in the column of its first line and a game in one column when it fits in one, and a
card of as many lines as fit leaves out the last players of its longest game; then the cards of a
night of 20-letter names in the four languages, as laid out and as drawn on the PNG."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from PIL import ImageDraw

from scorekeeper.pages import card_image
from scorekeeper.pages.card_fit import ELLIPSIS
from scorekeeper.pages.card_layout import Layout, lay_out
from scorekeeper.pages.card_standings import HEIGHT, MARGIN, WIDTH, Placed
from scorekeeper.pages.cards import CardLine, ResultCard

from ..conftest import Browser
from .test_nights import import_matches
from .test_years import EVENING, match_of, player_id_of

#: Names of 20 letters, as the tables of the four languages write them.
SPANISH = ["Maximiliano Quintero", "Bartolomé Villalobos", "Leopoldo Santisteban", "Inmaculada Rodríguez"]
ITALIAN = ["Massimiliano Bianchi", "Giambattista Ferrari"]
NORWEGIAN = ["Sigbjørn Kristiansen", "Guro Kirkeby-Østgård"]
EIGHT = SPANISH + ITALIAN + NORWEGIAN
measure = card_image.measure


def ink(placed: Placed) -> tuple[float, float, float, float]:
    """Return the box of the letters `placed` draws, from the font itself."""
    left, top, right, bottom = card_image._font(placed.size, placed.bold).getbbox(
        placed.text, anchor="rs" if placed.right else "ls"
    )
    return placed.x + left, placed.baseline + top, placed.x + right, placed.baseline + bottom


def overlap(first: tuple[float, float, float, float], second: tuple[float, float, float, float]) -> bool:
    """Tell whether two boxes share any area."""
    return first[0] < second[2] and second[0] < first[2] and first[1] < second[3] and second[1] < first[3]


def faults(card: ResultCard, layout: Layout) -> list[str]:
    """Return what is wrong with a card's layout: a text cut or wider than its box, a box or letters
    off the card, letters over other letters, a dot or the chart, a name not written whole, a
    heading in another column than its first line."""
    found = []
    for placed in layout.texts:
        width = measure(placed.text, placed.size, placed.bold)
        left, right = placed.box
        start = placed.x - width if placed.right else placed.x
        if ELLIPSIS in placed.text:
            found.append(f"cut: {placed.text!r}")
        if start < left - 0.01 or start + width > right + 0.01 or left < MARGIN or right > WIDTH - MARGIN:
            found.append(f"{placed.text!r}, {width:.0f} px, out of its box {left:.0f}–{right:.0f}")
        box = ink(placed)
        if box[0] < MARGIN - 3 or box[1] < 16 or box[2] > WIDTH - MARGIN + 3 or box[3] > HEIGHT - 16:
            found.append(f"{placed.text!r} off the card: {box}")
    boxes = [(placed.text, ink(placed)) for placed in layout.texts]
    boxes += [
        (f"dot {dot.side}", (dot.x - dot.radius, dot.y - dot.radius, dot.x + dot.radius, dot.y + dot.radius))
        for dot in layout.dots
    ]
    if layout.chart is not None:
        left, top, right, bottom = layout.chart
        boxes.append(("the chart", (float(left), float(top), float(right), float(bottom))))
    found += [
        f"{a!r} over {b!r}" for n, (a, one) in enumerate(boxes) for b, other in boxes[n + 1 :] if overlap(one, other)
    ]
    for index, line in enumerate(card.lines):
        written = [placed for placed in layout.texts if placed.line == index and placed.kind in ("name", "heading")]
        if written and " ".join(placed.text for placed in written) != line.name:
            found.append(f"{line.name!r} written as {[placed.text for placed in written]}")
        if written and line.rank is None:
            first = [placed for placed in layout.texts if placed.line == index + 1 and placed.kind == "name"]
            if not first or first[0].column != written[0].column or first[0].baseline < written[-1].baseline:
                found.append(f"the heading {line.name!r} is not above its first line")
    return found


def names_of(layout: Layout, index: int) -> list[str]:
    """Return the lines a card's line's name is written on."""
    return [placed.text for placed in layout.texts if placed.line == index and placed.kind == "name"]


def match_card(title: str, sides: list[tuple[str, str]], verdict: str = "Winner") -> ResultCard:
    """Return a finished match's card of these sides (name, score), the first the winner."""
    lines = tuple(CardLine(n + 1, name, score, n == 0, n) for n, (name, score) in enumerate(sides))
    running = tuple(tuple(deal * (len(sides) - side) for side in range(len(sides))) for deal in range(1, 6))
    return ResultCard(
        "Scorekeeper", "card.png", title, "7 Mar 2026", f"{verdict}: {sides[0][0]}", lines, running, False
    )


def games_card(title: str, day: str, verdict: str, games: dict[str, list[tuple[str, str]]]) -> ResultCard:
    """Return a night's or a year's card: each game's heading and its lines (name, score), as many as fit."""
    lines: list[CardLine] = []
    for game, rows in games.items():
        lines.append(CardLine(None, game, "", False, None))
        lines += [CardLine(n + 1, name, score, n == 0, None) for n, (name, score) in enumerate(rows)]
    return ResultCard("Scorekeeper", "card.png", title, day, verdict, tuple(lines), (), True, as_many_as_fit=True)


# ---------------------------------------------------------------- the rules, on cards made here


def test_names_too_long_beside_their_scores_stay_whole_and_a_pair_breaks_between_its_names() -> None:
    # The cards that cut "Maximilia…" and "Luis & Pa…": scores in juegos leave a name little room.
    three = match_card("Tute for three (three players)", [(n, "2 juegos (245)") for n in SPANISH[:3]])
    layout = lay_out(three, measure)
    assert faults(three, layout) == [] and layout.shown == 3
    assert [names_of(layout, n) for n in range(3)] == [[name] for name in SPANISH[:3]]
    assert min(placed.size for placed in layout.texts if placed.kind == "score") >= 28
    pair = f"{SPANISH[0]} & {ITALIAN[0]}"
    four = match_card(
        "Tute in pairs (four players)", [(pair, "2 juegos (245)"), (" & ".join(NORWEGIAN), "1 juego (0)")]
    )
    layout = lay_out(four, measure)
    assert faults(four, layout) == []
    assert names_of(layout, 0) == [f"{SPANISH[0]} &", ITALIAN[0]]
    # A year's champions, beside their points: broken between two names, not inside one.
    champions = f"Luis · {SPANISH[0]}"
    records = {f"Record {n}": [(champions if n == 2 else EIGHT[n], "24 points")] for n in range(8)}
    year = games_card("2026 at the table", "Jan 1, 2026 – Dec 7, 2026", "Matches: 114", records)
    layout = lay_out(year, measure)
    assert faults(year, layout) == [] and names_of(layout, 5) in ([champions], ["Luis ·", SPANISH[0]])


def test_a_growing_name_is_written_smaller_a_step_then_on_two_lines_never_cut() -> None:
    ways: list[str] = []
    for letters in range(0, 23):
        name = f"{SPANISH[1]} {'Ruiz de Arana y Montes'[:letters]}".strip()
        card = match_card("Tute for three (three players)", [(name, "2 juegos (245)"), ("Ana", "1"), ("Luis", "0")])
        layout = lay_out(card, measure)
        assert faults(card, layout) == [], name
        written = [placed for placed in layout.texts if placed.line == 0 and placed.kind == "name"]
        (score,) = [placed for placed in layout.texts if placed.line == 0 and placed.kind == "score"]
        way = "two lines" if len(written) == 2 else "smaller" if written[0].size < score.size else "whole"
        if not ways or ways[-1] != way:
            ways.append(way)
    assert ways == ["whole", "smaller", "two lines"]


def test_only_a_name_past_all_reason_is_cut() -> None:
    absurd = "Maximilianoquintero" * 3  # 57 letters and no space: no line holds it
    card = match_card(
        "Tute for three (three players)", [(absurd, "3 juegos (245)"), (SPANISH[1], "1"), (SPANISH[2], "0")]
    )
    layout = lay_out(card, measure)
    (cut,) = [placed.text for placed in layout.texts if ELLIPSIS in placed.text]
    assert absurd.startswith(cut.removesuffix(ELLIPSIS)) and len(cut) > 10
    assert [fault for fault in faults(card, layout) if not fault.startswith(("cut", repr(absurd)))] == []


def test_a_long_title_takes_the_day_s_room_and_a_long_subtitle_wraps() -> None:
    games = {"Tute for three (three players)": [(SPANISH[0], "44 points")], "Pocha": [(SPANISH[1], "24 points")]}
    title = f"{SPANISH[2]}'s 2026 at the table"
    card = games_card(
        title, "Jan 1, 2026 – Dec 31, 2026", "Matches: 114 · Won: 40 · Nights: 31 · Hours at the table: 62", games
    )
    layout = lay_out(card, measure)
    assert faults(card, layout) == []
    (day,) = [placed for placed in layout.texts if placed.kind == "day"]
    (brand,) = [placed for placed in layout.texts if placed.kind == "brand"]
    assert [placed.text for placed in layout.texts if placed.kind == "title"] == [title]
    assert day.baseline == brand.baseline
    night = games_card(
        "Game night",
        "7 Mar 2026",
        "3 matches: Tute for three (three players), Tute in pairs (four players), Pocha",
        games,
    )
    layout = lay_out(night, measure)
    assert faults(night, layout) == []
    assert [placed.text for placed in layout.texts if placed.kind == "verdict"] == [
        "3 matches: Tute for three (three players),",
        "Tute in pairs (four players), Pocha",
    ]


def test_a_game_s_heading_never_ends_a_column_and_a_game_that_fits_one_column_is_not_split() -> None:
    # The year card that left "Tute in pairs (four players)" at the foot of a column: nine records.
    records = {f"Record {n}" if n else "Tute in pairs (four players)": [(EIGHT[n % 8], "150 points")] for n in range(9)}
    year = games_card("2026 at the table", "Jan 1, 2026 – Dec 31, 2026", "Matches: 114", records)
    layout = lay_out(year, measure)
    assert faults(year, layout) == [] and layout.shown == len(year.lines)
    # The night card that split Pocha: two players of Tute for two, five of Pocha.
    night = games_card(
        "Game night",
        "7 Mar 2026",
        "2 matches: Tute (two players), Pocha",
        {
            "Tute (two players)": [(SPANISH[0], "1/1"), (SPANISH[1], "0/1")],
            "Pocha": [(name, "0/1 · 30") for name in EIGHT[:5]],
        },
    )
    layout = lay_out(night, measure)
    assert faults(night, layout) == []
    columns = {placed.line: placed.column for placed in layout.texts if placed.line >= 0}
    assert {columns[index] for index in range(3)} != {columns[index] for index in range(3, 9)}
    assert len({columns[index] for index in range(3, 9)}) == 1


def test_a_card_of_as_many_lines_as_fit_leaves_out_the_last_players_of_its_longest_game() -> None:
    games = {
        "Tute for three (three players)": [(name, "1/1") for name in EIGHT[:3]],
        "Pocha": [(f"{name} & {other}", "0/1 · 30") for name, other in zip(EIGHT, reversed(EIGHT))],
        "Tute in pairs (four players)": [(f"{name} & {other}", "1/2") for name, other in zip(EIGHT[:4], EIGHT[4:])],
    }
    night = games_card("Game night", "7 Mar 2026", "2 matches", games)
    layout = lay_out(night, measure)
    assert faults(night, layout) == []
    shown = {placed.line for placed in layout.texts if placed.line >= 0}
    assert len(shown) == layout.shown < len(night.lines)
    # The longest games lose their last players first: each game keeps its heading and first players.
    tute, pocha, pairs = (
        sorted(line for line in shown if start <= line < end) for start, end in ((0, 4), (4, 13), (13, 18))
    )
    assert (
        tute == [0, 1, 2, 3] and pocha == list(range(4, 4 + len(pocha))) and pairs == list(range(13, 13 + len(pairs)))
    )
    assert len(pocha) >= len(pairs) >= 3
    # A match's card shows every side, its names on one line each, cut, if nothing else fits.
    absurd = match_card("Pocha", [(f"{name} {name} {name}", "-120") for name in EIGHT])
    layout = lay_out(absurd, measure)
    assert layout.shown == 8 and {placed.line for placed in layout.texts if placed.kind == "score"} == set(range(8))


# ---------------------------------------------------------------- the cards of a night, in the four languages


def a_night_of_long_names(app: Flask) -> None:
    """Import a night of 20-letter names: Tute for three, Tute in pairs, Tute for two and Pocha for eight."""
    tute = {"dealer": 0, "trump": "oros", "last_trick": 0}
    import_matches(
        app,
        [
            match_of(EVENING, "tute3", tuple(SPANISH[:3]), [{**tute, "points": [70, 30, 20]}], [20], target=1),
            match_of(
                EVENING + timedelta(hours=1),
                "tute4",
                (SPANISH[0], NORWEGIAN[0], ITALIAN[0], NORWEGIAN[1]),
                [{**tute, "points": [80, 40]}],
                [20],
                target=1,
            ),
            match_of(
                EVENING + timedelta(hours=2),
                "tute2",
                (ITALIAN[1], SPANISH[3]),
                [{**tute, "points": [90, 30]}],
                [20],
                target=1,
            ),
            match_of(
                EVENING + timedelta(hours=3),
                "pocha",
                tuple(EIGHT),
                [{"dealer": 0, "cards": 1, "trump": None, "bids": [1] + [0] * 7, "tricks": [1] + [0] * 7}],
                [10],
                schedule=[1],
                hook=False,
            ),
        ],
    )


@contextmanager
def recorded() -> Iterator[tuple[list[tuple[ResultCard, Layout]], list[tuple[str, tuple[float, float, float, float]]]]]:
    """Record each card laid out, and each text drawn on a card with the box of its letters."""
    layouts: list[tuple[ResultCard, Layout]] = []
    drawn: list[tuple[str, tuple[float, float, float, float]]] = []
    draw_text, lay = ImageDraw.ImageDraw.text, lay_out

    def laid(card: ResultCard, measure: Any) -> Layout:
        layouts.append((card, lay(card, measure)))
        return layouts[-1][1]

    def text(self: ImageDraw.ImageDraw, xy: Any, words: str, *args: Any, **kwargs: Any) -> None:
        drawn.append((words, self.textbbox(xy, words, font=kwargs["font"], anchor=kwargs.get("anchor"))))
        draw_text(self, xy, words, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(card_image, "lay_out", laid)
        patch.setattr(ImageDraw.ImageDraw, "text", text)
        yield layouts, drawn


@pytest.mark.parametrize("language", ["en", "es", "it", "nb"])
def test_every_card_of_a_night_of_20_letter_names_writes_each_name_whole(
    ana: Browser, app: Flask, language: str
) -> None:
    assert {len(name) for name in EIGHT} == {20}
    a_night_of_long_names(app)
    ana.post("/language", data={"language": language, "next": "/"})
    player = player_id_of(app, SPANISH[0])
    addresses = [f"/matches/{n}/card.png" for n in range(1, 5)]
    addresses += ["/nights/1/card.png", "/years/2026/card.png?theme=dark", f"/years/2026/players/{player}/card.png"]
    for address in addresses:
        with recorded() as (layouts, drawn):
            assert ana.get(address).status_code == 200
        ((card, layout),) = layouts
        assert faults(card, layout) == [], address
        assert layout.shown == len(card.lines), address
        # On the PNG: nothing cut, every text's letters on the card and clear of the others, each name whole.
        assert [words for words, _ in drawn if ELLIPSIS in words] == [], address
        assert [
            words for words, box in drawn if box[0] < MARGIN - 3 or box[2] > WIDTH - MARGIN + 3 or box[3] > HEIGHT - 16
        ] == []
        assert [(a, b) for n, (a, one) in enumerate(drawn) for b, other in drawn[n + 1 :] if overlap(one, other)] == []
        written = "\n".join(words for words, _ in drawn)
        named = [line.name for line in card.lines if line.rank is not None]
        assert all(name in written or name in written.replace("\n", " ") for name in named), address
