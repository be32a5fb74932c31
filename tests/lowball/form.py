"""Lowball's deal form: the dealer and each player's points (left empty for a player who is out)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from wtforms import FieldList

from scorekeeper.forms.deals import DealForm
from scorekeeper.forms.fields import MAX_SEATS, LeftEmpty, WholeNumberField, choices


class LowballDealForm(DealForm):
    """A Lowball deal: who dealt, and the points counted against each player still in."""

    points = FieldList(WholeNumberField("Points", validators=[LeftEmpty()]), min_entries=2, max_entries=MAX_SEATS)

    def setup(self, seat_names: Sequence[str]) -> LowballDealForm:
        """Fill the choices and rows that depend on the table."""
        self.dealer.choices = choices(enumerate(seat_names))
        while len(self.points.entries) < len(seat_names):
            self.points.append_entry()
        return self

    def to_bids(self, cards: int | None) -> dict[str, Any]:
        """Return the deal: nothing is bid in Lowball."""
        return self.to_deal(cards)

    def to_deal(self, cards: int | None) -> dict[str, Any]:
        """Return the deal the form describes, as a match document holds it."""
        return {"dealer": self.dealer.data, "points": [entry.data for entry in self.points.entries]}

    def carried_fields_refused(self) -> bool:
        """Tell whether fields the page carries unseen were refused: this form shows every field."""
        return False

    def load(self, deal: Mapping[str, Any]) -> None:
        """Show a stored deal in the form."""
        self.dealer.data = deal.get("dealer")
        for entry, value in zip(self.points.entries, deal.get("points") or []):
            entry.data = value

    def error_fields(self) -> dict[str, str]:
        """Map the engine's fields to this form's."""
        return {"dealer": "dealer", "points": "@points"} | {
            f"points.{seat}": f"points-{seat}" for seat in range(len(self.points.entries))
        }
