"""Seasons an account names: their days and how their league tables count a match."""

from __future__ import annotations

from flask_babel import gettext as _
from sqlalchemy import select

from ..errors import InvalidInput, NotFound
from ..extensions import db
from ..figures.locks import lock_figures
from ..figures.seasons import named_season
from ..models import MAX_ID, Season, User, name_key
from ..season_rules import SeasonRules, check_season
from ..text import MAX_NAME_LENGTH
from .base import atomic
from .season_places import forget_kept_standings


def _season_of(user: User, season_id: int) -> Season:
    season = db.session.get(Season, season_id) if 0 < season_id <= MAX_ID else None
    if season is None or season.user_id != user.id:
        raise NotFound(_("There is no such season."))
    return season


def _same_name(user: User, name: str, but: int | None = None) -> bool:
    named = select(Season.id).where(Season.user_id == user.id, Season.name_key == name_key(name))
    return any(other != but for other in db.session.scalars(named))


def name_apart(name: str, number: int) -> str:
    """Return a season's name told apart from a twin's by a number ("Liga (2)"), cut to the length of a name."""
    suffix = f" ({number})"
    return name[: MAX_NAME_LENGTH - len(suffix)].rstrip() + suffix


def free_name(name: str, taken: set[str]) -> str:
    """Return `name` unless `taken` holds its key, else it told apart by the first number whose key is not taken."""
    number, free = 1, name
    while name_key(free) in taken:
        number += 1
        free = name_apart(name, number)
    return free


@atomic
def name_season(user: User, rules: SeasonRules) -> Season:
    """Name a season of the account: its days and how its table counts a match."""
    rules = check_season(rules)
    # Under the account's lock, as players are added: a season of the same name named at the same
    # moment on another phone is found here.
    lock_figures(user.id)
    if _same_name(user, rules.name):
        raise InvalidInput(_("There is already a season called %(name)s.", name=rules.name), "name")
    season = Season(user_id=user.id, name_key=name_key(rules.name), **rules.__dict__)
    db.session.add(season)
    return season


@atomic
def change_season(user: User, season_id: int, rules: SeasonRules) -> Season:
    """Change a season's name, days or points; its table follows."""
    season = _season_of(user, season_id)
    rules = check_season(rules)
    lock_figures(user.id)  # as `name_season`
    if _same_name(user, rules.name, but=season.id):
        raise InvalidInput(_("There is already a season called %(name)s.", name=rules.name), "name")
    forget_kept_standings(user, named_season(season))
    for field, value in rules.__dict__.items():
        setattr(season, field, value)
    season.name_key = name_key(rules.name)
    return season


@atomic
def delete_season(user: User, season_id: int) -> None:
    """Forget a named season; its matches stay, and so do the calendar years."""
    season = _season_of(user, season_id)
    forget_kept_standings(user, named_season(season))
    db.session.delete(season)
