"""Draw a result card (`cards.ResultCard`) as a PNG of 1200×630, the size chat apps preview.

Drawn with the DejaVu Sans fonts shipped in scorekeeper/fonts/ (cut down to the Latin letters, so
that Spanish and Norwegian names are written whole: Pillow's own font has no accented letters),
so that a card looks the same on every machine: no system font is assumed. The colours are the
app's (static/app.css), light or dark.
"""

from __future__ import annotations

import hashlib
import io
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from .card_layout import Layout, lay_out
from .card_standings import HEIGHT, WIDTH
from .cards import ResultCard

#: static/app.css's colours: background, text, muted text, lines, accent; then the eight series.
_LIGHT = ("#f7f5f0", "#1c1b19", "#5f5b53", "#d8d3c8", "#9b1c1c")
_DARK = ("#121212", "#ecebe8", "#b3afa6", "#5a564e", "#e0a030")
_SERIES_LIGHT = ("#9b1c1c", "#1a56db", "#1f6f3f", "#7a4b00", "#6b21a8", "#0e7490", "#be185d", "#3f3f46")
_SERIES_DARK = ("#ff8a80", "#8ab4f8", "#6fcf8f", "#f0c060", "#c4a1ff", "#67e8f9", "#f9a8d4", "#d4d4d8")


FONTS = Path(__file__).resolve().parent.parent / "fonts"
#: What draws the cards, as a digest: a card drawn by other code (or fonts) is another image.
_DRAWN_BY = hashlib.sha256(
    b"".join(
        path.read_bytes()
        for path in (
            Path(__file__),
            *(Path(__file__).with_name(f"card_{part}.py") for part in ("fit", "layout", "standings")),
            *sorted(FONTS.glob("*.ttf")),
        )
    )
).digest()


@lru_cache(maxsize=64)
def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Return the card's font at `size` pixels, loaded once per size and weight."""
    return ImageFont.truetype(str(FONTS / ("DejaVuSans-Bold-Latin.ttf" if bold else "DejaVuSans-Latin.ttf")), size)


@lru_cache(maxsize=4096)
def measure(text: str, size: int, bold: bool) -> float:
    """Return how wide `text` is drawn in the card's font (names and words come back card after card)."""
    return float(_font(size, bold).getlength(text))


def card_tag(card: ResultCard) -> str:
    """Return the card's ETag: a digest of everything it draws, and of the code and fonts that draw it."""
    return hashlib.sha256(_DRAWN_BY + repr(card).encode()).hexdigest()[:32]


def draw_card(card: ResultCard) -> bytes:
    """Return the card as PNG bytes."""
    background, text, muted, line, accent = _DARK if card.dark else _LIGHT
    series = _SERIES_DARK if card.dark else _SERIES_LIGHT
    image = Image.new("RGB", (WIDTH, HEIGHT), background)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, 12), fill=accent)
    layout = lay_out(card, measure)
    colours = {"text": text, "muted": muted, "accent": accent}
    for placed in layout.texts:
        draw.text(
            (placed.x, placed.baseline),
            placed.text,
            font=_font(placed.size, placed.bold),
            fill=colours[placed.role],
            anchor="rs" if placed.right else "ls",
        )
    for dot in layout.dots:
        draw.ellipse(
            (dot.x - dot.radius, dot.y - dot.radius, dot.x + dot.radius, dot.y + dot.radius), fill=series[dot.side % 8]
        )
    _chart(draw, card, layout, line, series)
    return _png(image)


def _chart(draw: ImageDraw.ImageDraw, card: ResultCard, layout: Layout, line: str, series: tuple[str, ...]) -> None:
    """Draw each side's running total, deal by deal, from naught, with the naught line."""
    if layout.chart is None:
        return
    left, top, right, bottom = layout.chart
    values = [0, *(value for totals in card.running for value in totals)]
    low, high = min(values), max(values)
    span = max(high - low, 1)
    deals = len(card.running)

    def point(deal: int, value: int) -> tuple[float, float]:
        return left + (right - left) * deal / deals, bottom - (bottom - top) * (value - low) / span

    draw.rectangle(layout.chart, outline=line, width=2)
    zero = point(0, 0)[1]
    draw.line((left, zero, right, zero), fill=line, width=2)
    for side in range(len(card.running[0])):
        points = [point(0, 0)] + [point(deal, totals[side]) for deal, totals in enumerate(card.running, 1)]
        draw.line(points, fill=series[side % 8], width=5, joint="curve")


def _png(image: Image.Image) -> bytes:
    """Return the image as PNG bytes: compressed lightly, as a card of flat colours barely gains from more."""
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=3)
    return out.getvalue()
