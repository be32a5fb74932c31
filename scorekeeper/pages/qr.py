"""QR codes of the links another phone opens from across the table, drawn on the server as SVG
with the maintained `segno` library."""

from __future__ import annotations

from functools import lru_cache

import segno
from markupsafe import Markup

#: How many drawn codes a process keeps: drawing one takes longer than the rest of its page,
#: and the owner's scoreboard shows the same one (its entry link's, its live view's) on every
#: reload all evening.
KEPT_CODES = 64


def qr_svg(url: str, title: str) -> Markup:
    """Return the QR code of `url` as inline SVG, named `title` for screen readers.

    Black on white with the standard quiet zone, in the dark theme too, so that any camera
    reads it; the size comes from CSS (the SVG only has a viewBox).
    """
    return Markup(_drawn(url, title))


@lru_cache(maxsize=KEPT_CODES)
def _drawn(url: str, title: str) -> str:
    """Draw the QR code of `url` (see `qr_svg`), once for as long as it stays among the latest drawn."""
    code = segno.make(url, error="m")
    svg = code.svg_inline(
        scale=1, dark="#000", light="#fff", border=4, title=title, svgclass="qr", lineclass=None, omitsize=True
    )
    # segno names the code (its <title>) but gives the root no role: screen readers need one to read the name.
    return str(svg.replace("<svg ", '<svg role="img" ', 1))
