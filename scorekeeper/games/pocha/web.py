"""Pocha's web side: its deal form (the bids before play, the tricks after), how a deal reads, its deals' schema."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from ...forms import DealForm
from ...i18n import gettext, lazy_gettext, ngettext, suit_name
from ...rules import SUITS
from ...rules.common import DECK_SIZES
from ..kit.base import WebGame
from ..kit.json_schema import Schema, deal_number, nullable, seat
from .form import PochaDealForm
from .rules import MAX_PLAYERS, MIN_PLAYERS, POCHA, max_cards

#: The most cards a Pocha player can be dealt, whatever the table (two players, the biggest deck).
MOST_CARDS: Final = max(
    max_cards(players, size, twos)
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1)
    for size in DECK_SIZES
    for twos in (True, False)
)


class PochaWeb(WebGame):
    """Pocha: the bids of a deal before play (one tap on the trump starts them), its tricks after."""

    signed_scores = True
    score_sheet = True
    sheet_caption = lazy_gettext(
        "Beside each deal's number, its cards in hand and the trump's initial; each player's bid/tricks over "
        "their running total, in red where the deal cost them points."
    )

    def deal_form(self, seat_names: Sequence[str], side_names: Sequence[str]) -> DealForm:
        """Return the deal form: dealer, trump, and each player's bid and tricks."""
        return PochaDealForm().setup(seat_names)

    def entry_step(self, form: DealForm, pending: Mapping[str, Any] | None, args: Mapping[str, str]) -> str:
        """Return "bids" with the trump the scoreboard's button chose, or "tricks" once the bids are in."""
        if pending is not None:
            form.load(pending)
            return "tricks"
        trump = args.get("trump")
        if trump == "none" or trump in SUITS:
            form.load({"trump": None if trump == "none" else trump, "dealer": form.dealer.data})
        return "bids"

    def describe_deal(
        self,
        deal: Mapping[str, Any],
        names: Sequence[str],
        sides: Sequence[str],
        said: dict[tuple[Any, ...], str],
        options: Mapping[str, object],
    ) -> tuple[str, list[str]]:
        """Return the cards and trump of a deal, and each player's bid and tricks ("2/1")."""
        details = [f"{bid:d}/{tricks:d}" for bid, tricks in zip(deal["bids"], deal["tricks"])]
        key: tuple[Any, ...] = ("deal", deal.get("trump"), deal["cards"])
        if key not in said:
            # A Pocha match has a few trumps and numbers of cards but many pairs of them.
            trump_key, cards_key = ("trump", deal.get("trump")), ("cards", deal["cards"])
            if trump_key not in said:
                said[trump_key] = suit_name(deal["trump"]) if deal.get("trump") else gettext("no trump")
            if cards_key not in said:
                # Outside the f-string, where the catalogues' extraction finds it.
                said[cards_key] = ngettext("%(num)s card", "%(num)s cards", deal["cards"])
            said[key] = f"{said[cards_key]} · {said[trump_key]}"
        return said[key], details

    def sheet_label(self, deal: Mapping[str, Any], said: dict[tuple[Any, ...], str]) -> str:
        """Return the cards in hand and the trump's initial ("5 O"; "5 –" without trump), as a paper sheet's rows."""
        trump = deal.get("trump")
        key = ("initial", trump)
        if key not in said:
            said[key] = suit_name(trump)[0] if trump else "–"
        return f"{deal['cards']} {said[key]}"

    def deal_schema(self, players: int, number: bool = False) -> Schema:
        """Return the schema of a Pocha deal (any table: the seats' count is checked by the engine)."""
        game = self.engine
        counts = {"type": "integer", "minimum": 0, "maximum": MOST_CARDS}
        per_seat = {"type": "array", "items": counts, "minItems": game.min_players, "maxItems": game.max_players}
        properties: Schema = {
            "dealer": seat(game.max_players, "The seat that dealt (and bid last)."),
            "cards": {
                "type": "integer",
                "minimum": 1,
                "maximum": MOST_CARDS,
                "description": "Cards per player: the scheduled count for this deal (`cards_schedule`).",
            },
            "trump": nullable({"enum": list(SUITS), "description": "The trump suit, or none."}),
            "bids": {
                **per_seat,
                "description": "Each seat's bid, from 0 to the cards in hand; under `hook` they may "
                "not add up to the cards in hand (`bid_hook`).",
            },
            "tricks": {
                **per_seat,
                "description": "Each seat's tricks, adding up to the cards in hand (`tricks_total`).",
            },
        }
        if number:
            properties["number"] = deal_number()
        return {
            "type": "object",
            "title": "Pocha deal",
            "properties": properties,
            "required": ["dealer", "cards", "bids", "tricks"],
            "additionalProperties": False,
        }

    def options_schema(self, schema: Schema) -> Schema:
        """Add the most cards a listed schedule may give a player."""
        listed = schema["properties"]["schedule"]["anyOf"][1]
        listed["items"]["maximum"] = MOST_CARDS
        return schema


#: The web side of this folder's game.
WEB_GAMES: Final = (PochaWeb(POCHA),)
