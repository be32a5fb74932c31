"""The new-match form: the game's players, first dealer and house rules, as fields."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from flask_babel import LazyString
from flask_wtf import FlaskForm
from wtforms import (  # type: ignore[attr-defined]  # SelectChoice: new in WTForms 3.3, not in types-WTForms 3.2
    BooleanField,
    Field,
    FieldList,
    SelectChoice,
    SelectField,
    StringField,
)
from wtforms.validators import Length

from ..house_rules import value_name
from ..i18n import lazy_gettext as _l
from ..rules import Game, OptionSpec
from .base import Form
from .fields import LeftEmpty, WholeNumberField, choices, whole_number


def _seat_choices(count: int) -> list[SelectChoice]:
    return choices((seat, _l("Seat %(number)s", number=seat + 1)) for seat in range(count))


def _option_field(spec: OptionSpec) -> Field:
    label = _l(spec.label) if spec.label else spec.name
    description = _l(spec.description)
    if spec.kind == "bool":
        return BooleanField(label, default=spec.default is True, description=description)
    if spec.kind == "int":
        default = spec.default if isinstance(spec.default, int) else None  # None: it follows another rule
        return WholeNumberField(
            label,
            default=default,
            validators=[LeftEmpty()],
            description=description,
            render_kw={"min": spec.minimum, "max": spec.maximum, "inputmode": "numeric"},
        )
    values = [str(c) for c in spec.choices] + (["custom"] if spec.kind == "schedule" else [])
    return SelectField(
        label,
        choices=choices((value, LazyString(value_name, spec, value)) for value in values),
        default=str(spec.default),
        description=description,
    )


class NewMatchForm(Form):
    """The fields of every game's new-match form (`new_match_form_class` makes each game's, with its house rules)."""

    players: FieldList[StringField]
    first_dealer: SelectField
    leader: SelectField
    schedule_list: StringField


@cache
def new_match_form_class(game: Game) -> type[NewMatchForm]:
    """Return the new-match form for `game`: players, first dealer, and its house rules."""
    seats = game.max_players

    class GameNewMatchForm(NewMatchForm):
        players = FieldList(
            StringField(_l("Player"), validators=[LeftEmpty(), Length(max=40)]), min_entries=seats, max_entries=seats
        )
        first_dealer = SelectField(_l("Who deals first"), coerce=int, choices=_seat_choices(seats), default=0)
        leader = SelectField(
            _l("Who holds the 2 of oros (leads the first trick)"), coerce=int, choices=_seat_choices(seats), default=0
        )
        schedule_list = StringField(
            _l("Custom schedule: cards per player for each deal"),
            validators=[LeftEmpty(), Length(max=1000)],
            description=_l("Numbers separated by spaces, for example: 5 5 5 5"),
        )

    for spec in game.option_specs:
        setattr(GameNewMatchForm, f"opt_{spec.name}", _option_field(spec))
    GameNewMatchForm.__name__ = f"NewMatchForm_{game.name}"
    return GameNewMatchForm


def option_fields(form: FlaskForm, game: Game) -> list[Field]:
    """Return the form's house-rule fields in the game's order."""
    return [getattr(form, f"opt_{spec.name}") for spec in game.option_specs]


def option_error_fields(form: NewMatchForm, game: Game) -> dict[str, str]:
    """Map each house rule, as the engine names it in a refusal, to the field the player typed it in."""
    fields = {f"options.{spec.name}": f"opt_{spec.name}" for spec in game.option_specs}
    for spec in game.option_specs:
        # A custom schedule is typed in its own box: the refusal belongs beside what was typed.
        if spec.kind == "schedule" and getattr(form, f"opt_{spec.name}").data == "custom":
            fields[f"options.{spec.name}"] = "schedule_list"
    return fields


def options_from_form(form: NewMatchForm, game: Game) -> dict[str, Any]:
    """Return the house rules the form sets, as a match document names them (blank = default)."""
    options: dict[str, Any] = {}
    for spec in game.option_specs:
        field = getattr(form, f"opt_{spec.name}")
        value = field.data
        if spec.kind == "int" and value is None:
            continue
        if spec.kind == "choice" and all(isinstance(c, int) for c in spec.choices):
            value = whole_number(value) if whole_number(value) is not None else value
        if spec.kind == "schedule" and value == "custom":
            value = [int(n) for n in re.findall(r"-?\d+", form.schedule_list.data or "")]
        options[spec.name] = value
    return options


def players_from_form(form: NewMatchForm) -> tuple[list[str], list[int]]:
    """Return the typed player names in seat order, and the form entry each came from."""
    names, entries = [], []
    for index, entry in enumerate(form.players.entries):
        if entry.data and entry.data.strip():
            names.append(entry.data)
            entries.append(index)
    return names, entries


# ---------------------------------------------------------------- deals
