"""Blueprints by area; `register` attaches them, the sign-in gate and the error pages to an app."""

from __future__ import annotations

from typing import Any

from flask import (
    Flask,
    abort,
    current_app,
    g,
    has_request_context,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext
from flask_login import current_user
from sqlalchemy.orm.exc import ObjectDeletedError
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from .. import formats, i18n
from ..errors import Conflict, MatchOver, NotFound, ServiceError
from ..extensions import login_manager
from ..forms import group_errors
from ..games.web import web_game, web_games
from ..i18n import lazy_gettext
from ..models import MAX_NOTE_LENGTH
from ..pages import lists
from ..reads import queries

#: Endpoints anyone may reach without signing in, even before the first account exists: static
#: files and the games' scripts, what makes the app installable, shared live views and their
#: previews, the language switch, and the page an entry link opens (what it lets the phone reach
#: then is `table.TABLE_ENDPOINTS`).
OPEN_ENDPOINTS = frozenset(
    {
        "static",
        "auth.language",
        "share.live",
        "share.state",
        "share.old_link",
        "share.old_state",
        "cards.preview",
        "pwa.manifest",
        "pwa.service_worker",
        "pwa.offline",
        "pwa.game_script",
        "table.join",
        "table.enter",
    }
)
#: The header of a refused change to a match that ended meanwhile: how it ended ("finished" or
#: "abandoned"), so that a phone sending the deals it kept knows they can no longer be entered.
MATCH_OVER_HEADER = "X-Match-Over"
#: The header of a page a phone may keep, to be shown again without a connection: a scoreboard
#: or deal form of a match still being played (see static/sw.js).
KEPT_OFFLINE_HEADER = "X-Kept-Offline"

#: Endpoints reachable without signing in once an account exists. Everything else needs an
#: account (the API's own endpoints need an API token instead, checked by the API blueprint).
PUBLIC_ENDPOINTS = OPEN_ENDPOINTS | {"auth.login", "auth.setup", "auth.signup"}


def register(app: Flask) -> None:
    """Register every blueprint and the app-wide request hooks."""
    from . import api, auth, cards, main, matches, nights, players, pwa, seasons, share, statistics, table, years

    for blueprint in (
        auth.bp,
        main.bp,
        players.bp,
        matches.bp,
        api.bp,
        share.bp,
        pwa.bp,
        statistics.bp,
        seasons.bp,
        years.bp,
        nights.bp,
        table.bp,
        cards.bp,
    ):
        app.register_blueprint(blueprint)
    login_manager.login_view = "auth.login"
    login_manager.login_message = lazy_gettext("Sign in to keep score.")
    login_manager.user_loader(_load_user)
    app.before_request(_form_bodies_only)
    app.before_request(_require_sign_in)
    app.before_request(_forget_link_secrets)
    app.after_request(_keep_out_of_shared_caches)
    app.register_error_handler(NotFound, _not_found)
    app.register_error_handler(ServiceError, _refused)
    app.register_error_handler(404, _not_found)
    app.register_error_handler(ObjectDeletedError, _deleted_meanwhile)
    app.register_error_handler(405, _not_allowed)
    app.register_error_handler(429, _too_many)
    app.add_template_filter(_group_errors, "group_errors")
    app.add_template_global(lists.pages_around, "pages_around")
    app.add_template_global(web_game, "web_game")
    app.add_template_global(pwa.game_script_url, "game_script_url")
    app.add_template_global(web_games, "web_games")
    app.jinja_env.globals["max_note_length"] = MAX_NOTE_LENGTH  # the note form's hint says it
    i18n.register(app)


def _group_errors(form: Any, group: str) -> list[str]:
    return group_errors(form).get(group, [])


def select_language() -> str:
    """Pick the page language: the account's choice, else this browser's choice, else its Accept-Language."""
    languages = current_app.config["LANGUAGES"]
    if not has_request_context():
        return str(current_app.config["BABEL_DEFAULT_LOCALE"])
    chosen = getattr(current_user, "language", None) if current_user else None
    if chosen in languages:
        return str(chosen)
    remembered = session.get("language")
    if remembered in languages:
        return str(remembered)
    return request.accept_languages.best_match(list(languages)) or current_app.config["BABEL_DEFAULT_LOCALE"]


#: The cookie in which the browser says its time zone (set by the page's script).
TIME_ZONE_COOKIE = "tz"


def select_time_zone() -> str:
    """Pick the time zone of the shown times: the account's choice, else the browser's, else UTC."""
    if not has_request_context():
        return "UTC"
    fixed = getattr(current_user, "time_zone", None) if current_user else None
    if formats.is_time_zone(fixed):
        return str(fixed)
    browser = request.cookies.get(TIME_ZONE_COOKIE)
    return str(browser) if formats.is_time_zone(browser) else "UTC"


def _load_user(sign_in_key: str) -> Any:
    """Return the account of the browser's sign-in (what `User.get_id` gave Flask-Login), while it lasts."""
    return queries.user_for_sign_in(sign_in_key)


#: The bodies an HTML form sends; the pages' routes read nothing else.
FORM_BODIES = frozenset({"application/x-www-form-urlencoded", "multipart/form-data"})


def _form_bodies_only() -> Response | None:
    """Refuse a body that no form of these pages sends (JSON, XML, raw bytes, files) with 415.

    Flask-WTF would otherwise read a JSON body as the form's data, whatever shape it has;
    the JSON API has routes of its own.
    """
    endpoint = request.endpoint
    if endpoint is None or endpoint.startswith("api.") or request.method in ("GET", "HEAD", "OPTIONS"):
        return None  # no such page (404 or 405 follow), or the API's
    if request.mimetype and request.mimetype not in FORM_BODIES:
        abort(415)
    if request.files:  # no form here takes a file; Flask-WTF would hand it to a text field
        abort(415)
    return None


def _require_sign_in() -> Response | None:
    """Send visitors to the first-account page on a fresh install, else to sign-in; let a phone that
    joined a match through its entry link reach that match's table (the view checks the link)."""
    from .table import TABLE_ENDPOINTS, joined, joined_table

    endpoint = request.endpoint
    if endpoint is None or endpoint.startswith("api.") or endpoint in OPEN_ENDPOINTS:
        return None
    if not queries.has_users():
        return None if endpoint == "auth.setup" else redirect(url_for("auth.setup"))
    if endpoint in PUBLIC_ENDPOINTS or current_user.is_authenticated:
        return None
    if endpoint in TABLE_ENDPOINTS and joined((request.view_args or {}).get("match_id", 0)):
        return None
    if endpoint == "main.home" and (table := joined_table()) is not None:  # the logo, or the app from the home screen
        return redirect(url_for("matches.scoreboard", match_id=table))
    return redirect(url_for("auth.login", next=request.full_path if request.args else request.path))


#: Where versions before 0.2 kept, in the owner's session cookie (signed, not encrypted), the secrets of
#: the entry links made on that phone.
_OLD_LINK_SECRETS = "entry_links_made"


def _forget_link_secrets() -> None:
    """Take out of a session cookie the entry links' secrets that versions before 0.2 kept there."""
    if _OLD_LINK_SECRETS in session:
        session.pop(_OLD_LINK_SECRETS)


def _keep_out_of_shared_caches(response: Response) -> Response:
    """Have no cache keep an answer given to a signed-in browser, a phone at a table or an API token
    (`Cache-Control: no-store`), unless the answer says otherwise: it shows an account's matches,
    and the account page shows a new API token once."""
    if "Cache-Control" in response.headers or request.endpoint in (None, "static", "pwa.game_script"):
        return response
    if g.get("api_user") is not None or g.get("guest_links") or current_user.is_authenticated:
        response.headers["Cache-Control"] = "no-store"
    return response


def _not_found(error: Exception) -> tuple[str, int] | tuple[Response, int]:
    message = error.message if isinstance(error, NotFound) else gettext("There is nothing at this address.")
    if request.path.startswith("/api/"):
        return jsonify({"message": message}), 404
    return render_template("message.html", heading=gettext("Not found"), message=message), 404


def _deleted_meanwhile(error: ObjectDeletedError) -> tuple[str, int] | tuple[Response, int]:
    """Answer 404 when what a request changed was deleted by another phone before the answer was made.

    A service's commit expires the session's objects, and the answer reads them again: a match
    deleted from another phone between the two is gone, so there is nothing at this address any more.
    """
    return _not_found(error)


def _refused(error: ServiceError) -> tuple[str, int] | tuple[Response, int]:
    """Answer a change that could not be made (most often a race lost to another phone) with its reason.

    Forms catch these themselves to show the message at the field; this is for the rest.
    """
    status = 409 if isinstance(error, Conflict) else 422
    if request.path.startswith("/api/"):
        return jsonify({"message": error.message}), status
    back = request.referrer if request.referrer and request.referrer.startswith(request.host_url) else None
    page = render_template(
        "message.html", heading=gettext("That could not be done"), message=error.message, back=back, refused=True
    )
    if isinstance(error, MatchOver):
        return make_response(page, status, {MATCH_OVER_HEADER: error.status}), status
    return page, status


def _too_many(error: HTTPException) -> tuple[str, int] | tuple[Response, int]:
    message = str(error.description)
    if request.path.startswith("/api/"):
        return jsonify({"message": message}), 429
    from ..forms import LoginForm

    form = LoginForm()
    form.form_errors.append(message)
    return render_template("auth/login.html", form=form), 429


def _not_allowed(error: HTTPException) -> tuple[Response, int] | HTTPException:
    if request.path.startswith("/api/"):
        response = jsonify({"message": error.description})
        # HTTP asks a 405 to name the methods the address takes, as the HTML answer does.
        allowed = getattr(error, "valid_methods", None)
        if allowed:
            response.headers["Allow"] = ", ".join(sorted(allowed))
        return response, 405
    return error
