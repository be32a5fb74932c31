"""The year at the table: a page per calendar year, of the whole table or of one player, and its card."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_login import current_user
from werkzeug.wrappers import Response

from .. import formats, services
from ..figures import seasons
from ..figures.years import WHOLE_TABLE, named_ids, player_names
from ..pages import years as shown
from ..reads import queries
from ..season_rules import MAX_YEAR, MIN_YEAR
from .cards import card_answer

bp = Blueprint("years", __name__, url_prefix="/years")


def _page(year: int, player_id: int | None = None) -> shown.YearPage:
    """Return the year's page (of the player, if one is given), or answer 404 for a year or player not there."""
    if not MIN_YEAR <= year <= MAX_YEAR:
        abort(404)
    whose = WHOLE_TABLE if player_id is None else queries.player_for(current_user, player_id).id
    review = services.year_review(current_user, year, formats.viewer_zone(), whose)
    names = player_names(current_user, named_ids(review) | ({whose} if player_id is not None else set()))
    return shown.year_page(year, review, names, player_id)


def _years() -> list[int]:
    """Return the years the account finished a match in (the latest first), this one included."""
    played = seasons.years_played(current_user, formats.viewer_zone())
    this_year = formats.viewer_today().year
    return sorted({*played, this_year}, reverse=True)


@bp.get("/")
def index() -> Response:
    """Go to the latest year the account finished a match in (this year before any)."""
    played = seasons.years_played(current_user, formats.viewer_zone())
    return redirect(url_for("years.year", year=played[0] if played else formats.viewer_today().year))


def _render(page: shown.YearPage, card_url: str) -> str:
    return render_template(
        "years/year.html",
        page=page,
        years=_years(),
        result=shown.year_card(page, dark=False),
        card_url=card_url,
        zone_name=str(formats.viewer_zone()),
    )


@bp.get("/<int:year>")
def year(year: int) -> str:
    """Show the year at the table: matches, nights and hours, each game's champion and the year's records."""
    return _render(_page(year), url_for("years.card", year=year))


@bp.get("/<int:year>/players/<int:player_id>")
def player_year(year: int, player_id: int) -> str:
    """Show one player's year at the table: their matches, wins, places and records."""
    return _render(_page(year, player_id), url_for("years.player_card", year=year, player_id=player_id))


@bp.get("/<int:year>/card.png")
def card(year: int) -> Response:
    """Answer the year's card (`?theme=dark` for the dark one)."""
    return card_answer(shown.year_card(_page(year), dark=request.args.get("theme") == "dark"))


@bp.get("/<int:year>/players/<int:player_id>/card.png")
def player_card(year: int, player_id: int) -> Response:
    """Answer the card of a player's year (`?theme=dark` for the dark one)."""
    return card_answer(shown.year_card(_page(year, player_id), dark=request.args.get("theme") == "dark"))
