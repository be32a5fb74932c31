"""WTForms forms (through Flask-WTF, which adds CSRF) and their translation to and from deals.

Forms only shape input: every rule is checked by the rules engine, whose errors are
attached back to the fields they belong to by `attach_errors`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any

from flask_wtf import FlaskForm
from wtforms import (
    BooleanField, Field, FieldList, HiddenField, IntegerField, PasswordField, RadioField, SelectField, StringField,
)
from wtforms import SelectChoice  # type: ignore[attr-defined]  # new in WTForms 3.3; types-WTForms (3.2) lacks it
from wtforms.validators import DataRequired, EqualTo, InputRequired, Length, Optional

from .i18n import lazy_gettext as _l, say
from .rules import DECK_POINTS, SUITS, Game, OptionSpec, RuleError, other_side_points, possible_card_points

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
    _PATTERN = re.compile(r"[+-]?[0-9]{1,%d}" % MAX_DIGITS)

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


def required_text(field: StringField) -> str:
    """Return the text of a field that DataRequired guards, once its form has validated (it is never None then)."""
    return field.data or ""


def choices(pairs: Iterable[tuple[Any, str]]) -> list[SelectChoice]:
    """Return (value, label) pairs as WTForms choices."""
    return [SelectChoice(value, label) for value, label in pairs]


SUIT_CHOICES = choices((suit, suit) for suit in SUITS)


class LoginForm(FlaskForm):
    """Sign in."""

    username = StringField(_l("Username"), validators=[DataRequired()])
    password = PasswordField(_l("Password"), validators=[DataRequired()])


class AccountForm(FlaskForm):
    """Create an account (the first one, or a sign-up)."""

    username = StringField(_l("Username"), validators=[DataRequired(), Length(max=40)])
    password = PasswordField(_l("Password"), validators=[DataRequired(), Length(max=1000)])
    confirm = PasswordField(_l("Password again"),
                            validators=[DataRequired(), EqualTo("password", _l("The passwords differ."))])


class PasswordForm(FlaskForm):
    """Change the account's password (which signs every other browser out)."""

    current = PasswordField(_l("Current password"), validators=[DataRequired()],
                            render_kw={"autocomplete": "current-password"})
    password = PasswordField(_l("New password"), validators=[DataRequired(), Length(max=1000)],
                             render_kw={"autocomplete": "new-password"})
    confirm = PasswordField(_l("New password again"),
                            validators=[DataRequired(), EqualTo("password", _l("The passwords differ."))],
                            render_kw={"autocomplete": "new-password"})


class PlayerForm(FlaskForm):
    """Add or rename a player."""

    name = StringField(_l("Name"), validators=[DataRequired(), Length(max=40)])


class TokenForm(FlaskForm):
    """Create an API token."""

    name = StringField(_l("What it is for"), validators=[Optional(), Length(max=40)])


def attach_errors(form: FlaskForm, errors: Iterable[RuleError], fields: Mapping[str, str]) -> None:
    """Attach rules-engine errors to the form fields they belong to.

    `fields` maps an engine field ("points.0", "bids.3", "options.deck") or its prefix
    ("cantes.1") to a form field name ("points0", "bids-3", "opt_deck"), or to a group of
    fields ("@tricks", shown with the whole list); an error with no field of its own is
    kept in `form.form_errors`, shown at the top of the form.
    """
    for error in errors:
        add_form_error(form, say(error), _form_field_for(error.field, fields))


def _form_field_for(engine_field: str, fields: Mapping[str, str]) -> str | None:
    parts = engine_field.split(".")
    for end in range(len(parts), 0, -1):
        name = fields.get(".".join(parts[:end]))
        if name:
            return name
    return None


def _field_named(form: FlaskForm, name: str) -> Field | None:
    match = re.fullmatch(r"(\w+)-(\d+)", name)
    if match:
        field_list = getattr(form, match.group(1), None)
        index = int(match.group(2))
        if isinstance(field_list, FieldList) and index < len(field_list.entries):
            entry: Field = field_list.entries[index]
            return entry
        return None
    field = getattr(form, name, None)
    return field if isinstance(field, Field) else None


def add_form_error(form: FlaskForm, message: str, field: str | None = None) -> None:
    """Show a message at `field` (a "@name" is a group of fields), or at the top of the form."""
    if field and field.startswith("@"):
        group_errors(form).setdefault(field[1:], []).append(message)
        return
    target = _field_named(form, field) if field else None
    if target is None:
        form.form_errors.append(message)
    else:
        target.errors = [*target.errors, message]


