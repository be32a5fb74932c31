"""The forms of accounts and players: signing in, an account, a password, a player, an API token."""

from __future__ import annotations

from wtforms import HiddenField, PasswordField, StringField
from wtforms.validators import DataRequired, EqualTo, Length

from ..i18n import lazy_gettext as _l
from .base import Form
from .fields import LeftEmpty


class LoginForm(Form):
    """Sign in."""

    username = StringField(_l("Username"), validators=[DataRequired()])
    password = PasswordField(_l("Password"), validators=[DataRequired()])


class AccountForm(Form):
    """Create an account (the first one, or a sign-up)."""

    username = StringField(_l("Username"), validators=[DataRequired(), Length(max=40)])
    password = PasswordField(_l("Password"), validators=[DataRequired(), Length(max=1000)])
    confirm = PasswordField(
        _l("Password again"), validators=[DataRequired(), EqualTo("password", _l("The passwords differ."))]
    )


class PasswordForm(Form):
    """Change the account's password (which signs every other browser out)."""

    current = PasswordField(
        _l("Current password"), validators=[DataRequired()], render_kw={"autocomplete": "current-password"}
    )
    password = PasswordField(
        _l("New password"), validators=[DataRequired(), Length(max=1000)], render_kw={"autocomplete": "new-password"}
    )
    confirm = PasswordField(
        _l("New password again"),
        validators=[DataRequired(), EqualTo("password", _l("The passwords differ."))],
        render_kw={"autocomplete": "new-password"},
    )


class PlayerForm(Form):
    """Add or rename a player."""

    name = StringField(_l("Name"), validators=[DataRequired(), Length(max=40)])


class TokenForm(Form):
    """Create an API token."""

    name = StringField(_l("What it is for"), validators=[LeftEmpty(), Length(max=40)])


class JoinTableForm(Form):
    """Open a match's entry link on this phone.

    Its secret comes from the address's fragment, so it never reaches the server's logs.
    """

    secret = HiddenField(validators=[DataRequired(), Length(max=64)])
