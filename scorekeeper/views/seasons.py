"""Seasons: the calendar years and the seasons the account named, each one's league table per game."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_login import current_user
from werkzeug.wrappers import Response

from .. import formats, services
from ..figures import seasons
from ..forms import SeasonForm, add_form_error, whole_number
from ..pages import seasons as shown
from ..registry import GAMES
from ..season_rules import MAX_YEAR, MIN_YEAR, MOST_COUNTED, SeasonSpan, calendar_year
from .statistics import csv_answer

bp = Blueprint("seasons", __name__, url_prefix="/seasons")


def _rules(form: SeasonForm) -> services.SeasonRules:
    """Return what the form says of a season (it has validated: every required field holds a value)."""
    data = form.data
    return services.SeasonRules(
        data["name"] or "",
        data["starts_on"],
        data["ends_on"],
        data["win_points"],
        data["shared_points"],
        data["other_points"],
        data["best_of"],
    )


def _index(form: SeasonForm, status: int = 200) -> tuple[str, int]:
    zone = formats.viewer_zone()
    return render_template(
        "seasons/index.html",
        years=[calendar_year(year) for year in seasons.years_played(current_user, zone)],
        named=seasons.named_seasons(current_user),
        form=form,
        today=formats.viewer_today(),
        shown=shown,
    ), status


@bp.route("/", methods=["GET", "POST"])
def index() -> Response | tuple[str, int]:
    """List the calendar years played and the seasons the account named; name a new one."""
    form = SeasonForm()
    if form.validate_on_submit():
        try:
            season = services.name_season(current_user, _rules(form))
        except services.ServiceError as error:
            add_form_error(form, error.message, error.field)
        else:
            flash(gettext("The season %(name)s is named.", name=season.name))
            return redirect(url_for("seasons.season_named", season_id=season.id))
    return _index(form, 422 if form.errors or form.form_errors else 200)


def _year(year: int) -> SeasonSpan:
    if not MIN_YEAR <= year <= MAX_YEAR:
        abort(404)
    return calendar_year(year)


def _named(season_id: int) -> SeasonSpan:
    season = seasons.named_season_for(current_user, season_id)
    if season is None:
        raise services.NotFound(gettext("There is no such season."))
    return seasons.named_season(season)


def _table(season: SeasonSpan) -> tuple[str, list[tuple[str, int]], list[seasons.SeasonLine], int | None]:
    """Return the game a season's page shows (`?game=`, else its most played), its games, its table and
    the best-of it counts (`?best=`, else the season's own)."""
    zone = formats.viewer_zone()
    games = seasons.games_of_season(current_user, season, zone)
    asked = request.args.get("game", "")
    game = asked if asked in GAMES else (games[0][0] if games else next(iter(GAMES)))
    # Without `best`, as the season says; `best` empty (the field cleared) or 0, every match.
    asked_best = request.args.get("best")
    best_of = season.points.best_of if asked_best is None else whole_number(asked_best)
    if best_of is not None:  # as the API reads it: more than any season holds counts them all
        best_of = min(best_of, MOST_COUNTED) if best_of >= 1 else None
    lines = seasons.season_table(current_user, game, season, zone, best_of)
    return game, games, lines, best_of


def _page(season: SeasonSpan) -> str:
    game, games, lines, best_of = _table(season)
    return render_template(
        "seasons/season.html",
        season=season,
        game=game,
        games=games,
        rows=shown.season_rows(lines),
        best_of=best_of,
        shown=shown,
    )


@bp.get("/<int:year>")
def season(year: int) -> str:
    """Show a calendar year's league table in one game (`?game=`), counting every match or the best `?best=`."""
    return _page(_year(year))


@bp.get("/named/<int:season_id>")
def season_named(season_id: int) -> str:
    """Show a named season's league table in one game (`?game=`), counting as the season says or `?best=`."""
    return _page(_named(season_id))


def _csv(season: SeasonSpan) -> Response:
    game, _games, lines, _best = _table(season)
    rows: list[list[object]] = [
        ["place", "player", "played", "won", "shared_wins", "points", "counted", "scored", "rating_change"]
    ]
    rows += [
        [
            line.place,
            line.name,
            line.played,
            line.won,
            line.shared,
            line.points,
            line.counted,
            line.scored,
            "" if line.rating_change is None else round(line.rating_change, 2),
        ]
        for line in lines
    ]
    key = f"{season.year}" if season.season_id is None else f"season-{season.season_id}"
    return csv_answer(rows, f"{key}-{game}.csv")


@bp.get("/<int:year>.csv")
def season_csv(year: int) -> Response:
    """A calendar year's table in one game, as CSV."""
    return _csv(_year(year))


@bp.get("/named/<int:season_id>.csv")
def season_csv_named(season_id: int) -> Response:
    """A named season's table in one game, as CSV."""
    return _csv(_named(season_id))


@bp.route("/named/<int:season_id>/edit", methods=["GET", "POST"])
def edit(season_id: int) -> Response | tuple[str, int]:
    """Change a named season's name, days or points."""
    season = seasons.named_season_for(current_user, season_id)
    if season is None:
        raise services.NotFound(gettext("There is no such season."))
    form = SeasonForm(obj=season)
    if form.validate_on_submit():
        try:
            services.change_season(current_user, season.id, _rules(form))
        except services.ServiceError as error:
            add_form_error(form, error.message, error.field)
        else:
            flash(gettext("The season %(name)s is changed.", name=season.name))
            return redirect(url_for("seasons.season_named", season_id=season.id))
    status = 422 if form.errors or form.form_errors else 200
    return render_template("seasons/edit.html", form=form, season=season), status


@bp.post("/named/<int:season_id>/delete")
def delete(season_id: int) -> Response:
    """Forget a named season (its matches stay)."""
    services.delete_season(current_user, season_id)
    flash(gettext("The season is forgotten; its matches stay."))
    return redirect(url_for("seasons.index"))
