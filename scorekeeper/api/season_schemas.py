"""The JSON Schemas of the seasons as the API answers them: a season, and its table in a game."""

from __future__ import annotations

from ..games.kit.json_schema import Schema, nullable
from ..models import MAX_ID
from ..registry import GAMES
from ..season_rules import MAX_YEAR, MIN_YEAR


def season_view() -> Schema:
    """Return the schema of a season as the API answers it."""
    day = {"type": "string", "format": "date"}
    points = {"type": "integer", "minimum": 0}
    return {
        "type": "object",
        "description": "A season: a calendar year (`year`, with `id` null) or one the account named (`id` and "
        "`name`). Its days are read in the account's time zone (UTC when it follows the browser).",
        "required": ["id", "year", "name", "starts_on", "ends_on", "points", "best_of"],
        "additionalProperties": False,
        "properties": {
            "id": {
                **nullable({"type": "integer", "minimum": 1, "maximum": MAX_ID}),
                "description": "A named season's id.",
            },
            "year": {
                **nullable({"type": "integer", "minimum": MIN_YEAR, "maximum": MAX_YEAR}),
                "description": "A calendar year's year.",
            },
            "name": {**nullable({"type": "string", "minLength": 1}), "description": "A named season's name."},
            "starts_on": {**day, "description": "Its first day."},
            "ends_on": {**day, "description": "Its last day, included."},
            "points": {
                "type": "object",
                "required": ["win", "shared", "other"],
                "additionalProperties": False,
                "description": "The league points of a match won alone, of a win shared by a tie for first, and of "
                "any other result.",
                "properties": {"win": points, "shared": points, "other": points},
            },
            "best_of": {
                **nullable({"type": "integer", "minimum": 1}),
                "description": "How many of each player's best matches its table counts; null for every one.",
            },
        },
    }


def season_table_view() -> Schema:
    """Return the schema of a season's league table in one game."""
    whole = {"type": "integer", "minimum": 0}
    return {
        "type": "object",
        "required": ["season", "game", "best_of", "lines"],
        "additionalProperties": False,
        "properties": {
            "season": {"$ref": "#/components/schemas/Season"},
            "game": {"enum": list(GAMES)},
            "best_of": {
                **nullable({"type": "integer", "minimum": 1}),
                "description": "How many of each player's best matches the points count; null for every one.",
            },
            "lines": {
                "type": "array",
                "description": "Every player who finished a match of the game in the season, by place: league "
                "points, then wins, then points scored (equal on all three: the same place).",
                "items": {
                    "type": "object",
                    "required": [
                        "place",
                        "player_id",
                        "player",
                        "played",
                        "won",
                        "shared",
                        "points",
                        "counted",
                        "scored",
                        "rating_change",
                    ],
                    "additionalProperties": False,
                    "properties": {
                        "place": {"type": "integer", "minimum": 1},
                        "player_id": {"type": "integer", "minimum": 1},
                        "player": {"type": "string", "minLength": 1},
                        "played": {**whole, "description": "Finished matches in the season."},
                        "won": {**whole, "description": "Of them, those won, shared wins included."},
                        "shared": {**whole, "description": "Of the wins, those shared by a tie for first."},
                        "points": {**whole, "description": "League points."},
                        "counted": {**whole, "description": "The matches the league points count."},
                        "scored": {"type": "integer", "description": "The sum of the player's totals."},
                        "rating_change": {
                            **nullable({"type": "number"}),
                            "description": "The rating at the season's end less the one at its start (a new "
                            "player's is 0).",
                        },
                    },
                },
            },
        },
    }
