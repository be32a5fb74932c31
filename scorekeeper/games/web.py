"""The registry's web side: each registered game's `WebGame`, read from the `web` module of its folder.

The rest of the app asks these what a game shows (its deal form, its parts of the pages, its
deals' JSON Schema) and never compares a game's name.
"""

from __future__ import annotations

from importlib import import_module
from pathlib import Path

from ..registry import FOLDER_OF, GAMES
from .kit.base import WebGame

_WEB_GAMES: dict[str, WebGame] = {}


def _read_folders() -> None:
    """Read the web side of every registered game not read yet, from its folder's `WEB_GAMES`."""
    for folder in dict.fromkeys(FOLDER_OF.values()):
        sides: tuple[WebGame, ...] = import_module(f"{folder}.web").WEB_GAMES
        for side in sides:
            side.folder = folder.rpartition(".")[2]
            _WEB_GAMES[side.name] = side
    missing = set(GAMES) - set(_WEB_GAMES)
    if missing:
        raise LookupError(f"no web side for the games {sorted(missing)}: each folder's web.py lists its own")


def web_game(name: str) -> WebGame:
    """Return the web side of the game called `name` (KeyError for an unknown game)."""
    if name not in _WEB_GAMES and name in GAMES:
        _read_folders()
    return _WEB_GAMES[name]


def web_games() -> list[WebGame]:
    """Return every game's web side, in the order the app offers them."""
    if len(_WEB_GAMES) != len(GAMES):
        _read_folders()
    return [_WEB_GAMES[name] for name in GAMES]


def template_folders() -> dict[str, Path]:
    """Return where each registered folder keeps its templates, by the folder's name (the pages name a
    game's template "games/<folder>/<part>.html")."""
    return {
        folder.rpartition(".")[2]: Path(str(import_module(folder).__file__)).parent / "templates"
        for folder in dict.fromkeys(FOLDER_OF.values())
    }


__all__ = ["WebGame", "template_folders", "web_game", "web_games"]
