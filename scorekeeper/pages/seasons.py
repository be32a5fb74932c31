"""What the seasons' pages show: a season's title and days, its table's lines, a player's places."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from flask import url_for
from flask_babel import gettext, ngettext

from .. import formats
from ..figures.seasons import SeasonLine, SeasonPlace
from ..season_rules import SeasonSpan
from .addresses import address_of


def season_title(season: SeasonSpan) -> str:
    """Return a season's name as the pages write it: its own name, or the year it is."""
    return season.name if season.name is not None else gettext("Season %(year)s", year=season.year)


def season_days(season: SeasonSpan) -> str:
    """Return a season's first and last day in the page's language ("1 sept 2026 – 30 nov 2026")."""
    return f"{formats.date_text(season.starts_on)} – {formats.date_text(season.ends_on)}"


def season_points(season: SeasonSpan, best_of: int | None) -> str:
    """Return how a season's table counts a match, in a sentence."""
    points = season.points
    counted = (
        ngettext("each player's best %(num)s match counts", "each player's best %(num)s matches count", best_of)
        if best_of
        else gettext("every match counts")
    )
    return gettext(
        "A win gives %(win)s points, a shared win %(shared)s, any other result %(other)s; %(counted)s.",
        win=points.win,
        shared=points.shared,
        other=points.other,
        counted=counted,
    )


def season_address(season: SeasonSpan, endpoint: str = "seasons.season", **values: Any) -> str:
    """Return the address of a season's page (or, with `endpoint`, another of its addresses)."""
    if season.season_id is not None:
        return url_for(f"{endpoint}_named", season_id=season.season_id, **values)
    return url_for(endpoint, year=season.year, **values)


@dataclass(frozen=True)
class SeasonRow:
    """A line of a season's table as shown: the numbers written in the page's language."""

    place: int
    href: str
    name: str
    played: int
    won: int
    shared: int
    points: int
    counted: int
    scored: int
    rating_change: str


def signed(value: float | None) -> str:
    """Return a change of rating with its sign, in the page's locale ("+1.5", "−0.3", a dash for none)."""
    if value is None:
        return "–"
    rounded = round(value, 1) + 0.0
    if rounded > 0:
        return "+" + formats.decimal(rounded)
    return formats.decimal(rounded).replace("-", "−")


def season_rows(lines: Sequence[SeasonLine]) -> list[SeasonRow]:
    """Return a season's table's rows, each with its player's address."""
    player = address_of("players.detail", "player_id")
    return [
        SeasonRow(
            line.place,
            player(line.player_id),
            line.name,
            line.played,
            line.won,
            line.shared,
            line.points,
            line.counted,
            line.scored,
            signed(line.rating_change),
        )
        for line in lines
    ]


@dataclass(frozen=True)
class PlaceRow:
    """A player's place in one season, as the player page lists it."""

    href: str
    title: str
    place: str
    detail: str


def place_rows(places: Sequence[SeasonPlace], game: str) -> list[PlaceRow]:
    """Return a player's places in their latest seasons of `game`, each linking to its table."""
    year = address_of("seasons.season", "year", game=game)
    named = address_of("seasons.season_named", "season_id", game=game)
    return [
        PlaceRow(
            named(place.season.season_id) if place.season.season_id is not None else year(place.season.year or 0),
            season_title(place.season),
            gettext("Place %(place)s of %(players)s", place=place.place, players=place.of),
            ngettext("%(num)s point", "%(num)s points", place.points)
            + ", "
            + ngettext("%(num)s match", "%(num)s matches", place.played),
        )
        for place in places
    ]


def season_api_view(season: SeasonSpan) -> dict[str, Any]:
    """Return a season as the API answers it."""
    return {
        "id": season.season_id,
        "year": season.year,
        "name": season.name,
        "starts_on": season.starts_on.isoformat(),
        "ends_on": season.ends_on.isoformat(),
        "points": {"win": season.points.win, "shared": season.points.shared, "other": season.points.other},
        "best_of": season.points.best_of,
    }


def table_api_view(season: SeasonSpan, game: str, best_of: int | None, lines: Sequence[SeasonLine]) -> dict[str, Any]:
    """Return a season's table in a game as the API answers it."""
    return {
        "season": season_api_view(season),
        "game": game,
        "best_of": best_of,
        "lines": [
            {
                "place": line.place,
                "player_id": line.player_id,
                "player": line.name,
                "played": line.played,
                "won": line.won,
                "shared": line.shared,
                "points": line.points,
                "counted": line.counted,
                "scored": line.scored,
                "rating_change": line.rating_change,
            }
            for line in lines
        ],
    }
