"""Server-drawn SVG charts: one line per side, named at its end, with a text alternative."""

from __future__ import annotations

import re
from itertools import pairwise

from flask import Flask
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.pages.charts import LABEL_GAP, label_positions, running_totals_svg

from ..conftest import Browser
from .matchhelpers import start, tute_form


def test_one_line_per_side_through_every_deal_named_at_its_end(app: Flask) -> None:
    # The charts are drawn by a template's macros: the app's templates are needed.
    with app.app_context():
        svg = str(running_totals_svg(["Ana", "Luis"], [(80, 40), (110, 130), (200, 150)], "Running totals"))
        lines = re.findall(r'<polyline class="series series-(\d)" points="([^"]+)"', svg)
        assert [index for index, _ in lines] == ["0", "1"]
        assert all(len(points.split()) == 4 for _, points in lines)  # the start and three deals
        assert ">Ana</text>" in svg and ">Luis</text>" in svg
        assert "stroke-dasharray" in svg  # lines differ by more than colour
        assert '<title id="chart-title">Running totals</title>' in svg


def test_the_highest_total_is_drawn_higher_than_the_lowest(app: Flask) -> None:
    with app.app_context():
        svg = str(running_totals_svg(["A", "B"], [(100, -20)], "x"))
        ends = [float(points.split()[-1].split(",")[1]) for points in re.findall(r'points="([^"]+)"', svg)]
        assert ends[0] < ends[1]  # SVG's y grows downwards


def test_names_at_the_line_ends_keep_the_lines_order_and_never_overlap(app: Flask) -> None:
    with app.app_context():
        # a 6-deal Pocha chart: the total of 50 must be named above the total of 35, not below it
        svg = str(running_totals_svg(["Ana", "Luis", "Carmen"], [(10, 10, 10)] * 5 + [(35, 50, 36)], "x"))
        label_y = {name: float(y) for y, name in re.findall(r'class="label[^"]*" x="[^"]+" y="([^"]+)">([^<]+)<', svg)}
        assert label_y["Luis"] < label_y["Carmen"] < label_y["Ana"]
        assert min(b - a for a, b in zip(sorted(label_y.values()), sorted(label_y.values())[1:])) >= LABEL_GAP


@given(st.lists(st.floats(min_value=0, max_value=180), min_size=1, max_size=8))
def test_label_positions_are_ordered_apart_and_inside(ends: list[float]) -> None:
    placed = label_positions(ends, 14, 176)
    order = sorted(range(len(ends)), key=lambda i: (ends[i], i))
    ys = [placed[i] for i in order]
    assert all(b - a >= LABEL_GAP - 1e-9 for a, b in pairwise(ys))
    assert all(14 - 1e-9 <= y <= 176 + 1e-9 for y in ys)


def test_names_are_escaped_and_no_chart_before_any_deal(app: Flask) -> None:
    with app.app_context():
        svg = str(running_totals_svg(["<b>x</b>", "B"], [(1, 2)], "<script>"))
        assert "<b>" not in svg and "&lt;b&gt;" in svg and "<script>" not in svg
        assert str(running_totals_svg(["A", "B"], [], "x")) == ""


def test_the_scoreboard_and_the_detail_page_show_the_chart(ana: Browser) -> None:
    start(ana, "tute2", ["Ana", "Luis"], opt_mode="points")
    assert "<svg" not in ana.get("/matches/1").get_data(as_text=True)
    ana.post("/matches/1/deal", data=tute_form(70, 0))
    for path in ("/matches/1", "/history/1"):
        page = ana.get(path).get_data(as_text=True)
        assert '<svg class="chart"' in page
        assert "Running totals, deal by deal: Ana 80, Luis 50." in page


def test_a_match_to_juegos_charts_the_juegos_that_decide_it_not_the_card_points(ana: Browser) -> None:
    start(ana, "tute2", ["Ana", "Luis"], opt_target="3")
    ana.post("/matches/1/deal", data=tute_form(70, 0))  # Ana 80 to 50: a juego
    ana.post("/matches/1/deal", data=tute_form(30, 1, number=2, dealer=1))  # Luis 100 to 30: a juego
    ana.post("/matches/1/deal", data=tute_form(80, 0, number=3))  # Ana 90 to 40: a juego
    for path in ("/matches/1", "/history/1", "/nights/1"):
        page = ana.get(path).get_data(as_text=True)
        assert "Juegos, deal by deal: Ana 2, Luis 1." in page, path
        assert "Running totals" not in page, path
        points = re.findall(r'<polyline class="series series-0" points="([^"]+)"', page)[0].split()
        heights = [float(point.split(",")[1]) for point in points]
        # Ana's line: 0, 1, 1, 2 juegos (the start and three deals): up, level, up
        assert heights[0] > heights[1] == heights[2] > heights[3], path


def test_a_bar_chart_says_each_count_and_is_empty_without_any(app: Flask) -> None:
    with app.app_context():
        from scorekeeper.pages.charts import bars_svg

        svg = str(bars_svg([("exact", 3), ("too high", 1), ("too low", 0)], "Bid accuracy"))
        widths = [float(w) for w in re.findall(r'<rect class="bar series-\d" x="\d+" y="\d+" width="([\d.]+)"', svg)]
        assert widths[0] > widths[1] > widths[2] == 0
        assert ">3</text>" in svg and ">too high</text>" in svg and '<title id="bars-title">Bid accuracy</title>' in svg
        assert str(bars_svg([("exact", 0)], "x")) == ""
