"""Languages: every message translated in each catalogue, chosen from the browser, switched, remembered."""

from __future__ import annotations

import re
from io import BytesIO
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent
from flask import Flask
from flask_babel import get_locale

from scorekeeper import formats

from ..conftest import PASSWORD, Browser, csrf_token, signed_in
from .matchhelpers import start, tute_form

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("es", "it", "nb")
#: As the README's extraction command gives them (`-k`), with Babel's own.
KEYWORDS = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "lazy_gettext": None,
    "_l": None,
    "N_": None,
    "_plural": (1, 2),
}
PLACEHOLDER = re.compile(r"%\(\w+\)s|\{\w+\}")


def source_messages() -> set[str]:
    """Return every message the code and templates mark for translation (singular forms)."""
    found: set[str] = set()
    method_map = [
        ("scorekeeper/**.py", "python"),
        ("templates/**.html", "jinja2"),
        ("scorekeeper/games/**.html", "jinja2"),
    ]
    for _file, _line, message, _comments, _context in extract_from_dir(str(ROOT), method_map, keywords=KEYWORDS):
        found.add(message[0] if isinstance(message, tuple) else message)
    return {m for m in found if m}


def catalogue(language: str):  # type: ignore[no-untyped-def]
    with open(ROOT / "translations" / language / "LC_MESSAGES" / "messages.po", "rb") as handle:
        return read_po(handle)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated_keeping_its_placeholders(language: str) -> None:
    catalog = catalogue(language)
    translated = {}
    for message in catalog:
        if not message.id:
            continue
        singular = message.id[0] if isinstance(message.id, tuple) else message.id
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(strings) and not message.fuzzy, f"{language}: {singular!r} is not translated"
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        for index, string in enumerate(strings):
            source = ids[min(index, len(ids) - 1)]
            assert set(PLACEHOLDER.findall(string)) == set(PLACEHOLDER.findall(source)), (language, singular, string)
        translated[singular] = strings
    missing = source_messages() - set(translated)
    assert missing == set(), f"{language}: not in the catalogue: {sorted(missing)[:10]}"


def test_every_message_of_the_template_is_still_marked_in_the_sources() -> None:
    """A message the extraction no longer finds (marked where Babel cannot see it, inside an
    f-string or through a variable) would be dropped at the catalogues' next update, and then
    shown in English."""
    with open(ROOT / "translations" / "messages.pot", "rb") as handle:
        template = read_po(handle)
    listed = {message.id[0] if isinstance(message.id, tuple) else message.id for message in template if message.id}
    assert listed - source_messages() == set()


@pytest.mark.parametrize("language", LANGUAGES)
def test_compiled_catalogues_match_their_sources(language: str) -> None:
    compiled = BytesIO()
    write_mo(compiled, catalogue(language))
    with open(ROOT / "translations" / language / "LC_MESSAGES" / "messages.mo", "rb") as handle:
        shipped = read_mo(handle)
    compiled.seek(0)
    fresh = read_mo(compiled)

    def table(catalog):  # type: ignore[no-untyped-def]
        return {_hashable(m.id): _hashable(m.string) for m in catalog if m.id}

    assert table(shipped) == table(fresh), "run: pybabel compile -d translations"


def _hashable(value: object) -> object:
    return tuple(value) if isinstance(value, (list, tuple)) else value


