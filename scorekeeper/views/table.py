"""The whole table at one match: entry links that let the other phones enter its deals.

The owner makes a link on the scoreboard. Its secret travels only in the address's fragment
(`/join#…`), which a browser never sends to a server: so it is never in a request line, a
log, a Referer or an error page. The join page hands it over in a POST body; from then on the
phone carries, in its signed session, what names the link for good (its id, its hash and the
match's account: ids alone could come back one day), never the secret, and every request checks
that the link still lasts. The phone signs in to nothing: for that match it reaches the
endpoints in `TABLE_ENDPOINTS`, and every other page answers it as it answers a stranger.
"""

from __future__ import annotations

from dataclasses import replace

from flask import Blueprint, g, make_response, redirect, render_template, request, session, url_for
from flask_babel import gettext
from flask_login import current_user
from werkzeug.wrappers import Response

from .. import services
from ..accounts import sign_in_limits
from ..accounts.keys import ENTRY_LINK, shown_link
from ..errors import MatchOver, NotFound
from ..forms import JoinTableForm
from ..models import PLAYING, EntryLink, Match
from ..pages.addresses import TableAddress, table_url
from ..reads import matches as shown_matches
from ..reads import table as table_reads
from ..reads.matches import ShownMatch

bp = Blueprint("table", __name__)

#: What a phone that came through a match's entry link may reach, for that match only.
TABLE_ENDPOINTS = frozenset(
    {
        "matches.scoreboard",
        "matches.state",
        "matches.enter_deal",
        "matches.save_deal",
        "matches.save_bids",
        "matches.edit_deal",
        "matches.undo",
        "cards.match",
    }
)
#: In the session: the matches this phone joined, each with what names the entry link it came
#: through (`_joined_entry`).
JOINED = "joined"
#: How many joined matches a session remembers (the latest ones).
REMEMBERED = 8


def _remember(link: EntryLink, account_id: int) -> None:
    match_id = str(link.match_id)
    kept = {k: v for k, v in dict(session.get(JOINED) or {}).items() if k != match_id}
    kept[match_id] = {"link": link.id, "key": link.key_hash, "account": account_id}
    session[JOINED] = dict(list(kept.items())[-REMEMBERED:])


def joined(match_id: int) -> bool:
    """Tell whether this phone came through an entry link of match `match_id` (lasting or not)."""
    return isinstance(session.get(JOINED), dict) and str(match_id) in session[JOINED]


def _joined_entry(match_id: int) -> tuple[int, str, int] | None:
    """Return the link id, link hash and account this phone joined match `match_id` with, as its session
    says; None for a phone that did not join it, or joined before links were named this way."""
    entry = session[JOINED].get(str(match_id)) if joined(match_id) else None
    if not isinstance(entry, dict):
        return None
    link_id, key_hash, account_id = entry.get("link"), entry.get("key"), entry.get("account")
    if isinstance(link_id, int) and isinstance(key_hash, str) and isinstance(account_id, int):
        return link_id, key_hash, account_id
    return None


def guest_link(match_id: int) -> EntryLink | None:
    """Return the entry link through which this phone joined match `match_id`, while it lasts."""
    # The sign-in gate asks first, then the view: one query a request.
    found: dict[int, EntryLink | None] = g.setdefault("guest_links", {})
    if match_id not in found:
        entry = _joined_entry(match_id)
        found[match_id] = table_reads.joined_link(entry[0], match_id, entry[1], entry[2]) if entry else None
    return found[match_id]


def joined_table() -> int | None:
    """Return the match whose table this phone sits at (the last it joined whose entry link lasts), or None."""
    matches = session.get(JOINED)
    if not isinstance(matches, dict):
        return None
    for key in reversed(list(matches)):
        if key.isdigit() and guest_link(int(key)) is not None:
            return int(key)
    return None


def sent_key() -> str | None:
    """Return the idempotency key a change was sent with (a phone sending again what it kept offline)."""
    return request.headers.get("Idempotency-Key") or request.form.get("idempotency_key") or None


def reachable_match(match_id: int, *, changing: bool = False, deals: bool = True) -> tuple[Match, EntryLink | None]:
    """Return the match, whole (without its deals unless `deals`: see `table_reads.match_at_table`), and, for
    a phone that joined through an entry link, that link (None for the owner).

    A phone whose link was stopped gets NotFound; one that would change a match that is over, MatchOver (a Conflict).
    """
    match = None
    if changing and not deals and current_user.is_authenticated:
        # The owner's phone reads its match under the account's lock, with the facts the change needs.
        match = services.own_match_to_change(current_user.id, match_id)
    if match is None:
        match = table_reads.match_at_table(match_id, deals=deals)
    return match, _link_to(match, changing)


