"""Accounts: the first account of a fresh install, sign-up, sign-in and out, API tokens."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext
from flask_login import current_user, login_required, login_user, logout_user
from werkzeug.wrappers import Response

from .. import queries, services
from ..extensions import limiter
from ..forms import AccountForm, LoginForm, TokenForm, add_form_error

bp = Blueprint("auth", __name__)


def _posted_username() -> str:
    """Key the per-account limit by the username tried, as the form (or a JSON body) gives it."""
    body = request.get_json(silent=True) if request.is_json else None
    name = body.get("username") if isinstance(body, dict) else request.form.get("username")
    return "account:" + " ".join(str(name or "").split()).casefold()[:200]


def _too_many() -> str:
    return gettext("Too many sign-in attempts. Wait a few minutes and try again.")


def _safe_next(target: str | None) -> str:
    """Return `target` if it is a path on this site, else the home page."""
    if target:
        parts = urlsplit(target)
        if not parts.scheme and not parts.netloc and target.startswith("/") and not target.startswith("//"):
            return target
    return url_for("main.home")


def _create_account(form: AccountForm, template: str) -> Response | tuple[str, int] | str:
    if form.validate_on_submit():
        try:
            user = services.create_user(form.username.data, form.password.data)
        except services.InvalidInput as error:
            add_form_error(form, error.message, error.field)
        else:
            login_user(user, remember=True)
            flash(gettext("Welcome, %(name)s.", name=user.username))
            return redirect(url_for("main.home"))
        return render_template(template, form=form), 422
    return render_template(template, form=form), 422 if form.errors else 200


@bp.route("/setup", methods=["GET", "POST"])
def setup() -> Response | tuple[str, int] | str:
    """Create the first account of a fresh install."""
    if queries.has_users():
        return redirect(url_for("auth.login"))
    return _create_account(AccountForm(), "auth/setup.html")


@bp.route("/signup", methods=["GET", "POST"])
@limiter.limit(lambda: current_app.config["SIGN_UP_LIMIT_PER_ADDRESS"], methods=["POST"], error_message=_too_many)
def signup() -> Response | tuple[str, int] | str:
    """Create another account, while the host keeps sign-up open."""
    if not current_app.config["SIGNUP_OPEN"]:
        abort(404)
    return _create_account(AccountForm(), "auth/signup.html")


# Every attempt counts, right as it arrives, so that a burst cannot slip past the limit.
@bp.route("/login", methods=["GET", "POST"])
@limiter.limit(lambda: current_app.config["SIGN_IN_LIMIT_PER_ADDRESS"], methods=["POST"], error_message=_too_many)
@limiter.limit(lambda: current_app.config["SIGN_IN_LIMIT_PER_ACCOUNT"], methods=["POST"],
               key_func=_posted_username, error_message=_too_many)
def login() -> Response | tuple[str, int] | str:
    """Sign in."""
    form = LoginForm()
    if form.validate_on_submit():
        user = services.authenticate(form.username.data, form.password.data)
        if user is not None:
            login_user(user, remember=True)
            return redirect(_safe_next(request.args.get("next")))
        form.form_errors.append(gettext("That username and password do not match an account."))
        return render_template("auth/login.html", form=form), 422
    return render_template("auth/login.html", form=form), 422 if form.errors else 200


@bp.post("/logout")
@login_required
def logout() -> Response:
    """Sign out."""
    logout_user()
    return redirect(url_for("auth.login"))


@bp.post("/language")
def language() -> Response:
    """Switch the page language, for this browser and, when signed in, for the account."""
    chosen = request.form.get("language", "")
    if chosen in current_app.config["LANGUAGES"]:
        session["language"] = chosen
        if current_user.is_authenticated:
            services.set_language(current_user, chosen)
    return redirect(_safe_next(request.form.get("next")))


@bp.route("/account", methods=["GET", "POST"])
@login_required
def account() -> tuple[str, int]:
    """Show the account and its API tokens; make a new token, shown once."""
    form = TokenForm()
    new_token = None
    if form.validate_on_submit():
        try:
            new_token = services.create_api_token(current_user, form.name.data or "API token")
        except services.InvalidInput as error:
            add_form_error(form, error.message, "name")
        else:
            form = TokenForm(formdata=None)
    status = 422 if form.errors or form.form_errors else 200
    return render_template("auth/account.html", form=form, tokens=queries.api_tokens(current_user),
                           new_token=new_token), status


@bp.post("/account/tokens/<int:token_id>/revoke")
@login_required
def revoke_token(token_id: int) -> Response:
    """Revoke an API token."""
    services.revoke_api_token(current_user, token_id)
    flash(gettext("The token was revoked."))
    return redirect(url_for("auth.account"))
