"""The house rules in the page's words: each rule's name and its values' words (which each game declares
with its rules), as the new-match form shows them and the messages about a rule say them (never the
key a match document uses)."""

from __future__ import annotations

from .i18n import gettext, lazy_gettext
from .rules import OptionSpec
from .rules.options import MAX_SCHEDULE_DEALS

#: The word for a rule of the "schedule" kind set by hand (a list of cards per deal) rather than by a named schedule.
CUSTOM_SCHEDULE = lazy_gettext("custom")


def rule_name(option: OptionSpec) -> str:
    """Return a house rule's name in the page's language (its key when the game gave it no words)."""
    return gettext(option.label) if option.label else option.name


def value_name(option: OptionSpec, value: object) -> str:
    """Return one of a house rule's values in the page's language, as the new-match form offers it."""
    if option.kind == "schedule" and value == "custom":
        return str(CUSTOM_SCHEDULE)
    word = option.choice_label(value)
    return gettext(word) if word else str(value)


def allowed_in_words(option: OptionSpec) -> str:
    """Say a house rule's allowed values in the page's language, its choices by the form's words for them."""
    if option.kind == "bool":
        return gettext("on or off")
    if option.kind == "int":
        return gettext("a whole number from %(low)s to %(high)s", low=option.minimum, high=option.maximum)
    names = [value_name(option, choice) for choice in option.choices]
    if option.kind == "schedule":
        return gettext(
            "%(choices)s, or a list of cards per player for each deal (at most %(most)s)",
            choices=", ".join(names),
            most=MAX_SCHEDULE_DEALS,
        )
    return gettext("%(first)s or %(last)s", first=", ".join(names[:-1]), last=names[-1]) if len(names) > 1 else names[0]
