"""Fit a text to its box on a result card: on one line, a step smaller, on two lines, and cut with
an ellipsis only as a last resort. Pure: the widths come from a function that measures them."""

from __future__ import annotations

from collections.abc import Callable, Sequence

#: How wide `text` is, in pixels, in the card's font of `size` pixels (bold or not).
Measure = Callable[[str, int, bool], float]

ELLIPSIS = "…"
#: Marks that join two names: a line may end after one, never begin with one.
JOINS = ("&", "·", "–", "-", "—", "/", ",")


def words(text: str) -> list[str]:
    """Return `text`'s words, a joining mark kept with the word before it."""
    out: list[str] = []
    for word in text.split(" "):
        if out and (word in JOINS or not word):
            out[-1] += " " + word if word else ""
        else:
            out.append(word)
    return out


def two_lines(
    text: str, width: float, size: int, bold: bool, measure: Measure, *, between_names: bool = False
) -> list[str] | None:
    """Return `text` broken in two lines that each fit `width`, after a joining mark where one does,
    else as even as can be (only after a joining mark, if it has one, when `between_names`); None
    when no break fits."""
    parts = words(text)
    joined = between_names and any(part.endswith(JOINS) for part in parts[:-1])
    best: tuple[tuple[bool, float], list[str]] | None = None
    for at in range(1, len(parts)):
        if joined and not parts[at - 1].endswith(JOINS):
            continue
        first, second = " ".join(parts[:at]), " ".join(parts[at:])
        widest = max(measure(first, size, bold), measure(second, size, bold))
        if widest <= width:
            key = (not parts[at - 1].endswith(JOINS), widest)
            if best is None or key < best[0]:
                best = (key, [first, second])
    return None if best is None else best[1]


def cut(text: str, width: float, size: int, bold: bool, measure: Measure) -> str:
    """Return `text` cut with an ellipsis where it would run past `width`."""
    if measure(text, size, bold) <= width:
        return text
    low, high = 0, len(text)  # the longest prefix that fits with the ellipsis, by halves
    while low < high:
        middle = (low + high + 1) // 2
        if measure(text[:middle].rstrip() + ELLIPSIS, size, bold) <= width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + ELLIPSIS


def fit(
    text: str,
    width: float,
    sizes: Sequence[int],
    bold: bool,
    measure: Measure,
    *,
    wrap: Sequence[int] | None = None,
    cut_at: int | None = None,
    between_names: bool = False,
) -> tuple[int, list[str]] | None:
    """Return the size and lines `text` fits `width` in: on one line at each of `sizes`, then on two
    at each of `wrap` (`sizes` if None; broken as `two_lines` does); cut on two lines at the last of
    those only when it would not fit on two lines even at `cut_at` (None: never cut)."""
    for size in sizes:
        if measure(text, size, bold) <= width:
            return size, [text]
    wrap = sizes if wrap is None else wrap
    for size in wrap:
        lines = two_lines(text, width, size, bold, measure, between_names=between_names)
        if lines is not None:
            return size, lines
    if cut_at is None or two_lines(text, width, cut_at, bold, measure) is not None:
        return None
    return wrap[-1], cut_lines(text, width, wrap[-1], bold, measure, 2)


def cut_lines(text: str, width: float, size: int, bold: bool, measure: Measure, count: int) -> list[str]:
    """Return `text` on at most `count` lines, as many words on each as fit, the last cut."""
    lines: list[str] = []
    parts = words(text)
    while parts and len(lines) < count - 1:
        taken = 1
        while taken < len(parts) and measure(" ".join(parts[: taken + 1]), size, bold) <= width:
            taken += 1
        if measure(" ".join(parts[:taken]), size, bold) > width:
            break  # one word longer than the line: cut it on this line
        lines.append(" ".join(parts[:taken]))
        parts = parts[taken:]
    if parts:
        lines.append(cut(" ".join(parts), width, size, bold, measure))
    return lines
