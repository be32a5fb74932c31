"""A match's life: starting it, its note, abandoning, deleting, a rematch, sharing (its deals: `deals`).

Every change goes through the rules engine first: the whole match document, with the change
applied, is checked and scored, and only then are the facts stored, with the engine's result
cached beside them.

A change that may move the account's figures or nights locks the account before it writes
anything (`lock_figures`): those changes also write other matches' rows (their nights), so
they must all take their locks in one order, the account's first, or two phones could each
hold a row the other waits for.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from flask_babel import gettext as _

from ..accounts.keys import SHARE_LINK, new_link_key, new_preview_key
from ..errors import Conflict, NotFound
from ..extensions import db
from ..figures.locks import lock_figures
from ..figures.upkeep import (
    cache_result,
    pair_up,
    rate_again,
    refresh_figures,
    regroup_nights,
    store_result,
    sum_up,
)
from ..models import ABANDONED, FINISHED, MAX_NOTE_LENGTH, PLAYING, Deal, Match, Seat, User, utcnow
from ..reads.documents import match_document
from ..registry import check_match, check_options, get_game
from ..rules import Code, MatchResult, RuleError, RuleViolation, next_seat
from ..text import clean_name, clean_note
from .base import atomic, check_version
from .idempotency import forget_old_keys
from .players import players_for


def _dealer_error(players: int) -> RuleViolation:
    return RuleViolation(
        [RuleError(None, "first_dealer", Code.DEALER_INVALID, "dealer_out_of_range", {"players": players})]
    )


def new_match(
    user: User,
    document: Mapping[str, Any],
    first_dealer: int | None,
    *,
    uid: str | None = None,
    unarchive: bool = True,
    figures: bool = True,
) -> tuple[Match, MatchResult]:
    """Check a whole document and build its match, seats and deals (inside a transaction).

    Without `figures` (an import, which sets the match's dates first) its derived rows are left
    to the caller.
    """
    result = check_match(document)
    names = list(document["players"])
    options = check_options(document["game"], document.get("options"), len(names))
    deals = list(document.get("deals") or [])
    if first_dealer is None:
        first_dealer = deals[0]["dealer"] if deals else 0
    if not isinstance(first_dealer, int) or isinstance(first_dealer, bool) or not 0 <= first_dealer < len(names):
        raise _dealer_error(len(names))
    match = Match(
        uid=uid or uuid.uuid4().hex,
        user_id=user.id,
        game=document["game"],
        options=get_game(document["game"]).changed_options(options),
        first_dealer=first_dealer,
    )
    for seat, player in enumerate(players_for(user, names, unarchive)):
        match.seats.append(Seat(seat=seat, player_id=player.id, player=player))
    for number, deal in enumerate(deals, start=1):
        match.deals.append(Deal(number=number, data=dict(deal)))
    db.session.add(match)
    if figures:
        store_result(match, result)
        lock_figures(user.id)
        regroup_nights(user.id, (match.created_at, match.id))
        forget_old_keys(user.id)
    else:
        cache_result(match, result)
    return match, result


def write_note(match: Match, note: str | None) -> None:
    """Keep a note (checked and tidied already) on the match, with its case-folded form for the search."""
    match.note = note
    match.note_key = None if note is None else note.casefold()


@atomic
def start_match(
    user: User,
    game: str,
    player_names: Sequence[str],
    options: Mapping[str, Any] | None,
    first_dealer: int,
    note: str | None = None,
) -> Match:
    """Start a match: check the game, players, house rules and note, then seat the players."""
    names = [clean_name(n, f"players.{i}") for i, n in enumerate(player_names)]
    tidy_note = clean_note(note, "note", MAX_NOTE_LENGTH)
    document = {"game": game, "players": names, "options": dict(options or {}), "deals": []}
    match, _result = new_match(user, document, first_dealer)
    write_note(match, tidy_note)
    return match


@atomic
def create_match_from_document(
    user: User, document: Any, first_dealer: int | None = None, note: str | None = None
) -> Match:
    """Create a match from a match document (and a note); with deals, the whole match is imported at once."""
    tidy_note = clean_note(note, "note", MAX_NOTE_LENGTH)
    if isinstance(document, Mapping) and isinstance(document.get("players"), list):
        # Tidy the names first, so that two spellings of one player are refused as a duplicate.
        names = [
            clean_name(n, f"players.{i}") if isinstance(n, str) and n.strip() else n
            for i, n in enumerate(document["players"])
        ]
        document = {**document, "players": names}
    match, _result = new_match(user, document, first_dealer)
    write_note(match, tidy_note)
    return match


@atomic
def set_note(match: Match, note: object, expected_version: int | None = None) -> Match:
    """Keep the owner's note on a match, whatever its status; an empty note removes it. With
    `expected_version`, refuse (PreconditionFailed) if the match is no longer at that version."""
    check_version(match, expected_version)
    write_note(match, clean_note(note, "note", MAX_NOTE_LENGTH))
    return match


@atomic
def abandon_match(match: Match) -> Match:
    """Stop a match early: it keeps its deals and has no winner."""
    lock_figures(match.user_id)
    if match.status == FINISHED:
        raise Conflict(_("This match is over already."))
    status_before = match.status
    match.status = ABANDONED
    match.pending = None
    match.ended_at = match.updated_at = utcnow()
    refresh_figures(
        match, check_match(match_document(match)), summarize=True, rows_exist=True, status_before=status_before
    )
    return match


@atomic
def delete_match(match: Match) -> None:
    """Delete a match with its deals and figures; the ratings of its game follow."""
    user_id, match_id = match.user_id, match.id
    lock_figures(user_id)
    # Read again under the lock: another phone may have undone a deal, finished the match or
    # deleted it since it was read, and the deals deleted with it must be those that are there.
    db.session.expire(match)
    if db.session.get(Match, match_id) is None:
        raise NotFound(_("There is no such match."))
    since = (match.ended_at, match.id) if match.status == FINISHED and match.ended_at else None
    game, players = match.game, [seat.player_id for seat in match.seats]
    started = (match.created_at, match.id)
    db.session.delete(match)
    if since is not None:
        rate_again(user_id, game, since)
    sum_up(user_id, game, players)
    pair_up(user_id, players)
    # The matches after it may now begin a night of their own (or one deleted night's matches join another).
    regroup_nights(user_id, started)


@atomic
def rematch(user: User, match: Match, first_dealer: int | None = None) -> tuple[Match, bool]:
    """Start a new match with the same seats and house rules once this one is over; return it, and
    whether it was made now (False: it was made before, from this page or another phone).

    The first deal passes to the seat after this match's first dealer, unless the table
    says otherwise (in tute4 the holder of the 2 of oros decides it again).
    """
    if match.status == PLAYING:
        raise Conflict(_("This match is still being played: finish or abandon it first."))
    lock_figures(user.id)  # two taps at once: the second waits, then finds the first's match
    made = db.session.scalar(
        db.select(Match).where(Match.user_id == user.id, Match.rematch_of == match.id).order_by(Match.id).limit(1)
    )
    if made is not None:
        return made, False
    document = {"game": match.game, "players": match.player_names, "options": dict(match.options), "deals": []}
    if first_dealer is None:
        first_dealer = next_seat(match.first_dealer, len(match.seats))
    new, _result = new_match(user, document, first_dealer)
    new.rematch_of = match.id
    return new, True


@atomic
def share_match(match: Match, expected_version: int | None = None) -> str:
    """Give the match a new secret live-view link (any older link stops working); return its secret,
    of which only a hash and the salt it was drawn from are kept (see `keys.link_secret`)."""
    check_version(match, expected_version)
    key = new_link_key(SHARE_LINK)
    match.share_key_hash, match.share_salt, match.share_preview = key.key_hash, key.salt, new_preview_key()
    return key.secret


@atomic
def stop_sharing(match: Match, expected_version: int | None = None) -> None:
    """Revoke the match's live-view link."""
    check_version(match, expected_version)
    match.share_key_hash = match.share_salt = match.share_preview = None
