"""Export and import: every account's players and matches as one JSON file.

The file holds facts only (match documents, statuses, dates), so an import re-checks
every match with the rules engine and recomputes its scores. A damaged file is refused
whole, with every problem listed, before anything is written.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, date, datetime
from typing import Any

from flask import current_app
from sqlalchemy import select
from sqlalchemy.orm import selectinload

from ..errors import InvalidInput
from ..extensions import db
from ..formats import is_time_zone
from ..models import NIGHT_GAP_HOURS, NOTE_ROOM, STATUSES, Match, Player, Season, User
from ..registry import check_bids, check_match
from ..rules import RuleViolation
from ..season_rules import MIN_YEAR, SeasonRules, check_season
from ..text import USERNAME_PATTERN, clean_name, clean_note, plain_text
from .documents import match_document

FORMAT = "scorekeeper-export"
VERSION = 1


class DamagedFile(Exception):
    """The file cannot be imported; `problems` says why, each problem a line."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


def _stamp(value: datetime | None) -> str | None:
    return None if value is None else value.astimezone(UTC).isoformat()


def export_data(username: str | None = None) -> dict[str, Any]:
    """Return every account (or only `username`'s) with its players and matches."""
    query = select(User).order_by(User.id)
    if username is not None:
        query = query.where(User.username_key == username.casefold())
    users = list(db.session.scalars(query))
    if username is not None and not users:
        raise DamagedFile([f"There is no account called {username}."])
    accounts = []
    for user in users:
        players = db.session.scalars(select(Player).where(Player.user_id == user.id).order_by(Player.id))
        matches = db.session.scalars(
            select(Match).where(Match.user_id == user.id).order_by(Match.id).options(selectinload(Match.deals))
        )
        seasons = db.session.scalars(select(Season).where(Season.user_id == user.id).order_by(Season.id))
        accounts.append(
            {
                "username": user.username,
                "password_hash": user.password_hash,
                "created_at": _stamp(user.created_at),
                **{name: getattr(user, name) for name in SETTINGS},
                "players": [
                    {"name": p.name, "archived": p.archived, "created_at": _stamp(p.created_at)} for p in players
                ],
                "matches": [
                    {
                        "uid": m.uid,
                        "status": m.status,
                        "first_dealer": m.first_dealer,
                        "pending": m.pending,
                        "created_at": _stamp(m.created_at),
                        "updated_at": _stamp(m.updated_at),
                        "ended_at": _stamp(m.ended_at),
                        "deal_dates": [[_stamp(d.created_at), _stamp(d.updated_at)] for d in m.deals],
                        "match": match_document(m),
                        "note": m.note,
                    }
                    for m in matches
                ],
                "seasons": [
                    {
                        "name": s.name,
                        "starts_on": s.starts_on.isoformat(),
                        "ends_on": s.ends_on.isoformat(),
                        **{name: getattr(s, name) for name in SEASON_NUMBERS},
                        "best_of": s.best_of,
                    }
                    for s in seasons
                ],
            }
        )
    return {"format": FORMAT, "version": VERSION, "exported_at": _stamp(datetime.now(UTC)), "accounts": accounts}


#: The earliest moment a match, a deal, a player or an account of a file can date from: the first year
#: a season may be in. The latest is the end of the year after the one the file is read in (a clock
#: ahead, a zone ahead on New Year's Eve): nothing was played later. Past these years a date is absurd,
#: and may be one no database holds (year 0 or 10000 once in UTC) or no calendar of the pages can follow.
FIRST_PLAYED = datetime(MIN_YEAR, 1, 1, tzinfo=UTC)
#: The longest password hash an account keeps, and the longest uid of a match (their columns' room).
PASSWORD_HASH_ROOM = 255
UID_ROOM = 32


