"""The forms of notes and game nights: a match's note, and the account's gap between nights."""

from __future__ import annotations

from wtforms import SelectField, StringField

from ..figures.nights import GAP_HOURS
from ..i18n import lazy_gettext as _l
from .base import Form
from .fields import choices


class NoteForm(Form):
    """Write, change or clear a match's note (the service checks and tidies it).

    Its label and hint are written by templates/matches/_note.html, which lays the form out.
    """

    # No length validator here: the service says what is wrong, at this field, in the same words
    # for the pages and the API, and the page keeps what was typed.
    note = StringField()


class NightGapForm(Form):
    """Choose how long a pause between matches begins a new game night."""

    night_gap = SelectField(
        _l("A new night begins after a pause of"),
        coerce=int,
        choices=choices((hours, str(hours)) for hours in GAP_HOURS),
    )
