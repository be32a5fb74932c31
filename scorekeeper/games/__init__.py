"""The game registry: each game's rules (from the engine) and its web side, in one place.

The rest of the app asks the registry what a game does and never compares a game's name.
A new game is its rules module (`scorekeeper/rules/`), its web side here, and its templates
under `templates/games/` (docs/adding-a-game.md).
"""

from __future__ import annotations

from typing import Final

from ..forms import DealForm
from ..rules import GAMES
from .base import WebGame
from .pocha import PochaWeb
from .subastado import SubastadoWeb
from .tute import TuteWeb

#: Every game's web side, by the name its match documents use, in the engine's order.
WEB_GAMES: Final[dict[str, WebGame]] = {
    web.name: web
    for web in (
        TuteWeb(GAMES["tute2"]),
        TuteWeb(GAMES["tute3"]),
        TuteWeb(GAMES["tute4"], asks_leader=True),
        SubastadoWeb(GAMES["subastado"]),
        PochaWeb(GAMES["pocha"]),
    )
}
assert list(WEB_GAMES) == list(GAMES), "every game of the engine needs its web side, in the same order"


def web_game(name: str) -> WebGame:
    """Return the web side of the game called `name` (KeyError for an unknown game)."""
    return WEB_GAMES[name]


def web_games() -> list[WebGame]:
    """Return every game's web side, in the order the app offers them."""
    return list(WEB_GAMES.values())


__all__ = ["WEB_GAMES", "DealForm", "WebGame", "web_game", "web_games"]
