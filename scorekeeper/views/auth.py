"""Accounts: the first account of a fresh install, sign-up, sign-in and out, passwords, API tokens."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    g,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext
from flask_login import current_user, login_required, login_user, logout_user
from flask_wtf.csrf import generate_csrf
from werkzeug.wrappers import Response

from .. import formats, services
from ..accounts import sign_in_limits
from ..extensions import limiter
from ..forms import AccountForm, LoginForm, PasswordForm, TokenForm, add_form_error, required_text
from ..models import User
from ..reads import queries

bp = Blueprint("auth", __name__)


def _too_many() -> str:
    return gettext("Too many sign-in attempts. Wait a few minutes and try again.")


def _safe_next(target: str | None) -> str:
    """Return `target` if it is a plain path on this site, else the home page.

    Only printable ASCII passes: a line break would split the Location header, and a
    backslash is read as a slash by some browsers ("/\\evil.example").
    """
    if target and target.isascii() and target.isprintable() and " " not in target and "\\" not in target:
        parts = urlsplit(target)
        if not parts.scheme and not parts.netloc and target.startswith("/") and not target.startswith("//"):
            return target
    return url_for("main.home")


def _sign_in(user: User, key: str | None = None) -> None:
    """Sign this browser in to `user` under a new sign-in key (or `key`, just made), with a new CSRF token."""
    if key is None:
        key = services.start_sign_in(user)
    user.sign_in_key = key
    # A CSRF token seen before signing in (on a borrowed phone, say) must not outlive it. The
    # new one goes out with this answer: made later, by the first pages asked for at once after
    # it (the next form, the offline page the phone keeps), each would make its own, and the
    # form would carry one its cookie no longer holds.
    session.pop("csrf_token", None)
    g.pop("csrf_token", None)
    generate_csrf()
    login_user(user, remember=True)


def _create_account(form: AccountForm, template: str) -> Response | tuple[str, int] | str:
    if form.validate_on_submit():
        try:
            user = services.create_user(required_text(form.username), required_text(form.password))
        except services.ServiceError as error:  # a name taken, also by a sign-up at the same moment
            add_form_error(form, error.message, error.field)
        else:
            _sign_in(user)
            flash(gettext("Welcome, %(name)s.", name=user.username))
            return redirect(url_for("main.home"))
        return render_template(template, form=form), 422
    return render_template(template, form=form), 422 if form.errors else 200


@bp.route("/setup", methods=["GET", "POST"])
def setup() -> Response | tuple[str, int] | str:
    """Create the first account of a fresh install, where SETUP_OPEN lets its visitor.

    Otherwise say how the host makes it.
    """
    if queries.has_users():
        return redirect(url_for("auth.login"))
    if not current_app.config["SETUP_OPEN"]:
        return render_template("auth/setup.html", form=None), 403 if request.method == "POST" else 200
    return _create_account(AccountForm(), "auth/setup.html")


@bp.route("/signup", methods=["GET", "POST"])
@limiter.limit(lambda: current_app.config["SIGN_UP_LIMIT_PER_ADDRESS"], methods=["POST"], error_message=_too_many)
def signup() -> Response | tuple[str, int] | str:
    """Create another account, while the host keeps sign-up open."""
    if not current_app.config["SIGNUP_OPEN"]:
        abort(404)
    return _create_account(AccountForm(), "auth/signup.html")


@bp.route("/login", methods=["GET", "POST"])
def login() -> Response | tuple[str, int] | str:
    """Sign in; failed attempts are limited (see `sign_in_limits`)."""
    form = LoginForm()
    if form.validate_on_submit():
        attempt = sign_in_limits.begin(form.username.data)
        if not attempt.allowed:
            form.form_errors.append(_too_many())
            response = make_response(render_template("auth/login.html", form=form), 429)
            response.headers["Retry-After"] = str(attempt.retry_after)
            return response
        user = services.authenticate(required_text(form.username), required_text(form.password))
        if user is not None:
            sign_in_limits.forgive(attempt)  # only failures count
            _sign_in(user)
            return redirect(_safe_next(request.args.get("next")))
        form.form_errors.append(gettext("That username and password do not match an account."))
        return render_template("auth/login.html", form=form), 422
    return render_template("auth/login.html", form=form), 422 if form.errors else 200


@bp.post("/logout")
@login_required
def logout() -> Response:
    """Sign this browser out: its session and remember-me cookie open nothing any more, wherever copied,
    and the session keeps nothing it carried (the tables this phone joined included) but the language."""
    services.end_sign_in(current_user.sign_in_key)
    _empty_session()
    logout_user()  # after: it marks the remember-me cookie to be cleared, in the session
    return redirect(url_for("auth.login"))


def _empty_session() -> None:
    """Empty the session cookie, keeping only the language chosen on this browser."""
    language = session.get("language")
    session.clear()
    if language is not None:
        session["language"] = language


@bp.route("/language", methods=["GET", "POST"])
def language() -> Response | str:
    """Offer the languages; switch the page language, for this browser and, when signed in, for the account."""
    if request.method == "GET":
        return render_template("auth/language.html", next=_safe_next(request.args.get("next")))
    chosen = request.form.get("language", "")
    if chosen in current_app.config["LANGUAGES"]:
        session["language"] = chosen
        if current_user.is_authenticated:
            services.set_language(current_user, chosen)
    return redirect(_safe_next(request.form.get("next")))


def _account_page(
    form: TokenForm | None = None, password_form: PasswordForm | None = None, new_token: str | None = None
) -> tuple[str, int]:
    form = form or TokenForm(formdata=None)
    password_form = password_form or PasswordForm(formdata=None, prefix="change")
    failed = form.errors or form.form_errors or password_form.errors or password_form.form_errors
    return render_template(
        "auth/account.html",
        form=form,
        password_form=password_form,
        new_token=new_token,
        time_zones=formats.time_zone_names(),
        tokens=queries.api_tokens(current_user),
        sign_ins=queries.sign_in_count(current_user),
    ), 422 if failed else 200


@bp.route("/account", methods=["GET", "POST"])
@login_required
def account() -> tuple[str, int]:
    """Show the account, its sign-ins and its API tokens; make a new token, shown once."""
    form = TokenForm()
    if form.validate_on_submit():
        try:
            new_token = services.create_api_token(current_user, form.name.data or "API token")
        except services.ServiceError as error:
            add_form_error(form, error.message, "name")
        else:
            return _account_page(new_token=new_token)
    return _account_page(form=form)


@bp.post("/account/password")
@login_required
def change_password() -> Response | tuple[str, int]:
    """Change the password: every browser is signed out, and this one signed in again."""
    form = PasswordForm(prefix="change")
    if form.validate_on_submit():
        # Guesses of the current password count as failed sign-ins: a borrowed phone left
        # signed in must not become a way to find the password out.
        attempt = sign_in_limits.begin(current_user.username)
        if not attempt.allowed:
            add_form_error(form, _too_many())
            return _account_page(password_form=form)[0], 429
        try:
            key = services.change_password(current_user, required_text(form.current), required_text(form.password))
        except services.ServiceError as error:
            if error.field != "current":
                sign_in_limits.forgive(attempt)
            add_form_error(form, error.message, error.field)
        else:
            sign_in_limits.forgive(attempt)
            _sign_in(current_user._get_current_object(), key)
            flash(gettext("Your password was changed, and every other browser signed out."))
            return redirect(url_for("auth.account"))
    return _account_page(password_form=form)


@bp.post("/account/time-zone")
@login_required
def time_zone() -> Response:
    """Fix the time zone the pages show times in, or go back to the browser's."""
    try:
        services.set_time_zone(current_user, request.form.get("time_zone") or None)
    except services.InvalidInput as error:
        flash(str(error))
    return redirect(url_for("auth.account"))


@bp.post("/account/sign-out-everywhere")
@login_required
def sign_out_everywhere() -> Response:
    """Sign out every browser signed in to the account, this one included."""
    services.end_every_sign_in(current_user)
    _empty_session()
    logout_user()  # after: it marks the remember-me cookie to be cleared, in the session
    flash(gettext("Every browser signed in to this account was signed out."))
    return redirect(url_for("auth.login"))


@bp.post("/account/tokens/<int:token_id>/revoke")
@login_required
def revoke_token(token_id: int) -> Response:
    """Revoke an API token."""
    services.revoke_api_token(current_user, token_id)
    flash(gettext("The token was revoked."))
    return redirect(url_for("auth.account"))