def test_the_browser_language_is_used_until_one_is_chosen(app: Flask) -> None:
    client = app.test_client()
    page = client.get("/setup", headers={"Accept-Language": "it-IT,it;q=0.9,en;q=0.5"}).get_data(as_text=True)
    assert 'lang="it"' in page and "Ti diamo il benvenuto in Scorekeeper" in page
    page = client.get("/setup", headers={"Accept-Language": "nb-NO"}).get_data(as_text=True)
    assert "Velkommen til Scorekeeper" in page
    page = client.get("/setup", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert "Welcome to Scorekeeper" in page


def test_the_chosen_language_is_remembered_for_the_account(ana: Browser, app: Flask) -> None:
    ana.post("/language", data={"language": "es", "next": "/players/"})
    assert "Añadir jugador" in ana.get("/players/").get_data(as_text=True)
    other_phone = app.test_client()
    token = csrf_token(other_phone)
    other_phone.post(
        "/login", data={"username": "ana", "password": PASSWORD, "csrf_token": token}, headers={"Accept-Language": "nb"}
    )
    assert "Añadir jugador" in other_phone.get("/players/", headers={"Accept-Language": "nb"}).get_data(as_text=True)


def test_an_unknown_language_is_ignored(ana: Browser) -> None:
    assert ana.post("/language", data={"language": "xx", "next": "/"}).status_code == 302
    assert 'lang="en"' in ana.get("/").get_data(as_text=True)


def test_rule_violations_are_said_in_the_page_language_with_game_words(ana: Browser) -> None:
    ana.post("/language", data={"language": "it", "next": "/"})
    start(ana, "tute2", ["Ana", "Luis"])
    page = ana.post("/matches/1/deal", data=tute_form(119, 0)).get_data(as_text=True)
    assert "Nessuno può fare 119 punti" in page
    assert "Briscola" in page and "Denari" in page and "Ultima presa" in page


def test_wtforms_own_messages_are_said_in_each_request_s_language(ana: Browser, bea: Browser) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    start(bea, "tute2", ["Bea", "Luis"])
    bea.post("/language", data={"language": "es", "next": "/"})
    # The two accounts take turns, so that each language's catalogue is met while the other's is kept.
    for browser, match_id, message in (
        (ana, 1, "Not a valid choice."),
        (bea, 2, "Opción inválida."),
        (ana, 1, "Not a valid choice."),
        (bea, 2, "Opción inválida."),
    ):
        response = browser.post(f"/matches/{match_id}/deal", data=tute_form(70, 0, trump="joker"))
        assert response.status_code == 422 and message in response.get_data(as_text=True)


def test_the_deal_words_appear_as_spanish_players_say_them(ana: Browser) -> None:
    ana.post("/language", data={"language": "es", "next": "/"})
    start(ana, "tute2", ["Ana", "Luis"])
    ana.post("/matches/1/deal", data=tute_form(80, 0, trump="copas", cantes={"copas": 1}))
    page = ana.get("/matches/1").get_data(as_text=True)
    assert "Luis cantó las 40 en copas" in page and "de últimas: Ana" in page
    form = ana.get("/matches/1/deal").get_data(as_text=True)
    assert "las 40 en el triunfo" in form and "Triunfo" in form and "Tantos" in form


def test_the_signed_out_pages_follow_the_choice_too(app: Flask) -> None:
    signed_in(app, "ana")
    client = app.test_client()
    client.post("/language", data={"language": "nb", "next": "/login", "csrf_token": csrf_token(client)})
    assert "Logg inn" in client.get("/login").get_data(as_text=True)


def test_the_language_is_chosen_on_the_account_page_or_from_the_foot_of_any_page(ana: Browser, app: Flask) -> None:
    history = ana.get("/history").get_data(as_text=True)
    assert 'href="/language?next=/history">Language: English</a>' in history
    assert '<select id="language"' not in history  # no longer a form at the foot of every page
    account = ana.get("/account").get_data(as_text=True)
    assert all(f'name="language" value="{code}"' in account for code in ("en", "es", "it", "nb"))
    stranger = app.test_client()
    page = stranger.get("/language?next=/login").get_data(as_text=True)
    assert 'name="next" value="/login"' in page and 'lang="nb"' in page and ">Norsk" in page
    assert 'name="next" value="/"' in stranger.get("/language?next=https://evil.example/").get_data(as_text=True)
    ana.post("/language", data={"language": "it", "next": "/account"})
    assert "Lingua: Italiano" in ana.get("/account").get_data(as_text=True)


@pytest.mark.parametrize(
    ("language", "range_words", "kind_word"),
    [("en", "2 to 8", "Reyes"), ("es", "de 2 a 8", "reyes"), ("it", "da 2 a 8", " re"), ("nb", "2 til 8", "konger")],
)
def test_the_player_range_and_the_tute_kind_are_said_in_the_page_language(
    app: Flask, language: str, range_words: str, kind_word: str
) -> None:
    from scorekeeper.problem_words import say
    from scorekeeper.registry import check_match
    from scorekeeper.rules import RuleViolation

    tute = {
        "game": "tute2",
        "players": ["Ana", "Luis"],
        "options": {},
        "deals": [
            {
                "dealer": 0,
                "trump": "oros",
                "tute": {"seat": 0, "kind": "reyes"},
                "cantes": [{"seat": 1, "suit": "copas"}],
            }
        ],
    }
    with app.test_request_context(headers={"Accept-Language": language}):
        sentences = []
        for document in ({"game": "pocha", "players": ["Ana"], "options": {}, "deals": []}, tute):
            with pytest.raises(RuleViolation) as raised:
                check_match(document)
            sentences += [say(problem) for problem in raised.value.problems]
    said = " ".join(sentences)
    assert range_words in said and " to 8" not in said.replace(range_words, "")
    assert kind_word in said, said


@pytest.mark.parametrize("language", ("en",) + LANGUAGES)
def test_numbers_are_written_as_babel_writes_them_and_zero_without_a_sign(app: Flask, language: str) -> None:
    figures = [n / 10 for n in range(-15000, 15000, 7)] + [1234567.8, 0.05, 0.15, 2.25, -2.25]
    shares = [won / played for played in range(1, 60) for won in range(played + 1)]
    with app.test_request_context("/", headers={"Accept-Language": language}):
        assert str(get_locale()) == language
        for _ in range(2):  # written, then kept
            for value in figures:
                assert formats.decimal(value) == format_decimal(round(value, 1), "#,##0.0", locale=language), value
            for share in shares:
                assert formats.percent(share) == format_percent(share, locale=language), share
        assert (
            formats.decimal(-0.04)
            == formats.decimal(-0.0)
            == formats.decimal(0.0)
            == format_decimal(0.0, "#,##0.0", locale=language)
        )
        assert (formats.decimal(None), formats.percent(None)) == ("–", "–")