def group_errors(form: FlaskForm) -> dict[str, list[str]]:
    """Return the messages that belong to a group of fields (all bids, all tricks), by group."""
    errors: dict[str, list[str]] | None = getattr(form, "_group_errors", None)
    if errors is None:
        errors = {}
        setattr(form, "_group_errors", errors)  # kept on the form: it lives as long as the request's form
    return errors


# ---------------------------------------------------------------- new match


def _seat_choices(count: int) -> list[SelectChoice]:
    return choices((seat, _l("Seat %(number)s", number=seat + 1)) for seat in range(count))


OPTION_LABELS = {
    "deck": _l("Deck"), "last_trick_bonus": _l("Last trick bonus"), "mode": _l("Mode"), "target": _l("Target"),
    "double_over_100": _l("Two juegos over 100"), "tute": _l("Tute"), "remove_twos": _l("Take the 2s out"),
    "schedule": _l("Schedule"), "hook": _l("Dealer's hook"), "exact_base": _l("Exact bid"),
    "per_trick": _l("Per trick"), "miss_per_trick": _l("Per trick missed"), "oros_double": _l("Oros double"),
}
OPTION_VALUE_LABELS = {
    "juegos": _l("juegos"), "points": _l("points"), "deal": _l("wins the deal"), "match": _l("wins the match"),
    "off": _l("off"), "classic": _l("classic"), "ladder": _l("ladder"), "custom": _l("custom"),
}


def _option_field(spec: OptionSpec) -> Field:
    label = OPTION_LABELS.get(spec.name, spec.name)
    description = _l(spec.description)
    if spec.kind == "bool":
        return BooleanField(label, default=spec.default is True, description=description)
    if spec.kind == "int":
        default = spec.default if isinstance(spec.default, int) else None  # None: it follows another rule
        return WholeNumberField(label, default=default, validators=[Optional()], description=description,
                            render_kw={"min": spec.minimum, "max": spec.maximum, "inputmode": "numeric"})
    values = [str(c) for c in spec.choices] + (["custom"] if spec.kind == "schedule" else [])
    return SelectField(label, choices=choices((v, OPTION_VALUE_LABELS.get(v, v)) for v in values),
                       default=str(spec.default), description=description)


class NewMatchForm(FlaskForm):
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
        players = FieldList(StringField(_l("Player"), validators=[Optional(), Length(max=40)]),
                            min_entries=seats, max_entries=seats)
        first_dealer = SelectField(_l("Who deals first"), coerce=int, choices=_seat_choices(seats), default=0)
        leader = SelectField(_l("Who holds the 2 of oros (leads the first trick)"), coerce=int,
                             choices=_seat_choices(seats), default=0)
        schedule_list = StringField(_l("Custom schedule: cards per player for each deal"),
                                    validators=[Optional(), Length(max=1000)],
                                    description=_l("Numbers separated by spaces, for example: 5 5 5 5"))

    for spec in game.option_specs:
        setattr(GameNewMatchForm, f"opt_{spec.name}", _option_field(spec))
    GameNewMatchForm.__name__ = f"NewMatchForm_{game.name}"
    return GameNewMatchForm


def option_fields(form: FlaskForm, game: Game) -> list[Field]:
    """Return the form's house-rule fields in the game's order."""
    return [getattr(form, f"opt_{spec.name}") for spec in game.option_specs]


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


def has_errors(form: FlaskForm) -> bool:
    """Tell whether any field, list entry, group or the form itself carries a message."""
    def field_has(field: Field) -> bool:
        if isinstance(field, FieldList):
            return any(field_has(entry) for entry in field.entries)
        return bool(field.errors)
    return bool(form.form_errors or group_errors(form) or any(field_has(field) for field in form))


def players_from_form(form: NewMatchForm) -> tuple[list[str], list[int]]:
    """Return the typed player names in seat order, and the form entry each came from."""
    names, entries = [], []
    for index, entry in enumerate(form.players.entries):
        if entry.data and entry.data.strip():
            names.append(entry.data)
            entries.append(index)
    return names, entries


# ---------------------------------------------------------------- deals


