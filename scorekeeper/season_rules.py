"""What a season is, for every layer: its days and how its league table counts a match; the checks of
a season as typed (a form, the API, an import file), which raise `InvalidInput` at the field given.

No database here: `figures.seasons` reads the tables, `services.seasons` stores the seasons named.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from typing import cast

from flask_babel import gettext as _

from .errors import InvalidInput
from .text import clean_name

#: The calendar years a season may be in: any a group has played in, and none whose last day the
#: calendar cannot follow (the day after 31 December 9999 does not exist, nor midnight of
#: 1 January of year 1 east of UTC).
MIN_YEAR, MAX_YEAR = 1900, 9998
#: The most league points a match may give, and the most matches a best-of may count.
MOST_POINTS = 100
MOST_COUNTED = 1000
#: A season covers at most this many days: a league, not a lifetime (all time has its own leaderboard).
LONGEST_SEASON_DAYS = 3 * 366


@dataclass(frozen=True)
class LeaguePoints:
    """How a season's table counts a match: its points for a win alone, a shared win and any other
    result, and how many of each player's best matches count (None: every one)."""

    win: int = 3
    shared: int = 1
    other: int = 0
    best_of: int | None = None

    def of(self, won: int, shared: int, played: int) -> tuple[int, int]:
        """Return the league points of a player's season and how many matches they counted: all of
        them, or their best `best_of` (each result's points told apart by their kind alone, the best
        matches are the most rewarded kinds first)."""
        if self.best_of is None or self.best_of >= played:
            return self.win * (won - shared) + self.shared * shared + self.other * (played - won), played
        kinds = sorted(((self.win, won - shared), (self.shared, shared), (self.other, played - won)), reverse=True)
        room = self.best_of
        counted = points = 0
        for value, count in kinds:
            taken = min(count, room - counted)
            points += value * taken
            counted += taken
        return points, counted


@dataclass(frozen=True)
class SeasonSpan:
    """A season: a calendar year (`season_id` None) or a named one, its days (both included) and points."""

    name: str | None
    starts_on: date
    ends_on: date
    points: LeaguePoints
    season_id: int | None = None

    @property
    def year(self) -> int | None:
        """Return the calendar year this season is, or None for a named season."""
        return self.starts_on.year if self.season_id is None else None

    def bounds(self, zone: tzinfo) -> tuple[datetime, datetime]:
        """Return the first moment of the season and the first after it, in UTC, its days in `zone`."""
        return day_start(self.starts_on, zone), day_start(self.ends_on + timedelta(days=1), zone)

    def has_begun(self, today: date) -> bool:
        """Tell whether the season's first day has come."""
        return self.starts_on <= today

    def is_over(self, today: date) -> bool:
        """Tell whether the season's last day has passed."""
        return self.ends_on < today


def day_start(day: date, zone: tzinfo) -> datetime:
    """Return when `day` begins in `zone`, in UTC."""
    midnight = datetime.combine(day, time())
    # The pages' zones are pytz's (Flask-Babel's), whose offset for a day comes from localize().
    localize = getattr(zone, "localize", None)
    local = localize(midnight) if localize is not None else midnight.replace(tzinfo=zone)
    return cast(datetime, local).astimezone(UTC)


def calendar_year(year: int) -> SeasonSpan:
    """Return a calendar year as a season, with the default points."""
    return SeasonSpan(None, date(year, 1, 1), date(year, 12, 31), LeaguePoints())


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


def check_season(rules: SeasonRules) -> SeasonRules:
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
