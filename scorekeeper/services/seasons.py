"""Seasons an account names: their days and how their league tables count a match."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from flask_babel import gettext as _
from sqlalchemy import select

from ..errors import InvalidInput, NotFound
from ..extensions import db
from ..figures.seasons import MAX_YEAR, MIN_YEAR
from ..models import MAX_ID, Season, User
from ..text import clean_name
from .base import atomic

#: The most league points a match may give, and the most matches a best-of may count.
MOST_POINTS = 100
MOST_COUNTED = 1000
#: A season covers at most this many days: a league, not a lifetime (all time has its own leaderboard).
LONGEST_SEASON_DAYS = 3 * 366


@dataclass(frozen=True)
class SeasonRules:
    """What a season is, as typed: its name, its first and last day, its league points, its best-of."""

    name: str
    starts_on: date
    ends_on: date
    win_points: int = 3
    shared_points: int = 1
    other_points: int = 0
    best_of: int | None = None


def _checked(rules: SeasonRules) -> SeasonRules:
    """Return the rules with the name tidied; refuse what no season could be, at its field."""
    name = clean_name(rules.name)
    for field in ("starts_on", "ends_on"):
        if not date(MIN_YEAR, 1, 1) <= getattr(rules, field) <= date(MAX_YEAR, 12, 31):
            raise InvalidInput(
                _("Choose a day in the years %(first)s to %(last)s.", first=MIN_YEAR, last=MAX_YEAR), field
            )
    if rules.ends_on < rules.starts_on:
        raise InvalidInput(_("The last day comes before the first."), "ends_on")
    if (rules.ends_on - rules.starts_on).days >= LONGEST_SEASON_DAYS:
        raise InvalidInput(_("A season lasts at most three years."), "ends_on")
    for field in ("win_points", "shared_points", "other_points"):
        if not 0 <= getattr(rules, field) <= MOST_POINTS:
            raise InvalidInput(_("Give from 0 to %(most)s points.", most=MOST_POINTS), field)
    if not rules.win_points >= rules.shared_points >= rules.other_points:
        raise InvalidInput(
            _("A win alone gives at least a shared win, and that at least any other result."), "shared_points"
        )
    if rules.best_of is not None and not 1 <= rules.best_of <= MOST_COUNTED:
        raise InvalidInput(_("Count from 1 to %(most)s matches, or leave it empty.", most=MOST_COUNTED), "best_of")
    return SeasonRules(
        name, rules.starts_on, rules.ends_on, rules.win_points, rules.shared_points, rules.other_points, rules.best_of
    )


def _season_of(user: User, season_id: int) -> Season:
    season = db.session.get(Season, season_id) if 0 < season_id <= MAX_ID else None
    if season is None or season.user_id != user.id:
        raise NotFound(_("There is no such season."))
    return season


def _same_name(user: User, name: str, but: int | None = None) -> bool:
    named = select(Season.id, Season.name).where(Season.user_id == user.id)
    return any(other != but and taken.casefold() == name.casefold() for other, taken in db.session.execute(named))


@atomic
def name_season(user: User, rules: SeasonRules) -> Season:
    """Name a season of the account: its days and how its table counts a match."""
    rules = _checked(rules)
    if _same_name(user, rules.name):
        raise InvalidInput(_("There is already a season called %(name)s.", name=rules.name), "name")
    season = Season(user_id=user.id, **rules.__dict__)
    db.session.add(season)
    return season


@atomic
def change_season(user: User, season_id: int, rules: SeasonRules) -> Season:
    """Change a season's name, days or points; its table follows."""
    season = _season_of(user, season_id)
    rules = _checked(rules)
    if _same_name(user, rules.name, but=season.id):
        raise InvalidInput(_("There is already a season called %(name)s.", name=rules.name), "name")
    for field, value in rules.__dict__.items():
        setattr(season, field, value)
    return season


@atomic
def delete_season(user: User, season_id: int) -> None:
    """Forget a named season; its matches stay, and so do the calendar years."""
    db.session.delete(_season_of(user, season_id))
