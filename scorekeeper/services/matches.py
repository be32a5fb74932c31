"""A match's life: starting it, its deals (added, corrected, undone), abandoning, deleting, a rematch, sharing.

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

from ..accounts.keys import SHARE_LINK, new_link_key
from ..errors import Conflict, NotFound
from ..extensions import db
from ..figures.locks import facts_under_lock, lock_figures, lock_match
from ..figures.upkeep import (
    cache_result,
    night_moved,
    pair_up,
    rate_again,
    refresh_figures,
    regroup_nights,
    store_result,
    sum_up,
)
from ..models import ABANDONED, FINISHED, MAX_NOTE_LENGTH, PLAYING, Deal, Match, Seat, User, utcnow
from ..reads.documents import match_document
from ..rules import (
    Code,
    MatchResult,
    RuleError,
    RuleViolation,
    check_bids,
    check_match,
    check_options,
    get_game,
    next_seat,
)
from ..text import clean_name, clean_note
from .base import atomic, check_version
from .entry_links import stop_links
from .idempotency import forget_old_keys, key_row, remember
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


def _check_not_abandoned(match: Match, number: int) -> None:
    if match.status == ABANDONED:
        raise RuleViolation([RuleError(number, "deal", Code.MATCH_FINISHED, "match_abandoned")])


def _expect_next(stored: int, expected_number: int | None) -> int:
    """Return the number of the deal after the `stored` ones; Conflict if the phone expected another."""
    number = stored + 1
    if expected_number is not None and expected_number != number:
        if expected_number < number:
            message = _(
                "Deal %(entered)s was just entered, perhaps on another phone. The next deal is %(number)s.",
                entered=expected_number,
                number=number,
            )
        else:
            message = _(
                "This match changed meanwhile: the next deal is %(number)s, not %(expected)s.",
                number=number,
                expected=expected_number,
            )
        raise Conflict(message, "number")
    return number


def _append_deal(
    match: Match,
    deal: Mapping[str, Any],
    expected_number: int | None,
    entry_link_id: int | None = None,
    idempotency_key: str | None = None,
    facts: list[dict[str, Any]] | None = None,
) -> Match:
    """Check the match with `deal` added and store it, saying who entered it, with the request's
    idempotency key (see `once`) (inside a transaction). `facts` are the match's deals' facts,
    when they were read under the lock already."""
    facts = facts_under_lock(match) if facts is None else facts
    number = _expect_next(len(facts), expected_number)
    _check_not_abandoned(match, number)
    result = check_match(match_document(match, [*facts, dict(deal)]))
    store_result(
        match,
        result,
        appended=Deal(number=number, data=dict(deal), entry_link_id=entry_link_id),
        kept_key=key_row(match, idempotency_key),
        facts=facts,
    )
    return match


@atomic
def add_deal(
    match: Match,
    deal: Mapping[str, Any],
    expected_number: int | None = None,
    idempotency_key: str | None = None,
    keep_answer: bool = False,
    *,
    entry_link_id: int | None = None,
    expected_version: int | None = None,
) -> Match:
    """Add the next deal: the whole match is re-checked and scored first.

    The idempotency key is kept with the deal (see `once`); `keep_answer` keeps the API's
    answer with it, to be given again to a retry. `entry_link_id` names the entry link of the
    phone that entered it (None: the owner). With `expected_version` (an If-Match), refuse
    (PreconditionFailed) if the match is no longer at that version.
    """
    check_version(match, expected_version)
    if keep_answer:  # the answer is the match as the deal leaves it: kept once the deal is stored
        lock_match(match)  # its deals as objects, which the answer shows with the new one
        _append_deal(match, deal, expected_number, entry_link_id)
        remember(match, idempotency_key, answer=True)
    else:
        _append_deal(match, deal, expected_number, entry_link_id, idempotency_key)
    return match


@atomic
def save_bids(
    match: Match,
    bids: Mapping[str, Any],
    expected_number: int | None = None,
    idempotency_key: str | None = None,
    replaces_version: int | None = None,
) -> Match:
    """Keep the next Pocha deal's bids, entered before play, until its tricks come in.

    Bids already waiting for their tricks are replaced only by a correction that names the
    version of the match it replaces (`replaces_version`, the version the correcting form was
    opened at): bids entered on another phone meanwhile are never overwritten unseen (Conflict,
    with the bids that are in).
    """
    number = _expect_next(len(match.deals), expected_number)
    _check_not_abandoned(match, number)
    if match.pending is not None and replaces_version != match.version:
        stored = ", ".join(
            _("%(name)s %(bid)s", name=name, bid=bid)
            for name, bid in zip(match.player_names, match.pending.get("bids") or [], strict=False)
        )
        raise Conflict(
            _(
                "The bids of deal %(number)s are in already, perhaps from another phone: %(bids)s. "
                "To enter others, undo them on the scoreboard first.",
                number=number,
                bids=stored,
            ),
            "bids",
        )
    check_bids(match_document(match), dict(bids))
    match.pending = dict(bids)
    match.updated_at = utcnow()
    remember(match, idempotency_key, answer=False)
    return match


@atomic
def complete_deal(
    match: Match,
    bids_seen: Mapping[str, Any],
    tricks: Any,
    expected_number: int | None,
    idempotency_key: str | None = None,
    *,
    entry_link_id: int | None = None,
) -> Match:
    """Add the tricks to the Pocha deal whose bids are in; refuse if the bids changed meanwhile.

    `entry_link_id` names the entry link of the phone that entered the tricks (None: the owner).
    """
    facts = facts_under_lock(match)
    number = _expect_next(len(facts), expected_number)
    if match.pending is None:
        raise Conflict(
            _("The bids of deal %(number)s are not in: they were undone, perhaps on another phone.", number=number)
        )
    if dict(bids_seen) != dict(match.pending):
        raise Conflict(
            _(
                "The bids of deal %(number)s were changed on another phone. Check them and enter the tricks again.",
                number=number,
            )
        )
    _append_deal(match, {**match.pending, "tricks": tricks}, expected_number, entry_link_id, idempotency_key, facts)
    return match


def _deal_of(match: Match, number: int) -> Deal:
    for deal in match.deals:
        if deal.number == number:
            return deal
    raise NotFound(_("This match has no deal %(number)s.", number=number))


@atomic
def replace_deal(match: Match, number: int, deal: Mapping[str, Any], expected_version: int | None = None) -> Match:
    """Replace deal `number`; the whole match is re-checked, later deals included."""
    lock_figures(match.user_id)
    row = _deal_of(match, number)
    _check_not_abandoned(match, number)
    check_version(match, expected_version, deal=True)
    deals = [dict(deal) if d.number == number else d.data for d in match.deals]
    result = check_match(match_document(match, deals))
    row.data = dict(deal)
    row.updated_at = utcnow()
    _store_and_close_table(match, result)
    return match


def _store_and_close_table(match: Match, result: MatchResult) -> None:
    """Store the match's new result; if it reopens a finished match, stop its entry link.

    The link let the table enter the match until it ended, and its phones read the final
    scoreboard since: a correction or an undo of the owner's that reopens the match does not
    let them back in (the owner makes a new link for that).
    """
    was_finished = match.status == FINISHED
    store_result(match, result)
    if was_finished and match.status == PLAYING:
        stop_links(match.id)


@atomic
def delete_last_deal(match: Match, number: int, expected_version: int | None = None) -> Match:
    """Delete deal `number`, which must be the last one; a finished match is open again. With
    `expected_version`, refuse (PreconditionFailed) if the match is no longer at that version."""
    lock_figures(match.user_id)
    check_version(match, expected_version)
    if not match.deals or number != match.deals[-1].number:
        _deal_of(match, number)  # NotFound for a deal that does not exist
        raise Conflict(_("Only the last deal (%(number)s) can be deleted.", number=len(match.deals)))
    _check_not_abandoned(match, number)
    match.deals.pop()
    match.pending = None
    _store_and_close_table(match, check_match(match_document(match)))
    night_moved(match)
    return match


@atomic
def undo(match: Match) -> str | None:
    """Undo the latest entry: pending bids if there are some, else the last deal; say which."""
    lock_figures(match.user_id)
    _check_not_abandoned(match, len(match.deals))
    if match.pending is not None:
        match.pending = None
        match.updated_at = utcnow()
        return "bids"
    if match.deals:
        match.deals.pop()
        _store_and_close_table(match, check_match(match_document(match)))
        night_moved(match)
        return "deal"
    return None


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
    match.share_key_hash, match.share_salt = key.key_hash, key.salt
    return key.secret


@atomic
def stop_sharing(match: Match, expected_version: int | None = None) -> None:
    """Revoke the match's live-view link."""
    check_version(match, expected_version)
    match.share_key_hash = match.share_salt = None
