"""The live view: a secret, read-only, revocable link to a match's scoreboard for the other phones.

The link's secret is in its address's fragment (`/live#…`), which a browser never sends to a
server: the page's script sends it in the body of each of its requests for the scoreboard, so it
appears in no request line, access log or Referer, and the database keeps only its hash. The
link's query names its preview (`?preview=<key>`, random and apart from the secret): what a chat
app that is given the link shows of it, the match's card, and nothing else. The page
asks every few seconds whether the match changed (its version in the database, so any number of
app processes can answer) and swaps in the new scoreboard when it did.
"""

from __future__ import annotations

from dataclasses import replace

from flask import Blueprint, Response, jsonify, make_response, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_login import current_user
from werkzeug import wrappers

from .. import services
from ..accounts.keys import SHARE_LINK, looks_like_key, shown_link
from ..extensions import csrf
from ..forms import whole_number
from ..i18n import game_title
from ..models import Match
from ..pages import boards, previews
from ..pages.addresses import TableAddress, table_url
from ..reads import matches as shown_matches
from ..reads import table as table_reads
from ..reads.matches import ShownMatch

bp = Blueprint("share", __name__)


def live_address(secret: str, preview: str | None) -> TableAddress:
    """Return the live view's address: its page, naming its link preview by its key (when it has one),
    with the secret in the fragment the browser keeps to itself."""
    found = table_url("share.live", preview=preview) if preview else table_url("share.live")
    return replace(found, url=f"{found.url}#{secret}")


def share_section(match: Match | ShownMatch) -> dict[str, object]:
    """Return what the owner's scoreboard says of the match's live view: whether it is shared, and its
    address when it can be drawn again (see `keys.link_secret`)."""
    secret = shown_link(SHARE_LINK, match.share_key_hash, match.share_salt)
    address = live_address(secret, match.share_preview) if secret else None
    return {"open": match.share_key_hash is not None, "address": address.url if address else None, "reach": address}


@bp.post("/matches/<int:match_id>/share")
def create(match_id: int) -> wrappers.Response:
    """Make (or renew) the match's live-view link."""
    services.share_match(table_reads.match_for(current_user, match_id))
    return redirect(url_for("matches.scoreboard", match_id=match_id, _anchor="live-view"))


@bp.post("/matches/<int:match_id>/share/revoke")
def revoke(match_id: int) -> wrappers.Response:
    """Stop sharing the match: the link answers 404 from now on."""
    services.stop_sharing(table_reads.match_for(current_user, match_id))
    return redirect(url_for("matches.scoreboard", match_id=match_id, _anchor="live-view"))


@bp.get("/live")
def live() -> Response:
    """Show the live view's page; its script reads the secret from the address's fragment and asks for
    the scoreboard (`state`). With the link's `preview`, the page carries the match's card and title
    for a chat app's preview of the link (Open Graph)."""
    key = request.args.get("preview")
    preview = None
    if key is not None:
        try:
            found = table_reads.match_for_preview(key)
            board = boards.scoreboard(shown_matches.match_to_show(found.id))
        except services.NotFound:
            pass  # a link shared no more (or a match deleted meanwhile): the page says so once its script asks
        else:
            preview = previews.link_preview(board, key)
    response = make_response(render_template("share/live.html", preview=preview))
    if key is not None:
        # A preview shows the match to whoever holds the link, and only while it is shared: like every
        # private answer, no cache may keep it.
        response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/live/<token>")
def old_link(token: str) -> wrappers.Response:
    """Open a live view's link made before 0.2, which carried its secret in the path: on to the page that
    keeps it in the fragment (where it is checked, as any link's secret is)."""
    if not looks_like_key(token):
        raise services.NotFound(gettext("This live view is no longer shared."))
    return redirect(f"{url_for('share.live')}#{token}", 303)


@bp.get("/live/<token>/state")
def old_state(token: str) -> Response:
    """Answer the poll of a live view's page opened before 0.2 and left open across the upgrade: its
    script asks by the secret in the path, and swaps the `html` of a 200 into the page, where this one's
    refresh brings the page to the link's address of today. 404 once the link no longer shares the
    match, which that page says as it always did."""
    match = table_reads.match_for_share(token)
    address = f"{url_for('share.live')}#{token}"
    response = jsonify({"version": match.version, "html": render_template("share/_reload.html", address=address)})
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/live/state")
@csrf.exempt  # it changes nothing, and the live view's phones have no session to hold a token
def state() -> Response:
    """Answer 204 while the match is at the version the page shows (`version`), else the scoreboard as
    it is now; 404 once the link (`secret`, from the form body) no longer shares the match."""
    match = table_reads.match_for_share(request.form.get("secret") or "")
    if whole_number(request.form.get("version")) == match.version:
        return Response(status=204)
    board = boards.scoreboard(shown_matches.match_to_show(match.id))
    response = jsonify(
        {
            "version": match.version,
            "title": str(game_title(board.game.name)),
            "players": ", ".join(board.seat_names),
            "html": render_template("share/_live_board.html", board=board),
        }
    )
    response.headers["Cache-Control"] = "no-store"
    return response
