"""Two players' records, from the derived rows that `upkeep` keeps: head to head (their record and
the matches they shared, a page at a time) and each player's rivals and partners.

Each read asks a fixed number of queries, however many matches the account holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any, NamedTuple

from sqlalchemy import BindParameter, Select, and_, bindparam, select, union_all

from ..extensions import db
from ..models import Player, PlayerPair, PlayerResult, User
from ..reads.paging import Page


class SharedMatch(NamedTuple):
    """A match two players both sat in (a tuple: a page reads twenty, and a tuple is the quickest
    of Python's records to make)."""

    match_id: int
    game: str
    played_at: datetime
    status: str
    first_won: bool
    second_won: bool
    partners: bool


#: The other player's results in a match, joined to a player's own (made once), as table rows:
#: plain values, read without the ORM's loading of each row.
_OTHER_ROWS = PlayerResult.__table__.alias("other")
#: Shared matches per page of the head-to-head list.
SHARED_PAGE_SIZE = 20


@dataclass(frozen=True)
class Rivalry:
    """What two players' shared matches add up to."""

    shared: int
    first_wins: int
    second_wins: int
    together: int
    together_won: int


@cache
def _pair_statements() -> dict[str, Any]:
    """Return the statements that read a pair of players, built once rather than on every
    request (their ids are bound when they run)."""
    mine_rows = PlayerResult.__table__.alias("mine")
    mine, theirs, pairs = mine_rows.c, _OTHER_ROWS.c, PlayerPair.__table__.c
    # The first player's results are walked down their (player, played_at, match) index, and the
    # second player's row of each match looked up among its seats. (Looked up on the players'
    # index instead, with the start of the first player's row, SQLite read fewer rows but
    # PostgreSQL planned a join whose cost grew with the history.) The
    # players are the account's (`queries.player_for`), so the account is not asked again.
    shared = (
        select(mine.match_id, mine.game, mine.played_at, mine.status, mine.won, theirs.won, mine.side == theirs.side)
        .join(
            _OTHER_ROWS,
            and_(theirs.match_id == mine.match_id, theirs.player_id == bindparam("second")),
        )
        .where(mine.player_id == bindparam("first"))
        .order_by(mine.played_at.desc(), mine.match_id.desc())
    )
    return {
        "record": select(
            pairs.first_id, pairs.shared, pairs.first_wins, pairs.second_wins, pairs.together, pairs.together_won
        ).where(
            pairs.user_id == bindparam("user_id"),
            pairs.first_id == bindparam("low"),
            pairs.second_id == bindparam("high"),
        ),
        # The first page without an OFFSET. PostgreSQL guesses that an OFFSET it cannot see skips
        # a tenth of the rows, which makes the plan it would keep for every pair look dearer than
        # the one it makes for the pair at hand: so on a long history it planned the join again
        # at every view, which took longer than running it. The LIMIT stays a parameter here:
        # written out (`fixed_limit`), it made the plan for the pair at hand look the cheaper one
        # again, and the join was planned at every view, never kept.
        "first_shared": shared.limit(bindparam("limit")),
        "later_shared": shared.limit(bindparam("limit")).offset(bindparam("offset")),
    }


def rivalry(user: User, first: Player, second: Player) -> Rivalry:
    """Return how often two players met and who won, and their record as partners (one row)."""
    low, high = sorted((first.id, second.id))
    row = (
        db.session.connection()
        .execute(_pair_statements()["record"], {"user_id": user.id, "low": low, "high": high})
        .first()
    )
    if row is None:
        return Rivalry(0, 0, 0, 0, 0)
    wins = (row.first_wins, row.second_wins) if first.id == row.first_id else (row.second_wins, row.first_wins)
    return Rivalry(row.shared, *wins, row.together, row.together_won)


def head_to_head(first: Player, second: Player, shared: int, page: int = 1) -> Page:
    """Return a page of the `shared` matches both players (the account's) sat in, newest first.

    The first player's matches are walked newest first down their index until the page is
    full, so a page costs the same however long the two have played.
    """
    page = max(page, 1)
    values = {"first": first.id, "second": second.id, "limit": SHARED_PAGE_SIZE}
    connection = db.session.connection()
    # Fetched whole (`all()`): iterating a result asks SQLite's cursor for one row at a time.
    if page == 1:
        rows = connection.execute(_pair_statements()["first_shared"], values).all()
    else:
        offset = (page - 1) * SHARED_PAGE_SIZE
        rows = connection.execute(_pair_statements()["later_shared"], {**values, "offset": offset}).all()
    items = [
        SharedMatch(match_id, game, played_at, status, bool(first_won), bool(second_won), bool(partners))
        for match_id, game, played_at, status, first_won, second_won, partners in rows
    ]
    return Page(items=items, page=page, per_page=SHARED_PAGE_SIZE, total=shared)


#: The fewest finished matches two players must have met in (or played as partners) before one
#: is named the other's nemesis, favourite victim, or best or worst partner.
MIN_MEETINGS = 3


@dataclass(frozen=True)
class Rival:
    """Another player, and a record with them: `won` of `of` matches (met, or played together)."""

    player_id: int
    name: str
    won: int
    of: int


@dataclass(frozen=True)
class Rivals:
    """A player's rivals and partners across every game (None where nobody qualifies).

    The nemesis beat the player in the largest share of their meetings (finished matches on
    opposite sides), of those who beat them more often than they lost to them; the favourite
    victim lost to them in the largest share, of those they beat more often. The best and worst
    partners (Tute for four) won the largest and smallest share of their matches together, the
    worst a smaller share than the best. Each needs `MIN_MEETINGS`; a share shared goes to the
    longer record, then to the name first in order.
    """

    nemesis: Rival | None
    victim: Rival | None
    best_partner: Rival | None
    worst_partner: Rival | None


@cache
def _rivals_statement() -> Any:
    """Return the statement that reads a player's pair records with the other player's name: two
    walks, one down each end of the pairs' index (the player is the lower id of some, the higher
    of the others)."""
    pairs, players = PlayerPair.__table__.c, Player.__table__.c
    me: BindParameter[int] = bindparam("player_id")

    def records(mine: Any, theirs: Any, my_wins: Any, their_wins: Any) -> Select[Any]:
        return (
            select(
                theirs.label("other_id"),
                players.name,
                pairs.met,
                my_wins.label("my_wins"),
                their_wins.label("their_wins"),
                pairs.together,
                pairs.together_won,
            )
            .join_from(PlayerPair.__table__, Player.__table__, players.id == theirs)
            .where(mine == me, pairs.together + pairs.met >= MIN_MEETINGS)
        )

    return union_all(
        records(pairs.first_id, pairs.second_id, pairs.first_wins, pairs.second_wins),
        records(pairs.second_id, pairs.first_id, pairs.second_wins, pairs.first_wins),
    )


def rivals(player: Player) -> Rivals:
    """Return the player's (the account's) nemesis, favourite victim, and best and worst partners, in one query."""
    rows = db.session.connection().execute(_rivals_statement(), {"player_id": player.id}).all()
    # Plain tuples (id, name, won, of) until the one chosen: a long history's player has a record with
    # most of the account, and an object for each of them cost more than the query.
    nemeses: list[tuple[int, str, int, int]] = []
    victims: list[tuple[int, str, int, int]] = []
    together: list[tuple[int, str, int, int]] = []
    for other, name, met, mine, theirs, partnered, partnered_won in rows:
        # A nemesis beat the player more often than they lost to them, a victim the other way
        # round: one player is never both.
        if met >= MIN_MEETINGS:
            if theirs > mine:
                nemeses.append((other, name, theirs, met))
            elif mine > theirs:
                victims.append((other, name, mine, met))
        if partnered >= MIN_MEETINGS:
            together.append((other, name, partnered_won, partnered))
    best = _ranked(together)
    return Rivals(
        nemesis=_ranked(nemeses),
        victim=_ranked(victims),
        best_partner=best,
        # The worst partner won a smaller share with the player than the best one did.
        worst_partner=_ranked(
            [record for record in together if best and record[2] * best.of < best.won * record[3]], lowest=True
        ),
    )


def _ranked(records: list[tuple[int, str, int, int]], lowest: bool = False) -> Rival | None:
    """Return the record (other player, name, won, of) with the largest (or smallest) share won, then
    the longest, then by name."""
    if not records:
        return None
    sign = 1 if lowest else -1
    chosen = min(
        records, key=lambda record: (sign * record[2] / record[3], -record[3], record[1].casefold(), record[0])
    )
    return Rival(*chosen)
