"""Result cards: a finished match's result as an image to send to the group's chat, and as a short
text. This module says what a card shows, in the page's language; `card_image` draws it."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from flask_babel import ngettext

from .. import __version__, formats
from ..i18n import game_title, status_word
from .boards import Scoreboard, StandingLine


@dataclass(frozen=True)
class CardLine:
    """One side's line on a card: its place, name and score as written, and whether it won."""

    rank: int
    name: str
    score: str
    winner: bool
    #: The side's index in the match (its colour in the chart).
    side: int


@dataclass(frozen=True)
class ResultCard:
    """What a result card shows, every word written in the page's language."""

    brand: str
    #: What a phone names the image when it saves or sends it.
    file_name: str
    title: str
    day: str
    verdict: str
    lines: tuple[CardLine, ...]
    #: Each side's running total after each deal, for the chart.
    running: tuple[tuple[int, ...], ...]
    dark: bool

    @property
    def tag(self) -> str:
        """Return the card's ETag: a digest of everything it draws (and of the code that draws it)."""
        return hashlib.sha256(repr((__version__, self)).encode()).hexdigest()[:32]

    @property
    def text(self) -> str:
        """Return the card as a short text, for a chat that takes no image."""
        standings = " · ".join(f"{line.rank}. {line.name} {line.score}" for line in self.lines)
        return f"{self.title}, {self.day}: {self.verdict}\n{standings}"


def _score(line: StandingLine) -> str:
    if line.juegos is None:
        return str(line.total)
    return ngettext("%(num)s juego (%(points)s)", "%(num)s juegos (%(points)s)", line.juegos, points=line.total)


def match_card(board: Scoreboard, dark: bool) -> ResultCard:
    """Return the result card of a match (its standings so far while it is being played)."""
    if board.finished:
        verdict = ngettext(
            "Winner: %(names)s", "Winners: %(names)s", len(board.winners), names=" · ".join(board.winners)
        )
    elif board.abandoned:
        verdict = status_word(board.match.status)
    else:
        verdict = ngettext("After %(num)s deal", "After %(num)s deals", len(board.rows))
    return ResultCard(
        brand="Scorekeeper",
        file_name=f"scorekeeper-{board.game.name}-{board.match.id}.png",
        title=str(game_title(board.game.name)),
        day=formats.day_text(board.match.created_at),
        verdict=verdict,
        lines=tuple(CardLine(line.rank, line.name, _score(line), line.winner, line.side) for line in board.standings),
        running=tuple(row.running for row in board.rows),
        dark=dark,
    )
