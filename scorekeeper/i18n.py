"""The words of the game and the rules engine's sentences in the page's language (Flask-Babel)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from functools import lru_cache
from typing import Any, cast

import flask_babel
import pytz
from babel import Locale, UnknownLocaleError
from babel.dates import format_date, format_time
from babel.numbers import NumberPattern, parse_pattern
from babel.support import NullTranslations
from flask import Flask, g, has_request_context, request
from flask_babel import get_locale, get_timezone, get_translations
from jinja2 import pass_eval_context
from jinja2.nodes import EvalContext
from markupsafe import Markup

from .rules import GAMES, OptionSpec, RuleError
from .rules.messages import MESSAGES, N_, PLURALS
from .templating import macro
from .text import seat_marks

#: Suit names as players of each language say them (the catalogues hold each language's word).
SUIT_NAMES = {"oros": N_("Oros"), "copas": N_("Copas"), "espadas": N_("Espadas"), "bastos": N_("Bastos")}
#: The same inside a sentence, in lower case as a sentence writes them ("sang 20 in oros").
# TRANSLATORS: a suit's name inside a sentence (lower case where the language writes it so).
SUIT_WORDS = {"oros": N_("oros"), "copas": N_("copas"), "espadas": N_("espadas"), "bastos": N_("bastos")}
STATUS_WORDS = {"playing": N_("playing"), "finished": N_("finished"), "abandoned": N_("abandoned")}
#: The two kinds of tute, as the engine names them in its sentences.
TUTE_KINDS = {"reyes": N_("Reyes"), "caballos": N_("Caballos")}
#: What an IANA time zone name looks like ("Europe/Madrid", "America/Argentina/Buenos_Aires", "Etc/GMT+3").
TIME_ZONE_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_+\-]*(/[A-Za-z0-9_+\-]+){0,2}")
#: A range of player counts inside the engine's sentences ("2 to 8").
PLAYER_RANGE = N_("%(low)s to %(high)s")
#: The engine's messages that the deal forms check in the browser before sending.
BROWSER_CHECKED = (
    "trump_missing",
    "points_impossible",
    "points_not_pair",
    "points_total",
    "points_total_tute",
    "last_trick_missing",
    "tute_kind",
    "tute_off",
    "cante_after_tute",
    "cante_suit_twice",
    "last_trick_after_tute",
    "bid_hook",
    "bid_range",
    "tricks_total",
    "tricks_range",
    "cards_range",
    "cards_schedule",
    "bids_not_list",
    "tricks_not_list",
)


def translations() -> NullTranslations:
    """Return the page's translations, looked up once per request.

    Flask-Babel looks the locale and catalogue up again on every call, and a scoreboard says a
    few hundred words: so the request keeps what it found. The locale
    is chosen once per request (switching language redirects), so nothing goes stale.
    """
    if not has_request_context():
        return get_translations()
    found: NullTranslations | None = g.get("translations")
    if found is None:
        found = g.translations = get_translations()
    return found


def gettext(string: str, **variables: Any) -> str:
    """Return `string` in the page's language, its %(name)s placeholders filled (as Flask-Babel's gettext)."""
    text = translations().ugettext(string)
    return text % variables if variables else text


def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    """Return the singular or plural of a sentence in the page's language (as Flask-Babel's ngettext)."""
    variables.setdefault("num", num)
    return translations().ungettext(singular, plural, num) % variables


def lazy_gettext(string: str, **variables: Any) -> str:
    """Return `string` to be said in the language of the page that shows it (Flask-Babel's lazy_gettext).

    For text made before any request, such as form labels. What it returns is Flask-Babel's
    lazy string, which stands in for the text it becomes wherever text is read (WTForms,
    flash, Jinja call str() on it), so it is typed as that text.
    """
    return cast(str, flask_babel.lazy_gettext(string, **variables))


def suit_name(suit: str | None) -> str:
    """Return a suit's name in the page's language."""
    return gettext(SUIT_NAMES[suit]) if suit in SUIT_NAMES else suit or ""


def suit_word(suit: str) -> str:
    """Return a suit's name as a sentence says it, in the page's language."""
    return gettext(SUIT_WORDS[suit]) if suit in SUIT_WORDS else suit


def game_title(name: str) -> str:
    """Return a game's title in the page's language."""
    return gettext(GAMES[name].title) if name in GAMES else name


def status_word(status: str) -> str:
    """Return a match status in the page's language."""
    return gettext(STATUS_WORDS[status]) if status in STATUS_WORDS else status


def say(problem: RuleError) -> str:
    """Return a rules-engine problem as a sentence in the page's language."""
    params: dict[str, Any] = dict(problem.params)
    if "suit" in params and isinstance(params["suit"], str):
        params["suit"] = suit_word(params["suit"].lower())
    if isinstance(params.get("kind"), str) and params["kind"].lower() in TUTE_KINDS:
        params["kind"] = gettext(TUTE_KINDS[params["kind"].lower()])
    if isinstance(params.get("low"), int) and isinstance(params.get("high"), int) and params["low"] != params["high"]:
        params["wanted"] = gettext(PLAYER_RANGE, low=params["low"], high=params["high"])
    option = params.get("option")
    if isinstance(option, OptionSpec):
        from .house_rules import allowed_in_words, rule_name  # it says its words through this module

        params["name"], params["allowed"] = rule_name(option), allowed_in_words(option)
    if "game" in params and isinstance(params["game"], str):
        params["game"] = next((gettext(g.title) for g in GAMES.values() if g.title == params["game"]), params["game"])
    try:
        template = template_of(problem.message_id, params)
        said = template.format(**params)
        # a sentence that opens with a suit's name, in lower case inside a sentence, opens with a capital
        return said[:1].upper() + said[1:] if template.startswith("{suit}") else said
    except (KeyError, IndexError, ValueError):  # a translation that lost a placeholder: say it in English
        return problem.message


def template_of(message_id: str, params: dict[str, Any]) -> str:
    """Return the template of an engine's sentence in the page's language, in the plural form
    its count asks for where it says one."""
    counted = PLURALS.get(message_id)
    if counted is None:
        return gettext(MESSAGES[message_id])
    count = params.get(counted[0])
    return translations().ungettext(*counted[1], count if isinstance(count, int) else 2)


def browser_messages() -> dict[str, str]:
    """Return the templates of the engine's sentences that the browser checks, in the page's language.

    A sentence with a count comes twice, as the browser picks its form (Intl.PluralRules): the
    form for "one" under its id and "_one", and the form for any other count under its id.
    """
    words = {key: gettext(MESSAGES[key]) for key in BROWSER_CHECKED}
    for key in BROWSER_CHECKED:
        if key in PLURALS:
            singular, plural = PLURALS[key][1]
            words[f"{key}_one"] = translations().ungettext(singular, plural, 1)
            words[key] = translations().ungettext(singular, plural, 2)
    words.update({f"kind_{kind}": gettext(name) for kind, name in TUTE_KINDS.items()})
    return words


def suit_choices() -> list[tuple[str, str]]:
    """Return (suit, name) pairs for suit buttons."""
    return [(suit, suit_name(suit)) for suit in SUIT_NAMES]


def enumerate_pairs(items: Iterable[Any]) -> list[tuple[int, Any]]:
    """Return (index, item) pairs, for buttons whose value is a seat or a side."""
    return list(enumerate(items))


def same_pairs(items: Iterable[Any]) -> list[tuple[Any, Any]]:
    """Return (item, item) pairs, for buttons whose value is their label."""
    return [(item, item) for item in items]


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


def register(app: Flask) -> None:
    """Give the templates the words of the game."""
    # pytz reads its list of every zone (some 600 files) at the first lookup: pay it at start,
    # not in the first request that shows a time.
    pytz.timezone("Europe/Madrid")
    app.add_template_filter(suit_name, "suit_name")
    app.add_template_filter(moment, "moment")
    app.add_template_filter(day, "day")
    app.add_template_global(lambda: str(get_timezone() or "UTC"), "current_time_zone")
    app.add_template_filter(percent, "percent")
    app.add_template_filter(decimal, "decimal")
    app.add_template_filter(game_title, "game_title")
    app.add_template_filter(status_word, "status_word")
    app.add_template_filter(enumerate_pairs, "enumerate_pairs")
    app.add_template_filter(same_pairs, "zip_self")
    app.add_template_filter(seat_marks, "seat_marks")
    app.add_template_global(lambda: str(get_locale() or "en"), "current_language")
    # In place of the callables Flask-Babel installed: the same translations, looked up once per request.
    # (Jinja's i18n extension adds this method to the environment at run time; its types do not show it.)
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        lambda string: translations().ugettext(string),
        lambda singular, plural, num: translations().ungettext(singular, plural, num),
        newstyle=True,
    )
    # Jinja's own new-style `_` passes each word through the template's context three times, and
    # a scoreboard says some sixty words; these do the same in one call.
    app.jinja_env.globals.update(_=template_gettext, gettext=template_gettext, ngettext=template_ngettext)

    @app.context_processor
    def _words() -> dict[str, Any]:
        return {"suit_choices": suit_choices(), "rule_messages": browser_messages()}


@pass_eval_context
def template_gettext(context: EvalContext, string: str, /, **variables: Any) -> str:
    """Return `string` in the page's language with its %(name)s placeholders filled, as Jinja's new-style
    gettext does: marked safe where the template escapes, so that only the values are escaped. A
    word without placeholders is given as it is (Jinja would read a "%%" in it as a "%")."""
    text = translations().ugettext(string)
    marked = Markup(text) if context.autoescape else text
    return marked % variables if variables else marked


@pass_eval_context
def template_ngettext(context: EvalContext, singular: str, plural: str, count: int, /, **variables: Any) -> str:
    """Return the singular or plural of a sentence for the page, as Jinja's new-style ngettext does
    (see `template_gettext`); %(num)s is the count unless the template names another."""
    text = translations().ungettext(singular, plural, count)
    variables.setdefault("num", count)
    return (Markup(text) if context.autoescape else text) % variables
