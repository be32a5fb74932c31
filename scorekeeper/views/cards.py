"""Result cards: a finished match's or a night's result as a PNG, to send to the group's chat."""

from __future__ import annotations

from flask import Blueprint, request
from flask_login import current_user
from werkzeug.wrappers import Response

from ..figures import nights as night_reads
from ..pages import boards, cards
from ..pages import nights as night_pages
from ..pages.card_image import card_tag, draw_card
from ..reads import matches as shown_matches
from ..reads import table as table_reads
from .table import reachable_shown_match

bp = Blueprint("cards", __name__)


@bp.get("/matches/<int:match_id>/card.png")
def match(match_id: int) -> Response:
    """Answer the match's result card (`?theme=dark` for the dark one), to the owner and the phones that joined."""
    shown, _link = reachable_shown_match(match_id)
    return card_answer(cards.match_card(boards.scoreboard(shown), dark=request.args.get("theme") == "dark"))


@bp.get("/nights/<int:night_id>/card.png")
def night(night_id: int) -> Response:
    """Answer the night's result card (`?theme=dark` for the dark one)."""
    page = night_pages.shown_night(night_reads.night_for(current_user, night_id))
    return card_answer(cards.night_card(page, dark=request.args.get("theme") == "dark"))


@bp.get("/live/preview/<key>.png")
def preview(key: str) -> Response:
    """Answer the card of the match whose live view's link preview has this key, to anyone (the image
    of a link's preview, which a chat app fetches with no session)."""
    match = table_reads.match_for_preview(key)
    return card_answer(cards.match_card(boards.scoreboard(shown_matches.match_to_show(match.id)), dark=False))


def card_answer(card: cards.ResultCard) -> Response:
    """Answer a card as a PNG, with an ETag of what it draws: a phone that holds it already is told
    so (304) before anything is drawn."""
    tag = card_tag(card)
    response = (
        Response(status=304) if request.if_none_match.contains(tag) else Response(draw_card(card), mimetype="image/png")
    )
    response.set_etag(tag)
    response.headers["Cache-Control"] = "private, no-cache"
    return response
