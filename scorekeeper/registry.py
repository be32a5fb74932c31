"""The registry of the games the scorekeeper keeps, and the engine's door for match documents.

Each game is a folder under scorekeeper/games/ (a family such as Tute's may share one): its
engine in `rules`, its web side in `web`, its deal form, its templates. Adding a game is its
folder and one line in `FOLDERS` (docs/adding-a-game.md). This module reads the folders'
engines only (`scorekeeper.games.web` reads their web sides), so that every layer may ask it.
The rest of the app asks the registry what a game declares and never compares a game's name::

    >>> from scorekeeper.registry import score_match
    >>> score_match({"game": "tute2", "players": ["Ana", "Luis"], "deals": [
    ...     {"dealer": 0, "trump": "copas", "points": [78, 42], "last_trick": 0}]})["totals"]
    [88, 42]
"""

from __future__ import annotations

from importlib import import_module
from typing import Any, Final

from .rules import Code, Game, MatchResult
from .rules.match import MatchDoor

#: Every game folder, in the order the app offers their games.
FOLDERS: Final[list[str]] = [
    "scorekeeper.games.tute",
    "scorekeeper.games.subastado",
    "scorekeeper.games.pocha",
]

#: Every game, by the name match documents use, in the order the app offers them.
GAMES: Final[dict[str, Game]] = {}
#: The folder of each game, by its name.
FOLDER_OF: Final[dict[str, str]] = {}
#: The code of every refusal: those any game may make, then each game's own, in the order of the games.
CODES: Final[list[str]] = [code.value for code in Code]


def register(folder: str) -> None:
    """Add the games of the folder (a package whose `rules` module lists them in `GAMES`) to the registry."""
    # Read by name: a folder's web side sits in the same package as its engine, above the layers
    # that ask this registry, and a static import of the folder would close a circle through them.
    games: tuple[Game, ...] = import_module(f"{folder}.rules").GAMES
    for game in games:  # all checked before any is added: a refused folder leaves the registry as it was
        if FOLDER_OF.get(game.name, folder) != folder:
            raise ValueError(f"two folders declare the game {game.name!r}: {FOLDER_OF[game.name]} and {folder}")
    if folder not in FOLDERS:
        FOLDERS.append(folder)
    for game in games:
        GAMES[game.name] = game
        FOLDER_OF[game.name] = folder
        CODES.extend(code for code in game.codes if code not in CODES)


for _folder in list(FOLDERS):
    register(_folder)

_door: Final = MatchDoor(GAMES)


def get_game(name: str) -> Game:
    """Return the game registered under `name`; raise `RuleViolation` (`game_unknown`) for any other."""
    return _door.get_game(name)


def check_match(document: object) -> MatchResult:
    """Check and score a whole match document; raise `RuleViolation` listing every problem found."""
    return _door.check_match(document)


def score_match(document: object) -> dict[str, Any]:
    """Check and score a match document (docs/api.md's format); return the JSON-shaped result."""
    return check_match(document).to_dict()


def check_options(game: str, options: object, players: int | None = None) -> dict[str, object]:
    """Check a game's house rules (for `players` players, if known); return all of them, defaults filled in."""
    return _door.check_options(game, options, players)


def check_bids(document: object, bids: object) -> Any:
    """Check the part of a match's next deal entered before play (in a game that takes bids first);
    raise `RuleViolation` for any problem in it or in the match, return the checked part otherwise."""
    return _door.check_bids(document, bids)


__all__ = [
    "FOLDERS",
    "FOLDER_OF",
    "GAMES",
    "check_bids",
    "check_match",
    "check_options",
    "get_game",
    "register",
    "score_match",
]
