"""Place a result card's standings: each game's heading and lines, in one or two columns, at a size,
each name as far as a `Fit` lets it go (see `card_layout`, which chooses how). Pure: the widths come
from a function that measures them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .card_fit import Measure, cut, cut_lines, fit
from .cards import CardLine

WIDTH, HEIGHT = 1200, 630
MARGIN = 60
#: The standings end here (the lowest baseline's letters reach a little below it).
BOTTOM = HEIGHT - 36
GUTTER = 40
#: The standings' sizes, largest first.
SIZES = (36, 34, 32, 30, 28, 26, 24)
#: A line's height, its baseline below its top, and a wrapped line's step, per pixel of the font's size.
PITCH, ASCENT, STEP = 1.2, 0.93, 1.1
#: A name's size a step smaller, before it is wrapped.
_SHRINK = 0.88
#: Room to spare that may go between two lines of the standings, per pixel of their size.
_SPREAD = 0.35


@dataclass(frozen=True)
class Placed:
    """A line of text placed on the card: where its baseline starts (or ends, when `right`), its
    font's size and weight, its colour's role, and the box, left to right, it was fitted to."""

    text: str
    x: float
    baseline: float
    size: int
    bold: bool
    #: "text", "muted" or "accent".
    role: str
    box: tuple[float, float]
    right: bool = False
    #: "brand", "title", "day", "verdict", "heading", "rank", "name" or "score".
    kind: str = "name"
    #: The standings' column it is in, and the index in the card's lines of the line it writes (-1: the header's).
    column: int = -1
    line: int = -1


@dataclass(frozen=True)
class Dot:
    """A side's colour dot, before its name (its colour in the chart)."""

    x: float
    y: float
    radius: float
    side: int


#: A game's heading (None: lines of no game) and its lines.
Group = tuple[tuple[int, CardLine] | None, list[tuple[int, CardLine]]]


def groups_of(lines: Sequence[CardLine]) -> list[Group]:
    """Return the card's lines by game, each with its index in the card."""
    groups: list[Group] = []
    for index, line in enumerate(lines):
        if line.rank is None:
            groups.append(((index, line), []))
        elif groups:
            groups[-1][1].append((index, line))
        else:
            groups.append((None, [(index, line)]))
    return groups


def trim(groups: list[Group]) -> list[Group] | None:
    """Return the groups less one line: the last of the longest game (the later of equals), or its
    last game when each has one line; None when only one line is left."""
    if not groups:
        return None
    longest = max(range(len(groups)), key=lambda index: (len(groups[index][1]), index))
    if len(groups[longest][1]) > 1:
        heading, lines = groups[longest]
        return [*groups[:longest], (heading, lines[:-1]), *groups[longest + 1 :]]
    return groups[:-1] if len(groups) > 1 else None


@dataclass(frozen=True)
class Fit:
    """How far the standings may go to fit: a name or heading on one line at the card's size
    (`level` 0), or a step smaller (1), or on two lines (2: a pair between its names), or broken
    anywhere, and a name on its own line or two above its score (3); a game taller than a column
    split across two or not; the card's lines whose text may be cut; with `last_resort`, placed
    anyway, each text on one line, cut if need be."""

    level: int
    split: bool
    cut: frozenset[int] = frozenset()
    last_resort: bool = False


#: A text of a block, placed from its column's left and the block's top: text, x, baseline, size,
#: bold, role, box's left and right, right-aligned, kind.
_Piece = tuple[str, float, float, int, bool, str, float, float, bool, str]


@dataclass
class _Block:
    """A heading or a line of the standings, laid out from its column's left and its own top."""

    group: int
    line: int
    heading: bool
    pieces: list[_Piece]
    dots: list[Dot]
    height: float
    #: Room below it, and room above it when it does not begin a column.
    after: float
    before: float = 0.0


