"""Reads, always scoped to one account, and the view models that pages and the API show.

Nothing here writes. Scores come from the rules engine: either the result cached on the
match in the transaction that stored its deals, or a fresh `check_match` of its facts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .i18n import gettext, ngettext
from markupsafe import Markup
from flask_sqlalchemy.pagination import Pagination
from sqlalchemy import Select, func, select
from sqlalchemy.orm import defer, raiseload, selectinload

from .extensions import db
from .keys import hash_token, looks_like_key, sign_in_lifetime
from .models import (
    ABANDONED, FINISHED, MAX_ID, PLAYING, STATUSES, ApiToken, Match, Player, PlayerResult, Seat, SignIn, User,
    utcnow,
)
from .rules import GAMES, Game, bidding_order, cante_value, check_match, check_options, get_game
from .charts import running_totals_svg
from .i18n import suit_name
from .documents import match_document
from .errors import NotFound

RECENT_FINISHED = 5


def has_users() -> bool:
    """Tell whether any account exists yet."""
    return db.session.scalar(select(User.id).limit(1)) is not None


def user_for_sign_in(key: str) -> User | None:
    """Return the account a browser's sign-in key belongs to, while that sign-in lasts; else None."""
    if not looks_like_key(key):
        return None
    user = db.session.scalar(select(User).join(SignIn, SignIn.user_id == User.id).where(
        SignIn.key_hash == hash_token(key), SignIn.created_at >= utcnow() - sign_in_lifetime()))
    if user is not None:
        user.sign_in_key = key
    return user


def sign_in_count(user: User) -> int:
    """Return how many browsers are signed in to the account."""
    return db.session.scalar(select(func.count()).select_from(SignIn).where(SignIn.user_id == user.id)) or 0


def match_for(user: User, match_id: int) -> Match:
    """Return the account's match, or raise NotFound (also for another account's match)."""
    match = db.session.get(Match, match_id, options=[selectinload(Match.deals)]) if 0 < match_id <= MAX_ID else None
    if match is None or match.user_id != user.id or _deleted_while_read(match):
        raise NotFound(gettext("There is no such match."))
    return match


def _deleted_while_read(match: Match) -> bool:
    """Tell whether the match was deleted between reading its row and reading its seats.

    The row, its seats and its deals are three statements; under PostgreSQL's READ COMMITTED
    each sees what was committed when it began, so a deletion from another phone in between
    leaves a match without players, which the rules engine would rightly refuse. Every match
    has at least two seats, so none means it is gone.
    """
    return not match.seats


def player_for(user: User, player_id: int) -> Player:
    """Return the account's player, or raise NotFound."""
    player = db.session.get(Player, player_id) if 0 < player_id <= MAX_ID else None
    if player is None or player.user_id != user.id:
        raise NotFound(gettext("There is no such player."))
    return player


def players(user: User, *, include_archived: bool = True) -> list[Player]:
    """Return the account's players by name."""
    query = select(Player).where(Player.user_id == user.id).order_by(Player.name_key)
    if not include_archived:
        query = query.where(Player.archived.is_(False))
    return list(db.session.scalars(query))


def api_tokens(user: User) -> list[ApiToken]:
    """Return the account's API tokens, newest first."""
    return list(db.session.scalars(
        select(ApiToken).where(ApiToken.user_id == user.id).order_by(ApiToken.created_at.desc())))


def _matches_query(user: User) -> Select[tuple[Match]]:
    return select(Match).where(Match.user_id == user.id).order_by(Match.created_at.desc(), Match.id.desc())


def _listed(query: Select[tuple[Match]], with_deals: bool) -> Select[tuple[Match]]:
    """Load the seats and deals too, for whole match documents; or else neither the seats nor the
    cached result, which a list of matches takes from `card_facts` instead."""
    if with_deals:
        return query.options(selectinload(Match.seats), selectinload(Match.deals))
    return query.options(defer(Match.result), raiseload(Match.seats))


def _filtered(user: User, game: str | None, player_id: int | None, status: str | None) -> Select[tuple[Match]]:
    query = _matches_query(user)
    if game in GAMES:
        query = query.where(Match.game == game)
    if status in STATUSES:
        query = query.where(Match.status == status)
    if player_id is not None and 0 < player_id <= MAX_ID:
        query = query.where(Match.id.in_(select(Seat.match_id).where(Seat.player_id == player_id)))
    return query


def matches(user: User, *, game: str | None = None, player_id: int | None = None, status: str | None = None,
            limit: int | None = None, with_deals: bool = False) -> list[Match]:
    """Return the account's matches, newest first, filtered by game, player and status."""
    query = _listed(_filtered(user, game, player_id, status), with_deals)
    if limit is not None:
        query = query.limit(limit)
    return list(db.session.scalars(query))


