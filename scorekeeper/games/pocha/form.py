"""Pocha's deal form: bids, then tricks, and its translation to and from the engine's deals."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from wtforms import FieldList, RadioField

from ...forms.deals import DealForm
from ...forms.fields import MAX_SEATS, SUIT_CHOICES, LeftEmpty, WholeNumberField, choices
from ...i18n import lazy_gettext as _l


class PochaDealForm(DealForm):
    """A Pocha deal: its bids before play, its tricks after, or both when a deal is edited."""

    trump = RadioField(
        _l("Trump"), choices=choices([("none", "none")]) + SUIT_CHOICES, default="none", validators=[LeftEmpty()]
    )
    bids = FieldList(WholeNumberField(_l("Bid"), validators=[LeftEmpty()]), min_entries=2, max_entries=MAX_SEATS)
    tricks = FieldList(WholeNumberField(_l("Tricks"), validators=[LeftEmpty()]), min_entries=2, max_entries=MAX_SEATS)

    def setup(self, seat_names: Sequence[str]) -> PochaDealForm:
        """Fill the choices and rows that depend on the table."""
        self.dealer.choices = choices(enumerate(seat_names))
        for field_list in (self.bids, self.tricks):
            while len(field_list.entries) < len(seat_names):
                field_list.append_entry()
            while len(field_list.entries) > len(seat_names):
                field_list.pop_entry()
        return self

    def to_bids(self, cards: int | None) -> dict[str, Any]:
        """Return the deal's bidding (without tricks), as the engine's `check_bids` takes it.

        The cards in hand are the server's to say (the match's schedule), never the form's.
        """
        return {
            "dealer": self.dealer.data,
            "cards": cards,
            "trump": None if self.trump.data in (None, "none") else self.trump.data,
            "bids": [entry.data for entry in self.bids.entries],
        }

    def to_deal(self, cards: int | None) -> dict[str, Any]:
        """Return the whole deal, bids and tricks."""
        return {**self.to_bids(cards), "tricks": [entry.data for entry in self.tricks.entries]}

    def carried_fields_refused(self) -> bool:
        """Tell whether the bids carried along by the tricks form were refused (the user cannot see them)."""
        return bool(self.dealer.errors or self.trump.errors or any(entry.errors for entry in self.bids.entries))

    def load(self, deal: Mapping[str, Any]) -> None:
        """Show a stored deal (or pending bids) in the form."""
        self.dealer.data = deal.get("dealer")
        self.trump.data = deal.get("trump") or "none"
        for entry, value in zip(self.bids.entries, deal.get("bids") or []):
            entry.data = value
        for entry, value in zip(self.tricks.entries, deal.get("tricks") or []):
            entry.data = value

    def error_fields(self) -> dict[str, str]:
        """Map the engine's fields to this form's."""
        fields = {"dealer": "dealer", "trump": "trump", "tricks": "@tricks", "bids": "@bids"}
        for seat in range(len(self.bids.entries)):
            fields[f"bids.{seat}"] = f"bids-{seat}"
            fields[f"tricks.{seat}"] = f"tricks-{seat}"
        return fields
