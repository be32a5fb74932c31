"""The home page: matches in progress first, a new match, the latest finished ones."""

from __future__ import annotations

from flask import Blueprint, render_template
from flask_login import current_user

from ..pages import lists

bp = Blueprint("main", __name__)


@bp.get("/")
def home() -> str:
    """Show the home page."""
    return render_template("home.html", home=lists.home(current_user))
