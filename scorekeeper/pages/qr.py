"""QR codes of the links another phone opens from across the table, drawn on the server as SVG
with the maintained `segno` library."""

from __future__ import annotations

from functools import lru_cache

import segno
from markupsafe import Markup


def qr_svg(url: str, title: str) -> Markup:
    """Return the QR code of `url` as inline SVG, named `title` for screen readers.

    Black on white with the standard quiet zone, in the dark theme too, so that any camera
    reads it; the size comes from CSS (the SVG only has a viewBox).
    """
    return Markup(_drawn(url, title))


# Drawing a code takes longer than rendering the rest of the scoreboard, and the same link's
# code is shown on every reload of its scoreboard (each deal reloads it): a few are kept.
@lru_cache(maxsize=32)
def _drawn(url: str, title: str) -> str:
    code = segno.make(url, error="m")
    svg = code.svg_inline(scale=1, dark="#000", light="#fff", border=4, title=title, svgclass="qr",
                          lineclass=None, omitsize=True)
    return svg.replace("<svg ", '<svg role="img" ', 1)
