"""Matches: start one, the scoreboard, deal entry and editing, undo, abandon, rematch, history."""

from __future__ import annotations

from flask import Blueprint, flash, jsonify, make_response, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_login import current_user
from werkzeug.wrappers import Response

from .. import services
from ..figures import reads as figure_reads
from ..forms import (
    DealForm,
    add_form_error,
    attach_errors,
    has_errors,
    new_match_form_class,
    option_error_fields,
    option_fields,
    options_from_form,
    players_from_form,
    whole_number,
)
from ..games.web import web_game, web_games
from ..i18n import lazy_gettext
from ..models import STATUSES, EntryLink, Match
from ..pages import boards, cards, lists
from ..pages.offline import offline_plan
from ..pages.qr import qr_svg
from ..problem_words import say
from ..reads import matches as shown_matches
from ..reads import queries
from ..reads import table as table_reads
from ..registry import GAMES
from ..rules import RuleViolation
from . import KEPT_OFFLINE_HEADER, MATCH_OVER_HEADER
from .share import share_section
from .table import entry_section, reachable_match, reachable_shown_match, sent_key, version_at_table

bp = Blueprint("matches", __name__)
bp.add_app_template_filter(qr_svg, "qr_svg")

PageAnswer = Response | tuple[str, int]


# ---------------------------------------------------------------- new match


@bp.get("/matches/new")
def choose_game() -> str:
    """Ask which game the table is about to play."""
    return render_template("matches/choose_game.html", games=[web.engine for web in web_games()])


@bp.route("/matches/new/<game_name>", methods=["GET", "POST"])
def new(game_name: str) -> PageAnswer:
    """Seat the players, choose the first dealer and the house rules, and start the match."""
    if game_name not in GAMES:
        raise services.NotFound(gettext("There is no such game."))
    web = web_game(game_name)
    game = web.engine
    form = new_match_form_class(game)()
    # Only the fields this game shows are read, so that every refusal lands on a visible field.
    del form["first_dealer" if web.asks_leader else "leader"]
    if not any(spec.kind == "schedule" for spec in game.option_specs):
        del form["schedule_list"]
    known = queries.players(current_user, include_archived=False)
    if form.validate_on_submit():
        names, entries = players_from_form(form)
        chosen = form.leader if web.asks_leader else form.first_dealer
        # The choice names a row of the form; rows left empty are not seats.
        seat = entries.index(chosen.data) if chosen.data in entries else -1
        first_dealer = web.first_dealer(seat, len(names)) if seat >= 0 else seat
        try:
            options = web.options_for_table(options_from_form(form, game), len(names))
            match = services.start_match(current_user, game.name, names, options, first_dealer)
        except RuleViolation as violation:
            fields = {f"players.{i}": f"players-{entry}" for i, entry in enumerate(entries)}
            fields.update(option_error_fields(form, game))
            fields.update({"players": "@players", "first_dealer": "leader" if web.asks_leader else "first_dealer"})
            attach_errors(form, violation.problems, fields)
        except services.ServiceError as error:  # a name refused, or a race lost to another phone
            field = error.field or ""
            if field.startswith("players."):
                field = f"players-{entries[int(field.split('.')[1])]}"
            add_form_error(form, error.message, field)
        else:
            return redirect(url_for("matches.scoreboard", match_id=match.id))
    status = 422 if has_errors(form) else 200
    return render_template(
        "matches/new.html",
        form=form,
        game=game,
        web=web,
        known=known,
        ratings=figure_reads.ratings_by_name(current_user, game.name) if web.plays_in_pairs else {},
        # a rule the names typed set is not asked
        options=[field for field in option_fields(form, game) if field.name[len("opt_") :] not in web.seated_options],
    ), status


# ---------------------------------------------------------------- the scoreboard and its actions


