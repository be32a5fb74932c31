"""Game nights and notes: the nights, one night's page, a match's note, and the account's gap between nights."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_login import current_user
from werkzeug.wrappers import Response

from .. import services
from ..figures import nights as night_reads
from ..forms import NightGapForm, NoteForm, add_form_error, whole_number
from ..pages import boards, cards
from ..pages import nights as night_pages
from ..pages.offline import offline_plan
from ..reads import matches as shown_matches
from ..reads import queries
from ..reads import table as table_reads
from .share import share_section
from .table import entry_section

bp = Blueprint("nights", __name__)

PageAnswer = Response | tuple[str, int]


@bp.get("/nights")
def index() -> str:
    """List the game nights, newest first, a page at a time (or only those a player played)."""
    player_id = whole_number(request.args.get("player"))
    player = queries.player_for(current_user, player_id) if player_id else None
    found = night_reads.nights_on_page(
        current_user, whole_number(request.args.get("page")) or 1, player_id=player.id if player else None
    )
    return render_template(
        "nights/index.html",
        page=found,
        nights=night_pages.nights(found.items),
        player=player,
        night_cards=night_pages.night_cards,
    )


@bp.get("/nights/<int:night_id>")
def night(night_id: int) -> str:
    """Show a night: its matches in order with their results and charts, and its standings."""
    page = night_pages.shown_night(night_reads.night_for(current_user, night_id))
    return render_template("nights/night.html", page=page, result=cards.night_card(page, dark=False))


@bp.post("/matches/<int:match_id>/note")
def save_note(match_id: int) -> PageAnswer:
    """Write, change or clear a match's note, from its scoreboard or its page in the history."""
    match = table_reads.match_for(current_user, match_id)
    back = "matches.detail" if request.args.get("back") == "detail" else "matches.scoreboard"
    form = NoteForm()
    if form.validate_on_submit():
        try:
            services.set_note(match, form.note.data or "")
        except services.ServiceError as error:
            add_form_error(form, error.message, error.field or "note")
        else:
            flash(gettext("The note was saved.") if match.note else gettext("The note was removed."))
            return redirect(url_for(back, match_id=match_id))
    # Refused: the same page again, with what was typed and the message at the field.
    board = boards.scoreboard(shown_matches.match_to_show_for(current_user, match_id))
    if back == "matches.detail":
        return render_template("matches/detail.html", board=board, note_form=form), 422
    return render_template(
        "matches/scoreboard.html",
        board=board,
        note_form=form,
        guest=False,
        entry=entry_section(board.match),
        share=share_section(board.match),
        plan=offline_plan(board) if board.open else None,
    ), 422


@bp.post("/account/night-gap")
def save_gap() -> Response:
    """Set how long a pause between matches begins a new game night; the nights are grouped again."""
    form = NightGapForm()
    if form.validate_on_submit():
        services.set_night_gap(current_user, form.night_gap.data)
        flash(gettext("The nights were grouped again."))
    else:
        flash(
            gettext(
                "Choose from %(low)s to %(high)s hours.", low=night_reads.GAP_HOURS[0], high=night_reads.GAP_HOURS[-1]
            )
        )
    return redirect(url_for("auth.account"))
