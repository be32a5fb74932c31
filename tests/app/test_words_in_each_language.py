"""The words at the table in each language: the sentences a player reads most, exactly as a native
player would say them, and no English left inside a translated page."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import pytest
from flask import Flask

from ..conftest import Browser
from .matchhelpers import bids_form, start, tute_form

#: English a translated page must not show: words of the interface, and the joins of its sentences.
ENGLISH = (
    "whole number",
    "must be",
    " to ",
    "off)",
    "(off",
    " deals",
    "Deal ",
    "Save",
    "match",
    "player",
    "trick",
    "bid",
    "Enter ",
    "points",
    "tap ",
    "phone",
    "link",
    "Undo",
    "Delete",
    "House rule",
    "any more",
    "Not done",
    "true or false",
    " or ",
    " and ",
    "the ",
)
#: Words that are the language's own too: Italian says "link", Norwegian's "to" is two.
OWN_WORDS = {"es": (), "it": ("link",), "nb": (" to ",)}
#: Attributes whose text a player reads or hears, or that the page's script shows.
READ_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")


class ReadText(HTMLParser):
    """Collect what a page says: its text, and the attributes read out or shown by its scripts."""

    def __init__(self) -> None:
        super().__init__()
        self.said: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        for name, value in attrs:
            # a data attribute of one word names a field or a step for the scripts; with spaces, it is a sentence
            if value and (name in READ_ATTRIBUTES or (name.startswith("data-") and " " in value)):
                self.said.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.said.append(data.strip())


def english_in(page: str, language: str) -> list[str]:
    """Return the English words found in what the page says in `language`."""
    reader = ReadText()
    reader.feed(page)
    found = []
    for text in reader.said:
        if text.startswith(("{", "[")) or ("/" in text and " " not in text):
            continue  # data for the scripts, an address
        found += [f"{word!r} in {text!r}" for word in ENGLISH if word in text and word not in OWN_WORDS[language]]
    return found


@pytest.mark.parametrize("language", ("es", "it", "nb"))
def test_no_english_is_left_in_a_translated_page(ana: Browser, app: Flask, language: str) -> None:
    ana.post("/language", data={"language": language, "next": "/"})
    start(ana, "tute2", ["Rosa", "Juan"])
    ana.post("/matches/1/deal", data=tute_form(70, 0, cantes={"oros": 1}))
    start(ana, "pocha", ["Rosa", "Juan", "Nuria"], opt_schedule="custom", schedule_list="1,2")
    ana.post("/matches/2/bids", data=bids_form([0, 0, 0], number=1, dealer=0, cards=1))
    start(ana, "tute4", ["Rosa", "Juan", "Nuria", "Iker"])
    pages = {
        path: ana.get(path).get_data(as_text=True)
        for path in (
            "/",
            "/matches/new",
            "/matches/new/tute2",
            "/matches/new/pocha",
            "/matches/1",
            "/matches/1/deal",
            "/matches/2",
            "/matches/2/deal",
            "/matches/3/deal",
            "/history",
            "/players/",
            "/nights",
            "/stats/tute2",
            "/stats/pocha",
            "/account",
            "/language",
            "/offline",
            "/matches/99",
        )
    }
    refused = {
        "119 card points": ana.post("/matches/1/deal", data=tute_form(119, 0, number=2, dealer=1)),
        "the hook": ana.post("/matches/2/deal", data=bids_form([1, 0, 0], number=1, dealer=0, cards=1)),
        "a house rule out of range": start(ana, "tute2", ["Rosa", "Juan"], opt_last_trick_bonus="99"),
        "one player": start(ana, "pocha", ["Rosa"]),
    }
    pages.update({name: answer.get_data(as_text=True) for name, answer in refused.items()})
    found = {name: english_in(page, language) for name, page in pages.items()}
    found = {name: words for name, words in found.items() if words}
    assert found == {}


#: What the table reads most, in each language: the bids against the cards (too few, too many, as many),
#: the dealer's hook, a house rule out of range, the player count, and the banners of refused kept deals.
SENTENCES = {
    "en": {
        "few": "The bids add up to 0 of 1: 1 trick is left over, so someone will take more than they bid.",
        "many": "The bids add up to 2 of 1: 1 trick too many, so someone will fall short.",
        "equal": "The bids add up to the 2 cards in hand: everyone can make theirs.",
        "hook": "Rosa deals and bids last, and may not bid 0: the bids would add up to the 1 card in hand, and "
        "everyone could make their bid.",
        "rule": "House rule 'Last trick bonus' must be a whole number from 0 to 50.",
        "players": "Pocha is played by 2 to 8 players, not 1.",
        "refused": "Deal {number}, kept on this phone, was refused: {reason} It stays on this phone, with the deals "
        "after it ({left} in all), until it is corrected.",
        "finished": "The match was finished on another phone: the {num} deals kept on this phone can no longer be "
        "entered.",
    },
    "es": {
        "few": "Las apuestas suman 0 de 1: queda 1 baza libre; alguien hará de más.",
        "many": "Las apuestas suman 2 de 1: sobra 1 baza; alguien no cumplirá.",
        "equal": "Las apuestas suman 2, las cartas que hay en mano: todo el mundo puede cumplir.",
        "hook": "Rosa reparte y apuesta en último lugar, y no puede apostar 0: las apuestas sumarían 1, la carta que "
        "hay en mano, y todo el mundo podría cumplir.",
        "rule": "La regla de la casa 'Diez de últimas' debe ser un número entero de 0 a 50.",
        "players": "Pocha: hacen falta de 2 a 8 jugadores, no 1.",
        "refused": "La mano {number}, guardada en este móvil, se ha rechazado: {reason} Esa mano y las siguientes "
        "({left} en total) se quedan en este móvil hasta que la corrijas.",
        "finished": "Se ha terminado la partida en otro móvil: las {num} manos guardadas en este ya no se pueden "
        "apuntar.",
    },
    "it": {
        "few": "Le dichiarazioni fanno 0 su 1: resta 1 presa libera, quindi qualcuno farà più prese del dichiarato.",
        "many": "Le dichiarazioni fanno 2 su 1: 1 presa di troppo, quindi qualcuno non ce la farà.",
        "equal": "Le dichiarazioni fanno in tutto 2, quante le carte in mano: tutti possono fare le prese dichiarate.",
        "hook": "Rosa dà le carte e dichiara dopo tutti: non può dichiarare 0, perché le dichiarazioni farebbero in "
        "tutto 1, come l’unica carta in mano, e tutti potrebbero fare le prese dichiarate.",
        "rule": "La regola della casa «Premio dell’ultima presa» deve essere un numero intero da 0 a 50.",
        "players": "Pocha: servono da 2 a 8 giocatori, non 1.",
        "refused": "La mano {number}, salvata su questo telefono, è stata rifiutata: {reason} Questa mano e le "
        "successive ({left} in tutto) restano su questo telefono finché non la correggi.",
        "finished": "La partita è stata finita su un altro telefono: le {num} mani salvate su questo telefono non si "
        "possono più segnare.",
    },
    "nb": {
        "few": "Budene er til sammen 0 av 1: 1 stikk blir til overs, så noen tar flere enn de bød.",
        "many": "Budene er til sammen 2 av 1: 1 stikk for mye, så noen kommer til å bomme.",
        "equal": "Budene går opp i de 2 kortene på hånden: alle kan klare budet sitt.",
        "hook": "Rosa gir og byr sist, og kan ikke by 0: da ville budene gått opp i det 1 kortet på hånden, og alle "
        "ville kunnet klare budet sitt.",
        "rule": "Husregelen «Bonus for siste stikk» må være et helt tall fra 0 til 50.",
        "players": "Pocha spilles av 2 til 8 spillere, ikke 1.",
        "refused": "Giv {number}, lagret på denne telefonen, ble avvist: {reason} Det blir på denne telefonen, sammen "
        "med givene etter det ({left} i alt), til det er rettet.",
        "finished": "Partiet ble avsluttet på en annen telefon: de {num} givene som er lagret på denne telefonen, kan "
        "ikke føres lenger.",
    },
}


def _said(page: str, pattern: str) -> list[str]:
    """Return the texts `pattern` finds in a page, unescaped and on one line, without the warning sign."""
    return [
        re.sub(r"\s+", " ", html.unescape(found)).removeprefix("⚠").strip() for found in re.findall(pattern, page, re.S)
    ]


def _bids_sum(ana: Browser, match_id: int, bids: list[int], cards: int) -> list[str]:
    ana.post(f"/matches/{match_id}/bids", data=bids_form(bids, number=1, dealer=0, cards=cards))
    return _said(ana.get(f"/matches/{match_id}").get_data(as_text=True), r'class="bids-sum">(.*?)<')


@pytest.mark.parametrize("language", ("en", "es", "it", "nb"))
def test_the_sentences_the_table_reads_most_are_said_as_its_players_say_them(ana: Browser, language: str) -> None:
    ana.post("/language", data={"language": language, "next": "/"})
    wanted = SENTENCES[language]
    for _ in range(3):
        start(ana, "pocha", ["Rosa", "Juan", "Nuria"], opt_schedule="custom", schedule_list="1,2,3")
    start(ana, "pocha", ["Rosa", "Juan", "Nuria"], opt_schedule="custom", schedule_list="2,2,3", opt_hook="")
    assert _bids_sum(ana, 1, [0, 0, 0], 1) == [wanted["few"]]
    assert _bids_sum(ana, 2, [1, 1, 0], 1) == [wanted["many"]]
    assert _bids_sum(ana, 4, [1, 1, 0], 2) == [wanted["equal"]]
    error = r'class="error"[^>]*>(.*?)</'
    hook = ana.post("/matches/3/bids", data=bids_form([0, 1, 0], number=1, dealer=0, cards=1))
    assert hook.status_code == 422 and _said(hook.get_data(as_text=True), error) == [wanted["hook"]]
    rule = start(ana, "tute2", ["Rosa", "Juan"], opt_last_trick_bonus="99")
    assert rule.status_code == 422 and wanted["rule"] in _said(rule.get_data(as_text=True), error)
    alone = start(ana, "pocha", ["Rosa"])
    assert alone.status_code == 422 and wanted["players"] in _said(alone.get_data(as_text=True), error)
    page = ana.get("/").get_data(as_text=True)
    assert _said(page, r'data-refused="([^"]*)"') == [wanted["refused"]]
    assert _said(page, r'data-finished-other="([^"]*)"') == [wanted["finished"]]
