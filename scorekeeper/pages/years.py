"""What the year at the table shows: its counts, each game's champion, the year's records, and its card,
every word in the page's language (from a review of `figures.years`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from flask import url_for
from flask_babel import gettext, ngettext

from .. import formats
from ..i18n import game_title
from .cards import CardLine, ResultCard


@dataclass(frozen=True)
class Tally:
    """One of the year's counts: what it counts, and how many."""

    label: str
    value: str


@dataclass(frozen=True)
class Record:
    """One of the year's records: what it is, who holds it, the figure, and where to see more."""

    label: str
    holder: str
    figure: str
    href: str | None = None
    #: The figure as the card writes it, in a few words; the page's first words of `figure` if None.
    short: str | None = None
    #: The title the card gives it, if not `label`.
    card_label: str | None = None


@dataclass(frozen=True)
class YearPage:
    """A year at the table, as its page and its card show it."""

    year: int
    title: str
    #: The player whose year it is (None: the whole table's), with their name.
    player_id: int | None
    name: str | None
    tallies: tuple[Tally, ...]
    #: Each game's champions (the whole table's) or the player's place in it.
    games: tuple[Record, ...]
    records: tuple[Record, ...]

    @property
    def empty(self) -> bool:
        """Tell whether nothing was played in the year."""
        return not self.games and not self.records and self.tallies[0].value == "0"


def _names(ids: list[int], names: Mapping[int, str], joiner: str = " & ") -> str:
    return joiner.join(names.get(player_id, "?") for player_id in ids)


def _hours(seconds: int) -> str:
    """Return a time at the table in hours, with one decimal below ten, in the page's language."""
    hours = seconds / 3600
    return formats.decimal(hours) if hours < 10 else str(round(hours))


def _head_to_head(first: int, second: int) -> str:
    return url_for("statistics.head_to_head", a=first, b=second)


def _game_records(review: Mapping[str, Any], names: Mapping[int, str], whole_table: bool) -> list[Record]:
    games = []
    for champion in review["champions"]:
        title = str(game_title(champion["game"]))
        href = url_for("seasons.season", year=review["year"], game=champion["game"])
        points = ngettext("%(num)s point", "%(num)s points", champion["points"])
        if whole_table:
            games.append(
                Record(
                    gettext("Champion of %(game)s", game=title),
                    _names(champion["player_ids"], names, " · "),
                    points,
                    href,
                    card_label=title,
                )
            )
        else:
            place = gettext("Place %(place)s of %(players)s", place=champion["place"], players=champion["of"])
            games.append(Record(title, place, points, href))
    return games


