"""Lay a result card out: where each of its words goes on the 1200×630 image, and at what size.

Pure: given the card and a function that measures a text's width (Pillow's, in `card_image`), it
returns the placed lines, so that what goes where is checked without drawing a pixel. The rules:

- a game's heading stays in the column of its first line, and a game is split across the columns
  only when it cannot fit in one;
- the standings take the largest size at which they all fit, in one column, then in two;
- the names each on one line at the card's size while that size is large enough, then a name too
  long for its box a step smaller, then on two lines (broken after a " & " or a " · " where it
  can be), then above its score; cut with an ellipsis only when it would not fit even so at the
  smallest size: a name of 20 letters is never cut;
- a title or a subtitle likewise, the day moving above the title when the title needs its room;
- a card of as many lines as fit (a night's, a year's) leaves out its last lines only when the
  smallest size cannot hold them all.
"""

from __future__ import annotations

from dataclasses import dataclass

from .card_fit import Measure, cut, fit
from .card_standings import (
    ASCENT,
    GUTTER,
    MARGIN,
    SIZES,
    STEP,
    WIDTH,
    Dot,
    Fit,
    Group,
    Placed,
    absurd,
    groups_of,
    holds,
    stand,
    trim,
)
from .cards import ResultCard

#: The chart's box, right of the standings, when the header leaves its top free.
CHART = (760, 190, 1140, 520)
#: The standings in one column down to this size, then in two.
ONE_COLUMN_SMALLEST = 30
#: The smallest size the standings take to keep every name on one line; below it, names wrap.
ONE_LINE_SMALLEST = 28
TITLE_SIZES = (50, 46, 42)
VERDICT_SIZES = (34, 31, 28)
BRAND_SIZE, DAY_SIZE = 26, 30


@dataclass(frozen=True)
class Layout:
    """A card laid out: its texts and dots, the chart's box if it has one, and how many of its lines are shown."""

    texts: tuple[Placed, ...]
    dots: tuple[Dot, ...]
    chart: tuple[int, int, int, int] | None
    shown: int


def lay_out(card: ResultCard, measure: Measure) -> Layout:
    """Return where each of the card's words goes, measured with `measure`."""
    header, top = _header(card, measure)
    chart = None
    if card.running:
        chart = (CHART[0], max(CHART[1], round(top) - 10), CHART[2], CHART[3])
        columns = [(1, CHART[0] - GUTTER - MARGIN, size) for size in SIZES]
    else:
        full = WIDTH - 2 * MARGIN
        columns = [(1, full, size) for size in SIZES if size >= ONE_COLUMN_SMALLEST]
        columns += [(2, (full - GUTTER) // 2, size) for size in SIZES]
    groups = groups_of(card.lines)
    # Each way in turn, at the largest size that holds the lines: the names on one line at the card's
    # size, or a step smaller, then on two lines, then above their scores; a game in one column
    # before one split (only a game taller than a column is); last, a text past all reason cut.
    one_line = columns[: 1 + max(n for n, c in enumerate(columns) if c[2] >= ONE_LINE_SMALLEST)]
    passes = [(one_line, Fit(0, False)), (one_line, Fit(1, False))]
    passes += [(columns, Fit(2, False)), (columns, Fit(3, False)), (columns, Fit(3, True))]
    past_reason = absurd(groups, columns[-1], measure)
    if past_reason:
        passes.append((columns, Fit(3, True, past_reason)))
    while True:
        # Each way is tried at its smallest sizes first: when they cannot hold the lines, no larger
        # one can; and when the last way cannot, no way can.
        if holds(groups, *passes[-1], top, measure):
            for candidates, how in passes:
                for candidate in candidates if holds(groups, candidates, how, top, measure) else ():
                    placed = stand(groups, candidate, top, measure, how)
                    if placed is not None:
                        return _layout(header, placed, chart, groups)
        trimmed = trim(groups) if card.as_many_as_fit else None
        if trimmed is None:
            break
        groups = trimmed
    # Nothing holds them even at the smallest size: each text on one line, cut if need be.
    placed = stand(groups, columns[-1], top, measure, Fit(1, True, last_resort=True))
    assert placed is not None
    return _layout(header, placed, chart, groups)


def _layout(
    header: list[Placed],
    placed: tuple[list[Placed], list[Dot]],
    chart: tuple[int, int, int, int] | None,
    groups: list[Group],
) -> Layout:
    shown = sum((heading is not None) + len(lines) for heading, lines in groups)
    return Layout(tuple(header + placed[0]), tuple(placed[1]), chart, shown)


# ---------------------------------------------------------------- the header


def _header(card: ResultCard, measure: Measure) -> tuple[list[Placed], float]:
    """Place the brand, title, day and verdict; return them and where the standings may begin."""
    full, right = float(WIDTH - 2 * MARGIN), float(WIDTH - MARGIN)
    brand_baseline = 40 + round(ASCENT * BRAND_SIZE)
    beside = full - measure(card.day, DAY_SIZE, False) - GUTTER
    title = next(((size, [card.title]) for size in TITLE_SIZES[:2] if measure(card.title, size, True) <= beside), None)
    placed: list[Placed] = []
    if title is None:  # the title needs the whole width: the day goes up, right of the brand
        title = fit(card.title, full, TITLE_SIZES, True, measure, cut_at=TITLE_SIZES[-1])
        assert title is not None  # cut when nothing else fits
        brand_right = right - measure(card.day, BRAND_SIZE, False) - GUTTER
        placed.append(
            Placed(
                card.day, right, brand_baseline, BRAND_SIZE, False, "muted", (brand_right + GUTTER, right), True, "day"
            )
        )
        title_right = right
    else:
        brand_right, title_right = right, MARGIN + beside
    brand = cut(card.brand, brand_right - MARGIN, BRAND_SIZE, False, measure)
    placed.append(
        Placed(brand, MARGIN, brand_baseline, BRAND_SIZE, False, "muted", (MARGIN, brand_right), kind="brand")
    )
    size, lines = title
    baseline = 74.0 + round(ASCENT * size)
    if title_right < right:
        placed.append(
            Placed(card.day, right, baseline, DAY_SIZE, False, "muted", (title_right + GUTTER, right), True, "day")
        )
    baseline = _lines(placed, lines, baseline, size, True, "text", (MARGIN, title_right), "title")
    verdict = fit(card.verdict, full, VERDICT_SIZES, True, measure, cut_at=VERDICT_SIZES[-1])
    assert verdict is not None
    size, lines = verdict
    baseline = _lines(
        placed, lines, baseline + 20 + round(ASCENT * size), size, True, "accent", (MARGIN, right), "verdict"
    )
    return placed, baseline + 28


def _lines(
    placed: list[Placed],
    lines: list[str],
    baseline: float,
    size: int,
    bold: bool,
    role: str,
    box: tuple[float, float],
    kind: str,
) -> float:
    """Place `lines` one under the other from `baseline`; return the last one's baseline."""
    for number, text in enumerate(lines):
        if number:
            baseline += round(STEP * size)
        placed.append(Placed(text, box[0], baseline, size, bold, role, box, kind=kind))
    return baseline