class TuteDealForm(FlaskForm):
    """One Tute deal: trump, card points, last trick, cantes by suit, and a tute if there was one."""

    number = HiddenField()
    version = HiddenField()
    dealer = SelectField(_l("Dealer"), coerce=int, validators=[InputRequired()])
    trump = RadioField(_l("Trump"), choices=SUIT_CHOICES, validators=[Optional()])
    points0 = WholeNumberField(_l("Card points"), validators=[Optional()])
    points1 = WholeNumberField(_l("Card points"), validators=[Optional()])
    last_trick = RadioField(_l("Last trick"), coerce=int, validators=[Optional()])
    cante_oros = SelectField("oros")
    cante_copas = SelectField("copas")
    cante_espadas = SelectField("espadas")
    cante_bastos = SelectField("bastos")
    tute_seat = SelectField(_l("Tute declared by"))
    tute_kind = RadioField(_l("Tute of"), choices=choices([("reyes", "reyes"), ("caballos", "caballos")]),
                           validators=[Optional()])

    def setup(self, seat_names: Sequence[str], side_names: Sequence[str]) -> TuteDealForm:
        """Fill the choices that depend on the table."""
        seats = list(enumerate(seat_names))
        self.dealer.choices = choices(seats)
        self.last_trick.choices = choices(enumerate(side_names))
        for suit in SUITS:
            getattr(self, f"cante_{suit}").choices = choices([(NOBODY, "")] + [(str(s), n) for s, n in seats])
        self.tute_seat.choices = choices([(NOBODY, "")] + [(str(s), n) for s, n in seats])
        return self

    def cante_fields(self) -> list[Field]:
        """Return the cante selects, one per suit."""
        return [getattr(self, f"cante_{suit}") for suit in SUITS]

    def to_deal(self) -> dict[str, Any]:
        """Return the deal the form describes, as a match document holds it."""
        deal: dict[str, Any] = {"dealer": self.dealer.data, "trump": self.trump.data}
        declared = self.tute_seat.data not in (None, NOBODY)
        first, second = self.points0.data, self.points1.data
        self.filled_side = None
        if declared:
            if first is not None or second is not None:
                deal["points"] = [first or 0, second or 0]
        else:
            if second is None and first is not None:
                second, self.filled_side = _other_side(first), 1
            elif first is None and second is not None:
                first, self.filled_side = _other_side(second), 0
            deal["points"] = [first, second]
            deal["last_trick"] = self.last_trick.data
        deal["cantes"] = [{"seat": int(field.data), "suit": suit}
                          for suit, field in zip(SUITS, self.cante_fields()) if field.data not in (None, NOBODY)]
        if declared:
            deal["tute"] = {"seat": int(self.tute_seat.data), "kind": self.tute_kind.data}
        return deal

    def load(self, deal: Mapping[str, Any]) -> None:
        """Show a stored deal in the form, for editing."""
        self.dealer.data = deal.get("dealer")
        self.trump.data = deal.get("trump")
        points = deal.get("points") or [None, None]
        self.points0.data, self.points1.data = points[0], points[1]
        self.last_trick.data = deal.get("last_trick")
        for cante in deal.get("cantes") or []:
            getattr(self, f"cante_{cante['suit']}").data = str(cante["seat"])
        tute = deal.get("tute")
        if tute:
            self.tute_seat.data, self.tute_kind.data = str(tute["seat"]), tute["kind"]

    def error_fields(self) -> dict[str, str]:
        """Map the engine's fields to this form's."""
        fields = {"dealer": "dealer", "trump": "trump", "points": "@points", "points.0": "points0",
                  "points.1": "points1", "last_trick": "last_trick", "tute": "tute_seat", "tute.seat": "tute_seat",
                  "tute.kind": "tute_kind"}
        filled = getattr(self, "filled_side", None)
        if filled is not None:
            # The side the form filled in as 120 minus the typed one is wrong only because the
            # typed one is: its message would repeat the other's at a field the user did not touch.
            fields[f"points.{filled}"] = "@filled_points"
        sung = [suit for suit, field in zip(SUITS, self.cante_fields()) if field.data not in (None, NOBODY)]
        for index, suit in enumerate(sung):
            fields[f"cantes.{index}"] = f"cante_{suit}"
        return fields


def _other_side(points: int) -> int:
    """Return the other side's card points; for impossible ones still 120 minus them, for the engine to refuse."""
    return other_side_points(points) if possible_card_points(points) else DECK_POINTS - points


class PochaDealForm(FlaskForm):
    """A Pocha deal: its bids before play, its tricks after, or both when a deal is edited."""

    number = HiddenField()
    version = HiddenField()
    dealer = SelectField(_l("Dealer"), coerce=int, validators=[InputRequired()])
    trump = RadioField(_l("Trump"), choices=choices([("none", "none")]) + SUIT_CHOICES, default="none",
                       validators=[Optional()])
    bids = FieldList(WholeNumberField(_l("Bid"), validators=[Optional()]), min_entries=2, max_entries=MAX_SEATS)
    tricks = FieldList(WholeNumberField(_l("Tricks"), validators=[Optional()]), min_entries=2, max_entries=MAX_SEATS)

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
