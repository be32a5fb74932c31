"""WTForms forms (through Flask-WTF, which adds CSRF) and their translation to and from deals.

Forms only shape input: every rule is checked by the rules engine, whose errors are
attached back to the fields they belong to by `attach_errors`.

- `base`: the form every form is made from (Flask-WTF's, with WTForms' messages kept per language);
- `fields`: whole numbers, required text and choices, shared by every form;
- `accounts`: signing in, an account, a password, a player, an API token;
- `matches`: a new match, with the game's house rules as fields;
- `deals`: `DealForm`, what every game's deal form (in its folder's `form.py`) builds on;
- `errors`: the engine's problems at their fields, and a page's messages grouped;
- `nights`: a match's note, and the account's gap between game nights;
- `seasons`: a season the account names.
"""

from __future__ import annotations

from .accounts import AccountForm, JoinTableForm, LoginForm, PasswordForm, PlayerForm, TokenForm
from .deals import DealForm
from .errors import add_form_error, attach_errors, group_errors, has_errors
from .fields import MAX_SEATS, NOBODY, SUIT_CHOICES, WholeNumberField, choices, required_text, whole_number
from .matches import (
    NewMatchForm,
    new_match_form_class,
    option_error_fields,
    option_fields,
    options_from_form,
    players_from_form,
)
from .nights import NightGapForm, NoteForm
from .seasons import SeasonForm

__all__ = [
    "MAX_SEATS",
    "NOBODY",
    "SUIT_CHOICES",
    "AccountForm",
    "DealForm",
    "JoinTableForm",
    "LoginForm",
    "NewMatchForm",
    "NightGapForm",
    "NoteForm",
    "PasswordForm",
    "PlayerForm",
    "SeasonForm",
    "TokenForm",
    "WholeNumberField",
    "add_form_error",
    "attach_errors",
    "choices",
    "group_errors",
    "has_errors",
    "new_match_form_class",
    "option_error_fields",
    "option_fields",
    "options_from_form",
    "players_from_form",
    "required_text",
    "whole_number",
]
