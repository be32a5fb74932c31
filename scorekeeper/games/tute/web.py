"""Tute's web side (for two, for three, and for four in pairs): its deal form, how a deal reads, its deals' schema."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from ...forms import DealForm
from ...i18n import gettext, lazy_gettext, suit_name, suit_word
from ...rules import CARD_POINTS, DECK_POINTS, SUITS, possible_card_points
from ..kit.base import WebGame
from ..kit.json_schema import Schema, deal_number, seat
from .form import TuteDealForm
from .rules import HELD_BY_TUTE, MAX_JUEGOS_TARGET, TUTE2, TUTE3, TUTE4, cante_value, first_dealer_for_leader
from .schema import cantes, tute


def counting_cards() -> list[tuple[str, int]]:
    """Return the cards that count in a pile, strongest first, with their card points in the page's words."""
    words = {
        "as": lazy_gettext("As"),
        "3": lazy_gettext("Tres"),
        "rey": lazy_gettext("Rey"),
        "caballo": lazy_gettext("Caballo"),
        "sota": lazy_gettext("Sota"),
    }
    return [(str(words[rank]), points) for rank, points in CARD_POINTS.items()]


class TuteWeb(WebGame):
    """Tute: card points, the last trick, the cantes and a tute, one form per deal."""

    #: The card points of a whole deck, which the sides' points add up to.
    deck_points = DECK_POINTS
    #: What a cante is worth in the trump suit and in another (the engine's values).
    cante_in_trump = cante_value(SUITS[0], SUITS[0])
    cante_elsewhere = cante_value(SUITS[1], SUITS[0])

    @property
    def counting_cards(self) -> list[tuple[str, int]]:
        """Return the cards that count in a pile, strongest first, with their card points (the card counter's)."""
        return counting_cards()

    def first_dealer(self, chosen_seat: int, players: int) -> int:
        """Return the first dealer: the seat before the leader's when the table names who leads."""
        return first_dealer_for_leader(chosen_seat, players) if self.asks_leader else chosen_seat

    def deal_form(self, seat_names: Sequence[str], side_names: Sequence[str]) -> DealForm:
        """Return the deal form: trump, card points, last trick, cantes and tute."""
        return TuteDealForm().setup(seat_names, side_names)

    def entry_step(self, form: DealForm, pending: Mapping[str, Any] | None, args: Mapping[str, str]) -> str:
        """Return "deal": a Tute deal is entered at once, after play."""
        return "deal"

    def describe_deal(
        self,
        deal: Mapping[str, Any],
        names: Sequence[str],
        sides: Sequence[str],
        said: dict[tuple[Any, ...], str],
        options: Mapping[str, object],
    ) -> tuple[str, list[str]]:
        """Return the trump, card points, last trick, cantes and tute of a deal, in a line."""
        trump = deal["trump"]
        parts = [said.get(("suit", trump)) or said.setdefault(("suit", trump), suit_name(trump))]
        if "points" in deal:
            parts.append("–".join(str(p) for p in deal["points"]))
        if deal.get("last_trick") is not None:
            side = deal["last_trick"]
            parts.append(
                said.get(("last", side))
                or said.setdefault(("last", side), gettext("last trick: %(names)s", names=sides[side]))
            )
        for cante in deal.get("cantes") or []:
            parts.append(
                gettext(
                    "%(name)s sang %(points)s in %(suit)s",
                    name=names[cante["seat"]],
                    points=cante_value(cante["suit"], trump),
                    suit=suit_word(cante["suit"]),
                )
            )
        tute = deal.get("tute")
        if tute:
            kind = gettext("Reyes") if tute["kind"] == "reyes" else gettext("Caballos")
            parts.append(gettext("%(name)s: tute of %(kind)s", kind=kind, name=names[tute["seat"]]))
        return " · ".join(parts), []

    def deal_schema(self, players: int, number: bool = False) -> Schema:
        """Return the schema of a Tute deal at a table of `players`."""
        sides = len(self.engine.sides(players))
        impossible = [p for p in range(DECK_POINTS + 1) if not possible_card_points(p)]
        points = {"type": "integer", "minimum": 0, "maximum": DECK_POINTS, "not": {"enum": impossible}}
        properties: Schema = {
            "dealer": seat(players, "The seat that dealt."),
            "trump": {"enum": list(SUITS), "description": "The trump suit."},
            "points": {
                "type": "array",
                "items": points,
                "minItems": sides,
                "maxItems": sides,
                "description": f"Card points of each side, adding up to {DECK_POINTS} in a deal played out "
                "(`points_total`); after a tute they may be left out (0 each), or add up to "
                f"less: at most {DECK_POINTS - HELD_BY_TUTE['reyes']} after a tute of Reyes, "
                f"{DECK_POINTS - HELD_BY_TUTE['caballos']} after one of Caballos, whose four "
                "cards the declarer still holds.",
            },
            "last_trick": {
                "anyOf": [{"type": "integer", "minimum": 0, "maximum": sides - 1}, {"type": "null"}],
                "description": "The side that took the last trick; none after a tute.",
            },
            "cantes": cantes(
                players,
                "The seat that sang.",
                "Who sang in which suit: 40 in trump, 20 elsewhere; each suit once (`cante_suit_twice`).",
            ),
            "tute": tute(players, "Four Reyes or four Caballos in one hand: the deal stops there."),
        }
        if number:
            properties["number"] = deal_number()
        return {
            "type": "object",
            "title": f"Tute deal ({players} players)",
            "properties": properties,
            "required": ["dealer", "trump"],
            "additionalProperties": False,
            "anyOf": [
                {
                    "title": "played out",
                    "required": ["points", "last_trick"],
                    "properties": {"tute": {"type": "null"}, "last_trick": {"type": "integer"}},
                },
                {
                    "title": "stopped by a tute",
                    "required": ["tute"],
                    "properties": {"tute": {"type": "object"}, "last_trick": {"type": "null"}},
                },
            ],
        }

    def options_schema(self, schema: Schema) -> Schema:
        """Add that in juegos mode (the default) the target is a number of juegos, with a lower ceiling."""
        schema["if"] = {"properties": {"mode": {"const": "points"}}, "required": ["mode"]}
        schema["else"] = {"properties": {"target": {"maximum": MAX_JUEGOS_TARGET}}}
        return schema


#: The web sides of this folder's games, in the engine's order.
WEB_GAMES: Final = (TuteWeb(TUTE2), TuteWeb(TUTE3), TuteWeb(TUTE4, asks_leader=True))
