"""The JSON Schemas of the API's bodies and answers, for the OpenAPI document (`openapi.py`).

Every enum and range is read from the code that enforces it (the rules engine's games,
house rules, suits and codes; the models' statuses; the services' limits), so that the
document cannot drift from what the API accepts. A schema claims no more than the API
enforces: whatever the API refuses in a request is either outside its schema or a rule a
JSON Schema cannot state (points that add up to 120, the dealer's forbidden bid, two
spellings of one name), which the rules engine refuses with 422.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping
from typing import Any

from ..games.kit.json_schema import Schema, nullable, ref, seat
from ..games.web import web_game, web_games
from ..models import MAX_ID, MAX_NOTE_LENGTH, STATUSES
from ..registry import CODES, GAMES, get_game
from ..rules import Game, OptionSpec
from ..rules.options import MAX_SCHEDULE_DEALS
from ..text import MAX_NAME_LENGTH
from .season_schemas import season_table_view, season_view


def _unusable_in_names() -> str:
    """Return a regular-expression class body of the characters a name may not hold: control and
    invisible format characters that are not spaces (spaces, tabs and line breaks are tidied into
    single spaces). Only the Basic Multilingual Plane is listed, so that every engine reads it."""
    ranges: list[tuple[int, int]] = []
    for code in range(0x10000):
        char = chr(code)
        if unicodedata.category(char) in ("Cc", "Cf") and not char.isspace():
            if ranges and ranges[-1][1] == code - 1:
                ranges[-1] = (ranges[-1][0], code)
            else:
                ranges.append((code, code))
    return "".join(f"\\u{a:04x}" if a == b else f"\\u{a:04x}-\\u{b:04x}" for a, b in ranges)


_UNUSABLE = _unusable_in_names()


def player_name() -> Schema:
    """Return the schema of a player's name."""
    return {
        "type": "string",
        "description": (
            f"A player's name: at most {MAX_NAME_LENGTH} characters once its spaces are tidied (runs of "
            "spaces, tabs and line breaks become one space, and the ends are trimmed), with at least one "
            "that is not a space, and without control or invisible characters. Names are told apart "
            "whatever their case; a new name adds a player to the account."
        ),
        "pattern": f"^[^{_UNUSABLE}]*[^{_UNUSABLE}\\s][^{_UNUSABLE}]*$",
        "examples": ["Ana"],
    }


def option_schema(spec: OptionSpec) -> Schema:
    """Return the schema of one house rule, from the rules engine's own description of it."""
    schema: Schema
    if spec.kind == "bool":
        schema = {"type": "boolean"}
    elif spec.kind == "int":
        schema = {"type": "integer", "minimum": spec.minimum, "maximum": spec.maximum}
    elif spec.kind == "choice":
        schema = {"enum": list(spec.choices)}
    else:
        cards = {"type": "integer", "minimum": 1}
        listed = {
            "type": "array",
            "items": cards,
            "minItems": 1,
            "maxItems": MAX_SCHEDULE_DEALS,
            "description": "Cards per player in each deal, each from 1 to the most the table can deal "
            "(`schedule_invalid` otherwise).",
        }
        schema = {"anyOf": [{"enum": list(spec.choices)}, listed]}
    schema["description"] = spec.description + (f" {schema['description']}" if "description" in schema else "")
    if spec.default is not None:
        schema["default"] = spec.default
    return schema


def options_schema(game: str) -> Schema:
    """Return the schema of a game's house rules: only those that differ from the defaults need be named."""
    specs = get_game(game).option_specs
    schema: Schema = {
        "type": "object",
        "description": "House rules (docs/rules.md); an option left out keeps its default. An unknown option or a "
        "value out of range is `options_invalid`, a value of the wrong type `malformed`.",
        "properties": {spec.name: option_schema(spec) for spec in specs},
        "additionalProperties": False,
    }
    return web_game(game).options_schema(schema)


def match_document_schema(game: str, stored: bool = False) -> Schema:
    """Return the schema of a match document of `game`; `stored` for the one the API answers with."""
    spec = get_game(game)
    deal = web_game(game).deal_schema(spec.max_players)
    players = {
        "type": "array",
        "items": player_name(),
        "minItems": spec.min_players,
        "maxItems": spec.max_players,
        "description": "The players in seat order, which is the order of play; each once (`players_duplicate`).",
    }
    properties: Schema = {
        "game": {"const": game},
        "players": players,
        "options": options_schema(game) if stored else nullable(options_schema(game)),
        "deals": {"type": "array", "items": deal} if stored else nullable({"type": "array", "items": deal}),
    }
    if not stored:
        properties["first_dealer"] = nullable(
            seat(spec.max_players, "Who deals first (default: the first deal's dealer, else seat 0).")
        )
        properties["note"] = note_schema()
    return {
        "type": "object",
        "title": f"{spec.title} match",
        "properties": properties,
        "required": ["game", "players", "options", "deals"] if stored else ["game", "players"],
        "additionalProperties": False,
    }


