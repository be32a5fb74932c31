"""Numbers, dates and times as the viewer reads them: in the page's language, the browser's region
and the account's time zone (Babel through Flask-Babel), kept where they come back page after page."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from functools import lru_cache
from typing import Any

import pytz
from babel import Locale, UnknownLocaleError
from babel.dates import format_date, format_time
from babel.numbers import NumberPattern, parse_pattern
from flask import g, has_request_context, request
from flask_babel import get_locale, get_timezone
from markupsafe import Markup

from .templating import macro

#: What an IANA time zone name looks like ("Europe/Madrid", "America/Argentina/Buenos_Aires", "Etc/GMT+3").
TIME_ZONE_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_+\-]*(/[A-Za-z0-9_+\-]+){0,2}")


#: The pattern of `decimal`.
ONE_DECIMAL = "#,##0.0"


@lru_cache(maxsize=4096)
def _written(pattern: str, language: str, value: float) -> str:
    """Return `value` written with a CLDR number pattern in a language, as Babel writes it.

    Kept from one request to the next: Babel parses the pattern and the locale for every number,
    a leaderboard shows dozens, and its figures stay the same from view to view until the next
    match ends.
    (A value of -0.0 is the same key as 0.0: callers pass it as 0.0, so that it is written
    one way.)
    """
    return str(parse_pattern(pattern).apply(value, Locale.parse(language)))


@dataclass
class _Formats:
    """The page's locale (and its name) and time zone, and its percentage pattern, worked out once.

    Flask-Babel looks the locale and zone up again for every number and date it formats, and
    Babel parses the pattern again each time; a list of 25 dates spends more on that than on
    the rest of its page. Both are chosen once per request, so the request keeps them. The
    locale's name keys the figures and dates kept across requests: Babel writes it out anew
    each time it is asked, which would be a good part of what finding a kept date takes.
    """

    locale: Locale
    language: str
    zone: Any
    percent: NumberPattern


def format_locale(language: Locale) -> Locale:
    """Return the locale that writes the page's dates, times and numbers: the browser's own where it
    asks for the page's language in a region (en-GB: 06/12/2026, 16:35), else the page's language.

    The words stay the language's (one catalogue for English): only how figures are written follows
    the region, and only the first of the browser's choices in the page's language counts.
    """
    if not has_request_context():
        return language
    for asked, _quality in request.accept_languages:
        try:
            found = Locale.parse(asked.replace("-", "_"))
        except (ValueError, TypeError, UnknownLocaleError):
            continue
        if found.language == language.language:
            return found if found.territory else language
    return language


def _formats() -> _Formats:
    """Return the page's formats, worked out once per request."""
    found: _Formats | None = g.get("formats") if has_request_context() else None
    if found is None:
        locale = format_locale(get_locale() or Locale.parse("en"))
        found = _Formats(locale, str(locale), get_timezone() or pytz.UTC, parse_pattern(locale.percent_formats[None]))
        if has_request_context():
            g.formats = found
    return found


def viewer_zone() -> Any:
    """Return the viewer's time zone (the account's, else the browser's, else UTC), as the pages show times in."""
    return _formats().zone


def viewer_today() -> date:
    """Return today's date in the viewer's time zone."""
    return datetime.now(UTC).astimezone(viewer_zone()).date()


def percent(value: float | None) -> str:
    """Return a share as a whole percentage in the page's locale, or a dash."""
    if value is None:
        return "–"
    formats = _formats()
    return _written(formats.percent.pattern, formats.language, value + 0.0)


def decimal(value: float | None) -> str:
    """Return a number with one decimal in the page's locale, or a dash (never "-0.0")."""
    return "–" if value is None else _written(ONE_DECIMAL, _formats().language, round(value, 1) + 0.0)


def is_time_zone(name: object) -> bool:
    """Tell whether `name` is a time zone the pages can show times in (an IANA name, as browsers give)."""
    if not isinstance(name, str) or len(name) > 64 or not TIME_ZONE_NAME.fullmatch(name):
        return False
    try:
        pytz.timezone(name)
    except pytz.UnknownTimeZoneError:
        return False
    return True


def time_zone_names() -> list[str]:
    """Return the time zones an account may fix, in alphabetical order."""
    return sorted(pytz.common_timezones)


def _local(value: datetime) -> tuple[datetime, _Formats]:
    """Return an instant in the viewer's time zone (naive ones are UTC), with the page's formats."""
    formats = _formats()
    return _in_zone(value, formats.zone), formats


def _in_zone(value: datetime, zone: Any) -> datetime:
    """Return an instant (naive ones are UTC) in a time zone."""
    instant = value if value.tzinfo is not None else value.replace(tzinfo=pytz.UTC)
    # No pytz normalize() after it: astimezone() already asks the zone for the offset of that
    # instant (normalize mends arithmetic on local times), so it would only do the work twice.
    return instant.astimezone(zone)


def _date_text(local: datetime, formats: _Formats) -> str:
    """Return the medium date of a local instant ("30 nov 2026")."""
    return _medium_date(formats.language, local.date())


@lru_cache(maxsize=4096)
def _medium_date(language: str, day: date) -> str:
    """Return a day as a medium date in a language, as Babel writes it.

    Kept from one request to the next, as numbers are (`_written`): Babel works out each date's
    pattern anew, a list shows a dozen days, and they are the same days from view to view.
    """
    return format_date(day, "medium", locale=Locale.parse(language))


def _time(value: datetime, text: str, kind: str) -> Markup:
    """Wrap a shown time in <time>, whose UTC instant lets the browser redo it in its own zone
    (`kind` says whether it shows the "date" or the "moment", date and time)."""
    utc = value.astimezone(UTC).replace(tzinfo=None) if value.tzinfo is not None else value
    return macro("_time.html", "time")(f"{utc.isoformat(timespec='seconds')}Z", kind, text)


def moment(value: datetime | None) -> Markup:
    """Return a date and time in the viewer's time zone and the page's language ("30 nov 2026, 16:35")."""
    if value is None:
        return Markup("")
    local, formats = _local(value)
    clock = format_time(local, "short", tzinfo=formats.zone, locale=formats.locale)
    return _time(value, f"{_date_text(local, formats)}, {clock}", "moment")


def date_text(value: date) -> str:
    """Return a calendar day in the page's language ("30 nov 2026"), as plain text."""
    return _medium_date(_formats().language, value)


def day_text(value: datetime) -> str:
    """Return the date, in the viewer's time zone, in the page's language, as plain text (for an
    image or a message, where no browser redoes it)."""
    local, formats = _local(value)
    return _date_text(local, formats)


def day(value: datetime | None) -> Markup:
    """Return the date, in the viewer's time zone, in the page's language ("30 nov 2026")."""
    if value is None:
        return Markup("")
    formats = _formats()
    return _day(formats.language, formats.zone, value)


def day_writer() -> Callable[[datetime], Markup]:
    """Return `day` for the many dates of one list, the page's language and zone looked up once
    rather than for each of its cards."""
    formats = _formats()
    language, zone = formats.language, formats.zone
    return lambda value: _day(language, zone, value)


@lru_cache(maxsize=4096)
def _day(language: str, zone: Any, value: datetime) -> Markup:
    """Return `day`'s markup for an instant, kept from one request to the next.

    A list shows the same matches' and nights' dates view after view (history, head to head
    and the nights write twenty-odd each): each is put in the zone, written and wrapped once,
    so that a page of them stays as quick on a long history as on a short one.
    """
    return _time(value, _medium_date(language, _in_zone(value, zone).date()), "date")
