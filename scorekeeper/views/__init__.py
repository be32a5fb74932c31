"""Blueprints by area; `register` attaches them, the sign-in gate and the error pages to an app."""

from __future__ import annotations

from typing import Any

from flask import Flask, jsonify, redirect, render_template, request, url_for
from flask_login import current_user
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from .. import queries
from ..extensions import login_manager
from ..forms import group_errors, whole_number
from ..models import Match
from ..rules import GAMES
from ..services import NotFound

#: Endpoints anyone may reach without signing in. Everything else needs an account
#: (the API's own endpoints need an API token instead, checked by the API blueprint).
PUBLIC_ENDPOINTS = frozenset({"static", "auth.login", "auth.setup", "auth.signup"})


def register(app: Flask) -> None:
    """Register every blueprint and the app-wide request hooks."""
    from . import api, auth, main, matches, players

    for blueprint in (auth.bp, main.bp, players.bp, matches.bp, api.bp):
        app.register_blueprint(blueprint)
    login_manager.login_view = "auth.login"
    login_manager.login_message = "Sign in to keep score."
    login_manager.user_loader(_load_user)
    app.before_request(_require_sign_in)
    app.register_error_handler(NotFound, _not_found)
    app.register_error_handler(404, _not_found)
    app.register_error_handler(405, _not_allowed)
    app.add_template_filter(_game_title, "game_title")
    app.add_template_filter(_winner_names, "winner_names")
    app.add_template_filter(_group_errors, "group_errors")


def _game_title(name: str) -> str:
    return GAMES[name].title if name in GAMES else name


def _winner_names(match: Match) -> str:
    """Name the winners of a finished match from the result cached with its deals."""
    result = match.result or {}
    names = match.player_names
    sides = [" & ".join(names[seat] for seat in side) for side in result.get("sides", [])]
    return " and ".join(sides[w] for w in result.get("winners", []))


def _group_errors(form: Any, group: str) -> list[str]:
    return group_errors(form).get(group, [])


def _load_user(user_id: str) -> Any:
    number = whole_number(user_id)
    return None if number is None else queries.get_user(number)


def _require_sign_in() -> Response | None:
    """Send visitors to the first-account page on a fresh install, else to sign-in."""
    endpoint = request.endpoint
    if endpoint is None or endpoint.startswith("api."):
        return None
    if endpoint == "static":
        return None
    if not queries.has_users():
        return None if endpoint == "auth.setup" else redirect(url_for("auth.setup"))
    if endpoint in PUBLIC_ENDPOINTS or current_user.is_authenticated:
        return None
    return redirect(url_for("auth.login", next=request.full_path if request.args else request.path))


def _not_found(error: Exception) -> tuple[str, int] | tuple[Response, int]:
    message = error.message if isinstance(error, NotFound) else "There is nothing at this address."
    if request.path.startswith("/api/"):
        return jsonify({"message": message}), 404
    return render_template("not_found.html", message=message), 404


def _not_allowed(error: HTTPException) -> tuple[Response, int] | HTTPException:
    if request.path.startswith("/api/"):
        return jsonify({"message": error.description}), 405
    return error
