"""Changes to many matches at once: rebuilding every cached result and derived row, and importing accounts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import selectinload

from ..documents import match_document
from ..extensions import db
from ..figures.upkeep import rebuild_figures, refresh_figures, regroup_nights
from ..models import ABANDONED, FINISHED, PLAYING, Match, Player, PlayerPair, PlayerSummary, User, name_key
from ..rules import check_match
from ..text import clean_name
from .accounts import user_named
from .base import atomic
from .matches import new_match, write_note
from .players import player_named


@atomic
def recompute_all() -> int:
    """Rebuild every match's cached result and status from its deals; return how many were done."""
    count = 0
    games: set[tuple[int, str]] = set()
    for match in db.session.scalars(select(Match).options(selectinload(Match.deals))):
        result = check_match(match_document(match))
        match.result = result.to_dict()
        if match.status != ABANDONED:
            match.status = FINISHED if result.finished else PLAYING
        refresh_figures(match, result)
        games.add((match.user_id, match.game))
        count += 1
    db.session.execute(delete(PlayerSummary.__table__))
    db.session.execute(delete(PlayerPair.__table__))
    rebuild_figures(games)
    for user_id in db.session.scalars(select(User.id).order_by(User.id)):
        regroup_nights(user_id)
    return count


@atomic
def import_accounts(accounts: Sequence[Mapping[str, Any]], into: User | None = None) -> dict[str, int]:
    """Import checked accounts (see `transfer.read_export`) in one transaction; return what was added.

    Accounts are matched by username and created when missing (with their password hash);
    with `into`, everything goes to that account. A match already present (same uid) is skipped.
    """
    report = {"accounts": 0, "players": 0, "matches": 0, "skipped": 0}
    games: set[tuple[int, str]] = set()
    for account in accounts:
        user = into or user_named(account["username"])
        if user is None:
            user = User(username=account["username"], username_key=account["username"].casefold(),
                        password_hash=account["password_hash"], created_at=account["created_at"])
            db.session.add(user)
            db.session.flush()
            report["accounts"] += 1
        for player in account["players"]:
            if player_named(user, player["name"]) is None:
                db.session.add(Player(user_id=user.id, name=clean_name(player["name"]), name_key=name_key(player["name"]),
                                      archived=player["archived"], created_at=player["created_at"]))
                report["players"] += 1
        db.session.flush()
        for item in account["matches"]:
            if db.session.scalar(select(Match.id).where(Match.uid == item["uid"])) is not None:
                report["skipped"] += 1
                continue
            match, result = new_match(user, item["document"], item["first_dealer"], uid=item["uid"],
                                        unarchive=False, figures=False)
            if item["status"] == ABANDONED:
                match.status = ABANDONED
            match.pending = item["pending"]
            write_note(match, item.get("note"))
            # A finished match always has an end: the ratings follow the order matches ended in.
            ended = item["ended_at"] or (item["updated_at"] if match.status == FINISHED else None)
            match.created_at, match.updated_at, match.ended_at = item["created_at"], item["updated_at"], ended
            for deal, (created, updated) in zip(match.deals, item["deal_dates"]):
                deal.created_at, deal.updated_at = created, updated
            refresh_figures(match, result)
            games.add((user.id, match.game))
            report["matches"] += 1
        # Imported matches may fall between those already here: the account's nights are grouped again.
        regroup_nights(user.id)
    rebuild_figures(games)
    return report
