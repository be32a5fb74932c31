"""What the nights' pages and the API show of a game night: its games, players, winners and standings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from markupsafe import Markup

from .. import formats, i18n
from ..figures.nights import MatchRow, NightRows
from ..models import FINISHED
from ..registry import get_game
from ..rules import MatchResult
from .addresses import address_of
from .charts import match_chart


def _scored_in_points(match: MatchRow) -> bool:
    """Tell whether a match is won on points (Pocha, Tute in points mode) rather than juegos."""
    return get_game(match.game).ranked_by_points(match.options)


@dataclass(frozen=True)
class NightStanding:
    """One player's night in one game: matches played and won, and the points of those won on points."""

    name: str
    played: int
    won: int
    points: int | None


@dataclass(frozen=True)
class Night:
    """A game night: when it began and ended, where (its first match's note), what was played and who won."""

    id: int
    start: datetime
    end: datetime
    note: str | None
    match_ids: list[int]
    games: list[str]
    players: list[str]
    #: Per game, who won most of its matches that night (all of them on a tie; nobody if none was won).
    winners: dict[str, list[str]]
    #: Per game, each player's line of the night's standings, best first.
    standings: dict[str, list[NightStanding]]
    #: Per game, how many of the night's matches were of it.
    matches: dict[str, int]

    @property
    def points(self) -> dict[str, list[NightStanding]]:
        """Return, per game with matches won on points, the standings that carry points."""
        return {game: rows for game, rows in self.standings.items() if any(row.points is not None for row in rows)}


@dataclass
class _Tally:
    name: str
    played: int = 0
    won: int = 0
    points: int | None = None


def night(rows: NightRows) -> Night:
    """Sum up a night from its matches and their players' results."""
    # What a match says of each of its seats, worked out once per match rather than once per seat.
    kinds = {match.id: (match.game, match.status == FINISHED, _scored_in_points(match)) for match in rows.matches}
    games: list[str] = []
    players: list[str] = []
    tally: dict[str, dict[int, _Tally]] = {}
    for seat in rows.seats:
        game, over, in_points = kinds[seat.match_id]
        if game not in games:
            games.append(game)
            tally[game] = {}
        if seat.name not in players:
            players.append(seat.name)
        line = tally[game].get(seat.player_id)
        if line is None:
            line = tally[game][seat.player_id] = _Tally(seat.name)
        line.played += 1
        line.won += 1 if seat.won and over else 0
        if in_points:
            line.points = (line.points or 0) + seat.total
    standings: dict[str, list[NightStanding]] = {}
    winners: dict[str, list[str]] = {}
    for game in games:
        lines = [NightStanding(t.name, t.played, t.won, t.points) for t in tally[game].values()]
        lines.sort(key=lambda s: (-s.won, -(s.points if s.points is not None else 0), s.name.casefold()))
        standings[game] = lines
        most = max((line.won for line in lines), default=0)
        winners[game] = [line.name for line in lines if most and line.won == most]
    ends = [rows.ends.get(match.id, match.created_at) for match in rows.matches]
    per_game = {game: sum(1 for match in rows.matches if match.game == game) for game in games}
    return Night(
        id=rows.first.id,
        start=rows.first.created_at,
        end=max([rows.first.created_at, *ends]),
        note=rows.first.note,
        match_ids=[match.id for match in rows.matches],
        games=games,
        players=players,
        winners=winners,
        standings=standings,
        matches=per_game,
    )


def nights(pages_rows: Sequence[NightRows]) -> list[Night]:
    """Sum up each night of a page."""
    return [night(rows) for rows in pages_rows]


def night_api_view(found: Night) -> dict[str, object]:
    """Return a night as the API shows it."""
    return {
        "id": found.id,
        "start": found.start.isoformat(),
        "end": found.end.isoformat(),
        "matches": found.match_ids,
        "players": found.players,
        "winners": found.winners,
    }


@dataclass(frozen=True)
class PlayedMatch:
    """One match of a night's page: its result in a line and its chart of running totals."""

    match: MatchRow
    players: list[str]
    winners: list[str]
    finished: bool
    standing: str
    deals: int
    chart: Markup


@dataclass(frozen=True)
class NightPage:
    """A night's page: its summary and each of its matches, in the order they started."""

    night: Night
    matches: list[PlayedMatch]


def played_match(match: MatchRow, names: list[str], deals: int) -> PlayedMatch:
    """Lay out one match of a night from its cached result, its players' names in seat order and
    its deal count: no deal is read or described, only the totals drawn."""
    # Read in the statement that counted the deals, the cache agrees with them (`recompute`
    # rebuilds caches of an older shape): no fact needs scoring again.
    result = MatchResult.from_dict(match.result)
    sides = [" & ".join(names[seat] for seat in side) for side in result.sides]
    values = result.juegos if result.juegos is not None else result.totals
    standing = ", ".join(f"{name} {value}" for name, value in zip(sides, values))
    if result.juegos is not None:
        standing = i18n.gettext("%(standing)s (juegos)", standing=standing)
    return PlayedMatch(
        match=match,
        players=names,
        winners=[sides[w] for w in result.winners],
        finished=result.finished,
        standing=standing,
        deals=deals,
        chart=match_chart(sides, result),
    )


def shown_night(rows: NightRows) -> NightPage:
    """Lay out a night's page from its matches (with their cached results) and results."""
    return NightPage(
        night=night(rows),
        matches=[played_match(match, rows.names(match.id), rows.deals.get(match.id, 0)) for match in rows.matches],
    )


@dataclass(frozen=True)
class NightGame:
    """One game of a night, as a line of its card: how many matches, who won most, and the points of those
    won on points, most first."""

    title: str
    matches: int
    winners: list[str]
    points: str | None


@dataclass(frozen=True)
class NightCard:
    """One night of a page of nights, as nights/index.html lays it out: its address, day and place, its
    match count and players, then a line for each game."""

    href: str
    day: Markup
    note: str | None
    matches: int
    players: str
    games: list[NightGame]


def night_cards(found: Sequence[Night]) -> list[NightCard]:
    """Return the cards of a page of nights: when, where, who played, and each game's matches, winners and points."""
    address, day = address_of("nights.night", "night_id"), formats.day_writer()
    titles: dict[str, str] = {}

    def title(game: str) -> str:
        return titles.get(game) or titles.setdefault(game, i18n.game_title(game))

    def points(rows: Sequence[NightStanding]) -> str | None:
        scored = sorted((row for row in rows if row.points is not None), key=lambda row: -(row.points or 0))
        return " · ".join(f"{row.name} {row.points}" for row in scored) or None

    return [
        NightCard(
            href=address(night.id),
            day=day(night.start),
            note=night.note or None,
            matches=len(night.match_ids),
            players=", ".join(night.players),
            games=[
                NightGame(title(game), night.matches[game], night.winners[game], points(night.standings[game]))
                for game in night.games
            ],
        )
        for night in found
    ]
