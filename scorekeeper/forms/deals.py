"""What every game's deal form has; each game's own form lives in its folder under scorekeeper/games/."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wtforms import HiddenField, SelectField

from ..i18n import lazy_gettext as _l
from .base import Form
from .fields import Typed


class DealForm(Form):
    """What every game's deal form has: the number and version it was opened for, and the dealer.

    Each game's form (in its folder's `form.py`, given by its web side's `deal_form`) adds its
    own fields and these methods.
    """

    number = HiddenField()
    version = HiddenField()
    dealer = SelectField(_l("Dealer"), coerce=int, validators=[Typed()])

    def load(self, deal: Mapping[str, Any]) -> None:
        """Show a stored deal (or an entry waiting for its second part) in the form."""
        raise NotImplementedError

    def error_fields(self) -> dict[str, str]:
        """Map the engine's fields to this form's."""
        raise NotImplementedError

    def carried_fields_refused(self) -> bool:
        """Tell whether fields the page carries unseen (from an earlier step) were refused."""
        raise NotImplementedError

    def to_bids(self, cards: int | None) -> dict[str, Any]:
        """Return the entry as it stands before play; `cards` is what the match's schedule gives."""
        raise NotImplementedError

    def to_deal(self, cards: int | None) -> dict[str, Any]:
        """Return the whole deal the form describes, as a match document holds it."""
        raise NotImplementedError