def stand(
    groups: list[Group],
    candidate: tuple[int, int, int],
    top: float,
    measure: Measure,
    how: Fit,
) -> tuple[list[Placed], list[Dot]] | None:
    """Place the standings in `candidate`'s columns (how many, how wide, the size), from `top`, as
    `how` lets them; None when they do not fit."""
    count, width, size = candidate
    rank_width = _rank_width(groups, size, measure)
    blocks: list[_Block] = []
    for index, (heading, lines) in enumerate(groups):
        if heading is not None:
            block = _heading(heading[1], (index, heading[0]), size, width, measure, how)
            if block is None:
                return None
            blocks.append(block)
        for number, line in lines:
            block = _entry(line, (index, number), size, width, rank_width, measure, how)
            if block is None:
                return None
            blocks.append(block)
    room = BOTTOM - top
    columns = _split(blocks, count, room, how.split, how.last_resort)
    if columns is None:
        return None
    # Room to spare goes between the lines, a little of it: the standings stay at the top.
    spread = min([_SPREAD * size] + [(room - _stack(stack)) / gaps for stack in columns if (gaps := _gaps(stack))])
    texts: list[Placed] = []
    dots: list[Dot] = []
    for column, stack in enumerate(columns):
        left, y = MARGIN + column * (width + GUTTER), top
        for number, block in enumerate(stack):
            if number:
                previous = stack[number - 1]
                y += previous.after + block.before + (0 if previous.heading else max(spread, 0))
            for text, x, baseline, font, bold, role, box_left, box_right, right, kind in block.pieces:
                box = (box_left + left, box_right + left)
                texts.append(
                    Placed(text, x + left, baseline + y, font, bold, role, box, right, kind, column, block.line)
                )
            dots.extend(Dot(dot.x + left, dot.y + y, dot.radius, dot.side) for dot in block.dots)
            y += block.height
    return texts, dots


def _rank_width(groups: list[Group], size: int, measure: Measure) -> float:
    """Return the room the places take, the widest of them and a space."""
    ranks = [line.rank for _, lines in groups for _, line in lines if line.rank]
    return max(measure(f"{rank}.", size, True) for rank in ranks) + 0.4 * size if ranks else 0.0


def _gaps(stack: list[_Block]) -> int:
    """Return how many gaps after a line there are in a column (where spare room may go)."""
    return sum(not block.heading for block in stack[:-1])


def _fitted(
    text: str, width: float, size: int, bold: bool, measure: Measure, how: Fit, line: int
) -> tuple[int, list[str]] | None:
    """Return the size and lines of the text of the card's line `line` (a name or a heading), as `how` lets it."""
    smaller = round(size * _SHRINK)
    sizes = (size,) if how.level == 0 else (size, smaller)
    if how.last_resort:
        fitted = next(((s, [text]) for s in sizes if measure(text, s, bold) <= width), None)
        return fitted or (smaller, [cut(text, width, smaller, bold, measure)])
    wrap = (size,) if how.level >= 2 else ()
    fitted = fit(text, width, sizes, bold, measure, wrap=wrap, between_names=how.level == 2)
    if fitted is None and line in how.cut:
        return size, cut_lines(text, width, size, bold, measure, 2)
    return fitted


def _heading(
    line: CardLine, where: tuple[int, int], size: int, width: int, measure: Measure, how: Fit
) -> _Block | None:
    """Lay out a game's heading, in bold a little smaller than its lines."""
    fitted = _fitted(line.name, width, size - 4, True, measure, how, where[1])
    if fitted is None:
        return None
    font, lines = fitted
    step = round(STEP * font)
    baseline = round(ASCENT * (size - 4))
    pieces: list[_Piece] = [
        (text, 0.0, baseline + n * step, font, True, "muted", 0.0, float(width), False, "heading")
        for n, text in enumerate(lines)
    ]
    return _Block(*where, True, pieces, [], PITCH * (size - 4) + (len(lines) - 1) * step, 0.15 * size, 0.35 * size)


