"""The form of a season the account names: its name, days, league points and best-of."""

from __future__ import annotations

from wtforms import DateField, StringField

from ..i18n import lazy_gettext as _l
from .base import Form
from .fields import LeftEmpty, Typed, WholeNumberField


def _points_field(label: str, default: int) -> WholeNumberField:
    return WholeNumberField(
        label, default=default, validators=[Typed()], render_kw={"min": 0, "max": 100, "inputmode": "numeric"}
    )


class SeasonForm(Form):
    """Name a season, or change one (the service checks the days and the points, at their fields)."""

    name = StringField(_l("Name"), validators=[Typed()], render_kw={"maxlength": 40, "autocomplete": "off"})
    starts_on = DateField(_l("First day"), validators=[Typed()])
    ends_on = DateField(_l("Last day"), validators=[Typed()])
    win_points = _points_field(_l("Points for a win"), 3)
    shared_points = _points_field(_l("Points for a shared win"), 1)
    other_points = _points_field(_l("Points for any other result"), 0)
    best_of = WholeNumberField(
        _l("Count each player's best … matches"),
        validators=[LeftEmpty()],
        description=_l("Leave it empty to count every match."),
        render_kw={"min": 1, "max": 1000, "inputmode": "numeric"},
    )