#: Matches per page of the history (and of the API's list, unless it asks for another size).
PAGE_SIZE = 25
MAX_PAGE_SIZE = 100


def match_page(user: User, page: int, *, game: str | None = None, player_id: int | None = None,
               status: str | None = None, per_page: int = PAGE_SIZE, with_deals: bool = False) -> Pagination:
    """Return one page of the account's matches, newest first, filtered by game, player and status."""
    query = _listed(_filtered(user, game, player_id, status), with_deals)
    return db.paginate(query, page=page, per_page=per_page, max_per_page=MAX_PAGE_SIZE, error_out=False)


@dataclass(frozen=True)
class CardFacts:
    """What a list shows of a match besides its game and dates."""

    players: str
    deals: int
    winners: str


def card_facts(matches: Sequence[Match]) -> dict[int, CardFacts]:
    """Return the players, deal count and winners of each match ("Ana & Carmen", or "Ana and Luis"
    on a tie), from the derived rows in one query."""
    if not matches:
        return {}
    seats: dict[int, list[tuple[int, bool, int, str]]] = {}
    for match_id, side, won, deals, name in db.session.execute(
            select(PlayerResult.match_id, PlayerResult.side, PlayerResult.won, PlayerResult.deals, Player.name)
            .join(Player, Player.id == PlayerResult.player_id)
            .where(PlayerResult.match_id.in_([match.id for match in matches]))
            .order_by(PlayerResult.match_id, PlayerResult.seat)):
        seats.setdefault(match_id, []).append((side, bool(won), deals, name))
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


def home(user: User) -> Home:
    """Return the matches in progress and the latest finished ones, with their players and winners."""
    playing, recent = matches(user, status=PLAYING), matches(user, status=FINISHED, limit=RECENT_FINISHED)
    return Home(playing=playing, recent=recent, facts=card_facts(playing + recent))


# ---------------------------------------------------------------- the scoreboard


@dataclass(frozen=True)
class DealRow:
    """One line of the deal-by-deal table."""

    number: int
    dealer: str
    summary: str
    details: list[str]
    scores: tuple[int, ...]
    running: tuple[int, ...]
    winner: str | None

    @property
    def dealt(self) -> str:
        """Return who dealt, as a sentence."""
        return gettext("%(name)s dealt", name=self.dealer)

    @property
    def won_by(self) -> str | None:
        """Return who won the deal, as a sentence, if anyone did."""
        return None if self.winner is None else gettext("won by %(names)s", names=self.winner)

    @property
    def edit_label(self) -> str:
        """Return the label of the deal's edit button."""
        return gettext("Edit deal %(number)s", number=self.number)


@dataclass(frozen=True)
class Scoreboard:
    """Everything the scoreboard and the deal forms show about a match, derived from its facts."""

    match: Match
    game: Game
    seat_names: list[str]
    side_names: list[str]
    totals: tuple[int, ...]
    juegos: tuple[int, ...] | None
    target: int | None
    mode: str | None
    rows: list[DealRow]
    finished: bool
    abandoned: bool
    winners: list[str]
    next_number: int
    next_dealer: int | None
    next_cards: int | None
    bidding_order: list[int]
    pending: dict[str, Any] | None
    options: dict[str, object]

    @property
    def chart(self) -> Markup:
        """Return the running totals of each side as an SVG line chart."""
        description = gettext("Running totals, deal by deal: %(standings)s.", standings=", ".join(
            f"{name} {total}" for name, total in zip(self.side_names, self.totals)))
        return running_totals_svg(self.side_names, [row.running for row in self.rows], description)

    @property
    def open(self) -> bool:
        """Tell whether deals can still be entered."""
        return not self.finished and not self.abandoned

    @property
    def next_dealer_name(self) -> str | None:
        """Return who deals next."""
        return None if self.next_dealer is None else self.seat_names[self.next_dealer]

    @property
    def pending_bids(self) -> list[tuple[str, int]]:
        """Return each player's bid, in bidding order, while the deal waits for its tricks."""
        if not self.pending:
            return []
        bids = self.pending["bids"]
        return [(self.seat_names[seat], bids[seat]) for seat in self.bidding_order or range(len(bids))]

    @property
    def bids_against_cards(self) -> str | None:
        """Say how the pending bids compare with the cards in hand ("one trick too few for everyone")."""
        if not self.pending:
            return None
        total, cards = sum(self.pending["bids"]), self.pending["cards"]
        if total < cards:
            return ngettext("The bids add up to %(total)s of %(cards)s: %(num)s trick too few for everyone.",
                            "The bids add up to %(total)s of %(cards)s: %(num)s tricks too few for everyone.",
                            cards - total, total=total, cards=cards)
        if total > cards:
            return ngettext("The bids add up to %(total)s of %(cards)s: %(num)s trick too many for everyone.",
                            "The bids add up to %(total)s of %(cards)s: %(num)s tricks too many for everyone.",
                            total - cards, total=total, cards=cards)
        return gettext("The bids add up to the %(cards)s cards in hand: everyone can make theirs.", cards=cards)

    @property
    def first_bidder_name(self) -> str | None:
        """Return who bids first in the next Pocha deal."""
        return self.seat_names[self.bidding_order[0]] if self.bidding_order else None


