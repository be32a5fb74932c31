"""The words of the game and the rules engine's sentences in the page's language (Flask-Babel)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

import flask_babel
import pytz
from babel.support import NullTranslations
from flask import Flask, g, has_request_context
from flask_babel import get_locale, get_timezone, get_translations
from jinja2 import pass_eval_context
from jinja2.nodes import EvalContext
from markupsafe import Markup

from .formats import day, decimal, moment, percent
from .registry import GAMES
from .rules.messages import MESSAGES, N_, PLURALS
from .text import seat_marks

#: Suit names as players of each language say them (the catalogues hold each language's word).
SUIT_NAMES = {"oros": N_("Oros"), "copas": N_("Copas"), "espadas": N_("Espadas"), "bastos": N_("Bastos")}
#: The same inside a sentence, in lower case as a sentence writes them ("sang 20 in oros").
# TRANSLATORS: a suit's name inside a sentence (lower case where the language writes it so).
SUIT_WORDS = {"oros": N_("oros"), "copas": N_("copas"), "espadas": N_("espadas"), "bastos": N_("bastos")}
STATUS_WORDS = {"playing": N_("playing"), "finished": N_("finished"), "abandoned": N_("abandoned")}
#: A range of player counts inside the engine's sentences ("2 to 8").
PLAYER_RANGE = N_("%(low)s to %(high)s")


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


def param_words() -> dict[str, str]:
    """Return the words, marked for the catalogue, that every game gives for values its messages' parameters hold."""
    return {value: word for game in GAMES.values() for value, word in game.param_words.items()}


def browser_messages() -> dict[str, str]:
    """Return the templates of the engine's sentences that the browser checks, in the page's language.

    A sentence with a count comes twice, as the browser picks its form (Intl.PluralRules): the
    form for "one" under its id and "_one", and the form for any other count under its id.
    """
    checked = list(dict.fromkeys(key for game in GAMES.values() for key in game.browser_checked))
    words = {key: gettext(MESSAGES[key]) for key in checked}
    for key in checked:
        if key in PLURALS:
            singular, plural = PLURALS[key][1]
            words[f"{key}_one"] = translations().ungettext(singular, plural, 1)
            words[key] = translations().ungettext(singular, plural, 2)
    words.update({f"kind_{value}": gettext(word) for value, word in param_words().items()})
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
