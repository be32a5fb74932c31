"""Result cards: a finished match's result as an image to send to the group's chat, and as a short
text. This module says what a card shows, in the page's language; `card_image` draws it."""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import gettext, ngettext

from .. import formats
from ..i18n import game_title, status_word
from .boards import Scoreboard, StandingLine
from .charts import decisive_running
from .nights import NightPage


@dataclass(frozen=True)
class CardLine:
    """One line of a card's standings: a side's place, name and score as written, and whether it won;
    with no place (None), the title of the game whose standings follow (a night's card); with place
    0, a line that has none (a year's champion or record)."""

    rank: int | None
    name: str
    score: str
    winner: bool
    #: The side's index in the match (its colour in the chart); None where there is no chart.
    side: int | None


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
    #: What decides the match, each side's after each deal, for the chart: juegos or running totals.
    running: tuple[tuple[int, ...], ...]
    dark: bool
    #: Whether the image shows as many of the lines as fit, the first first (a night's, a year's),
    #: rather than every one (a match's standings).
    as_many_as_fit: bool = False

    @property
    def text(self) -> str:
        """Return the card as a short text, for a chat that takes no image: a line per game."""
        games: list[tuple[str, list[str]]] = [("", [])]
        for line in self.lines:
            if line.rank is None:  # a game's title starts its line
                games.append((f"{line.name}: ", []))
            else:
                place = f"{line.rank}. " if line.rank else ""
                games[-1][1].append(f"{place}{line.name} {line.score}")
        standings = "\n".join(title + " · ".join(places) for title, places in games if places)
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
        running=tuple(decisive_running(board.result)),
        dark=dark,
    )


def night_card(page: NightPage, dark: bool) -> ResultCard:
    """Return the result card of a game night: each game's standings of the night, its winners first."""
    night = page.night
    lines: list[CardLine] = []
    # A card has room for about sixteen lines: each game's first players, as many as fit.
    shown = max(3, 16 // max(len(night.standings), 1) - 1)
    for game, rows in night.standings.items():
        lines.append(CardLine(None, str(game_title(game)), "", False, None))
        # Placed by matches won, as the night's winners are (its standings list them best first).
        wins = [row.won for row in rows]
        for row in rows[:shown]:
            # Matches won of those played, then the points of those won on points: as short as a
            # card's line must be, and read at a glance by anyone who played that night.
            score = f"{row.won}/{row.played}" if row.points is None else f"{row.won}/{row.played} · {row.points}"
            won = row.name in night.winners.get(game, [])
            lines.append(CardLine(1 + sum(other > row.won for other in wins), row.name, score, won, None))
    games = ", ".join(str(game_title(game)) for game in night.games)
    return ResultCard(
        brand="Scorekeeper",
        file_name=f"scorekeeper-night-{night.id}.png",
        title=night.note or gettext("Game night"),
        day=formats.day_text(night.start),
        verdict=ngettext("%(num)s match: %(games)s", "%(num)s matches: %(games)s", len(night.match_ids), games=games),
        lines=tuple(lines),
        running=(),
        dark=dark,
        as_many_as_fit=True,
    )
