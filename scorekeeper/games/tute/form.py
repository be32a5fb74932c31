"""Tute's deal form, and its translation to and from the engine's deals."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from wtforms import Field, RadioField, SelectField

from ...forms.deals import DealForm
from ...forms.fields import NOBODY, SUIT_CHOICES, LeftEmpty, WholeNumberField, choices
from ...i18n import lazy_gettext as _l
from ...rules import DECK_POINTS, SUITS

#: The most sides a Tute deal form has a card points field for (Tute for three).
MAX_TUTE_SIDES = 3


class TuteDealForm(DealForm):
    """One Tute deal: trump, card points, last trick, cantes by suit, and a tute if there was one.

    The card points are one field per side (`points0`, `points1`…, as many as the table has
    sides, up to `MAX_TUTE_SIDES`); the last trick is a choice among the sides.
    """

    trump = RadioField(_l("Trump"), choices=SUIT_CHOICES, validators=[LeftEmpty()])
    points0 = WholeNumberField(_l("Card points"), validators=[LeftEmpty()])
    points1 = WholeNumberField(_l("Card points"), validators=[LeftEmpty()])
    points2 = WholeNumberField(_l("Card points"), validators=[LeftEmpty()])
    last_trick = RadioField(_l("Last trick"), coerce=int, validators=[LeftEmpty()])
    cante_oros = SelectField("oros")
    cante_copas = SelectField("copas")
    cante_espadas = SelectField("espadas")
    cante_bastos = SelectField("bastos")
    tute_seat = SelectField(_l("Tute declared by"))
    tute_kind = RadioField(
        _l("Tute of"), choices=choices([("reyes", "reyes"), ("caballos", "caballos")]), validators=[LeftEmpty()]
    )

    def setup(self, seat_names: Sequence[str], side_names: Sequence[str]) -> TuteDealForm:
        """Fill the choices that depend on the table."""
        seats = list(enumerate(seat_names))
        if not 2 <= len(side_names) <= MAX_TUTE_SIDES:
            raise ValueError(f"a Tute deal form has 2 to {MAX_TUTE_SIDES} sides, not {len(side_names)}")
        self.side_count = len(side_names)
        self.dealer.choices = choices(seats)
        self.last_trick.choices = choices(enumerate(side_names))
        for suit in SUITS:
            getattr(self, f"cante_{suit}").choices = choices([(NOBODY, "")] + [(str(s), n) for s, n in seats])
        self.tute_seat.choices = choices([(NOBODY, "")] + [(str(s), n) for s, n in seats])
        return self

    def points_fields(self) -> list[Field]:
        """Return the card points fields, one per side of the table."""
        return [getattr(self, f"points{side}") for side in range(self.side_count)]

    def cante_fields(self) -> list[Field]:
        """Return the cante selects, one per suit."""
        return [getattr(self, f"cante_{suit}") for suit in SUITS]

    def to_bids(self, cards: int | None = None) -> dict[str, Any]:
        """Return the deal as it stands before play: in Tute, where nothing is bid, the whole deal."""
        return self.to_deal(cards)

    def carried_fields_refused(self) -> bool:
        """Tell whether fields the page carries unseen were refused: this form shows every field."""
        return False

    def to_deal(self, cards: int | None = None) -> dict[str, Any]:
        """Return the deal the form describes, as a match document holds it (`cards` is Pocha's alone)."""
        deal: dict[str, Any] = {"dealer": self.dealer.data, "trump": self.trump.data}
        declared = self.tute_seat.data not in (None, NOBODY)
        points: list[int | None] = [field.data for field in self.points_fields()]
        blank = [side for side, value in enumerate(points) if value is None]
        self.filled_side = None
        if declared:
            if len(blank) < len(points):
                deal["points"] = [value or 0 for value in points]
        else:
            if len(blank) == 1:
                # The one side left blank holds the rest of the deck (for impossible points still
                # 120 minus the others, for the engine to refuse).
                self.filled_side = blank[0]
                points[blank[0]] = DECK_POINTS - sum(value or 0 for value in points)
            deal["points"] = points
            deal["last_trick"] = self.last_trick.data
        deal["cantes"] = [
            {"seat": int(field.data), "suit": suit}
            for suit, field in zip(SUITS, self.cante_fields())
            if field.data not in (None, NOBODY)
        ]
        if declared:
            deal["tute"] = {"seat": int(self.tute_seat.data), "kind": self.tute_kind.data}
        return deal

    def load(self, deal: Mapping[str, Any]) -> None:
        """Show a stored deal in the form, for editing."""
        self.dealer.data = deal.get("dealer")
        self.trump.data = deal.get("trump")
        points = deal.get("points") or [None] * self.side_count
        for field, value in zip(self.points_fields(), points):
            field.data = value
        self.last_trick.data = deal.get("last_trick")
        for cante in deal.get("cantes") or []:
            getattr(self, f"cante_{cante['suit']}").data = str(cante["seat"])
        tute = deal.get("tute")
        if tute:
            self.tute_seat.data, self.tute_kind.data = str(tute["seat"]), tute["kind"]

    def error_fields(self) -> dict[str, str]:
        """Map the engine's fields to this form's."""
        fields = {
            "dealer": "dealer",
            "trump": "trump",
            "points": "@points",
            "last_trick": "last_trick",
            "tute": "tute_seat",
            "tute.seat": "tute_seat",
            "tute.kind": "tute_kind",
        }
        fields.update({f"points.{side}": f"points{side}" for side in range(self.side_count)})
        filled = getattr(self, "filled_side", None)
        if filled is not None:
            # The side the form filled in as 120 minus the typed one is wrong only because the
            # typed one is: its message would repeat the other's at a field the user did not touch.
            fields[f"points.{filled}"] = "@filled_points"
        sung = [suit for suit, field in zip(SUITS, self.cante_fields()) if field.data not in (None, NOBODY)]
        for index, suit in enumerate(sung):
            fields[f"cantes.{index}"] = f"cante_{suit}"
        return fields
