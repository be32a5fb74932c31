"""The checks of typed text that every layer may make: names, usernames, and plain text without
control characters. They raise `InvalidInput`, at the field given."""

from __future__ import annotations

import re
import unicodedata

from flask_babel import gettext as _

from .errors import InvalidInput

MAX_NAME_LENGTH = 40
#: Longer than any text a form takes is refused before its Unicode is composed (which takes time).
MAX_TYPED_TEXT = 4000
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
    """Return `value` if it is text of at most `longest` without control characters or lone surrogates.

    NUL counts as a control character.
    """
    if not isinstance(value, str) or len(value) > longest:
        return None
    return None if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in value) else value


def clean_note(note: object, field: str = "note", longest: int = 200) -> str | None:
    """Return a match's note with its spaces tidied and its Unicode composed, or None when it is empty;
    refuse one that is not text, is longer than `longest` once composed, or holds invisible control
    characters."""
    if note is None:
        return None
    if not isinstance(note, str):
        raise InvalidInput(_("A note is text."), field)
    if len(note) > MAX_TYPED_TEXT:  # composing it first would be work for nothing
        raise InvalidInput(_("A note has at most %(count)s characters.", count=longest), field)
    # Counted once composed, as it is stored: composing can make a text up to three times longer.
    tidy = unicodedata.normalize("NFC", " ".join(note.split()))
    if len(tidy) > longest:
        raise InvalidInput(_("A note has at most %(count)s characters.", count=longest), field)
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs") for ch in tidy):
        raise InvalidInput(_("A note cannot hold invisible or control characters."), field)
    return tidy or None


def clean_username(username: object) -> str:
    """Return a new account's username with its Unicode composed, as it is stored; refuse one that is not
    3 to 40 letters, digits or . _ - @ + once composed."""
    tidy = unicodedata.normalize("NFC", str(username).strip()) if len(str(username)) <= MAX_TYPED_TEXT else ""
    if not USERNAME_PATTERN.match(tidy):
        raise InvalidInput(_("A username has 3 to 40 letters, digits or . _ - @ +, without spaces."), "username")
    return tidy


def username_keys(typed: str) -> list[str]:
    """Return the keys (case-folded forms) an account typed so may be stored under: composed first, as
    usernames are made now, and as typed, as versions before 0.2 made them."""
    typed = typed.strip()
    return list(dict.fromkeys((unicodedata.normalize("NFC", typed).casefold(), typed.casefold())))


def seat_marks(names: list[str]) -> list[str]:
    """Return a short mark for each of a table's names, told apart from the others': the initials
    of its words (at most three); where two names share them, the shortest beginning of each (two
    to four letters) that no other name begins with; failing that, the initials and the seat
    number. For where a full name has no room (a cell of the four-seat cante grid), beside a key
    that gives each mark's name."""

    def initials(name: str) -> str:
        return "".join(word[0] for word in name.split()[:3]).upper()

    def start(name: str, size: int) -> str:
        return "".join(name.split())[:size].title()

    marks = [initials(name) for name in names]
    shared = [index for index, mark in enumerate(marks) if marks.count(mark) > 1]
    for index in shared:
        others = [other for seat, other in enumerate(names) if seat != index]
        size = next(
            (size for size in range(2, 5) if all(start(other, size) != start(names[index], size) for other in others)),
            None,
        )
        marks[index] = start(names[index], size) if size else f"{marks[index]}{index + 1}"
    return marks