class _Checker:
    """Collects the problems of a file being read."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.last_year = datetime.now(UTC).year + 1
        self.after_last = datetime(self.last_year + 1, 1, 1, tzinfo=UTC)

    def need(self, condition: bool, where: str, message: str) -> bool:
        if not condition:
            self.problems.append(f"{where}: {message}")
        return condition

    def date(self, value: Any, where: str, optional: bool = False) -> datetime | None:
        if value is None and optional:
            return None
        try:
            parsed = datetime.fromisoformat(value)
        except (TypeError, ValueError):
            self.problems.append(f"{where}: {value!r} is not a date and time.")
            return None
        if parsed.tzinfo is None:
            self.problems.append(f"{where}: the date has no time zone.")
            return None
        # Compared as they are: Python compares aware times without the overflow of turning them to UTC.
        if not FIRST_PLAYED <= parsed < self.after_last:
            self.problems.append(
                f"{where}: {value!r} is not a time a match can have been played "
                f"(in the years {MIN_YEAR} to {self.last_year})."
            )
            return None
        return parsed


def read_export(data: Any) -> list[dict[str, Any]]:
    """Check an export file's contents; return its accounts ready to import, or raise DamagedFile."""
    check = _Checker()
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise DamagedFile(["This is not a Scorekeeper export file."])
    if data.get("version") != VERSION:
        raise DamagedFile([f"This file has version {data.get('version')!r}; this Scorekeeper reads version {VERSION}."])
    accounts = data.get("accounts")
    if not isinstance(accounts, list):
        raise DamagedFile(["The file has no list of accounts."])
    parsed = []
    for a, account in enumerate(accounts):
        where = f"account {a + 1}"
        if not check.need(isinstance(account, Mapping), where, "is not an object."):
            continue
        parsed.append(_read_account(account, where, check))
    if check.problems:
        raise DamagedFile(check.problems)
    return parsed


def _read_account(account: Mapping[str, Any], where: str, check: _Checker) -> dict[str, Any]:
    username = account.get("username")
    check.need(
        isinstance(username, str) and bool(USERNAME_PATTERN.fullmatch(username)),
        where,
        "has no valid username (3 to 40 letters, digits or . _ - @ +).",
    )
    check.need(plain_text(account.get("password_hash"), PASSWORD_HASH_ROOM) is not None, where, "has no password hash.")
    players = account.get("players")
    check.need(isinstance(players, list), where, "has no list of players.")
    read_players = []
    for p, player in enumerate(players if isinstance(players, list) else []):
        at = f"{where}, player {p + 1}"
        if not check.need(isinstance(player, Mapping) and isinstance(player.get("name"), str), at, "has no name."):
            continue
        try:
            name = clean_name(player["name"])
        except InvalidInput as error:
            check.problems.append(f"{at}: {error.message}")
            continue
        check.need(isinstance(player.get("archived"), bool), at, "says neither true nor false for archived.")
        read_players.append(
            {
                "name": name,
                "archived": player.get("archived") is True,
                "created_at": check.date(player.get("created_at"), at),
            }
        )
    matches = account.get("matches")
    check.need(isinstance(matches, list), where, "has no list of matches.")
    read_matches = []
    for m, match in enumerate(matches if isinstance(matches, list) else []):
        at = f"{where}, match {m + 1}"
        if check.need(isinstance(match, Mapping), at, "is not an object."):
            read = _read_match(match, at, check)
            if read is not None:
                read_matches.append(read)
    return {
        "username": username,
        "password_hash": account.get("password_hash"),
        "created_at": check.date(account.get("created_at"), where),
        "settings": _read_settings(account, where, check),
        "players": read_players,
        "matches": read_matches,
        "seasons": _read_seasons(account.get("seasons", []), where, check),
    }


#: An account's settings in an export file: its language and time zone (None: the browser's), and the
#: pause in hours after which a new game night begins. Files of 0.2.0 and earlier have none of them.
SETTINGS = ("language", "time_zone", "night_gap_hours")


def _read_settings(account: Mapping[str, Any], where: str, check: _Checker) -> dict[str, Any]:
    """Check the account's settings the file holds, as the account page checks them; return them (only
    those the file holds)."""
    read = {name: account[name] for name in SETTINGS if name in account}
    languages = list(current_app.config["LANGUAGES"])
    language = read.get("language")
    check.need(
        language is None or (isinstance(language, str) and language in languages),
        where,
        f"has a language that is none of {', '.join(languages)}.",
    )
    zone = read.get("time_zone")
    check.need(
        zone is None or is_time_zone(zone),
        where,
        "has a time zone that is not one (an IANA name such as Europe/Madrid).",
    )
    gap = read.get("night_gap_hours", NIGHT_GAP_HOURS[0])
    check.need(
        isinstance(gap, int) and not isinstance(gap, bool) and gap in NIGHT_GAP_HOURS,
        where,
        f"has a night gap that is not a whole number of hours from {NIGHT_GAP_HOURS[0]} to {NIGHT_GAP_HOURS[-1]}.",
    )
    return read


#: A named season's whole numbers in an export file, each from 0 to 100.
SEASON_NUMBERS = ("win_points", "shared_points", "other_points")