def _records(review: Mapping[str, Any], names: Mapping[int, str], whole_table: bool) -> list[Record]:
    """Return the year's records that someone holds: the table's, or the player's own (each named for
    what it is of theirs: their cantes, their best partner, the rival they met most)."""
    records = []
    streak = review["streak"]
    if streak is not None:
        first, last = (formats.day_text(datetime.fromisoformat(streak[end])) for end in ("from", "to"))
        days = first if first == last else f"{first} – {last}"
        records.append(
            Record(
                gettext("Longest winning streak"),
                names.get(streak["player_id"], "?"),
                ngettext("%(num)s win in a row", "%(num)s wins in a row", streak["length"])
                + f" · {game_title(streak['game'])} · {days}",
            )
        )
    cantes = review["cantes"]
    if cantes is not None:
        figure = ngettext("%(num)s cante", "%(num)s cantes", cantes["twenties"] + cantes["forties"])
        detail = gettext(
            "%(twenties)s of 20, %(forties)s of 40", twenties=cantes["twenties"], forties=cantes["forties"]
        )
        holder = names.get(cantes["player_id"], "?")
        label = gettext("Most cantes sung") if whole_table else gettext("Cantes sung")
        records.append(Record(label, holder, f"{figure} ({detail})", short=figure))
    tutes = review["tutes"]
    if tutes is not None:
        records.append(
            Record(
                gettext("Most tutes sung") if whole_table else gettext("Tutes"),
                names.get(tutes["player_id"], "?"),
                ngettext("%(num)s tute", "%(num)s tutes", tutes["tutes"]),
            )
        )
    comeback = review["comeback"]
    if comeback is not None:
        records.append(
            Record(
                gettext("Biggest comeback"),
                _names(comeback["player_ids"], names),
                ngettext("won from %(num)s point behind", "won from %(num)s points behind", comeback["deficit"])
                + f" · {game_title(comeback['game'])}",
                url_for("matches.detail", match_id=comeback["match_id"]),
                short=ngettext("%(num)s point", "%(num)s points", comeback["deficit"]),
            )
        )
    pair = review["pair"]
    if pair is not None:
        records.append(
            Record(
                gettext("Best pair") if whole_table else gettext("Best partner"),
                _names(pair["player_ids"], names),
                gettext("%(won)s won of %(played)s together", won=pair["won"], played=pair["together"]),
                _head_to_head(*pair["player_ids"]),
                short=f"{pair['won']}/{pair['together']}",
            )
        )
    rivalry = review["rivalry"]
    if rivalry is not None:
        first, second = rivalry["player_ids"]
        records.append(
            Record(
                gettext("Most frequent rivalry") if whole_table else gettext("Most frequent rival"),
                _names(rivalry["player_ids"], names, " – "),
                ngettext("%(num)s meeting", "%(num)s meetings", rivalry["met"])
                + f" · {rivalry['wins'][0]}–{rivalry['wins'][1]}",
                _head_to_head(first, second),
            )
        )
    return records


def year_page(year: int, review: Mapping[str, Any], names: Mapping[int, str], player_id: int | None) -> YearPage:
    """Return a year at the table as shown (of the whole table, or of the player `player_id`)."""
    review = {**review, "year": year}
    matches = sum(review["matches"].values())
    tallies = [
        Tally(gettext("Matches"), str(matches)),
        Tally(gettext("Nights"), str(review["nights"])),
        Tally(gettext("Hours at the table"), _hours(review["seconds"])),
    ]
    if player_id is not None:
        tallies.insert(1, Tally(gettext("Won"), str(sum(review["won"].values()))))
    name = None if player_id is None else names.get(player_id, "?")
    title = (
        gettext("%(year)s at the table", year=year)
        if name is None
        else gettext("%(name)s's %(year)s at the table", name=name, year=year)
    )
    return YearPage(
        year,
        title,
        player_id,
        name,
        tuple(tallies),
        tuple(_game_records(review, names, player_id is None)),
        tuple(_records(review, names, player_id is None)),
    )


#: A card has room for about eighteen lines: nine records of two lines, in two columns.
CARD_RECORDS = 9


def year_card(page: YearPage, dark: bool) -> ResultCard:
    """Return the card of a year at the table: its counts, each game's champions (or the player's
    places), then its records, as many as fit."""
    lines: list[CardLine] = []
    # Two lines each, the champions' first (in the accent colour), as many as a card has room for.
    for record in (*page.games, *page.records)[:CARD_RECORDS]:
        lines.append(CardLine(None, record.card_label or record.label, "", False, None))
        short = record.short if record.short is not None else record.figure.split(" · ")[0]
        lines.append(CardLine(0, record.holder, short, record in page.games, None))
    who = "" if page.player_id is None else f"-player-{page.player_id}"
    # A year still being played runs to today.
    first, last = date(page.year, 1, 1), date(page.year, 12, 31)
    return ResultCard(
        brand="Scorekeeper",
        file_name=f"scorekeeper-{page.year}{who}.png",
        title=page.title,
        day=f"{formats.date_text(first)} – {formats.date_text(max(first, min(last, formats.viewer_today())))}",
        verdict=" · ".join(f"{tally.label}: {tally.value}" for tally in page.tallies),
        lines=tuple(lines),
        running=(),
        dark=dark,
        as_many_as_fit=True,
    )