@bp.get("/matches/<int:match_id>")
def scoreboard(match_id: int) -> Response:
    """Show the scoreboard that stays open on the table (to the owner, and to the phones that joined it)."""
    match, link = reachable_shown_match(match_id)
    board = boards.scoreboard(match)
    owner = link is None
    page = render_template(
        "matches/scoreboard.html",
        board=board,
        plan=offline_plan(board) if board.open else None,
        guest=not owner,
        entry=entry_section(match) if owner else None,
        share=share_section(match) if owner else None,
        result=cards.match_card(board, dark=False) if board.finished else None,
    )
    return _kept_offline(make_response(page), board)


def _kept_offline(response: Response, board: boards.Scoreboard) -> Response:
    """Let the phone keep the page of a match still being played, to show it again without a connection."""
    if board.open:
        response.headers[KEPT_OFFLINE_HEADER] = "yes"
    return response


@bp.get("/matches/<int:match_id>/state")
def state(match_id: int) -> Response:
    """Answer 204 while the match is at the version the page shows (`?version=`), else its version,
    so that every phone's scoreboard reloads within seconds of a deal entered on another."""
    version = version_at_table(match_id)
    if whole_number(request.args.get("version")) == version:
        return Response(status=204)
    response = jsonify({"version": version})
    response.headers["Cache-Control"] = "no-store"
    return response


UNDONE = {
    "bids": lazy_gettext("The bids were undone."),
    "deal": lazy_gettext("The last deal was undone."),
    None: lazy_gettext("There was nothing to undo."),
}


@bp.post("/matches/<int:match_id>/undo")
def undo(match_id: int) -> Response:
    """Undo the last entry (pending bids, else the last deal)."""
    match, _link = reachable_match(match_id, changing=True)
    try:
        flash(str(UNDONE[services.undo(match)]))
    except (RuleViolation, services.ServiceError) as error:
        flash(_message(error))
    return redirect(url_for("matches.scoreboard", match_id=match_id))


@bp.post("/matches/<int:match_id>/abandon")
def abandon(match_id: int) -> Response:
    """Stop the match early; it keeps its deals and has no winner."""
    match = table_reads.match_for(current_user, match_id)
    try:
        services.abandon_match(match)
    except services.ServiceError as error:
        flash(error.message)
    return redirect(url_for("matches.scoreboard", match_id=match_id))


@bp.post("/matches/<int:match_id>/delete")
def delete(match_id: int) -> Response:
    """Delete a match entirely, its deals and figures with it."""
    services.delete_match(table_reads.match_for(current_user, match_id))
    flash(gettext("The match was deleted."))
    return redirect(url_for("matches.history"))


@bp.post("/matches/<int:match_id>/rematch")
def rematch(match_id: int) -> Response:
    """Start a new match with the same seats and house rules (tute4: who holds the 2 of oros now)."""
    match = table_reads.match_for(current_user, match_id)
    leader = whole_number(request.form.get("leader"))
    first_dealer = None
    web = web_game(match.game)
    if web.asks_leader and leader is not None and leader < len(match.seats):
        first_dealer = web.first_dealer(leader, len(match.seats))
    try:
        new_match, made = services.rematch(current_user, match, first_dealer)
    except services.ServiceError as error:
        flash(error.message)
        return redirect(url_for("matches.scoreboard", match_id=match_id))
    if not made:
        flash(gettext("The rematch was started already: here it is."))
    return redirect(url_for("matches.scoreboard", match_id=new_match.id))


def _message(error: Exception) -> str:
    if isinstance(error, RuleViolation):
        return " ".join(say(problem) for problem in error.problems)
    return error.message if isinstance(error, services.ServiceError) else str(error)


# ---------------------------------------------------------------- entering deals


def _deal_form(board: boards.Scoreboard) -> DealForm:
    return web_game(board.game.name).deal_form(board.seat_names, board.side_names)


