"""House-rule options: what each game accepts, its defaults, and how raw values are checked."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Literal

from .common import Code, ErrorLog, is_int

OptionKind = Literal["int", "bool", "choice", "schedule"]
OptionValue = int | bool | str | tuple[int, ...]

#: Longest explicit schedule (Pocha's cards per deal) accepted; far beyond any real evening, it keeps
#: hostile input small.
MAX_SCHEDULE_DEALS: Final = 200


@dataclass(frozen=True)
class OptionSpec:
    """One house rule: its name, kind, default, allowed values, a one-line description, and its words.

    `default` is None only where the default depends on another option (Tute's `target`), or
    where leaving the option out means "none" (subastado's `deals`); `description` then says so.
    `label` is the rule's name on the new-match form and `choice_labels` the words for its
    `choices` in their order when they are words (empty when they are numbers), both in English
    and marked for the catalogue: the pages say them in the player's language.
    """

    name: str
    kind: OptionKind
    default: OptionValue | None
    description: str
    choices: tuple[int | str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    label: str = ""
    choice_labels: tuple[str, ...] = ()

    def choice_label(self, value: object) -> str | None:
        """Return the English word for one of the `choices` (None for a number, or a value it has no word for)."""
        for choice, word in zip(self.choices, self.choice_labels, strict=False):
            if choice == value:
                return word
        return None

    @property
    def allowed(self) -> str:
        """Return the allowed values in words, for messages and forms."""
        if self.kind == "bool":
            return "true or false"
        if self.kind == "int":
            return f"a whole number from {self.minimum} to {self.maximum}"
        names = [str(c) for c in self.choices]
        if self.kind == "schedule":
            return ", ".join(names) + f", or a list of cards per player for each deal (at most {MAX_SCHEDULE_DEALS})"
        return ", ".join(names[:-1]) + " or " + names[-1]

    def problem(self, value: object) -> Code | None:
        """Return the code of what is wrong with `value` for this option (`malformed` for the
        wrong type, `options_invalid` for a value out of range), or None when it is acceptable."""
        if self.kind == "bool":
            return None if isinstance(value, bool) else Code.MALFORMED
        if self.kind == "int":
            if not is_int(value):
                return Code.MALFORMED
            return None if _within(value, self.minimum, self.maximum) else Code.OPTIONS_INVALID
        if self.kind == "choice":
            if not any(type(value) is type(choice) for choice in self.choices):
                return Code.MALFORMED
            return None if value in self.choices else Code.OPTIONS_INVALID
        if isinstance(value, str):
            return None if value in self.choices else Code.OPTIONS_INVALID
        if not isinstance(value, list) or not all(is_int(v) for v in value):
            return Code.MALFORMED
        return None if 0 < len(value) <= MAX_SCHEDULE_DEALS else Code.OPTIONS_INVALID


def _within(value: int, minimum: int | None, maximum: int | None) -> bool:
    return (minimum is None or value >= minimum) and (maximum is None or value <= maximum)


def read_options(specs: tuple[OptionSpec, ...], raw: object, log: ErrorLog) -> dict[str, object] | None:
    """Check raw options against `specs`; return every option's value (defaults filled in) or None.

    Unknown names and values out of range are logged as `options_invalid`; values of the
    wrong type, and options that are not an object at all, as `malformed`.
    """
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        log.add(Code.MALFORMED, "options", "options_not_object")
        return None
    by_name = {spec.name: spec for spec in specs}
    start = log.count()
    values: dict[str, object] = {spec.name: spec.default for spec in specs}
    for name, value in raw.items():
        spec = by_name.get(name) if isinstance(name, str) else None
        if spec is None:
            known = ", ".join(by_name)
            log.add(Code.OPTIONS_INVALID, f"options.{name}", "option_unknown", name=name, known=known)
            continue
        code = spec.problem(value)
        if code is not None:
            # `option` lets a page name the rule and its values in its own words (problem_words.say).
            log.add(code, f"options.{name}", "option_value", name=name, allowed=spec.allowed, option=spec)
            continue
        values[name] = tuple(value) if isinstance(value, list) else value
    return values if log.count() == start else None


def as_int(values: Mapping[str, object], name: str) -> int:
    """Return a checked whole-number option."""
    value = values[name]
    assert is_int(value), name
    return value


def as_bool(values: Mapping[str, object], name: str) -> bool:
    """Return a checked true/false option."""
    value = values[name]
    assert isinstance(value, bool), name
    return value


def as_str(values: Mapping[str, object], name: str) -> str:
    """Return a checked named-choice option."""
    value = values[name]
    assert isinstance(value, str), name
    return value