def reachable_shown_match(match_id: int) -> tuple[ShownMatch, EntryLink | None]:
    """Return the match with its deals as facts, for a page that only shows it, and the phone's entry link
    as `reachable_match` does."""
    match = shown_matches.match_to_show(match_id)
    return match, _link_to(match, changing=False)


def _link_to(match: Match | ShownMatch, changing: bool) -> EntryLink | None:
    """Return None for the match's owner, the lasting entry link for a phone that joined it; else raise."""
    if current_user.is_authenticated and current_user.id == match.user_id:
        return None
    if current_user.is_authenticated and not joined(match.id):
        raise NotFound(gettext("There is no such match."))
    link = guest_link(match.id)
    if link is None:
        raise NotFound(gettext("This match's entry link was stopped. Ask for a new one."))
    # An entry this phone sent before (its connection dropped before the answer came) is let through
    # to be answered as stored, as it is for the owner, even when it was the one that ended the match.
    if changing and match.status != PLAYING and not services.sent_before(match.user_id, match.id, sent_key()):
        raise MatchOver(gettext("This match is over: its scoreboard can only be read now."), match.status)
    return link


def entry_section(match: Match | ShownMatch) -> dict[str, object] | None:
    """Return what the owner's scoreboard says of the match's entry link: whether one lasts, and its
    address when it can be drawn again (see `keys.link_secret`); None when there is nothing to say
    (no link lasts and the match is over)."""
    lasting = shown_matches.lasting_link(match.id)
    if lasting is None and match.status != PLAYING:
        return None
    secret = shown_link(ENTRY_LINK, *lasting) if lasting is not None else None
    address = join_address(secret) if secret else None
    return {
        "open": lasting is not None,
        "address": address.url if address else None,
        "reach": address,
        "playing": match.status == PLAYING,
    }


def version_at_table(match_id: int) -> int:
    """Return the match's version for its owner or a phone that joined it (one small query), else raise NotFound."""
    found = table_reads.match_version(match_id)
    if found is not None:
        owner_id, version = found
        if (current_user.is_authenticated and current_user.id == owner_id) or guest_link(match_id) is not None:
            return version
    if joined(match_id):
        raise NotFound(gettext("This match's entry link was stopped. Ask for a new one."))
    raise NotFound(gettext("There is no such match."))


def join_address(secret: str) -> TableAddress:
    """Return the entry link's address: the join page, with the secret in the fragment the browser keeps to itself."""
    found = table_url("table.join")
    return replace(found, url=f"{found.url}#{secret}")


@bp.get("/join")
def join() -> str:
    """Show the page an entry link opens: its script hands the secret over, then the phone is at the table."""
    return render_template("table/join.html", form=JoinTableForm())


@bp.post("/join")
def enter() -> Response | tuple[str, int]:
    """Let this phone enter the deals of the match whose entry link it opened; only wrong links count
    against the address's limit, so a right one always gets in."""
    form = JoinTableForm()
    found = table_reads.entry_link_by_secret(form.secret.data or "") if form.validate_on_submit() else None
    if found is None:
        attempt = sign_in_limits.wrong_entry_link()
        if not attempt.allowed:
            response = make_response(
                render_template(
                    "message.html",
                    heading=gettext("That could not be done"),
                    refused=True,
                    message=gettext("Too many wrong links from this address. Wait a while and try again."),
                ),
                429,
            )
            response.headers["Retry-After"] = str(attempt.retry_after)
            return response
        return render_template(
            "message.html",
            heading=gettext("Not found"),
            message=gettext("This link no longer opens a match. Ask for a new one."),
        ), 404
    link, account_id = found
    _remember(link, account_id)
    # The phone stays at the table when the browser is closed and opened again, while the link lasts.
    session.permanent = True
    return redirect(url_for("matches.scoreboard", match_id=link.match_id))


@bp.post("/matches/<int:match_id>/entry-link")
def create(match_id: int) -> Response:
    """Make a new entry link for the match (the older one stops); the scoreboard shows its QR code."""
    services.open_entry_link(table_reads.match_for(current_user, match_id))
    return redirect(url_for("matches.scoreboard", match_id=match_id, _anchor="entry-link"))


@bp.post("/matches/<int:match_id>/entry-link/stop")
def stop(match_id: int) -> Response:
    """Stop the match's entry link: the phones that came through it are shut out at once."""
    services.stop_entry_link(table_reads.match_for(current_user, match_id))
    return redirect(url_for("matches.scoreboard", match_id=match_id, _anchor="entry-link"))