def _posted_form(match: Match) -> DealForm:
    """Return the deal form for a posted entry, without scoring the match (the service does that)."""
    return web_game(match.game).deal_form(match.player_names, boards.side_names(match))


def _render_entry(board: boards.Scoreboard, form: DealForm, step: str, status: int = 200) -> tuple[str, int]:
    return render_template(
        "matches/deal.html",
        board=board,
        form=form,
        step=step,
        editing=None,
        cards=board.next_cards or 0,
        plan=offline_plan(board),
    ), status


@bp.get("/matches/<int:match_id>/deal")
def enter_deal(match_id: int) -> PageAnswer:
    """Show the form for the next deal: Tute's deal, or Pocha's bids, then its tricks."""
    match, _link = reachable_shown_match(match_id)
    board = boards.scoreboard(match)
    if not board.open:
        return redirect(url_for("matches.scoreboard", match_id=match_id))
    form = _deal_form(board)
    form.number.data = str(board.next_number)  # as the page sends it back
    # The bids replace bids stored meanwhile only as a correction of the state they were entered on.
    form.version.data = str(board.match.version)
    form.dealer.data = board.next_dealer
    step = web_game(board.game.name).entry_step(form, board.pending, request.args)
    return _kept_offline(make_response(_render_entry(board, form, step)), board)


def _after(step: str, match_id: int) -> Response:
    """Where a stored entry leads: the tricks after the bids, else the scoreboard."""
    endpoint = "matches.enter_deal" if step == "bids" else "matches.scoreboard"
    return redirect(url_for(endpoint, match_id=match_id))


def _store_deal(match: Match, step: str, link: EntryLink | None) -> PageAnswer:
    match_id = match.id
    # A phone that lost its connection sends a saved entry again with the key it chose at first.
    key = sent_key()
    form = _posted_form(match)
    status = 422
    try:
        if form.validate_on_submit():
            services.once(match, key, lambda kept_key: _store_posted(match, form, step, kept_key, link))
            return _after(step, match_id)
    except RuleViolation as violation:
        attach_errors(form, violation.problems, form.error_fields())
    except services.Conflict as error:
        add_form_error(form, error.message)
        status = 409
    else:  # the form itself was refused
        if form.carried_fields_refused():
            add_form_error(
                form, gettext("This page is out of date. Go back to the scoreboard and enter the tricks again.")
            )
    board = _board_after_refusal(match_id)
    response = make_response(_render_entry(board, form, step, status))
    if not board.open:  # the match ended meanwhile: say so to a phone sending the deals it kept
        response.headers[MATCH_OVER_HEADER] = board.match.status
    return response


def _board_after_refusal(match_id: int) -> boards.Scoreboard:
    """Return the match's scoreboard read again after a refused change, whose rollback expired the
    match: another phone may have changed it meanwhile, or deleted it (NotFound, not a server error)."""
    return boards.scoreboard(shown_matches.match_to_show(match_id))


def _store_posted(match: Match, form: DealForm, step: str, key: str | None, link: EntryLink | None) -> Match:
    """Store the entry the form describes, saying which entry link it came through, or raise what refused it."""
    # A form always carries the number it was opened for; one without is out of date.
    number = whole_number(form.number.data) or 0
    # The cards in hand follow from the match's schedule: the server knows them, the form does not say.
    cards = boards.next_cards(match)
    via = link.id if link is not None else None
    if step == "deal":
        return services.add_deal(match, form.to_deal(cards), number, key, entry_link_id=via)
    if step == "bids":
        return services.save_bids(match, form.to_bids(cards), number, key, whole_number(form.version.data))
    return services.complete_deal(
        match, form.to_bids(cards), form.to_deal(cards)["tricks"], number, key, entry_link_id=via
    )


@bp.post("/matches/<int:match_id>/deal")
def save_deal(match_id: int) -> PageAnswer:
    """Store the next deal (Tute), or the tricks of the deal whose bids are in (Pocha)."""
    match, link = reachable_match(match_id, changing=True, deals=False)  # the service reads them, under its lock
    return _store_deal(match, web_game(match.game).posted_step, link)