def note_schema() -> Schema:
    """Return the schema of a match's note: short text of the owner's, or null for none."""
    return {
        **nullable({"type": "string", "maxLength": MAX_NOTE_LENGTH, "pattern": f"^[^{_UNUSABLE}]*$"}),
        "description": f"A short note (a place, a stake, who brought dinner): at most {MAX_NOTE_LENGTH} "
        "characters, without control or invisible characters (runs of spaces, tabs and line "
        "breaks become one space); empty or null for none.",
        "examples": ["At Carmen's; the loser pays the coffee"],
    }


def night_view() -> Schema:
    """Return the schema of a game night as the API answers it."""
    names = {"type": "array", "items": {"type": "string", "minLength": 1}}
    return {
        "type": "object",
        "description": "Matches played in one sitting: each started less than the account's gap (4 hours unless "
        "changed on the account page) after the night's latest last deal.",
        "required": ["id", "start", "end", "matches", "players", "winners"],
        "additionalProperties": False,
        "properties": {
            "id": {
                "type": "integer",
                "minimum": 1,
                "maximum": MAX_ID,
                "description": "The night's id: that of its first match.",
            },
            "start": {"type": "string", "format": "date-time", "description": "When its first match started."},
            "end": {"type": "string", "format": "date-time", "description": "Its latest deal (or start)."},
            "matches": {
                "type": "array",
                "items": {"type": "integer", "minimum": 1},
                "minItems": 1,
                "description": "Its matches' ids, in the order they started.",
            },
            "players": {**names, "description": "Everyone who played that night, in the order they first sat."},
            "winners": {
                "type": "object",
                "propertyNames": {"enum": list(GAMES)},
                "additionalProperties": names,
                "description": "Per game played, who won most of its matches that night (all of them on a "
                "tie; none when no match of it was won).",
            },
        },
    }


def _games_own(keys_of: Callable[[Game], Mapping[str, Mapping[str, Any]]]) -> dict[str, Schema]:
    """Return the result keys of the games' own (`Game.result_keys` or `Game.deal_result_keys`, as
    `keys_of` reads them), each as its game declares it, its description saying which games have it."""
    owners: dict[str, list[str]] = {}
    schemas: dict[str, Schema] = {}
    for name, game in GAMES.items():
        for key, schema in keys_of(game).items():
            owners.setdefault(key, []).append(name)
            schemas[key] = dict(schema)
    return {
        key: {**schema, "description": f"{schema.get('description', '')} Only in {', '.join(owners[key])}.".lstrip()}
        for key, schema in schemas.items()
    }


def result() -> Schema:
    """Return the schema of the rules engine's result (docs/api.md, *A match as the API answers it*),
    with the keys of the games' own that they declare."""
    whole = {"type": "integer"}
    side = {"type": "integer", "minimum": 0}
    per_side = {"type": "array", "items": whole}
    return {
        "type": "object",
        "description": "What the rules engine derives from the deals.",
        "required": ["game", "sides", "deals", "totals", "juegos", "finished", "winners", "next_dealer", "next_cards"],
        "additionalProperties": False,
        "properties": {
            "game": {"enum": list(GAMES)},
            "sides": {
                "type": "array",
                "items": {"type": "array", "items": side, "minItems": 1},
                "description": "The seats of each side.",
            },
            "deals": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["number", "scores", "winner"],
                    "additionalProperties": False,
                    "properties": {
                        "number": {"type": "integer", "minimum": 1},
                        "scores": per_side,
                        "winner": {
                            **nullable(side),
                            "description": "The side that won the deal (Tute); null in Pocha.",
                        },
                        "juegos": {
                            **per_side,
                            "description": "The juegos the deal earned each side, where the match counts juegos "
                            "(Tute's juegos mode); absent otherwise.",
                        },
                        **_games_own(lambda game: game.deal_result_keys),
                    },
                },
            },
            "totals": {**per_side, "description": "Each side's total score."},
            "juegos": {**nullable(per_side), "description": "Each side's juegos in Tute's juegos mode, else null."},
            "finished": {"type": "boolean"},
            "winners": {
                "type": "array",
                "items": side,
                "description": "The winning sides once finished (several on a Pocha tie), else empty.",
            },
            "next_dealer": {
                **nullable(side),
                "description": "Who deals next; null before the first deal and once finished.",
            },
            "next_cards": {
                **nullable({"type": "integer", "minimum": 1}),
                "description": "Pocha: the cards per player of the next deal; null in Tute and once finished.",
            },
            **_games_own(lambda game: game.result_keys),
        },
    }


