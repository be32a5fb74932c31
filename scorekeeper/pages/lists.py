"""The lists of matches: the home page's cards and the history's lines under each match."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from flask import url_for
from markupsafe import Markup, escape

from .. import i18n
from ..reads import queries
from ..figures.reads import SharedMatch, Standing
from ..models import FINISHED, PLAYING, Match, User
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
        facts[match_id] = CardFacts(players=", ".join(name for *_, name in rows), deals=rows[0][2],
                                    winners=" and ".join(" & ".join(names) for _, names in sorted(sides.items())))
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


def history_cards(matches: Sequence[Any]) -> Markup:
    """Return the history's cards: each match's game, players and note, the line under them (when,
    how many deals, how it ended), and links to it and its night (templates/matches/_card.html's
    markup, written here for the whole page: in the template each of its dozens of words cost
    several times as much).

    `matches` are `queries.LISTED_COLUMNS` rows (or whole matches).
    """
    facts = card_facts(matches)
    detail, night = address_of("matches.detail", "match_id"), address_of("nights.night", "night_id")
    day = i18n.day_writer()
    won_by, night_word = i18n.gettext("won by %(names)s"), Markup(i18n.gettext("Its game night"))
    # Each game, status and number of deals said once per page, not once per card.
    titles: dict[str, str] = {}
    statuses: dict[str, str] = {}
    counts: dict[int, str] = {}
    cards = []
    for match in matches:
        fact = facts[match.id]
        outcome = won_by % {"names": fact.winners} if match.status == FINISHED else (
            statuses.get(match.status) or statuses.setdefault(match.status, i18n.status_word(match.status)))
        deals = counts.get(fact.deals) or counts.setdefault(
            fact.deals, i18n.ngettext("%(num)s deal", "%(num)s deals", fact.deals))
        title = titles.get(match.game) or titles.setdefault(match.game, i18n.game_title(match.game))
        memo = f'\n    <span class="memo">{escape(match.note)}</span>' if match.note else ""
        link = (f'<a class="night-link" href="{night(match.night_id)}">{night_word} →</a>'
                if match.night_id else "")
        cards.append(f'<li><a class="card" href="{detail(match.id)}">\n    <strong>{escape(title)}</strong>\n'
                     f'    <span>{escape(fact.players)}</span>{memo}\n'
                     f'    <small>{day(match.created_at)} · {escape(deals)} · {escape(outcome)}</small>\n'
                     f'  </a>{link}</li>')
    return Markup("\n  ".join(cards))


def shared_cards(shared: Sequence[SharedMatch], first: str, second: str) -> Markup:
    """Return the cards of the matches two players shared: the game, the day, whether they were
    partners and who won (written here for the page, the words looked up once, not once per card)."""
    detail, day = address_of("matches.detail", "match_id"), i18n.day_writer()
    # As the template's _() gives them: the catalogue's words as markup, the names put in escaped.
    # (Each written out, so that the catalogues' extraction finds them.)
    words = {"partners": Markup(i18n.gettext("partners")), "both": Markup(i18n.gettext("both won")),
             "neither": Markup(i18n.gettext("neither won")), "won_by": Markup(i18n.gettext("won by %(names)s"))}
    outcomes = {(True, False): words["won_by"] % {"names": first}, (False, True): words["won_by"] % {"names": second},
                (True, True): words["both"], (False, False): words["neither"]}
    # Each game's title and each outcome escaped once, not once per card.
    titles: dict[str, Markup] = {}
    statuses: dict[str, Markup] = {}
    cards = []
    for m in shared:
        title = titles.get(m.game) or titles.setdefault(m.game, escape(i18n.game_title(m.game)))
        outcome = outcomes[m.first_won, m.second_won] if m.status == FINISHED else (
            statuses.get(m.status) or statuses.setdefault(m.status, escape(i18n.status_word(m.status))))
        cards.append(f'<li><a class="card" href="{detail(m.match_id)}">\n      <strong>{title}</strong>\n'
                     f'      <small>{day(m.played_at)} · {words["partners"] if m.partners else ""}\n'
                     f'        {outcome}</small>\n    </a></li>')
    return Markup("\n    ".join(cards))


def standing_rows(standings: Sequence[Standing]) -> Markup:
    """Return a leaderboard's rows: each player (a link to their page), matches, wins, win rate,
    average deal score and rating, in the page's locale (written here for the whole board at once)."""
    player = address_of("players.detail", "player_id")
    rows = []
    for s in standings:
        rows.append(f'<tr>\n      <th scope="row"><a href="{player(s.player_id)}">{escape(s.name)}</a></th>\n'
                    f'      <td class="num">{s.matches}</td><td class="num">{s.won}</td>'
                    f'<td class="num wide-only">{escape(i18n.percent(s.win_rate))}</td>\n'
                    f'      <td class="num wide-only">{escape(i18n.decimal(s.average_deal))}</td>'
                    f'<td class="num">{escape(i18n.decimal(s.rating))}</td>\n    </tr>')
    return Markup("\n    ".join(rows))


class Paged(Protocol):
    """A page of a long list, as `paging.Page` and Flask-SQLAlchemy's pagination both give it."""

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


def pager(page: Paged, endpoint: str, **kept: Any) -> Markup:
    """Return the links to the newer and older pages of a long list, or nothing when it fits on
    one; `kept` are the filters chosen, left out of the addresses when they are unset.

    Written here, not as a template macro: the macro's filters and calls cost some 180 µs on a
    page with neighbours, about twice this function. The router is asked once, for a page
    number that `address_of` replaces (with the filters' query string, url_for took 40 µs),
    and the catalogue's words are put together as the template's _() gives them: markup, with
    only whole numbers and escaped addresses put in (Markup's own % escapes each value again).
    """
    pages = page.pages
    if pages <= 1:
        return Markup("")
    kept = {name: value for name, value in sorted(kept.items()) if value is not None and value != ""}
    address = address_of(endpoint, "page", **kept)
    # Outside the f-strings, where the catalogues' extraction finds them.
    where = i18n.gettext("Page %(page)s of %(pages)s", page=int(page.page), pages=int(pages))
    label = i18n.gettext("Pages")
    newer = older = "<span></span>"
    if page.prev_num is not None:
        word = i18n.gettext("Newer")
        newer = f'<a class="button" rel="prev" href="{escape(address(page.prev_num))}">← {word}</a>'
    if page.next_num is not None:
        word = i18n.gettext("Older")
        older = f'<a class="button" rel="next" href="{escape(address(page.next_num))}">{word} →</a>'
    return Markup(f'<nav class="pager" aria-label="{label}">\n    {newer}\n    <span>{where}</span>\n    {older}\n  </nav>')
