"""Errors on forms: the rules engine's problems attached to the fields they belong to, and the
messages grouped for a page."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from flask_wtf import FlaskForm
from wtforms import Field, FieldList

from ..problem_words import say
from ..rules import RuleError


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


def has_errors(form: FlaskForm) -> bool:
    """Tell whether any field, list entry, group or the form itself carries a message."""

    def field_has(field: Field) -> bool:
        if isinstance(field, FieldList):
            return any(field_has(entry) for entry in field.entries)
        return bool(field.errors)

    return bool(form.form_errors or group_errors(form) or any(field_has(field) for field in form))
