"""The registry's web side: each registered game's `WebGame`, read from the `web` module of its folder.

The rest of the app asks these what a game shows (its deal form, its parts of the pages, its
deals' JSON Schema) and never compares a game's name.
"""

from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from importlib import import_module
from pathlib import Path
from typing import Final

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
    if not _WEB_GAMES.keys() >= GAMES.keys():
        _read_folders()
    return [_WEB_GAMES[name] for name in GAMES]


def template_folders() -> dict[str, Path]:
    """Return where each registered folder keeps its templates, by the folder's name (the pages name a
    game's template "games/<folder>/<part>.html")."""
    return {name: path / "templates" for name, path in game_folders().items()}


#: The parts of a game's browser code, each a file of its folder's static/: its rules (no DOM: the
#: offline standings and the parity test use them too) and its deal form's checks.
SCRIPT_PARTS: Final = ("rules", "form")


def game_folders() -> dict[str, Path]:
    """Return each registered game folder, by its name, in the registry's order."""
    return {folder.rpartition(".")[2]: _folder_path(folder) for folder in dict.fromkeys(FOLDER_OF.values())}


@lru_cache(maxsize=64)
def _folder_path(folder: str) -> Path:
    """Return where the game folder (a package's dotted name) is."""
    return Path(str(import_module(folder).__file__)).parent


def game_scripts(part: str) -> tuple[str, str]:
    """Return every registered folder's browser script `part` (its static/<part>.js), one after the
    other in the registry's order (a family's own first), and a digest of the whole that names it.

    Served as one file (pages ask for one address, the service worker keeps one): each game's code
    stays in its folder, and the browser still needs no build step.
    """
    # Keyed by each file's size and modification time, so that a file edited while the app runs is read again.
    found = []
    for file in _script_files(tuple(FOLDER_OF.values()), part):
        try:
            seen = os.stat(file)
        except FileNotFoundError:  # a game whose deal form needs no code of its own
            continue
        found.append((file, seen.st_mtime_ns, seen.st_size))
    return _joined(tuple(found))


@lru_cache(maxsize=16)
def _script_files(folders: tuple[str, ...], part: str) -> tuple[str, ...]:
    """Return where these game folders keep their script `part`, each folder once, in order."""
    return tuple(str(_folder_path(folder) / "static" / f"{part}.js") for folder in dict.fromkeys(folders))


@lru_cache(maxsize=8)
def _joined(files: tuple[tuple[str, int, int], ...]) -> tuple[str, str]:
    text = "\n".join(Path(name).read_text() for name, _mtime, _size in files)
    return text, hashlib.sha256(text.encode()).hexdigest()[:12]


__all__ = ["SCRIPT_PARTS", "WebGame", "game_folders", "game_scripts", "template_folders", "web_game", "web_games"]
