"""QR codes of the links another phone opens from across the table, drawn on the server as SVG
with the maintained `segno` library."""

from __future__ import annotations

import segno
from markupsafe import Markup


def qr_svg(url: str, title: str) -> Markup:
    """Return the QR code of `url` as inline SVG, named `title` for screen readers.

    Black on white with the standard quiet zone, in the dark theme too, so that any camera
    reads it; the size comes from CSS (the SVG only has a viewBox).
    """
    code = segno.make(url, error="m")
    svg = code.svg_inline(scale=1, dark="#000", light="#fff", border=4, title=title, svgclass="qr",
                          lineclass=None, omitsize=True)
    return Markup(svg.replace("<svg ", '<svg role="img" ', 1))
