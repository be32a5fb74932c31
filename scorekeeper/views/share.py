"""The live view: a secret, read-only, revocable link to a match's scoreboard for the other phones.

The page asks every few seconds whether the match changed (its version in the database, so
any number of app processes can answer) and swaps in the new scoreboard when it did.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, redirect, render_template, request, url_for
from flask_login import current_user
from werkzeug import wrappers

from .. import queries, services
from ..pages import boards
from ..etags import version_tag
from ..forms import whole_number

bp = Blueprint("share", __name__)


@bp.post("/matches/<int:match_id>/share")
def create(match_id: int) -> wrappers.Response:
    """Make (or renew) the match's live-view link."""
    services.share_match(queries.match_for(current_user, match_id))
    return redirect(url_for("matches.scoreboard", match_id=match_id))


@bp.post("/matches/<int:match_id>/share/revoke")
def revoke(match_id: int) -> wrappers.Response:
    """Stop sharing the match: the link answers 404 from now on."""
    services.stop_sharing(queries.match_for(current_user, match_id))
    return redirect(url_for("matches.scoreboard", match_id=match_id))


@bp.get("/live/<token>")
def live(token: str) -> str:
    """Show the shared scoreboard, read-only, to anyone with the link."""
    match = queries.match_for_share(token)
    return render_template("share/live.html", board=boards.scoreboard(match), token=token)


@bp.get("/live/<token>/state")
def state(token: str) -> wrappers.Response:
    """Answer 204 while the match is as the page shows it (`?version=`), else its new scoreboard;
    an If-None-Match naming the scoreboard as it is answers 304."""
    match = queries.match_for_share(token)
    if whole_number(request.args.get("version")) == match.version:
        return Response(status=204)
    html = render_template("share/_live_board.html", board=boards.scoreboard(match))
    response = jsonify({"version": match.version, "html": html})
    response.headers["Cache-Control"] = "private, no-cache"  # kept by this browser only, asked about every time
    response.set_etag(version_tag(match.version, response.get_data()))
    return response.make_conditional(request)
