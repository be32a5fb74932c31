"""The fields, checks and small readers every form shares: whole numbers, fields left empty or required,
required text, choices."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, cast

from flask_babel import LazyString
from wtforms import (  # type: ignore[attr-defined]  # SelectChoice: new in WTForms 3.3, not in types-WTForms 3.2
    Field,
    IntegerField,
    SelectChoice,
    StringField,
)
from wtforms.validators import Optional, StopValidation

from ..i18n import lazy_gettext as _l
from ..rules import SUITS

MAX_SEATS = 8
NOBODY = ""
_WHOLE_NUMBER = re.compile(r"[0-9]{1,9}")


def whole_number(value: Any) -> int | None:
    """Return posted text as a whole number when it is one (ASCII digits, at most 9), else None."""
    text = str(value if value is not None else "").strip()
    return int(text) if _WHOLE_NUMBER.fullmatch(text) else None


class WholeNumberField(IntegerField):
    """A number typed at the table: ASCII digits with an optional sign, at most six of them.

    No count, score or house rule of these games needs more, and bounding every number as it
    is read keeps a posted value from sizing anything later (a loop, a page, an allocation).
    The rules engine still says which values are possible; this only refuses absurd text.
    """

    MAX_DIGITS = 6
    _PATTERN = re.compile(rf"[+-]?[0-9]{{1,{MAX_DIGITS}}}")

    def process_formdata(self, valuelist: list[Any]) -> None:
        """Read the posted text as a whole number, or refuse it with a message at the field."""
        if not valuelist:
            return
        text = str(valuelist[0]).strip()
        if not text:
            self.data = None
            return
        if not self._PATTERN.fullmatch(text):
            self.data = None
            raise ValueError(_l("Type a whole number of at most %(digits)s digits.", digits=self.MAX_DIGITS))
        self.data = int(text)


class LeftEmpty(Optional):
    """Let a field be left empty (nothing posted, or nothing typed), and stop its checks there.

    WTForms' `Optional` also takes text of only spaces for nothing typed, and clears the field's
    errors then: a choice's "Not a valid choice" went with them, and a space reached the code as if
    it had been chosen. A space is no choice; a number field reads one as nothing by itself.
    """

    def __init__(self) -> None:
        super().__init__(strip_whitespace=False)


#: InputRequired's own message: WTForms' catalogue translates it (`base.wtforms_catalogue`), as it does
#: the messages of WTForms' other checks; it is not one of the app's.
_REQUIRED = "This field is required."


class Typed:
    """Refuse a field left empty or given only spaces (WTForms' `InputRequired` takes spaces for
    something typed, which the field then reads as nothing)."""

    field_flags = {"required": True}

    def __call__(self, form: Any, field: Field) -> None:
        """Stop the field's checks with "This field is required." when nothing but spaces came."""
        typed = field.raw_data[0] if field.raw_data else ""
        if not isinstance(typed, str) or typed.strip():
            return
        cast(list[str], field.errors).clear()  # a list while the field is checked, as InputRequired has it
        raise StopValidation(field.gettext(_REQUIRED))


def required_text(field: StringField) -> str:
    """Return the text of a field that DataRequired guards, once its form has validated (it is never None then)."""
    return field.data or ""


def choices(pairs: Iterable[tuple[Any, str | LazyString]]) -> list[SelectChoice]:
    """Return (value, label) pairs as WTForms choices."""
    return [SelectChoice(value, label) for value, label in pairs]


SUIT_CHOICES = choices((suit, suit) for suit in SUITS)
