"""The small JSON Schema builders that each game's deal schema and the API's schemas share."""

from __future__ import annotations

from typing import Any

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
