"""Charts drawn on the server as SVG: no JavaScript, readable in dark mode, with a text alternative.

This module works out each chart's figures and coordinates; templates/_charts.html draws them.

Lines take their colours from CSS classes (so that the dark theme can change them) and
differ in dash pattern as well, and each line is named at its end, so that colour is never
the only way to tell them apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup

from ..figures.reads import GameFigures
from ..i18n import gettext
from ..rules import MatchResult
from ..templating import macro
from ..text import seat_marks

WIDTH, HEIGHT = 340, 180
LEFT, RIGHT, TOP, BOTTOM = 34, 96, 10, 22
LABEL_GAP = 11  # the height of a line's name at the chart's font size
#: The longest name written whole at its line's end; past it, each line ends in its mark and a key
#: under the chart gives each mark's name.
LONGEST_END_NAME = 14
#: The right margin where the lines end in marks, and each row of the key (in the chart's pixels).
MARK_RIGHT, KEY_ROW = 36, 15
#: The longest name of a key of two columns; longer ones take a row each.
LONGEST_PAIRED_NAME = 22
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4", "4 4", "12 3 3 3")


def _ticks(low: int, high: int) -> list[int]:
    """Return three to five round values spanning low..high."""
    span = max(high - low, 1)
    step = next(s for s in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10**9) if span / s <= 4)
    first = (low // step) * step
    return list(range(first, high + step, step))


def label_positions(ends: Sequence[float], top: float, bottom: float, gap: float = LABEL_GAP) -> list[float]:
    """Return where to write each line's name: beside its end, in the order of the ends, at least
    `gap` apart, and between `top` and `bottom` (the lines' order is kept, so no name sits nearer
    another line than its own)."""
    order = sorted(range(len(ends)), key=lambda index: (ends[index], index))
    placed = [0.0] * len(ends)
    previous = top - gap
    for index in order:  # downwards: push each name below the one above it
        placed[index] = previous = max(ends[index], previous + gap, top)
    following = bottom + gap
    for index in reversed(order):  # upwards: pull back whatever the push moved past the bottom
        placed[index] = following = min(placed[index], following - gap)
    return placed


@dataclass(frozen=True)
class Tick:
    """A value on a chart's vertical axis: its grid line's height and its label's."""

    value: int
    y: str
    text_y: str


@dataclass(frozen=True)
class Line:
    """One side's line: its colour (of eight) and dashes, its points, and what names it at its end, where."""

    colour: int
    dash: str
    points: str
    end: str
    end_y: str


@dataclass(frozen=True)
class KeyRow:
    """One line's entry in the key under a chart whose lines end in marks: a stroke, the mark and the name."""

    colour: int
    dash: str
    mark: str
    name: str
    x: int
    line_y: int
    text_y: int


@dataclass(frozen=True)
class LineChart:
    """A line chart of running totals, laid out in the chart's pixels."""

    description: str
    width: int
    height: int
    #: Where the plot begins and ends across, where the axis values end, where the names at the ends begin.
    left: int
    right: int
    value_x: int
    end_x: int
    #: The height of the deal numbers under the plot, and the last deal's number.
    axis_y: int
    deals: int
    ticks: list[Tick]
    lines: list[Line]
    key: list[KeyRow]


@dataclass(frozen=True)
class Bar:
    """One bar: its label, count, colour, and where it and its words stand."""

    label: str
    count: int
    colour: int
    y: int
    text_y: int
    width: str
    count_x: str


@dataclass(frozen=True)
class BarChart:
    """A horizontal bar chart of labelled counts, laid out in the chart's pixels."""

    description: str
    width: int
    height: int
    label_x: int
    bar_x: int
    bars: list[Bar]


def keyed_chart(names: Sequence[str]) -> bool:
    """Tell whether a chart of these sides ends its lines in their marks (`seat_marks`), with a key under it
    naming each mark, rather than in their names."""
    return any(len(name) > LONGEST_END_NAME for name in names)


