"""A match's deals: added (Tute's at once, Pocha's bids then tricks), corrected, and undone.

Every change goes through the rules engine first: the whole match document, with the change
applied, is checked and scored, and only then are the facts stored, with the engine's result
cached beside them. A change locks the account before it writes anything (see `matches`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import gettext as _

from ..errors import Conflict, NotFound
from ..figures.locks import facts_under_lock, lock_figures, lock_match
from ..figures.upkeep import (
    night_moved,
    store_result,
)
from ..models import ABANDONED, FINISHED, PLAYING, Deal, Match, utcnow
from ..reads.documents import match_document
from ..registry import check_bids, check_match
from ..rules import Code, MatchResult, RuleError, RuleViolation
from .base import atomic, check_version
from .entry_links import stop_links
from .idempotency import key_row, remember


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