@bp.post("/matches/<int:match_id>/bids")
def save_bids(match_id: int) -> PageAnswer:
    """Store the bids of the next Pocha deal, before play."""
    match, link = reachable_match(match_id, changing=True)
    if not web_game(match.game).engine.bids_first:
        raise services.NotFound(gettext("This game has no bids."))
    return _store_deal(match, "bids", link)


@bp.route("/matches/<int:match_id>/deals/<int:number>/edit", methods=["GET", "POST"])
def edit_deal(match_id: int, number: int) -> PageAnswer:
    """Correct any deal; the whole match is checked again before it is stored."""
    # A correction changes the match, read as objects under the checks of a change (a table's phone
    # may change nothing once the match is over); the page shows the match as read for showing.
    match = reachable_match(match_id, changing=True)[0] if request.method == "POST" else None
    shown, link = reachable_shown_match(match_id)
    board = boards.scoreboard(shown)
    if link is not None and not board.open:  # the match is over: the table's phones only read it
        return redirect(url_for("matches.scoreboard", match_id=match_id))
    stored = next((deal for deal in shown.deals if deal.number == number), None)
    if stored is None:
        raise services.NotFound(gettext("This match has no deal %(number)s.", number=number))
    form = _deal_form(board)
    # A deal is played with the cards its schedule gave it (in a game that has one): the stored deal says how many.
    cards = stored.data.get("cards")
    status = 200
    if request.method == "GET":
        form.load(stored.data)
        form.number.data, form.version.data = str(number), str(shown.version)  # as the page sends them back
    elif form.validate_on_submit():
        try:
            version = whole_number(form.version.data)
            deal = form.to_deal(cards)
            assert match is not None  # read above for a POST
            services.replace_deal(match, number, deal, -1 if version is None else version)
        except RuleViolation as violation:
            attach_errors(form, [p for p in violation.problems if p.deal == number], form.error_fields())
            for problem in violation.problems:
                if problem.deal != number:
                    form.form_errors.append(
                        gettext("Deal %(number)s: %(message)s", number=problem.deal, message=say(problem))
                    )
            board, status = _board_after_refusal(match_id), 422
        except services.Conflict as error:
            add_form_error(form, error.message)
            board, status = _board_after_refusal(match_id), 409
        else:
            flash(gettext("Deal %(number)s was corrected.", number=number))
            return redirect(url_for("matches.scoreboard", match_id=match_id))
    else:
        status = 422
    return render_template(
        "matches/deal.html",
        board=board,
        form=form,
        step="edit",
        editing=number,
        cards=cards if isinstance(cards, int) else 0,
    ), status


# ---------------------------------------------------------------- history


@bp.get("/history")
def history() -> str:
    """List the matches, newest first, a page at a time, filtered by game, player, status and note."""
    game = request.args.get("game") or None
    status = request.args.get("status") or None
    player_id = whole_number(request.args.get("player"))
    note = (request.args.get("note") or "")[:200] or None
    found = queries.history_page(
        current_user,
        whole_number(request.args.get("page")) or 1,
        game=game if game in GAMES else None,
        status=status if status in STATUSES else None,
        player_id=player_id,
        note=note,
    )
    return render_template(
        "matches/history.html",
        page=found,
        cards=lists.history_cards(found.items),
        games=[web.engine for web in web_games()],
        statuses=STATUSES,
        players=queries.player_choices(current_user),
        selected={"game": game, "status": status, "player": player_id, "note": note},
    )


@bp.get("/history/<int:match_id>")
def detail(match_id: int) -> str:
    """Show a match read-only, with its deal table."""
    board = boards.scoreboard(shown_matches.match_to_show_for(current_user, match_id))
    return render_template("matches/detail.html", board=board)
