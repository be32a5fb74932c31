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

from .cards import ResultCard

WIDTH, HEIGHT = 1200, 630
MARGIN = 60
#: The chart's box, right of the standings.
CHART = (760, 190, 1140, 520)

#: static/app.css's colours: background, text, muted text, lines, accent; then the eight series.
_LIGHT = ("#f7f5f0", "#1c1b19", "#5f5b53", "#d8d3c8", "#9b1c1c")
_DARK = ("#121212", "#ecebe8", "#b3afa6", "#5a564e", "#e0a030")
_SERIES_LIGHT = ("#9b1c1c", "#1a56db", "#1f6f3f", "#7a4b00", "#6b21a8", "#0e7490", "#be185d", "#3f3f46")
_SERIES_DARK = ("#ff8a80", "#8ab4f8", "#6fcf8f", "#f0c060", "#c4a1ff", "#67e8f9", "#f9a8d4", "#d4d4d8")


FONTS = Path(__file__).resolve().parent.parent / "fonts"
#: What draws the cards, as a digest: a card drawn by other code (or fonts) is another image.
_DRAWN_BY = hashlib.sha256(
    b"".join(path.read_bytes() for path in (Path(__file__), *sorted(FONTS.glob("*.ttf"))))
).digest()


@lru_cache(maxsize=16)
def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Return the card's font at `size` pixels, loaded once per size and weight."""
    return ImageFont.truetype(str(FONTS / ("DejaVuSans-Bold-Latin.ttf" if bold else "DejaVuSans-Latin.ttf")), size)


def _fitted(draw: ImageDraw.ImageDraw, text: str, size: int, width: int, bold: bool = False) -> str:
    """Return `text` cut with an ellipsis where it would run past `width` pixels."""
    font = _font(size, bold)
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text.rstrip() + "…"


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
    draw.text((MARGIN, 40), card.brand, font=_font(26), fill=muted)
    title = _fitted(draw, card.title, 50, WIDTH - 2 * MARGIN - 260, bold=True)
    draw.text((MARGIN, 74), title, font=_font(50, bold=True), fill=text)
    draw.text((WIDTH - MARGIN, 90), card.day, font=_font(30), fill=muted, anchor="ra")
    verdict = _fitted(draw, card.verdict, 34, WIDTH - 2 * MARGIN, bold=True)
    draw.text((MARGIN, 140), verdict, font=_font(34, bold=True), fill=accent)
    _standings(draw, card, (text, muted, accent), series)
    _chart(draw, card, line, series)
    return _png(image)


def _standings(
    draw: ImageDraw.ImageDraw, card: ResultCard, colours: tuple[str, str, str], series: tuple[str, ...]
) -> None:
    """Write each side's place, name and score down the left (the whole width, in two columns if
    they are many, where there is no chart), the winners in the accent colour, each game's title
    above its standings."""
    text, muted, accent = colours
    top, bottom = 200, HEIGHT - 30
    columns = 1 if card.running or len(card.lines) <= 8 else 2
    per_column = -(-len(card.lines) // columns)
    width = (CHART[0] - 40 - MARGIN) if card.running else (WIDTH - 2 * MARGIN - 40 * (columns - 1)) // columns
    step = min(72, (bottom - top) // max(per_column, 1))
    size = max(20, min(36 if columns == 1 else 30, step - 16))
    for index, card_line in enumerate(card.lines):
        left = MARGIN + (index // per_column) * (width + 40)
        right, y = left + width, top + (index % per_column) * step
        if card_line.rank is None:  # a game's title
            draw.text(
                (left, y + size // 4),
                _fitted(draw, card_line.name, size - 4, width, True),
                font=_font(size - 4, True),
                fill=muted,
            )
            continue
        colour, font = (accent, _font(size, bold=True)) if card_line.winner else (text, _font(size))
        if card_line.side is not None:
            middle = y + size * 0.6
            draw.ellipse((left, middle - 8, left + 16, middle + 8), fill=series[card_line.side % 8])
        if card_line.rank:  # 0: a line of no place (a year's champion or record)
            draw.text((left + 30, y), f"{card_line.rank}.", font=font, fill=colour)
        score_width = int(draw.textlength(card_line.score, font=font))
        draw.text((right, y), card_line.score, font=font, fill=colour, anchor="ra")
        name_left = left + 30 + (int(size * 2) if card_line.rank else 0)
        name = _fitted(draw, card_line.name, size, right - score_width - 24 - name_left, bold=card_line.winner)
        draw.text((name_left, y), name, font=font, fill=colour)


def _chart(draw: ImageDraw.ImageDraw, card: ResultCard, line: str, series: tuple[str, ...]) -> None:
    """Draw each side's running total, deal by deal, from naught, with the naught line."""
    if not card.running:
        return
    left, top, right, bottom = CHART
    values = [0, *(value for totals in card.running for value in totals)]
    low, high = min(values), max(values)
    span = max(high - low, 1)
    deals = len(card.running)

    def point(deal: int, value: int) -> tuple[float, float]:
        return left + (right - left) * deal / deals, bottom - (bottom - top) * (value - low) / span

    draw.rectangle(CHART, outline=line, width=2)
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
