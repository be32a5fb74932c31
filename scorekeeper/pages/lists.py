"""The lists of matches: the home page's cards, the history's and head to head's cards, the leaderboard's
rows and the pager of a long list (their templates lay them out)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from markupsafe import Markup

from .. import formats, i18n
from ..figures.pairs import SharedMatch
from ..figures.reads import Standing
from ..models import FINISHED, PLAYING, Match, User
from ..reads import queries
from .addresses import address_of

#: How many of the latest finished matches the home page shows.
RECENT_FINISHED = 5
#: How many matches in progress the home page shows, the latest first; the history lists them all.
PLAYING_SHOWN = 10


@dataclass(frozen=True)
class CardFacts:
    """What a list shows of a match besides its game and dates."""

    players: str
    deals: int
    winners: str


def card_facts(matches: Sequence[Any]) -> dict[int, CardFacts]:
    """Return the players, deal count and winners of each match ("Ana & Carmen", or "Ana and Luis"
    on a tie), from the derived rows in one query (whole matches, or rows with their `id`)."""
    seats: dict[int, list[tuple[int, bool, int, str]]] = {}
    for match_id, side, won, deals, name in queries.seat_outcomes([match.id for match in matches]):
        seats.setdefault(match_id, []).append((side, won, deals, name))
    facts = {match.id: CardFacts("", 0, "") for match in matches}  # a match always has its rows; just in case
    for match_id, rows in seats.items():
        sides: dict[int, list[str]] = {}
        for side, won, _deals, name in rows:
            if won:
                sides.setdefault(side, []).append(name)
        facts[match_id] = CardFacts(
            players=", ".join(name for *_, name in rows),
            deals=rows[0][2],
            winners=" and ".join(" & ".join(names) for _, names in sorted(sides.items())),
        )
    return facts


@dataclass(frozen=True)
class Home:
    """What the home page shows."""

    playing: list[Match]
    recent: list[Match]
    facts: dict[int, CardFacts]
    #: Whether more matches are in progress than `playing` shows (the history lists them all).
    more_playing: bool = False


def home(user: User) -> Home:
    """Return the matches in progress and the latest finished ones, with their players and winners."""
    # Matches nobody finished or abandoned pile up over the years: the page shows the latest
    # ones, as quick to read after a thousand as after ten, and asks for one more to know
    # whether to link to the rest.
    playing = queries.latest_matches(user, PLAYING, PLAYING_SHOWN + 1)
    more_playing = len(playing) > PLAYING_SHOWN
    playing = playing[:PLAYING_SHOWN]
    recent = queries.latest_matches(user, FINISHED, RECENT_FINISHED)
    return Home(playing=playing, recent=recent, facts=card_facts(playing + recent), more_playing=more_playing)


@dataclass(frozen=True)
class HistoryCard:
    """One match of the history: its address, game, players and note, the line under them (when, how
    many deals, how it ended), and the address of its game night, if it has one."""

    href: str
    title: str
    players: str
    memo: str | None
    day: Markup
    deals: str
    outcome: str
    night: str | None


def history_cards(matches: Sequence[Any]) -> list[HistoryCard]:
    """Return the history's cards (laid out as templates/matches/_card.html's, in matches/history.html).

    `matches` are `queries.LISTED_COLUMNS` rows (or whole matches).
    """
    facts = card_facts(matches)
    detail, night = address_of("matches.detail", "match_id"), address_of("nights.night", "night_id")
    day = formats.day_writer()
    won_by = i18n.gettext("won by %(names)s")
    # Each game, status and number of deals said once per page, not once per card.
    titles: dict[str, str] = {}
    statuses: dict[str, str] = {}
    counts: dict[int, str] = {}
    cards = []
    for match in matches:
        fact = facts[match.id]
        outcome = (
            won_by % {"names": fact.winners}
            if match.status == FINISHED
            else (statuses.get(match.status) or statuses.setdefault(match.status, i18n.status_word(match.status)))
        )
        deals = counts.get(fact.deals) or counts.setdefault(
            fact.deals, i18n.ngettext("%(num)s deal", "%(num)s deals", fact.deals)
        )
        title = titles.get(match.game) or titles.setdefault(match.game, i18n.game_title(match.game))
        cards.append(
            HistoryCard(
                href=detail(match.id),
                title=title,
                players=fact.players,
                memo=match.note or None,
                day=day(match.created_at),
                deals=deals,
                outcome=outcome,
                night=night(match.night_id) if match.night_id else None,
            )
        )
    return cards


@dataclass(frozen=True)
class SharedCard:
    """One match two players shared: its address, game and day, whether they were partners, and how it
    ended: "first", "second", "both" or "neither" won, or the status word of a match not finished."""

    href: str
    title: str
    day: Markup
    partners: bool
    outcome: str
    finished: bool


def shared_cards(shared: Sequence[SharedMatch]) -> list[SharedCard]:
    """Return the cards of the matches two players shared (statistics/head_to_head.html says who won)."""
    detail, day = address_of("matches.detail", "match_id"), formats.day_writer()
    outcomes = {(True, False): "first", (False, True): "second", (True, True): "both", (False, False): "neither"}
    # Each game's title and each status said once per page, not once per card.
    titles: dict[str, str] = {}
    statuses: dict[str, str] = {}
    cards = []
    for m in shared:
        title = titles.get(m.game) or titles.setdefault(m.game, i18n.game_title(m.game))
        finished = m.status == FINISHED
        outcome = (
            outcomes[m.first_won, m.second_won]
            if finished
            else (statuses.get(m.status) or statuses.setdefault(m.status, i18n.status_word(m.status)))
        )
        cards.append(
            SharedCard(
                href=detail(m.match_id),
                title=title,
                day=day(m.played_at),
                partners=m.partners,
                outcome=outcome,
                finished=finished,
            )
        )
    return cards


@dataclass(frozen=True)
class LeaderboardLine:
    """One player's row of a leaderboard, its figures written in the page's locale."""

    href: str
    name: str
    matches: int
    won: int
    win_rate: str
    average_deal: str
    rating: str


def standing_rows(standings: Sequence[Standing]) -> list[LeaderboardLine]:
    """Return a leaderboard's rows: each player (and the address of their page), matches, wins, win
    rate, average deal score and rating, in the page's locale."""
    player = address_of("players.detail", "player_id")
    return [
        LeaderboardLine(
            href=player(s.player_id),
            name=s.name,
            matches=s.matches,
            won=s.won,
            win_rate=formats.percent(s.win_rate),
            average_deal=formats.decimal(s.average_deal),
            rating=formats.decimal(s.rating),
        )
        for s in standings
    ]


class Paged(Protocol):
    """A page of a long list, as `paging.Page` gives it."""

    page: int

    @property
    def pages(self) -> int:
        """How many pages the list fills."""

    @property
    def prev_num(self) -> int | None:
        """The number of the page before, if there is one."""

    @property
    def next_num(self) -> int | None:
        """The number of the page after, if there is one."""


@dataclass(frozen=True)
class Pager:
    """Where a page of a long list stands, and the addresses of the newer and older pages (if any)."""

    page: int
    pages: int
    newer: str | None
    older: str | None


def pages_around(page: Paged, endpoint: str, **kept: Any) -> Pager | None:
    """Return the pages around `page` of a long list, or none when it fits on one page (templates/_pager.html
    shows them); `kept` are the filters chosen, left out of the addresses when they are unset."""
    pages = page.pages
    if pages <= 1:
        return None
    kept = {name: value for name, value in sorted(kept.items()) if value is not None and value != ""}
    # The router is asked once, for a page number that `address_of` replaces.
    address = address_of(endpoint, "page", **kept)
    return Pager(
        page=int(page.page),
        pages=int(pages),
        newer=None if page.prev_num is None else address(page.prev_num),
        older=None if page.next_num is None else address(page.next_num),
    )
