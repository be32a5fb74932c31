"""The whole table at one match: entry links that let the other phones enter its deals.

The owner makes a link on the scoreboard. Its secret travels only in the address's fragment
(`/join#…`), which a browser never sends to a server: so it is never in a request line, a
log, a Referer or an error page. The join page hands it over in a POST body; from then on the
phone carries only the link's id, in its signed session, and every request checks that the
link still lasts. The phone signs in to nothing: for that match it reaches the endpoints in
`TABLE_ENDPOINTS`, and every other page answers it as it answers a stranger.
"""

from __future__ import annotations

from flask import Blueprint, current_app, g, redirect, render_template, session, url_for
from flask_babel import gettext
from flask_login import current_user
from werkzeug.wrappers import Response

from .. import queries, services, shown_matches
from ..errors import Conflict, NotFound
from ..extensions import limiter
from ..forms import JoinTableForm
from ..keys import hash_token
from ..models import PLAYING, EntryLink, Match
from ..shown_matches import ShownMatch

bp = Blueprint("table", __name__)

#: What a phone that came through a match's entry link may reach, for that match only.
TABLE_ENDPOINTS = frozenset({
    "matches.scoreboard", "matches.state", "matches.enter_deal", "matches.save_deal", "matches.save_bids",
    "matches.edit_deal", "matches.undo",
})
#: In the session: the matches this phone joined, each with the id of the entry link it came through.
JOINED = "joined"
#: In the owner's session: the secrets of the entry links made on this phone, so that its scoreboard
#: can show their QR code again (the database keeps only their hashes).
MADE = "entry_links_made"
#: How many joined matches and made links a session remembers (the latest ones).
REMEMBERED = 8


def _remember(key: str, match_id: int, value: object) -> None:
    kept = {k: v for k, v in dict(session.get(key) or {}).items() if k != str(match_id)}
    kept[str(match_id)] = value
    session[key] = dict(list(kept.items())[-REMEMBERED:])


def _forget(key: str, match_id: int) -> None:
    kept = dict(session.get(key) or {})
    if kept.pop(str(match_id), None) is not None:
        session[key] = kept


def joined(match_id: int) -> bool:
    """Tell whether this phone came through an entry link of match `match_id` (lasting or not)."""
    return isinstance(session.get(JOINED), dict) and str(match_id) in session[JOINED]


def guest_link(match_id: int) -> EntryLink | None:
    """Return the entry link through which this phone joined match `match_id`, while it lasts."""
    # The sign-in gate asks first, then the view: one query a request.
    found: dict[int, EntryLink | None] = g.setdefault("guest_links", {})
    if match_id not in found:
        link_id = session[JOINED].get(str(match_id)) if joined(match_id) else None
        found[match_id] = queries.entry_link(link_id, match_id) if isinstance(link_id, int) else None
    return found[match_id]


def match_at_table(match_id: int, *, changing: bool = False, deals: bool = True) -> tuple[Match, EntryLink | None]:
    """Return the match, whole (without its deals unless `deals`: see `queries.match_at_table`), and, for
    a phone that joined through an entry link, that link (None for the owner).

    A phone whose link was stopped gets NotFound; one that would change a match that is over, Conflict.
    """
    match = None
    if changing and not deals and current_user.is_authenticated:
        # The owner's phone reads its match under the account's lock, with the facts the change needs.
        match = services.own_match_to_change(current_user.id, match_id)
    if match is None:
        match = queries.match_at_table(match_id, deals=deals)
    return match, _link_to(match, changing)


def match_to_show(match_id: int) -> tuple[ShownMatch, EntryLink | None]:
    """Return the match with its deals as facts, for a page that only shows it, and the phone's entry link
    as `match_at_table` does."""
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
    if changing and match.status != PLAYING:
        raise Conflict(gettext("This match is over: its scoreboard can only be read now."))
    return link


def entry_section(match: Match | ShownMatch) -> dict[str, object]:
    """Return what the owner's scoreboard says of the match's entry link: whether one lasts, and its
    address when it was made on this phone (the only place its secret is kept, besides the phones)."""
    lasting = shown_matches.lasting_link_key(match.id)
    secret = (session.get(MADE) or {}).get(str(match.id))
    mine = lasting is not None and isinstance(secret, str) and hash_token(secret) == lasting
    return {"open": lasting is not None, "address": join_address(secret) if mine and secret else None}


def version_at_table(match_id: int) -> int:
    """Return the match's version for its owner or a phone that joined it (one small query), else raise NotFound."""
    found = queries.match_version(match_id)
    if found is not None:
        owner_id, version = found
        if (current_user.is_authenticated and current_user.id == owner_id) or guest_link(match_id) is not None:
            return version
    if joined(match_id):
        raise NotFound(gettext("This match's entry link was stopped. Ask for a new one."))
    raise NotFound(gettext("There is no such match."))


def join_address(secret: str) -> str:
    """Return the entry link's address: the join page, with the secret in the fragment the browser keeps to itself."""
    return f"{url_for('table.join', _external=True)}#{secret}"


def _wrong_link() -> str:
    return gettext("Too many wrong links from this address. Wait a while and try again.")


@bp.get("/join")
def join() -> str:
    """Show the page an entry link opens: its script hands the secret over, then the phone is at the table."""
    return render_template("table/join.html", form=JoinTableForm())


@bp.post("/join")
@limiter.limit(lambda: current_app.config["ENTRY_LINK_LIMIT_PER_ADDRESS"], error_message=_wrong_link,
               deduct_when=lambda response: response.status_code == 404)
def enter() -> Response | tuple[str, int]:
    """Let this phone enter the deals of the match whose entry link it opened; only wrong links count
    against the address's limit."""
    form = JoinTableForm()
    link = queries.entry_link_by_secret(form.secret.data or "") if form.validate_on_submit() else None
    if link is None:
        return render_template("message.html", heading=gettext("Not found"),
                               message=gettext("This link does not open a match (any more). Ask for a new one.")), 404
    _remember(JOINED, link.match_id, link.id)
    # The phone stays at the table when the browser is closed and opened again, while the link lasts.
    session.permanent = True
    return redirect(url_for("matches.scoreboard", match_id=link.match_id))


@bp.post("/matches/<int:match_id>/entry-link")
def create(match_id: int) -> Response:
    """Make a new entry link for the match (the older one stops) and show its QR code on this phone."""
    match = queries.match_for(current_user, match_id)
    _remember(MADE, match.id, services.open_entry_link(match))
    return redirect(url_for("matches.scoreboard", match_id=match_id, _anchor="entry-link"))


@bp.post("/matches/<int:match_id>/entry-link/stop")
def stop(match_id: int) -> Response:
    """Stop the match's entry link: the phones that came through it are shut out at once."""
    services.stop_entry_link(queries.match_for(current_user, match_id))
    _forget(MADE, match_id)
    return redirect(url_for("matches.scoreboard", match_id=match_id, _anchor="entry-link"))
