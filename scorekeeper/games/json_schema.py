"""The small JSON Schema builders that each game's deal schema and the API's schemas share."""

from __future__ import annotations

from typing import Any

from ..rules import SUITS
from ..rules.tute_deal import TUTE_KINDS

#: A JSON Schema, as the OpenAPI document holds it.
Schema = dict[str, Any]


def ref(name: str) -> Schema:
    """Return a reference to the component schema `name`."""
    return {"$ref": f"#/components/schemas/{name}"}


def nullable(schema: Schema) -> Schema:
    """Return `schema` that also admits null (for a field that may be sent as null or left out)."""
    return {"anyOf": [schema, {"type": "null"}]}


def seat(players: int, what: str) -> Schema:
    """Return the schema of a seat of a table of `players` (counted from 0 in the order of play)."""
    return {"type": "integer", "minimum": 0, "maximum": players - 1, "description": what}


def deal_number() -> Schema:
    """Return the schema of the deal number a client means to enter."""
    return nullable(
        {
            "type": "integer",
            "minimum": 1,
            "description": "The number the client means this deal to have; when it is not the match's "
            "next one the answer is 409 and nothing is stored.",
        }
    )


def cantes(players: int, singer: str, description: str) -> Schema:
    """Return the schema of a deal's cantes: a seat (`singer` says whose) and a suit each, each suit once."""
    return nullable(
        {
            "type": "array",
            "maxItems": len(SUITS),
            "items": {
                "type": "object",
                "required": ["seat", "suit"],
                "additionalProperties": False,
                "properties": {"seat": seat(players, singer), "suit": {"enum": list(SUITS)}},
            },
            "description": description,
        }
    )


def tute(players: int, description: str) -> Schema:
    """Return the schema of a tute declared: the seat that holds it and its kind."""
    return nullable(
        {
            "type": "object",
            "required": ["seat", "kind"],
            "additionalProperties": False,
            "properties": {"seat": seat(players, "The seat that holds the tute."), "kind": {"enum": list(TUTE_KINDS)}},
            "description": description,
        }
    )
