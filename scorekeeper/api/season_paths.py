"""The seasons' operations of the JSON API, for the OpenAPI document: the list of seasons and a season's table."""

from __future__ import annotations

from typing import Any

from ..games.kit.json_schema import Schema, ref
from ..models import MAX_ID
from ..registry import GAMES
from ..season_rules import MAX_YEAR, MIN_YEAR, MOST_COUNTED
from .parts import answer, operation


def _season_table_answers() -> dict[str, Any]:
    return {
        "200": answer("The table.", ref("SeasonTable")),
        "400": answer("`best` is not a whole number from 1.", ref("Message")),
        "404": answer("No such season of the account, or no such game.", ref("Message")),
    }


def _year() -> Schema:
    return {
        "name": "year",
        "in": "path",
        "required": True,
        "schema": {"type": "integer", "minimum": MIN_YEAR, "maximum": MAX_YEAR},
        "description": "The calendar year.",
    }


def _season_id() -> Schema:
    return {
        "name": "season_id",
        "in": "path",
        "required": True,
        "schema": {"type": "integer", "minimum": 1, "maximum": MAX_ID},
        "description": "The named season's id.",
    }


def _game() -> Schema:
    return {"name": "game", "in": "path", "required": True, "schema": {"enum": list(GAMES)}, "description": "The game."}


def _best() -> Schema:
    return {
        "name": "best",
        "in": "query",
        "required": False,
        "schema": {"type": "integer", "minimum": 1},
        "description": "Count each player's best this many matches (at most "
        f"{MOST_COUNTED}); without it, as the season says.",
    }


def season_paths() -> dict[str, Any]:
    """Return the seasons' paths and their operations."""
    return {
        "/seasons": {
            "get": operation(
                "listSeasons",
                "List the account's seasons",
                "The calendar years from the account's first finished match to its last, the latest first, then "
                "the seasons it named, the latest to begin first.",
                {"200": answer("Every season.", {"type": "array", "items": ref("Season")})},
                tag="seasons",
            )
        },
        "/seasons/years/{year}/{game}": {
            "get": operation(
                "readYearTable",
                "Read a calendar year's league table in a game",
                "Each finished match gives 3 points for a win, 1 for a shared win and 0 otherwise.",
                _season_table_answers(),
                parameters=[_year(), _game(), _best()],
                tag="seasons",
            )
        },
        "/seasons/{season_id}/{game}": {
            "get": operation(
                "readSeasonTable",
                "Read a named season's league table in a game",
                "Each finished match gives the season's points for its result.",
                _season_table_answers(),
                parameters=[_season_id(), _game(), _best()],
                tag="seasons",
            )
        },
    }
