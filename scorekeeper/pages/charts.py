"""Charts drawn on the server as SVG: no JavaScript, readable in dark mode, with a text alternative.

Lines take their colours from CSS classes (so that the dark theme can change them) and
differ in dash pattern as well, and each line is named at its end, so that colour is never
the only way to tell them apart.
"""

from __future__ import annotations

from collections.abc import Sequence

from markupsafe import Markup, escape

from ..figures.reads import GameFigures
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
    step = next(s for s in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10 ** 9)
                if span / s <= 4)
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


def running_totals_svg(names: Sequence[str], running: Sequence[Sequence[int]], description: str) -> Markup:
    """Return a line chart of each side's running total, deal by deal (empty before any deal).

    `description` is the chart's text alternative (its <title>); the deal table beside it
    holds every figure.
    """
    if not running:
        return Markup("")
    series = [[0] + [totals[side] for totals in running] for side in range(len(names))]
    low = min(0, *(min(s) for s in series))
    high = max(1, *(max(s) for s in series))
    ticks = _ticks(low, high)
    low, high = min(low, ticks[0]), max(high, ticks[-1])
    deals = len(running)
    # Names that fit stand at their lines' ends; else marks do, and the key under the plot names them.
    keyed = any(len(name) > LONGEST_END_NAME for name in names)
    ends = seat_marks(list(names)) if keyed else list(names)
    columns = 2 if all(len(name) <= LONGEST_PAIRED_NAME for name in names) else 1
    key_height = KEY_ROW * -(-len(names) // columns) + 4 if keyed else 0
    plot_w, plot_h = WIDTH - LEFT - (MARK_RIGHT if keyed else RIGHT), HEIGHT - TOP - BOTTOM

    def x(deal: int) -> float:
        return LEFT + plot_w * deal / max(deals, 1)

    def y(value: int) -> float:
        return TOP + plot_h * (high - value) / (high - low)

    parts = [f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT + key_height}" role="img" aria-labelledby="chart-title" '
             f'xmlns="http://www.w3.org/2000/svg"><title id="chart-title">{escape(description)}</title>']
    for tick in ticks:
        parts.append(f'<line class="grid" x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y(tick):.1f}" y2="{y(tick):.1f}"/>'
                     f'<text class="axis" x="{LEFT - 4}" y="{y(tick) + 4:.1f}" text-anchor="end">{tick}</text>')
    parts.append(f'<text class="axis" x="{LEFT}" y="{HEIGHT - 6}">0</text>'
                 f'<text class="axis" x="{LEFT + plot_w}" y="{HEIGHT - 6}" text-anchor="end">{deals}</text>')
    # Every series has a point at each deal: each deal's x is written once for them all.
    xs = [f"{x(deal):.1f}," for deal in range(deals + 1)]
    for index, values in enumerate(series):
        points = " ".join([f"{at}{y(value):.1f}" for at, value in zip(xs, values)])
        dash = DASHES[index % len(DASHES)]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(f'<polyline class="series series-{index % 8}" points="{points}"{dash_attr}/>')
    label_ys = label_positions([y(values[-1]) for values in series], TOP + 4, HEIGHT - 4)
    for index, (name, end) in enumerate(zip(ends, label_ys)):
        parts.append(f'<text class="label series-{index % 8}" x="{LEFT + plot_w + 4}" y="{end + 4:.1f}">'
                     f'{escape(name)}</text>')
    if keyed:  # each line's stroke, mark and whole name, a row or half a row each
        column_w = WIDTH // columns
        for index, (mark, name) in enumerate(zip(ends, names)):
            left, top = (index % columns) * column_w, HEIGHT + 4 + (index // columns) * KEY_ROW
            dash = DASHES[index % len(DASHES)]
            dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
            parts.append(f'<line class="series series-{index % 8}" x1="{left}" x2="{left + 14}" y1="{top + 7}" '
                         f'y2="{top + 7}"{dash_attr}/><text class="key" x="{left + 17}" y="{top + 11}">'
                         f'<tspan class="label series-{index % 8}">{escape(mark)}</tspan> {escape(name)}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))


def bars_svg(bars: Sequence[tuple[str, int]], description: str) -> Markup:
    """Return a horizontal bar chart of labelled counts (each bar also says its number)."""
    if not bars or not any(count for _, count in bars):
        return Markup("")
    height = 30 * len(bars) + 8
    most = max(count for _, count in bars)
    label_width, plot_w = 120, WIDTH - 120 - 44
    parts = [f'<svg class="chart" viewBox="0 0 {WIDTH} {height}" role="img" aria-labelledby="bars-title" '
             f'xmlns="http://www.w3.org/2000/svg"><title id="bars-title">{escape(description)}</title>']
    for index, (label, count) in enumerate(bars):
        top = 6 + 30 * index
        width = plot_w * count / most if most else 0
        parts.append(f'<text class="axis" x="{label_width - 6}" y="{top + 15}" text-anchor="end">{escape(label)}</text>'
                     f'<rect class="bar series-{index % 8}" x="{label_width}" y="{top}" width="{width:.1f}" height="20"/>'
                     f'<text class="label series-{index % 8}" x="{label_width + width + 4:.1f}" y="{top + 15}">{count}'
                     f'</text>')
    parts.append("</svg>")
    return Markup("".join(parts))


def bid_chart(figures: GameFigures, labels: tuple[str, str, str], description: str) -> Markup:
    """Return a player's Pocha bids made exactly, too high and too low as an SVG bar chart."""
    counts = (figures.exact_bids, figures.over_bids, figures.under_bids)
    return bars_svg(list(zip(labels, counts)), description)


def rating_chart(figures: GameFigures, description: str, label: str) -> Markup:
    """Return a player's rating after each finished match as an SVG line chart, its line named `label`."""
    return running_totals_svg([label], [(round(value),) for value in figures.rating_history], description)


def form_run(recent: Sequence[bool], win: str, loss: str) -> Markup:
    """Return a player's recent form as a run of marks, newest first (`win` and `loss` their words).

    Written here, each mark made once: a template loop escaped and wrote every mark of every game.
    """
    marks = (Markup('<span class="loss">%s</span>') % loss, Markup('<span class="win">%s</span>') % win)
    return Markup("").join(marks[won] for won in recent)