def _name_sides(names: Sequence[str], sides: Sequence[Sequence[int]]) -> list[str]:
    """Name each side by its players ("Ana & Carmen" in Tute for four)."""
    return [" & ".join(names[seat] for seat in side) for side in sides]


def side_names(match: Match) -> list[str]:
    """Return the names of the match's sides, from its cached result."""
    sides = (match.result or {}).get("sides") or check_match(match_document(match)).sides
    return _name_sides(match.player_names, sides)


def next_cards(match: Match) -> int | None:
    """Return the cards each player holds in the match's next Pocha deal (None in Tute, or when it is over).

    Pending bids were checked against the same schedule when they were saved, so they agree.
    """
    cached = match.result if match.result is not None else check_match(match_document(match)).to_dict()
    cards = cached.get("next_cards")
    return cards if isinstance(cards, int) else None


def scoreboard(match: Match) -> Scoreboard:
    """Score the match's facts with the rules engine and lay them out for the scoreboard."""
    game = get_game(match.game)
    result = check_match(match_document(match))
    names = match.player_names
    sides = _name_sides(names, result.sides)
    options = check_options(match.game, match.options, len(names))
    rows = []
    for deal, scored, running in zip(match.deals, result.deals, result.running_totals()):
        summary, details = _describe_deal(match.game, deal.data, names, sides)
        rows.append(DealRow(
            number=deal.number, dealer=names[deal.data["dealer"]], summary=summary, details=details,
            scores=scored.scores, running=running,
            winner=None if scored.winner is None else sides[scored.winner]))
    if result.deals:
        next_dealer = result.next_dealer
    else:
        next_dealer = match.first_dealer
    if match.pending is not None:
        next_dealer = match.pending["dealer"]
    abandoned = match.status == ABANDONED
    return Scoreboard(
        match=match, game=game, seat_names=names, side_names=sides, totals=result.totals, juegos=result.juegos,
        target=options.get("target") if match.game != "pocha" else None,
        mode=options.get("mode") if match.game != "pocha" else None,
        rows=rows, finished=result.finished, abandoned=abandoned,
        winners=[sides[w] for w in result.winners],
        next_number=len(result.deals) + 1,
        next_dealer=None if result.finished or abandoned else next_dealer,
        next_cards=None if abandoned else result.next_cards,
        bidding_order=(list(bidding_order(next_dealer, len(names)))
                       if match.game == "pocha" and next_dealer is not None and not result.finished else []),
        pending=match.pending, options=options)


def _describe_deal(game: str, deal: dict[str, Any], names: list[str], sides: list[str]) -> tuple[str, list[str]]:
    """Return a one-line summary of a deal and the per-seat details shown beside its scores."""
    if game == "pocha":
        trump = suit_name(deal["trump"]) if deal.get("trump") else gettext("no trump")
        details = [f"{bid}/{tricks}" for bid, tricks in zip(deal["bids"], deal["tricks"])]
        cards = ngettext("%(num)s card", "%(num)s cards", deal["cards"])
        return f"{cards} · {trump}", details
    trump = deal["trump"]
    parts = [suit_name(trump)]
    if "points" in deal:
        parts.append("–".join(str(p) for p in deal["points"]))
    if deal.get("last_trick") is not None:
        parts.append(gettext("last trick %(names)s", names=sides[deal["last_trick"]]))
    for cante in deal.get("cantes") or []:
        parts.append(gettext("%(name)s sang %(points)s in %(suit)s", name=names[cante["seat"]],
                             points=cante_value(cante["suit"], trump), suit=suit_name(cante["suit"])))
    tute = deal.get("tute")
    if tute:
        kind = gettext("Reyes") if tute["kind"] == "reyes" else gettext("Caballos")
        parts.append(gettext("tute of %(kind)s by %(name)s", kind=kind, name=names[tute["seat"]]))
    return " · ".join(parts), []


def match_for_share(token: str) -> Match:
    """Return the match shared under this live-view token, or raise NotFound."""
    match = db.session.scalar(select(Match).where(Match.share_token == token)) if looks_like_key(token) else None
    if match is None or _deleted_while_read(match):
        raise NotFound(gettext("This live view is not shared (any more)."))
    return match
