"""The checks of typed text that every layer may make: names, usernames, and plain text without
control characters. They raise `InvalidInput`, at the field given."""

from __future__ import annotations

import re
import unicodedata

from flask_babel import gettext as _

from .errors import InvalidInput

MAX_NAME_LENGTH = 40
USERNAME_PATTERN = re.compile(r"^[\w.@+-]{3,40}$")


def clean_name(name: str, field: str = "name") -> str:
    """Return a player or token name with its spaces tidied and its Unicode composed;
    refuse an empty or overlong one, or one with invisible control characters."""
    tidy = unicodedata.normalize("NFC", " ".join(str(name).split()))
    if not tidy:
        raise InvalidInput(_("Type a name."), field)
    if len(tidy) > MAX_NAME_LENGTH:
        raise InvalidInput(_("A name has at most %(count)s characters.", count=MAX_NAME_LENGTH), field)
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs") for ch in tidy):  # Cs: half a UTF-16 pair, from JSON
        raise InvalidInput(_("A name cannot hold invisible or control characters."), field)
    return tidy


def plain_text(value: object, longest: int) -> str | None:
    """Return `value` if it is text without control characters (NUL included) or lone surrogates, of at most `longest`."""
    if not isinstance(value, str) or len(value) > longest:
        return None
    return None if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in value) else value


def clean_note(note: object, field: str = "note", longest: int = 200) -> str | None:
    """Return a match's note with its spaces tidied and its Unicode composed, or None when it is empty;
    refuse one that is not text, is longer than `longest` or holds invisible control characters."""
    if note is None:
        return None
    if not isinstance(note, str):
        raise InvalidInput(_("A note is text."), field)
    if len(note) > longest:
        raise InvalidInput(_("A note has at most %(count)s characters.", count=longest), field)
    tidy = unicodedata.normalize("NFC", " ".join(note.split()))
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs") for ch in tidy):
        raise InvalidInput(_("A note cannot hold invisible or control characters."), field)
    return tidy or None