def running_totals(names: Sequence[str], running: Sequence[Sequence[int]], description: str) -> LineChart | None:
    """Lay out a line chart of each side's running total, deal by deal (none before any deal).

    `description` is the chart's text alternative (its <title>); the deal table beside it
    holds every figure.
    """
    if not running:
        return None
    series = [[0] + [totals[side] for totals in running] for side in range(len(names))]
    low = min(0, *(min(s) for s in series))
    high = max(1, *(max(s) for s in series))
    tick_values = _ticks(low, high)
    low, high = min(low, tick_values[0]), max(high, tick_values[-1])
    deals = len(running)
    # Names that fit stand at their lines' ends; else marks do, and the key under the plot names them.
    keyed = keyed_chart(names)
    ends = seat_marks(list(names)) if keyed else list(names)
    columns = 2 if all(len(name) <= LONGEST_PAIRED_NAME for name in names) else 1
    key_height = KEY_ROW * -(-len(names) // columns) + 4 if keyed else 0
    plot_w, plot_h = WIDTH - LEFT - (MARK_RIGHT if keyed else RIGHT), HEIGHT - TOP - BOTTOM

    def x(deal: int) -> float:
        return LEFT + plot_w * deal / max(deals, 1)

    def y(value: int) -> float:
        return TOP + plot_h * (high - value) / (high - low)

    ticks = [Tick(tick, f"{y(tick):.1f}", f"{y(tick) + 4:.1f}") for tick in tick_values]
    # Every series has a point at each deal: each deal's x is written once for them all.
    xs = [f"{x(deal):.1f}," for deal in range(deals + 1)]
    label_ys = label_positions([y(values[-1]) for values in series], TOP + 4, HEIGHT - 4)
    lines = [
        Line(
            colour=index % 8,
            dash=DASHES[index % len(DASHES)],
            points=" ".join([f"{at}{y(value):.1f}" for at, value in zip(xs, values)]),
            end=end,
            end_y=f"{end_y + 4:.1f}",
        )
        for index, (values, end, end_y) in enumerate(zip(series, ends, label_ys))
    ]
    key = []
    if keyed:  # each line's stroke, mark and whole name, a row or half a row each
        column_w = WIDTH // columns
        for index, (mark, name) in enumerate(zip(ends, names)):
            left, top = (index % columns) * column_w, HEIGHT + 4 + (index // columns) * KEY_ROW
            key.append(
                KeyRow(
                    colour=index % 8,
                    dash=DASHES[index % len(DASHES)],
                    mark=mark,
                    name=name,
                    x=left,
                    line_y=top + 7,
                    text_y=top + 11,
                )
            )
    return LineChart(
        description=description,
        width=WIDTH,
        height=HEIGHT + key_height,
        left=LEFT,
        right=LEFT + plot_w,
        value_x=LEFT - 4,
        end_x=LEFT + plot_w + 4,
        axis_y=HEIGHT - 6,
        deals=deals,
        ticks=ticks,
        lines=lines,
        key=key,
    )


def running_totals_svg(names: Sequence[str], running: Sequence[Sequence[int]], description: str) -> Markup:
    """Return a line chart of each side's running total, deal by deal, as SVG (empty before any deal)."""
    chart = running_totals(names, running, description)
    return Markup("") if chart is None else macro("_charts.html", "line_chart")(chart)


def decisive_running(result: MatchResult) -> list[tuple[int, ...]]:
    """Return what decides a match, each side's after each deal: the juegos where the match counts them
    (each deal saying its own), else the running totals."""
    return result.running_juegos() if result.juegos_per_deal else result.running_totals()


def match_chart(side_names: Sequence[str], result: MatchResult) -> Markup:
    """Return what decides a match, side by side and deal by deal (`decisive_running`), as an SVG line chart."""
    if result.juegos_per_deal:
        running = decisive_running(result)
        description = gettext(
            "Juegos, deal by deal: %(standings)s.",
            standings=", ".join(f"{name} {count}" for name, count in zip(side_names, running[-1] if running else ())),
        )
        return running_totals_svg(side_names, running, description)
    description = gettext(
        "Running totals, deal by deal: %(standings)s.",
        standings=", ".join(f"{name} {total}" for name, total in zip(side_names, result.totals)),
    )
    return running_totals_svg(side_names, result.running_totals(), description)


def bars(counts: Sequence[tuple[str, int]], description: str) -> BarChart | None:
    """Lay out a horizontal bar chart of labelled counts (none when every count is naught)."""
    if not counts or not any(count for _, count in counts):
        return None
    most = max(count for _, count in counts)
    label_width, plot_w = 120, WIDTH - 120 - 44
    laid = []
    for index, (label, count) in enumerate(counts):
        top = 6 + 30 * index
        width = plot_w * count / most if most else 0
        laid.append(
            Bar(
                label=label,
                count=count,
                colour=index % 8,
                y=top,
                text_y=top + 15,
                width=f"{width:.1f}",
                count_x=f"{label_width + width + 4:.1f}",
            )
        )
    return BarChart(
        description=description,
        width=WIDTH,
        height=30 * len(counts) + 8,
        label_x=label_width - 6,
        bar_x=label_width,
        bars=laid,
    )


def bars_svg(counts: Sequence[tuple[str, int]], description: str) -> Markup:
    """Return a horizontal bar chart of labelled counts as SVG, each bar saying its number (empty
    when every count is naught)."""
    chart = bars(counts, description)
    return Markup("") if chart is None else macro("_charts.html", "bar_chart")(chart)


def figure_bars(figures: GameFigures, names: Sequence[str], labels: Sequence[str], description: str) -> Markup:
    """Return some of a player's figures in a game (Pocha's bids made exactly, too high, too low) as an
    SVG bar chart, each bar labelled."""
    return bars_svg([(label, figures.count(name)) for name, label in zip(names, labels)], description)


def rating_chart(figures: GameFigures, description: str, label: str) -> Markup:
    """Return a player's rating after each finished match as an SVG line chart, its line named `label`."""
    return running_totals_svg([label], [(round(value),) for value in figures.rating_history], description)


def form_run(recent: Sequence[bool], win: str, loss: str) -> Markup:
    """Return a player's recent form as a run of marks, newest first (`win` and `loss` their words)."""
    return macro("_charts.html", "form_run")(recent, win, loss)
