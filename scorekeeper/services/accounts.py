"""Accounts: creating one, signing in and out (each browser's sign-in), passwords, language, API tokens."""

from __future__ import annotations

import secrets
from datetime import datetime
from functools import cache

from flask import current_app
from flask_babel import gettext as _
from sqlalchemy import delete, select
from werkzeug.security import check_password_hash, generate_password_hash

from ..accounts.keys import hash_token, sign_in_lifetime
from ..errors import InvalidInput, NotFound
from ..extensions import db
from ..figures.locks import lock_figures
from ..figures.nights import GAP_HOURS
from ..figures.upkeep import regroup_nights
from ..formats import is_time_zone
from ..models import MAX_ID, NAME_KEY_LENGTH, ApiToken, SignIn, User, utcnow
from ..text import MAX_TYPED_TEXT, clean_name, clean_username, plain_text, username_keys
from .base import atomic

MIN_PASSWORD_LENGTH = 8
TOKEN_PREFIX = "sk_"


@atomic
def create_user(username: str, password: str) -> User:
    """Create an account with a hashed password."""
    username = clean_username(username)
    if len(password) < MIN_PASSWORD_LENGTH:
        raise InvalidInput(_("A password has at least %(count)s characters.", count=MIN_PASSWORD_LENGTH), "password")
    if db.session.scalar(select(User.id).where(User.username_key.in_(username_keys(username)))) is not None:
        raise InvalidInput(_("That username is taken."), "username")
    user = User(username=username, username_key=username.casefold(), password_hash=_password_hash(password))
    db.session.add(user)
    return user


def _password_hash(password: str) -> str:
    return generate_password_hash(password, method=current_app.config["PASSWORD_HASH_METHOD"])


@cache
def _dummy_hash(method: str) -> str:
    """Return the hash checked when there is no such account, so that a wrong username takes as
    long as a wrong password (made with the method the accounts' hashes are made with)."""
    return generate_password_hash("no account has this password", method=method)


def authenticate(username: str, password: str) -> User | None:
    """Return the account with this username and password, or None (taking as long either way)."""
    keys = [key for key in username_keys(str(username)[:MAX_TYPED_TEXT]) if plain_text(key, NAME_KEY_LENGTH)]
    user = db.session.scalar(select(User).where(User.username_key.in_(keys))) if keys else None
    if user is None:
        check_password_hash(_dummy_hash(current_app.config["PASSWORD_HASH_METHOD"]), password)
        return None
    return user if check_password_hash(user.password_hash, password) else None


def user_named(username: str) -> User | None:
    """Return the account with this username, whatever its case, or None."""
    return db.session.scalar(select(User).where(User.username_key.in_(username_keys(username))))


def _new_sign_in(user: User) -> str:
    """Record a new signed-in browser of `user` (inside a transaction) and return its key."""
    key = secrets.token_urlsafe(32)
    db.session.execute(
        delete(SignIn.__table__).where(SignIn.user_id == user.id, SignIn.created_at < utcnow() - sign_in_lifetime())
    )
    db.session.add(SignIn(user_id=user.id, key_hash=hash_token(key)))
    user.sign_in_key = key
    return key


@atomic
def start_sign_in(user: User) -> str:
    """Sign a browser in to `user`: return the key its session and remember-me cookie will carry."""
    return _new_sign_in(user)


@atomic
def end_sign_in(key: str | None) -> None:
    """Sign one browser out: its session and remember-me cookie open nothing from now on."""
    if key:
        db.session.execute(delete(SignIn.__table__).where(SignIn.key_hash == hash_token(key)))


@atomic
def end_every_sign_in(user: User) -> int:
    """Sign every browser of the account out, this one included; return how many there were."""
    ended = db.session.execute(delete(SignIn.__table__).where(SignIn.user_id == user.id))
    user.sign_in_key = None
    return int(getattr(ended, "rowcount", 0) or 0)


@atomic
def change_password(user: User, current: str, new: str) -> str:
    """Change the account's password after checking the current one; sign every browser out,
    and return a new sign-in key for the browser that made the change."""
    if not check_password_hash(user.password_hash, current):
        raise InvalidInput(_("That is not the account's current password."), "current")
    if len(new) < MIN_PASSWORD_LENGTH:
        raise InvalidInput(_("A password has at least %(count)s characters.", count=MIN_PASSWORD_LENGTH), "password")
    user.password_hash = _password_hash(new)
    db.session.execute(delete(SignIn.__table__).where(SignIn.user_id == user.id))
    return _new_sign_in(user)


@atomic
def set_language(user: User, language: str | None) -> None:
    """Remember the account's language (None: follow the browser)."""
    user.language = language


@atomic
def set_time_zone(user: User, time_zone: str | None) -> None:
    """Fix the time zone the account's pages show times in (None: follow the browser)."""
    if time_zone is not None and not is_time_zone(time_zone):
        raise InvalidInput(_("Choose a time zone from the list."), "time_zone")
    user.time_zone = time_zone


@atomic
def set_night_gap(user: User, hours: object) -> None:
    """Set how many hours between matches begin a new game night, and group the account's nights again."""
    if not isinstance(hours, int) or isinstance(hours, bool) or hours not in GAP_HOURS:
        raise InvalidInput(
            _("Choose from %(low)s to %(high)s hours.", low=GAP_HOURS[0], high=GAP_HOURS[-1]), "night_gap"
        )
    if hours != user.night_gap_hours:
        user.night_gap_hours = hours
        lock_figures(user.id)
        regroup_nights(user.id)


@atomic
def create_api_token(user: User, name: str) -> str:
    """Create an API token for `user` and return it; only its hash is kept, so it is shown once."""
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    db.session.add(ApiToken(user_id=user.id, name=clean_name(name or "API token"), token_hash=hash_token(token)))
    return token


def note_token_use(token: ApiToken) -> None:
    """Note that an API token changed something today, unless that is noted already.

    Only changes are noted, so that a read never writes; and once a day, because the day is
    all the account page shows of it.
    """
    now = utcnow()
    if token.last_used_at is None or token.last_used_at.date() != now.date():
        _stamp_token(token, now)


@atomic
def _stamp_token(token: ApiToken, when: datetime) -> None:
    token.last_used_at = when


@atomic
def revoke_api_token(user: User, token_id: int) -> None:
    """Delete one of the account's API tokens."""
    row = db.session.get(ApiToken, token_id) if 0 < token_id <= MAX_ID else None
    if row is None or row.user_id != user.id:
        raise NotFound(_("There is no such token."))
    db.session.delete(row)
