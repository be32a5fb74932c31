"""A realistic history for the benchmark: a group's years of Tute and Pocha, written deal by deal.

Every match is started and every deal added through the service layer, exactly as the
deal form does it, so the database ends up as a group that used the app for years would
leave it: finished matches with their derived rows and ratings, a few abandoned ones,
and one or two still being played; then the matches are dated four an evening, so that
the history holds game nights.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import Match, Player, User
from scorekeeper.rules import SUITS

PLAYER_NAMES = [
    "Ana",
    "Bea",
    "Carmen",
    "Dolores",
    "Elena",
    "Fermín",
    "Gloria",
    "Héctor",
    "Inés",
    "Javier",
    "Lucía",
    "Manolo",
    "Nuria",
    "Óscar",
    "Paco",
    "Quique",
    "Rosa",
    "Sergio",
    "Teresa",
    "Ulises",
    "Valle",
    "Xavi",
    "Yolanda",
    "Zoe",
    "Álvaro",
    "Begoña",
    "Chema",
    "Divina",
    "Eusebio",
    "Fina",
]
#: Share of the matches each game has: Pocha runs to 26–29 deals, Tute to about a dozen.
GAME_MIX = (("pocha", 0.4), ("tute2", 0.2), ("tute3", 0.15), ("tute4", 0.15), ("subastado", 0.1))
#: The players at each Tute table.
TUTE_SEATS = {"tute2": 2, "tute3": 3, "tute4": 4}
#: The Tute targets tables choose, in juegos; 7 is the usual evening match.
TUTE_TARGETS = (5, 7, 7, 7, 9)
#: One match in fifty is stopped early.
ABANDON_RATE = 0.02
#: A card point total a side can capture (never 1 nor 119).
POSSIBLE_POINTS = [p for p in range(121) if p not in (1, 119)]


@dataclass
class Table:
    """Who plays: the account and its players, the regulars more often than the rest."""

    user: User
    names: list[str]
    weights: list[float] = field(default_factory=list)

    def seat(self, rng: random.Random, count: int) -> list[str]:
        """Return `count` different players for a match, drawn by how often each one plays."""
        chosen: list[str] = []
        while len(chosen) < count:
            name = rng.choices(self.names, self.weights)[0]
            if name not in chosen:
                chosen.append(name)
        return chosen


def make_table(user: User, players: int) -> Table:
    """Add `players` players to the account; the first ones are the regulars."""
    names = PLAYER_NAMES[:players] + [f"Player {n}" for n in range(len(PLAYER_NAMES), players)]
    for name in names:
        services.add_player(user, name)
    return Table(user, names, _weights(len(names)))


def table_of(user: User) -> Table:
    """Return the table of the players `make_table` added to the account, regulars first."""
    names = [
        player.name
        for player in db.session.scalars(select(Player).where(Player.user_id == user.id).order_by(Player.id))
    ]
    return Table(user, names, _weights(len(names)))


def _weights(count: int) -> list[float]:
    return [1.0 / (1 + index / 6) for index in range(count)]


def tute_deal(rng: random.Random, seats: int, dealer: int) -> dict[str, Any]:
    """Return a played-out Tute deal: a trump, a few cantes, the card points and the last trick."""
    trump = rng.choice(SUITS)
    cantes = [{"seat": rng.randrange(seats), "suit": suit} for suit in SUITS if rng.random() < 0.3]
    if rng.random() < 0.02:  # somebody holds all four Reyes or Caballos
        holder = rng.randrange(seats)
        return {
            "dealer": dealer,
            "trump": trump,
            "cantes": [dict(c, seat=holder) for c in cantes],
            "tute": {"seat": holder, "kind": rng.choice(["reyes", "caballos"])},
        }
    if seats == 3:  # each for themselves: three shares of the 120 card points
        first = rng.choice(POSSIBLE_POINTS)
        second = rng.choice([p for p in POSSIBLE_POINTS if p <= 120 - first and 120 - first - p in POSSIBLE_POINTS])
        return {
            "dealer": dealer,
            "trump": trump,
            "points": [first, second, 120 - first - second],
            "last_trick": rng.randrange(3),
            "cantes": cantes,
        }
    points = rng.choice(POSSIBLE_POINTS)
    return {
        "dealer": dealer,
        "trump": trump,
        "points": [points, 120 - points],
        "last_trick": rng.randrange(2),
        "cantes": cantes,
    }


def pocha_deal(rng: random.Random, players: int, dealer: int, cards: int) -> dict[str, Any]:
    """Return a Pocha deal: bids near a fair share (the dealer kept off the forbidden total), then the tricks."""
    bids = [max(0, min(cards, round(rng.gauss(cards / players, 0.8)))) for _ in range(players)]
    if sum(bids) == cards:  # the last-bidder rule: the dealer may not make the bids add up
        bids[dealer] += 1 if bids[dealer] < cards else -1
    tricks = [0] * players
    for _ in range(cards):
        tricks[rng.randrange(players)] += 1
    trump = rng.choice([None, *SUITS])
    return {"dealer": dealer, "cards": cards, "trump": trump, "bids": bids, "tricks": tricks}


def subastado_deal(rng: random.Random, players: int, dealer: int) -> dict[str, Any]:
    """Return a deal of the subastado: now and then everyone passes; else a bid of 60 to 100 that the
    declarer makes three times in four, with the card points, last trick and cantes to match."""
    if rng.random() < 0.1:
        return {"dealer": dealer, "passed": True}
    declarer, trump, bid = rng.randrange(players), rng.choice(SUITS), 5 * rng.randint(12, 20)
    last_trick = rng.random() < 0.5
    cantes = [suit for suit in SUITS if rng.random() < 0.2]
    extra = 10 * last_trick + sum(40 if suit == trump else 20 for suit in cantes)
    aim = bid - extra + (rng.randint(0, 25) if rng.random() < 0.75 else -rng.randint(5, 30))
    points = min(120, max(0, aim))
    points = {1: 0, 119: 118}.get(points, points)  # no side can take 1 or 119
    return {
        "dealer": dealer,
        "declarer": declarer,
        "bid": bid,
        "trump": trump,
        "points": points,
        "last_trick": last_trick,
        "cantes": [{"seat": declarer, "suit": suit} for suit in cantes],
    }


def next_deal(rng: random.Random, match: Match) -> dict[str, Any]:
    """Return a plausible next deal for `match`, dealt by whoever deals next."""
    result = match.result or {}
    dealer = result.get("next_dealer")
    if dealer is None:
        dealer = match.first_dealer
    if match.game == "pocha":
        return pocha_deal(rng, len(match.seats), dealer, result["next_cards"])
    if match.game == "subastado":
        return subastado_deal(rng, len(match.seats), dealer)
    return tute_deal(rng, len(match.seats), dealer)


def start_match(rng: random.Random, table: Table, game: str | None = None, players: int | None = None) -> Match:
    """Start a match of `game` (or of a game drawn from the mix) at a table drawn from the players."""
    game = game or rng.choices([g for g, _ in GAME_MIX], [w for _, w in GAME_MIX])[0]
    options: dict[str, Any]
    if game == "pocha":
        count, options = players or rng.choice([3, 4, 4, 4, 5, 6]), {}
    elif game == "subastado":
        count = players or rng.choice([3, 3, 4])
        options = {"players": count} if count != 3 else {}
    else:
        count, options = TUTE_SEATS[game], {"target": rng.choice(TUTE_TARGETS)}
    return services.start_match(table.user, game, table.seat(rng, count), options, rng.randrange(count))


def play(
    rng: random.Random, match: Match, add_deal: Callable[..., Match] = services.add_deal, stop_after: int | None = None
) -> Iterator[Match]:
    """Enter deals until the match is over (or `stop_after` deals), yielding after each one."""
    entered = 0
    while match.status == "playing" and (stop_after is None or entered < stop_after):
        match = add_deal(match, next_deal(rng, match), len(match.deals) + 1)
        entered += 1
        yield match


def reference_scoreboards(user: User) -> dict[str, Match]:
    """Play the scoreboards whose weight and Lighthouse score are measured: Pocha for four and Tute
    for four, each to its end (the same deals every time)."""
    rng = random.Random(7)
    table = make_table(user, 8)
    played = {}
    for game, players in (("pocha", 4), ("tute4", None)):
        match = start_match(rng, table, game, players=players)
        for match in play(rng, match):
            pass
        played[game] = match
    return played


def build(rng: random.Random, table: Table, matches: int, played: Callable[[Match], None] = lambda match: None) -> int:
    """Add `matches` matches, each played to its end (a few abandoned); return the deals entered.

    `played` is told of each match once it is over.
    """
    deals = 0
    for _ in range(matches):
        match = start_match(rng, table)
        if rng.random() < ABANDON_RATE:
            for match in play(rng, match, stop_after=rng.randrange(1, 5)):
                deals += 1
            if match.status == "playing":
                services.abandon_match(match)
            played(match)
            continue
        for match in play(rng, match):
            deals += 1
        played(match)
    return deals


#: Matches a game night holds in the history, and how far apart they start.
MATCHES_A_NIGHT = 3
MINUTES_BETWEEN_MATCHES = 50


class Calendar:
    """Dates the matches as a group plays them: three an evening from the first one on, an evening a day.

    The services date every match and deal at the moment it is written, so a history written in
    minutes would be one long night (and each match started would group that whole night again).
    Each match is dated as soon as it is over, in the order the matches are played (so the order
    they ended in, which the ratings follow, is kept); `settle` then rebuilds every derived row
    from the facts, as `flask --app scorekeeper recompute` does.
    """

    def __init__(self, first_evening: datetime) -> None:
        self.first_evening = first_evening
        self.dated = 0

    def date(self, match: Match) -> None:
        """Move a finished (or abandoned) match and its deals to its place in the calendar."""
        started = self.first_evening + timedelta(
            days=self.dated // MATCHES_A_NIGHT, minutes=MINUTES_BETWEEN_MATCHES * (self.dated % MATCHES_A_NIGHT)
        )
        self.dated += 1
        match.created_at = started
        for number, deal in enumerate(match.deals, start=1):
            deal.created_at = deal.updated_at = started + timedelta(minutes=2 * number)
        last = match.deals[-1].created_at if match.deals else started
        match.updated_at = last
        if match.ended_at is not None:
            match.ended_at = last
        db.session.commit()

    @staticmethod
    def settle() -> None:
        """Rebuild every derived row (results, ratings, summaries, pairs, nights) from the dated facts."""
        services.recompute_all()
