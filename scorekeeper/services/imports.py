"""Importing accounts from an export file: many matches in one transaction, stored in a few statements.

A match imported is stored as its facts (the match, its seats and deals, dated as the file says)
with the engine's result and each player's result, many rows to a statement; the nights, ratings,
summaries and pair records of what was imported are worked out once, at the end, from all of it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

from sqlalchemy import insert, select, text

from ..extensions import db
from ..figures.rows import count_running, seat_rows
from ..figures.upkeep import insert_rows, rebuild_figures, regroup_nights
from ..models import (
    ABANDONED,
    FINISHED,
    PLAYING,
    Deal,
    Match,
    Player,
    PlayerPair,
    PlayerRating,
    PlayerResult,
    PlayerSummary,
    Season,
    Seat,
    User,
    name_key,
    utcnow,
)
from ..reads.transfer import SETTINGS
from ..registry import check_match, check_options, get_game
from ..rules import MatchResult
from ..text import clean_name
from .accounts import user_named
from .base import atomic
from .seasons import free_name, name_apart

#: Rows sent in one statement: few enough for any database's limit on a statement's parameters.
BATCH = 500

T = TypeVar("T")


def batches(items: Sequence[T], size: int = BATCH) -> Iterator[Sequence[T]]:
    """Yield `items` a batch at a time."""
    for start in range(0, len(items), size):
        yield items[start : start + size]


@atomic
def import_accounts(accounts: Sequence[Mapping[str, Any]], into: User | None = None) -> dict[str, int]:
    """Import checked accounts (see `transfer.read_export`) in one transaction; return what was added.

    Accounts are matched by username and created when missing (with their password hash and settings);
    with `into`, everything goes to that account. An account already here keeps its own settings. A
    match already present (same uid) is skipped. `unset` counts the accounts made without settings,
    from a file that has none.
    """
    report = {"accounts": 0, "players": 0, "matches": 0, "skipped": 0, "seasons": 0, "unset": 0}
    games: set[tuple[int, str]] = set()
    present = _present({item["uid"] for account in accounts for item in account["matches"]})
    for account in accounts:
        user = into or user_named(account["username"])
        if user is None:
            settings = account.get("settings", {})
            user = User(
                username=account["username"],
                username_key=account["username"].casefold(),
                password_hash=account["password_hash"],
                created_at=account["created_at"],
                # An account made by the import takes the settings of the file, so that its nights are
                # grouped, and its seasons and years counted, as where it was exported; those a file of
                # 0.2.0 or earlier lacks are the defaults, as for a new account.
                **settings,
            )
            db.session.add(user)
            db.session.flush()
            report["accounts"] += 1
            if len(settings) < len(SETTINGS):
                report["unset"] += 1
        players = _Players(user)
        for player in account["players"]:
            if players.add(player["name"], archived=player["archived"], created_at=player["created_at"]):
                report["players"] += 1
        new = []
        for item in account["matches"]:
            if item["uid"] in present:
                report["skipped"] += 1
                continue
            present.add(item["uid"])  # the same match twice in a file is imported once
            new.append(item)
        if new:
            games.update((user.id, game) for game in _store(user, players, new))
            # Imported matches may fall between those already here: the account's nights are grouped again.
            regroup_nights(user.id)
        report["matches"] += len(new)
        report["seasons"] += _add_seasons(user, account.get("seasons", []))
    rebuild_figures(games)
    refresh_planner_statistics()
    return report


def _add_seasons(user: User, seasons: Sequence[Mapping[str, Any]]) -> int:
    """Add the named seasons of a file that the account has not got; return how many.

    A season the account had before the import, of the same days and points under the same name (or
    that name told apart by a number, as a twin is), is there: importing a file again adds nothing.
    Any other is added under its name, or told apart by a number ("Liga (2)") when the account has
    a season of that name: two phones could name twins before names were kept apart, and none of
    them is dropped.
    """
    stored = db.session.execute(select(Season.name_key, *_TERMS).where(Season.user_id == user.id)).all()
    taken = {row[0] for row in stored}
    keys_by_terms: dict[tuple[Any, ...], set[str]] = {}
    for key, *terms in stored:
        keys_by_terms.setdefault(tuple(terms), set()).add(key)
    added = 0
    for season in seasons:
        keys = keys_by_terms.get(tuple(season[column.key] for column in _TERMS), set())
        name = season["name"]
        twins = (name_apart(name, number) for number in range(2, len(stored) + 2))
        if name_key(name) in keys or any(name_key(twin) in keys for twin in twins):
            continue
        free = free_name(name, taken)
        taken.add(name_key(free))
        db.session.add(Season(user_id=user.id, **{**season, "name": free}, name_key=name_key(free)))
        added += 1
    return added


#: What a season is besides its name: its days, its points and its best-of.
_TERMS = (
    Season.starts_on,
    Season.ends_on,
    Season.win_points,
    Season.shared_points,
    Season.other_points,
    Season.best_of,
)


def _present(uids: Iterable[str]) -> set[str]:
    """Return which of these match uids are stored already (any account's), a batch of them per query."""
    found: set[str] = set()
    for batch in batches(sorted(uids)):
        found.update(db.session.scalars(select(Match.uid).where(Match.uid.in_(batch))))
    return found


class _Players:
    """The account's players by name, read in one query, and those added to it (a batch per statement)."""

    def __init__(self, user: User) -> None:
        self.user = user
        self.ids = {
            key: player_id
            for key, player_id in db.session.execute(
                select(Player.name_key, Player.id).where(Player.user_id == user.id)
            )
        }

    def add(self, name: str, archived: bool = False, created_at: Any = None) -> bool:
        """Add a player unless the account has one by that name; say whether it was added."""
        key = name_key(name)
        if key in self.ids:
            return False
        player = Player(
            user_id=self.user.id,
            name=clean_name(name),
            name_key=key,
            archived=archived,
            created_at=created_at or utcnow(),
        )
        db.session.add(player)
        db.session.flush()
        self.ids[key] = player.id
        return True

    def seated(self, names: Sequence[str]) -> list[int]:
        """Return the ids of the players with these names, adding those the account lacks."""
        for name in names:
            self.add(name)
        return [self.ids[name_key(name)] for name in names]


def _store(user: User, players: _Players, items: Sequence[Mapping[str, Any]]) -> set[str]:
    """Store the matches of the file (none of them present yet) with their seats, deals and results; return their
    games. Their ratings, summaries, pair records and nights are left to the caller."""
    matches, facts = [], []
    for item in items:
        document = item["document"]
        result: MatchResult = item.get("result") or check_match(document)
        deals = list(document.get("deals") or [])
        first_dealer = item["first_dealer"]
        if first_dealer is None:
            first_dealer = deals[0]["dealer"] if deals else 0
        options = check_options(document["game"], document.get("options"), len(document["players"]))
        status = ABANDONED if item["status"] == ABANDONED else FINISHED if result.finished else PLAYING
        # A finished match always has an end: the ratings follow the order matches ended in.
        ended = item["ended_at"] or (item["updated_at"] if status == FINISHED else None)
        note = item.get("note")
        matches.append(
            {
                "uid": item["uid"],
                "user_id": user.id,
                "game": document["game"],
                "first_dealer": first_dealer,
                "options": get_game(document["game"]).changed_options(options),
                "status": status,
                "pending": item["pending"],
                "version": 1,
                "result": result.to_dict(),
                "share_key_hash": None,
                "share_salt": None,
                "share_preview": None,
                "note": note,
                "note_key": None if note is None else note.casefold(),
                "night_id": None,
                "created_at": item["created_at"],
                "updated_at": item["updated_at"],
                "ended_at": ended,
            }
        )
        facts.append((players.seated(list(document["players"])), deals, list(item["deal_dates"]), result))
    ids = _insert_returning_ids(matches)
    seats: list[dict[str, Any]] = []
    deal_rows: list[dict[str, Any]] = []
    results: list[dict[str, Any]] = []
    for match_id, match, (player_ids, deals, dates, result) in zip(ids, matches, facts):
        seated = list(enumerate(player_ids))
        seats += [{"match_id": match_id, "seat": seat, "player_id": player_id} for seat, player_id in seated]
        deal_rows += [
            {
                "match_id": match_id,
                "number": number,
                "data": dict(deal),
                "created_at": created,
                "updated_at": updated,
                "entry_link_id": None,
            }
            for number, (deal, (created, updated)) in enumerate(zip(deals, dates), start=1)
        ]
        results += seat_rows(
            user.id,
            match_id,
            match["game"],
            match["status"],
            match["ended_at"] or match["created_at"],
            seated,
            deals,
            result,
        )
    count_running(results)  # what `rebuild_figures` finds when the account had none of these games' results
    for model, rows in ((Seat, seats), (Deal, deal_rows), (PlayerResult, results)):
        for batch in batches(rows):
            insert_rows(model, batch)
    return {match["game"] for match in matches}


def _insert_returning_ids(rows: Sequence[Mapping[str, Any]]) -> list[int]:
    """Insert matches a batch per statement; return their new ids, in the order of `rows`."""
    table = Match.__table__
    statement = insert(table).returning(table.c.id, sort_by_parameter_order=True)
    ids: list[int] = []
    for batch in batches(rows):
        ids += db.session.scalars(statement, list(batch)).all()
    return ids


#: The tables an import fills, the derived ones included.
_FILLED = (Match, Seat, Deal, PlayerResult, PlayerRating, PlayerSummary, PlayerPair)


def refresh_planner_statistics() -> None:
    """Have PostgreSQL read the filled tables' statistics again, inside the import's transaction.

    Its planner picks each query's plan from what it knows of the tables, which autovacuum
    refreshes only a while after a change: right after a bulk import they still describe
    the tables from before it, and reads that walk an index down (head to head, a page of
    history) are planned as scans that grow with the history. SQLite's planner reads such
    figures only where ANALYZE has been run, which nothing here does: its plans are the same
    after an import as after a year of play, so it is left alone.
    """
    if db.session.get_bind().dialect.name == "postgresql":
        db.session.execute(text("ANALYZE " + ", ".join(str(model.__table__.name) for model in _FILLED)))
