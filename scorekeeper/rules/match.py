"""Reading a match document of one of the registered games: its game, players, house rules and deals,
checked and scored. The registry (`scorekeeper.registry`) opens this door with its games."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from .base import Game, MatchResult
from .common import Code, ErrorLog, RuleError, RuleViolation

_DOCUMENT_FIELDS: Final = frozenset({"game", "players", "options", "deals"})


class MatchDoor:
    """The door for match documents of the games it is given (the registry's): checks and scores."""

    def __init__(self, games: Mapping[str, Game]) -> None:
        self.games = games

    def get_game(self, name: str) -> Game:
        """Return the game called `name`; raise `RuleViolation` (`game_unknown`) for any other."""
        game = self.games.get(name)
        if game is None:
            known = {"name": name, "games": ", ".join(self.games)}
            raise RuleViolation([RuleError(None, "game", Code.GAME_UNKNOWN, "game_unknown", known)])
        return game

    def check_match(self, document: object) -> MatchResult:
        """Check and score a whole match document; raise `RuleViolation` listing every problem found."""
        log = ErrorLog()
        result = _check(self.games, document, log)
        log.raise_if_any()
        assert result is not None
        return result

    def check_options(self, game: str, options: object, players: int | None = None) -> dict[str, object]:
        """Check a game's house rules (for `players` players, if known); return all of them, defaults filled in."""
        log = ErrorLog()
        values = self.get_game(game).check_options(options, players, log)
        log.raise_if_any()
        assert values is not None
        return values

    def check_bids(self, document: object, bids: object) -> object:
        """Check the first part of a match's next deal, entered before play (in a game whose `bids_first`).

        Raise `RuleViolation` for any problem in it or in the match; return the checked part otherwise.
        """
        log = ErrorLog()
        parts = _read(self.games, document, log)
        checked = None
        if parts is not None:
            game, players, options, deals = parts
            checked = game.check_bids(players, options, deals, bids, log)
        log.raise_if_any()
        assert checked is not None
        return checked


def _check(games: Mapping[str, Game], document: object, log: ErrorLog) -> MatchResult | None:
    parts = _read(games, document, log)
    if parts is None:
        return None
    game, players, options, deals = parts
    return game.play(players, options, deals, log)


def _read(
    games: Mapping[str, Game], document: object, log: ErrorLog
) -> tuple[Game, tuple[str, ...], dict[str, object], list[object]] | None:
    """Check the parts of a document that come before its deals; return them, or None."""
    if not isinstance(document, Mapping):
        log.add(Code.MALFORMED, "match", "match_not_object")
        return None
    for key in sorted(set(document) - _DOCUMENT_FIELDS, key=str):
        log.add(Code.MALFORMED, str(key), "match_unknown_field", key=key)
    game = _game(games, document.get("game"), log)
    players = _players(document.get("players"), game, log)
    deals = document.get("deals")
    if deals is None:
        deals = []
    elif not isinstance(deals, list):
        log.add(Code.MALFORMED, "deals", "deals_not_list")
    if game is None:
        return None
    options = game.check_options(document.get("options"), None if players is None else len(players), log)
    # Unknown fields of the document do not stop its deals from being checked.
    if players is None or options is None or not isinstance(deals, list):
        return None
    return game, players, options, deals


def _game(games: Mapping[str, Game], name: object, log: ErrorLog) -> Game | None:
    if not isinstance(name, str):
        log.add(Code.MALFORMED, "game", "game_missing", games=", ".join(games))
        return None
    if name not in games:
        log.add(Code.GAME_UNKNOWN, "game", "game_unknown", name=name, games=", ".join(games))
        return None
    return games[name]


def _players(value: object, game: Game | None, log: ErrorLog) -> tuple[str, ...] | None:
    """Check the player names in seat order; return them, or None when the seats are unusable."""
    if not isinstance(value, list):
        log.add(Code.MALFORMED, "players", "players_not_list")
        return None
    start = log.count()
    seen: set[str] = set()
    for seat, name in enumerate(value):
        if not isinstance(name, str) or not name.strip():
            log.add(Code.MALFORMED, f"players.{seat}", "player_name_missing", seat=seat + 1)
            continue
        key = name.strip().casefold()
        if key in seen:
            log.add(Code.PLAYERS_DUPLICATE, f"players.{seat}", "player_duplicate", name=name.strip())
        seen.add(key)
    if game is not None and not game.min_players <= len(value) <= game.max_players:
        wanted = (
            str(game.min_players)
            if game.min_players == game.max_players
            else f"{game.min_players} to {game.max_players}"
        )
        log.add(
            Code.PLAYERS_COUNT,
            "players",
            "players_count",
            game=game.title,
            wanted=wanted,
            count=len(value),
            low=game.min_players,
            high=game.max_players,
        )
    if log.count() != start:
        return None
    return tuple(value)
