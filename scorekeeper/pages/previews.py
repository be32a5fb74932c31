"""A live view's link preview: what a chat app shows of a shared link (Open Graph): the match's game and
players, how it stands, and its card."""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n import game_title
from .addresses import public_url
from .boards import Scoreboard
from .card_standings import HEIGHT as CARD_HEIGHT
from .card_standings import WIDTH as CARD_WIDTH
from .cards import match_card


@dataclass(frozen=True)
class LinkPreview:
    """The Open Graph properties of a shared live view."""

    title: str
    description: str
    image: str
    width: int
    height: int


def link_preview(board: Scoreboard, key: str) -> LinkPreview:
    """Return the preview of a match's live view whose link preview has this `key`: its card's words and address."""
    card = match_card(board, dark=False)
    standings = " · ".join(f"{line.rank}. {line.name} {line.score}" for line in card.lines if line.rank is not None)
    return LinkPreview(
        title=f"{game_title(board.game.name)}: {', '.join(board.seat_names)}",
        description=f"{card.verdict}. {standings}",
        image=public_url("cards.preview", key=key),
        width=CARD_WIDTH,
        height=CARD_HEIGHT,
    )
