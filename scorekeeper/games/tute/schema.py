"""The JSON Schema parts that the Tute family's deals share: the cantes and a tute declared."""

from __future__ import annotations

from ...rules import SUITS
from ..kit.json_schema import Schema, nullable, seat
from .rules import TUTE_KINDS


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
