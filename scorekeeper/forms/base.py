"""The form every form of the app is made from: Flask-WTF's, with WTForms' own messages read once per language."""

from __future__ import annotations

from typing import Any

from babel.support import NullTranslations, Translations
from flask_babel import get_locale
from flask_wtf import FlaskForm
from wtforms.i18n import messages_path

#: WTForms' catalogue of its own messages ("Not a valid choice." …), by language, read on first use.
_CATALOGUES: dict[str, NullTranslations] = {}


def wtforms_catalogue(language: str) -> NullTranslations:
    """Return WTForms' messages in `language` (or untranslated where it has none), read from disk once."""
    found = _CATALOGUES.get(language)
    if found is None:
        found = _CATALOGUES[language] = Translations.load(messages_path(), [language], domain="wtforms")
    return found


class Form(FlaskForm):
    """A Flask-WTF form (posted data) whose WTForms messages speak the page's language.

    Flask-WTF translates them too, but reads WTForms' catalogue from disk again on every request
    that makes a form, every deal entered among them. The catalogue is the same one, kept here
    per language instead.
    """

    class Meta:
        # CSRFProtect checks the token of every POST before its view runs (only the API, which
        # takes no forms, is exempt), so the templates send it with csrf_token() and the form does
        # not check it again: its own token field signed the token anew for every form posted,
        # every deal entered among them.
        csrf = False

        def get_translations(self, form: Any) -> NullTranslations | None:
            """Return WTForms' messages in the request's language."""
            locale = get_locale()
            return wtforms_catalogue(str(locale)) if locale is not None else None