def _read_seasons(seasons: Any, where: str, check: _Checker) -> list[dict[str, Any]]:
    """Check an account's named seasons (files made before seasons had none), as the form checks a
    season typed; return them ready to import."""
    read: list[dict[str, Any]] = []
    if not check.need(isinstance(seasons, list), where, "has seasons that are not a list."):
        return read
    for index, season in enumerate(seasons):
        at = f"{where}, season {index + 1}"
        if not check.need(isinstance(season, Mapping) and isinstance(season.get("name"), str), at, "has no name."):
            continue
        days = []
        for field in ("starts_on", "ends_on"):
            try:
                days.append(date.fromisoformat(season.get(field)))
            except (TypeError, ValueError):
                check.problems.append(f"{at}: {season.get(field)!r} is not a day (YYYY-MM-DD).")
        numbers = {field: season.get(field) for field in (*SEASON_NUMBERS, "best_of")}
        whole = all(
            (isinstance(value, int) and not isinstance(value, bool)) or (field == "best_of" and value is None)
            for field, value in numbers.items()
        )
        check.need(whole, at, "gives points or a best of that are not whole numbers.")
        if len(days) < 2 or not whole:
            continue
        try:
            rules = check_season(SeasonRules(season["name"], days[0], days[1], **numbers))
        except InvalidInput as error:
            check.problems.append(f"{at}: {error.message}")
            continue
        read.append(dict(rules.__dict__))
    return read


def _read_match(match: Mapping[str, Any], where: str, check: _Checker) -> dict[str, Any] | None:
    # The match document as the file holds it: check_match says whether it is one.
    document: Any = match.get("match")
    try:
        result = check_match(document)
    except RuleViolation as violation:
        for error in violation.errors:
            deal = f"deal {error['deal']}, " if error["deal"] else ""
            check.problems.append(f"{where}: {deal}{error['field']}: {error['message']} [{error['code']}]")
        return None
    status = match.get("status")
    check.need(status in STATUSES, where, f"has an unknown status {status!r}.")
    if status in STATUSES and status != "abandoned":
        check.need(
            (status == "finished") == result.finished,
            where,
            f"is marked {status}, but its deals say it is {'over' if result.finished else 'not over'}.",
        )
    players = len(document["players"])
    first_dealer = match.get("first_dealer")
    check.need(
        isinstance(first_dealer, int) and not isinstance(first_dealer, bool) and 0 <= first_dealer < players,
        where,
        "has no valid first dealer.",
    )
    for seat, name in enumerate(document["players"]):
        try:
            clean_name(name)  # as the import stores it (the engine checked that it is text)
        except InvalidInput as refused:
            check.problems.append(f"{where}: players.{seat}: {refused.message}")
    uid = match.get("uid")
    check.need(bool(plain_text(uid, UID_ROOM)), where, "has no valid uid.")
    pending = match.get("pending")
    if pending is not None:
        try:
            check_bids(document, pending)
        except RuleViolation as violation:
            for error in violation.errors:
                check.problems.append(f"{where}: pending bids, {error['field']}: {error['message']} [{error['code']}]")
        check.need(status == "playing", where, "has pending bids but is not being played.")
    dates: Any = match.get("deal_dates")  # as the file holds them: checked below
    deal_count = len(document.get("deals") or [])
    deal_dates = []
    if check.need(isinstance(dates, list) and len(dates) == deal_count, where, "needs one pair of dates per deal."):
        for d, pair in enumerate(dates):
            if check.need(isinstance(pair, list) and len(pair) == 2, f"{where}, deal {d + 1}", "needs two dates."):
                deal_dates.append(
                    (check.date(pair[0], f"{where}, deal {d + 1}"), check.date(pair[1], f"{where}, deal {d + 1}"))
                )
    note: Any = match.get("note")  # absent from files written before notes were kept
    try:
        # Whatever a version stored: before 0.2 a note's length was counted before composing it.
        note = clean_note(note, "note", NOTE_ROOM)
    except InvalidInput as error:
        check.problems.append(f"{where}: {error.message}")
    return {
        "uid": uid,
        "status": status,
        "first_dealer": first_dealer,
        "pending": pending,
        "document": document,
        "note": note,
        "result": result,  # the engine's, kept so that the import need not score the match again
        "created_at": check.date(match.get("created_at"), where),
        "updated_at": check.date(match.get("updated_at"), where),
        "ended_at": check.date(match.get("ended_at"), where, optional=True),
        "deal_dates": deal_dates,
    }
