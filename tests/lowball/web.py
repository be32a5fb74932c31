"""Lowball's web side: its deal form, how a deal reads, its deals' schema."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from scorekeeper.forms import DealForm
from scorekeeper.games.kit.base import WebGame
from scorekeeper.games.kit.json_schema import Schema, deal_number, seat

from .form import LowballDealForm
from .rules import LOWBALL, MOST_POINTS


class LowballWeb(WebGame):
    """Lowball: a row of numbers a deal, a column per player, as a score sheet."""

    score_sheet = True
    sheet_caption = "Each player's points in the deal over their running total."

    def deal_form(self, seat_names: Sequence[str], side_names: Sequence[str]) -> DealForm:
        """Return the deal form: the dealer and each player's points."""
        return LowballDealForm().setup(seat_names)

    def entry_step(self, form: DealForm, pending: Mapping[str, Any] | None, args: Mapping[str, str]) -> str:
        """Return "deal": a Lowball deal is entered in one go."""
        return "deal"

    def describe_deal(
        self,
        deal: Mapping[str, Any],
        names: Sequence[str],
        sides: Sequence[str],
        said: dict[tuple[Any, ...], str],
        options: Mapping[str, object],
    ) -> tuple[str, list[str]]:
        """Return the deal's points, and "out" for a player who was out."""
        return "", ["out" if points is None else str(points) for points in deal["points"]]

    def deal_schema(self, players: int, number: bool = False) -> Schema:
        """Return the schema of a Lowball deal."""
        game = self.engine
        points = {"anyOf": [{"type": "integer", "minimum": 0, "maximum": MOST_POINTS}, {"type": "null"}]}
        properties: Schema = {
            "dealer": seat(game.max_players, "The seat that dealt."),
            "points": {
                "type": "array",
                "items": points,
                "minItems": game.min_players,
                "maxItems": game.max_players,
                "description": "Each seat's points, null for a player who is out.",
            },
        }
        if number:
            properties["number"] = deal_number()
        return {
            "type": "object",
            "title": "Lowball deal",
            "properties": properties,
            "required": ["dealer", "points"],
            "additionalProperties": False,
        }


#: The web side of this folder's game.
WEB_GAMES: Final = (LowballWeb(LOWBALL),)
