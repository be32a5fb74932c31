"""Tute subastado's web side: its deal form (the auction's outcome and the declarer's play), how a deal
reads in the deal table, who speaks first, and its deals' schema."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from ...forms import DealForm
from ...i18n import gettext, suit_word
from ...rules import DECK_POINTS, SUITS, next_seat, possible_card_points
from ..kit.base import WebGame
from ..kit.json_schema import Schema, deal_number, nullable, seat
from ..tute.rules import cante_value
from ..tute.schema import cantes, tute
from ..tute.web import TuteWeb, counting_cards
from .form import AuctionDealForm
from .rules import MAX_BID, MAX_DEALS, SUBASTADO, SubastadoOptions, contract_outcome


class SubastadoWeb(WebGame):
    """Tute subastado: one form per deal, after play: who won the auction and what they made of it."""

    signed_scores = True
    #: The card points of a whole deck, the most a declarer can take.
    deck_points = DECK_POINTS
    #: The highest bid.
    max_bid = MAX_BID
    #: What a cante is worth in the trump suit and in another (the engine's values).
    cante_in_trump = TuteWeb.cante_in_trump
    cante_elsewhere = TuteWeb.cante_elsewhere
    #: The new-match form does not ask how many play: the names typed say it.
    seated_options = frozenset({"players"})

    @property
    def counting_cards(self) -> list[tuple[str, int]]:
        """Return the cards that count in a pile, with their card points (the card counter's, as Tute's)."""
        return counting_cards()

    def options_for_table(self, options: dict[str, Any], players: int) -> dict[str, Any]:
        """Return the house rules with `players` set to the names typed (when the game seats that many)."""
        if self.engine.min_players <= players <= self.engine.max_players:
            return {**options, "players": players}
        return options

    def deal_form(self, seat_names: Sequence[str], side_names: Sequence[str]) -> DealForm:
        """Return the deal form: the auction's winner, bid, trump, card points, last trick, cantes and tute."""
        return AuctionDealForm().setup(seat_names)

    def entry_step(self, form: DealForm, pending: Mapping[str, Any] | None, args: Mapping[str, str]) -> str:
        """Return "deal", with who won the auction (or that everyone passed) as the scoreboard's button chose:
        a subastado deal is entered at once, after play."""
        if isinstance(form, AuctionDealForm):
            form.choose_declarer(args.get("declarer"))
        return "deal"

    def opening_bid(self, options: Mapping[str, object]) -> int:
        """Return the lowest bid the auction allows, where the deal form's bid starts."""
        return SubastadoOptions.from_values(options).bids()[0]

    def first_speaker(self, dealer: int, players: int) -> int:
        """Return who speaks first in the auction: the seat after the dealer."""
        return next_seat(dealer, players)

    def describe_deal(
        self,
        deal: Mapping[str, Any],
        names: Sequence[str],
        sides: Sequence[str],
        said: dict[tuple[Any, ...], str],
        options: Mapping[str, object],
    ) -> tuple[str, list[str]]:
        """Return who won the auction, the bid and trump, the declarer's cantes, and whether the contract was
        made (or that everyone passed, or the tute), in a line."""
        if deal.get("passed"):
            return said.get(("passed",)) or said.setdefault(("passed",), gettext("everyone passed")), []
        tute = deal.get("tute")
        if tute:
            kind = gettext("Reyes") if tute["kind"] == "reyes" else gettext("Caballos")
            return gettext("%(name)s: tute of %(kind)s", kind=kind, name=names[tute["seat"]]), []
        trump, declarer = deal["trump"], deal["declarer"]
        total, contract_made = contract_outcome(deal, options)
        parts = [
            gettext("%(name)s bid %(bid)s in %(suit)s", name=names[declarer], bid=deal["bid"], suit=suit_word(trump))
        ]
        # Only the declarer sings: each cante once, without the name again.
        parts += [
            gettext(
                "sang %(points)s in %(suit)s", points=cante_value(cante["suit"], trump), suit=suit_word(cante["suit"])
            )
            for cante in deal.get("cantes") or []
        ]
        parts.append(
            gettext("contract made with %(total)s", total=total)
            if contract_made
            else gettext("contract failed with %(total)s", total=total)
        )
        return " · ".join(parts), []

    def deal_schema(self, players: int, number: bool = False) -> Schema:
        """Return the schema of a subastado deal at a table of `players`: a contract, a pass or a tute."""
        impossible = [p for p in range(DECK_POINTS + 1) if not possible_card_points(p)]
        properties: Schema = {
            "dealer": seat(players, "The seat that dealt."),
            "passed": nullable({"type": "boolean", "description": "Everyone passed: the deal scores nothing."}),
            "declarer": seat(players, "The seat that won the auction and played alone (`declarer_invalid`)."),
            "bid": {
                "type": "integer",
                "minimum": 0,
                "maximum": MAX_BID,
                "description": f"The winning bid: from the house rule `min_bid` to {MAX_BID} (`bid_range`), a "
                "multiple of `bid_step` (`bid_step`).",
            },
            "trump": {"enum": list(SUITS), "description": "The trump the declarer named."},
            "points": {
                "type": "integer",
                "minimum": 0,
                "maximum": DECK_POINTS,
                "not": {"enum": impossible},
                "description": "The declarer's card points; the others hold the rest.",
            },
            "last_trick": {"type": "boolean", "description": "Whether the declarer took the last trick."},
            "cantes": cantes(
                players,
                "The declarer's seat.",
                "The declarer's cantes: 40 in trump, 20 elsewhere, each suit once; a cante by another seat is "
                "`seat_invalid`.",
            ),
            "tute": tute(
                players,
                "Under the house rule `tute: match`, four Reyes or four Caballos in one hand: that player wins the "
                "match at once.",
            ),
        }
        if number:
            properties["number"] = deal_number()
        return {
            "type": "object",
            "title": f"Tute subastado deal ({players} players)",
            "properties": properties,
            "required": ["dealer"],
            "additionalProperties": False,
            "anyOf": [
                {
                    "title": "a contract played",
                    "required": ["declarer", "bid", "trump", "points", "last_trick"],
                },
                {"title": "everyone passed", "required": ["passed"], "properties": {"passed": {"const": True}}},
                {"title": "stopped by a tute", "required": ["tute"], "properties": {"tute": {"type": "object"}}},
            ],
        }

    def options_schema(self, schema: Schema) -> Schema:
        """Say that `deals` may be null (played to the target), as leaving it out does."""
        deals = schema["properties"]["deals"]
        schema["properties"]["deals"] = {
            "anyOf": [{"type": "integer", "minimum": 1, "maximum": MAX_DEALS}, {"type": "null"}],
            "description": deals["description"],
        }
        return schema


#: The web side of this folder's game.
WEB_GAMES: Final = (SubastadoWeb(SUBASTADO),)