def _entry(
    line: CardLine,
    where: tuple[int, int],
    size: int,
    width: int,
    rank_width: float,
    measure: Measure,
    how: Fit,
) -> _Block | None:
    """Lay out a line of the standings: its colour dot, place, name and score, the name on two lines
    if need be, and (from `how`'s level 3) above its score if it does not fit beside it."""
    bold, role = line.winner, "accent" if line.winner else "text"
    baseline = round(ASCENT * size)
    name_left = 30.0 + (rank_width if line.rank else 0.0)
    beside = width - measure(line.score, size, bold) - 0.6 * size if line.score else float(width)
    above = how.level >= 3 and bool(line.score)
    fitted = _fitted(line.name, beside - name_left, size, bold, measure, how, -1 if above else where[1])
    name_right = beside
    if fitted is None and above:
        fitted, name_right = _fitted(line.name, width - name_left, size, bold, measure, how, where[1]), width
    if fitted is None:
        return None
    font, lines = fitted
    step = round(STEP * font)
    pieces: list[_Piece] = [
        (text, name_left, baseline + n * step, font, bold, role, name_left, name_right, False, "name")
        for n, text in enumerate(lines)
    ]
    if line.rank:  # as large as the name beside it
        pieces.append((f"{line.rank}.", 30.0, baseline, font, bold, role, 30.0, 30 + rank_width, False, "rank"))
    below = name_right != beside  # the score on a line of its own, under the name
    if line.score:
        score_baseline = baseline + below * len(lines) * step
        pieces.append((line.score, width, score_baseline, size, bold, role, beside, width, True, "score"))
    dots = [] if line.side is None else [Dot(8, baseline - 0.35 * size, 8, line.side)]
    return _Block(*where, False, pieces, dots, PITCH * size + (len(lines) - 1 + below) * step, 0.5 * size)


def _split(blocks: list[_Block], count: int, room: float, split: bool, force: bool) -> list[list[_Block]] | None:
    """Return the blocks in `count` columns none taller than `room`, as even as can be: between games,
    or (if `split`) inside a game too tall for a column, never after a heading; None if they do not
    fit (with `force`, the most even split all the same)."""
    if count == 1:
        return [blocks] if force or _stack(blocks) <= room else None
    breaks = [at for at in range(1, len(blocks)) if not blocks[at - 1].heading]
    between = [at for at in breaks if blocks[at].group != blocks[at - 1].group]
    tall = {block.group for block in blocks} if force else _too_tall(blocks, room) if split else set()
    inside = [at for at in breaks if blocks[at].group == blocks[at - 1].group and blocks[at].group in tall]
    for choices in (between, inside):
        heights = [(max(_stack(blocks[:at]), _stack(blocks[at:])), at) for at in choices]
        fitting = [pair for pair in heights if force or pair[0] <= room]
        if fitting:
            at = min(fitting)[1]
            return [blocks[:at], blocks[at:]]
    return [blocks] if force else None


def _too_tall(blocks: list[_Block], room: float) -> set[int]:
    """Return the games taller than a column."""
    games: dict[int, list[_Block]] = {}
    for block in blocks:
        games.setdefault(block.group, []).append(block)
    return {group for group, stack in games.items() if _stack(stack) > room}


def _stack(blocks: Sequence[_Block]) -> float:
    """Return the height of blocks one under the other."""
    height = 0.0
    for number, block in enumerate(blocks):
        if number:
            height += blocks[number - 1].after + block.before
        height += block.height
    return height


def holds(groups: list[Group], candidates: list[tuple[int, int, int]], how: Fit, top: float, measure: Measure) -> bool:
    """Tell whether the smallest of `candidates` (of either column count) holds the lines as `how` lets them."""
    counts = {candidate[0] for candidate in candidates}
    smallest = [next(c for c in reversed(candidates) if c[0] == count) for count in counts]
    return any(stand(groups, candidate, top, measure, how) is not None for candidate in smallest)


def absurd(groups: list[Group], smallest: tuple[int, int, int], measure: Measure) -> frozenset[int]:
    """Return the card's lines whose text would not fit even on two lines (above its score) at the smallest size."""
    _, width, size = smallest
    rank_width = _rank_width(groups, size, measure)
    how = Fit(3, False)
    found = set()
    for index, (heading, lines) in enumerate(groups):
        if heading is not None and _heading(heading[1], (index, heading[0]), size, width, measure, how) is None:
            found.add(heading[0])
        found |= {n for n, line in lines if _entry(line, (index, n), size, width, rank_width, measure, how) is None}
    return frozenset(found)