def match_view() -> Schema:
    """Return the schema of a match as the API answers it."""
    return {
        "type": "object",
        "required": ["id", "status", "note", "match", "result"],
        "additionalProperties": False,
        "properties": {
            "id": {"type": "integer", "minimum": 1, "maximum": MAX_ID},
            "note": {
                **nullable({"type": "string", "maxLength": MAX_NOTE_LENGTH}),
                "description": "The owner's note on the match, or null.",
            },
            "status": {
                "enum": list(STATUSES),
                "description": "`abandoned` when the table stopped early: it keeps its deals, has no winner "
                "and takes no more deals.",
            },
            "match": ref("MatchDocument"),
            "result": ref("Result"),
        },
    }


def components() -> dict[str, Schema]:
    """Return every component schema of the document, by name."""
    by_game = {game: game.capitalize() for game in GAMES}
    schemas: dict[str, Schema] = {}
    for game, name in by_game.items():
        schemas[f"New{name}Match"] = match_document_schema(game)
        schemas[f"{name}MatchDocument"] = match_document_schema(game, stored=True)
    schemas["NewMatch"] = {
        "description": "A match document (docs/api.md), optionally with `first_dealer` and `note`; with deals, the "
        "whole match is checked and imported at once.",
        "oneOf": [ref(f"New{name}Match") for name in by_game.values()],
        "discriminator": {
            "propertyName": "game",
            "mapping": {game: f"#/components/schemas/New{name}Match" for game, name in by_game.items()},
        },
    }
    schemas["MatchDocument"] = {
        "description": "The match document: game, players in seat order, the house rules that differ from the "
        "defaults, and every deal as entered.",
        "oneOf": [ref(f"{name}MatchDocument") for name in by_game.values()],
        "discriminator": {
            "propertyName": "game",
            "mapping": {game: f"#/components/schemas/{name}MatchDocument" for game, name in by_game.items()},
        },
    }
    schemas["Deal"] = {
        "description": "One deal of the match's game, as the match document holds it, optionally with `number`.",
        "anyOf": _distinct([web.deal_schema(web.engine.max_players, number=True) for web in web_games()]),
    }
    schemas["Result"] = result()
    schemas["Match"] = match_view()
    schemas["Night"] = night_view()
    schemas["Season"] = season_view()
    schemas["SeasonTable"] = season_table_view()
    schemas["MatchChange"] = {
        "type": "object",
        "required": ["note"],
        "additionalProperties": False,
        "description": "What the owner may change of a match at any time, finished or abandoned too.",
        "properties": {"note": note_schema()},
    }
    schemas["RuleErrors"] = {
        "type": "object",
        "description": "Every problem found; nothing was stored.",
        "required": ["errors"],
        "additionalProperties": False,
        "properties": {
            "errors": {
                "type": "array",
                "minItems": 1,
                "items": {
                    "type": "object",
                    "required": ["deal", "field", "code", "message"],
                    "additionalProperties": False,
                    "properties": {
                        "deal": {
                            **nullable({"type": "integer", "minimum": 1}),
                            "description": "The deal, counted from 1; null for the match itself.",
                        },
                        "field": {"type": "string", "examples": ["points", "players.1", "options.target"]},
                        "code": {
                            "enum": list(CODES),
                            "description": "A stable code, as docs/rules.md lists them.",
                        },
                        "message": {
                            "type": "string",
                            "minLength": 1,
                            "description": "A sentence a player understands.",
                        },
                    },
                },
            }
        },
    }
    schemas["Message"] = {
        "type": "object",
        "required": ["message"],
        "additionalProperties": False,
        "properties": {"message": {"type": "string", "minLength": 1, "description": "What went wrong, in a sentence."}},
    }
    return schemas


def _distinct(schemas: list[Schema]) -> list[Schema]:
    """Return the schemas without those whose title an earlier one has (the one most seats allow comes last)."""
    by_title = {schema["title"].split(" (")[0]: schema for schema in schemas}
    return list(by_title.values())
