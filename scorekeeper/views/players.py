"""Players: list, add, rename, archive."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_login import current_user
from werkzeug.wrappers import Response

from .. import formats, services
from ..figures import pairs, reads
from ..forms import PlayerForm, add_form_error, required_text
from ..pages import charts
from ..pages.rivals import rival_lines
from ..pages.seasons import place_rows
from ..reads import queries

bp = Blueprint("players", __name__, url_prefix="/players")
bp.add_app_template_global(charts.figure_bars, "figure_bars")
bp.add_app_template_global(charts.rating_chart, "rating_chart")
bp.add_app_template_global(charts.form_run, "form_run")


def _page(
    form: PlayerForm, status: int = 200, editing: int | None = None, rename_form: PlayerForm | None = None
) -> tuple[str, int]:
    return render_template(
        "players/list.html", form=form, players=queries.players(current_user), editing=editing, rename_form=rename_form
    ), status


@bp.route("/", methods=["GET", "POST"])
def index() -> Response | tuple[str, int]:
    """List the account's players and add a new one."""
    form = PlayerForm()
    if form.validate_on_submit():
        try:
            player = services.add_player(current_user, required_text(form.name))
        except services.ServiceError as error:
            add_form_error(form, error.message, error.field)
        else:
            flash(gettext("%(name)s was added to your players.", name=player.name))
            return redirect(url_for("players.index"))
    return _page(form, 422 if form.errors or form.form_errors else 200)


@bp.route("/<int:player_id>/rename", methods=["GET", "POST"])
def rename(player_id: int) -> Response | tuple[str, int]:
    """Rename a player."""
    player = queries.player_for(current_user, player_id)
    form = PlayerForm(prefix="rename", data={"name": player.name})
    if form.validate_on_submit():
        try:
            services.rename_player(current_user, player.id, required_text(form.name))
        except services.ServiceError as error:
            add_form_error(form, error.message, error.field)
        else:
            flash(gettext("Renamed to %(name)s.", name=required_text(form.name).strip()))
            return redirect(url_for("players.index"))
    status = 422 if form.errors or form.form_errors else 200
    return _page(PlayerForm(formdata=None), status, editing=player.id, rename_form=form)


@bp.post("/<int:player_id>/archive")
def archive(player_id: int) -> Response:
    """Archive a player, or bring them back."""
    player = queries.player_for(current_user, player_id)
    services.set_player_archived(current_user, player.id, not player.archived)
    return redirect(url_for("players.index"))


@bp.get("/<int:player_id>")
def detail(player_id: int) -> str:
    """Show a player's figures in one of the games they played (`?game=`, else the most played), across all
    sessions, with a button for each of the others and their place in its latest seasons; and their rivals
    and partners across every game."""
    player = queries.player_for(current_user, player_id)
    figures, shown = reads.player_page_figures(current_user, player, request.args.get("game"))
    zone, today = formats.viewer_zone(), formats.viewer_today()
    places = services.player_places(current_user, player, shown.game, zone, today) if shown else []
    return render_template(
        "players/detail.html",
        player=player,
        figures=figures,
        shown=shown,
        rivals=rival_lines(pairs.rivals(player), player.id, player.name),
        min_meetings=pairs.MIN_MEETINGS,
        places=place_rows(places, shown.game) if shown else [],
        # The latest calendar year the player is placed in (the first of the places is the latest to end).
        year_shown=places[0].season.ends_on.year if places else today.year,
    )
