"""Signing in and out: each browser's sign-in can be ended, by signing out, a new password, or everywhere at once."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.models import SignIn

from ..conftest import PASSWORD, Browser, csrf_token, signed_in

SESSION = "session"
REMEMBER = "remember_token"


def cookie(client: FlaskClient, name: str) -> str:
    found = client.get_cookie(name)
    assert found is not None, f"no {name} cookie"
    return found.value


def opens_account(app: Flask, **cookies: str) -> bool:
    """Tell whether a fresh browser holding only these cookies reaches the account page."""
    stranger = app.test_client()
    for name, value in cookies.items():
        stranger.set_cookie(name, value)
    return stranger.get("/account").status_code == 200


def sign_in(app: Flask, client: FlaskClient | None = None, password: str = PASSWORD) -> FlaskClient:
    client = client or app.test_client()
    response = client.post("/login", data={"username": "ana", "password": password, "csrf_token": csrf_token(client)})
    assert response.status_code == 302, response.status_code
    return client


def test_a_session_cookie_copied_before_signing_out_opens_nothing_afterwards(ana: Browser, app: Flask) -> None:
    copied = cookie(ana.client, SESSION)
    assert opens_account(app, session=copied)
    assert ana.post("/logout").location == "/login"
    assert not opens_account(app, session=copied)


def test_the_remember_cookie_is_new_at_every_sign_in_and_dies_with_its_sign_in(ana: Browser, app: Flask) -> None:
    first = cookie(ana.client, REMEMBER)
    assert opens_account(app, remember_token=first)  # a browser that was closed keeps its sign-in
    other = sign_in(app)
    second = cookie(other, REMEMBER)
    assert second != first
    ana.post("/logout")
    assert not opens_account(app, remember_token=first)
    assert opens_account(app, remember_token=second)  # signing out one browser leaves the others in


def test_three_sign_outs_leave_no_remember_cookie_that_signs_in(ana: Browser, app: Flask) -> None:
    cookies = [cookie(ana.client, REMEMBER)]
    ana.post("/logout")
    for _ in range(2):
        client = sign_in(app)
        cookies.append(cookie(client, REMEMBER))
        client.post("/logout", data={"csrf_token": csrf_token(client)})
    assert len(set(cookies)) == 3
    assert not any(opens_account(app, remember_token=value) for value in cookies)


def test_signing_out_everywhere_ends_every_browser_s_sign_in(ana: Browser, app: Flask) -> None:
    other = sign_in(app)
    kept = {"session": cookie(other, SESSION), "remember_token": cookie(other, REMEMBER)}
    page = ana.get("/account").get_data(as_text=True)
    assert "2 browsers are signed in to this account" in page
    response = ana.post("/account/sign-out-everywhere")
    assert response.status_code == 302 and response.location == "/login"
    assert ana.get("/account").status_code == 302
    assert other.get("/account").status_code == 302
    assert not opens_account(app, session=kept["session"])
    assert not opens_account(app, remember_token=kept["remember_token"])
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(SignIn)) == 0


def test_changing_the_password_signs_the_other_browsers_out_and_keeps_this_one(ana: Browser, app: Flask) -> None:
    other = sign_in(app)
    old_remember = cookie(ana.client, REMEMBER)
    response = ana.post(
        "/account/password",
        data={"change-current": PASSWORD, "change-password": "a new secret", "change-confirm": "a new secret"},
    )
    assert response.status_code == 302
    assert ana.get("/account").status_code == 200
    assert other.get("/account").status_code == 302
    assert not opens_account(app, remember_token=old_remember)
    fresh = app.test_client()
    token = csrf_token(fresh)
    assert fresh.post("/login", data={"username": "ana", "password": PASSWORD, "csrf_token": token}).status_code == 422
    assert sign_in(app, password="a new secret").get("/account").status_code == 200


def test_a_wrong_current_password_changes_nothing_and_says_so_at_the_field(ana: Browser, app: Flask) -> None:
    response = ana.post(
        "/account/password",
        data={"change-current": "not it", "change-password": "a new secret", "change-confirm": "a new secret"},
    )
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert re.search(r'id="change-current-error"[^>]*>\s*<p class="error">That is not the account', page)
    assert ana.get("/account").status_code == 200
    sign_in(app)  # the old password still works


def test_the_csrf_token_changes_when_signing_in(app: Flask) -> None:
    signed_in(app, "ana")
    client = app.test_client()
    before = csrf_token(client)
    assert (
        client.post("/login", data={"username": "ana", "password": PASSWORD, "csrf_token": before}).status_code == 302
    )
    after = re.search(r'name="csrf-token" content="([^"]+)"', client.get("/").get_data(as_text=True))
    assert after is not None
    # A token is signed each time it is shown; compare what it stands for by using the old one.
    refused = client.post("/players/", data={"name": "Luis", "csrf_token": before})
    assert refused.status_code == 400 and "CSRF" in refused.get_data(as_text=True)
    assert client.post("/players/", data={"name": "Luis", "csrf_token": after.group(1)}).status_code == 302


def test_only_a_hash_of_each_sign_in_key_is_stored(ana: Browser, app: Flask) -> None:
    remember = cookie(ana.client, REMEMBER)
    key = remember.split("|")[0]
    with app.app_context():
        stored = db.session.scalars(db.select(SignIn.key_hash)).all()
    assert len(stored) == 1 and key not in stored[0] and len(stored[0]) == 64


def test_guesses_of_the_current_password_count_as_failed_sign_ins(ana: Browser, app: Flask) -> None:
    app.config["SIGN_IN_LIMIT_PER_ADDRESS_AND_ACCOUNT"] = "3 per 10 minutes"
    statuses = [
        ana.post(
            "/account/password",
            data={"change-current": f"guess {i}", "change-password": "a new secret", "change-confirm": "a new secret"},
        ).status_code
        for i in range(4)
    ]
    assert statuses == [422, 422, 422, 429]
    fresh = app.test_client()
    refused = fresh.post("/login", data={"username": "ana", "password": PASSWORD, "csrf_token": csrf_token(fresh)})
    assert refused.status_code == 429  # from this address, the account waits like after failed sign-ins


def test_pages_asked_for_at_once_right_after_signing_in_share_one_csrf_token(app: Flask) -> None:
    signed_in(app, "ana")
    client = app.test_client()
    client.post("/login", data={"username": "ana", "password": PASSWORD, "csrf_token": csrf_token(client)})
    signed_in_cookie = cookie(client, SESSION)
    # Two pages asked for before either answers (the phone's offline page and the next form) carry
    # the same cookie; the one that answers last leaves its cookie in the browser.
    form = client.get("/players/").get_data(as_text=True)
    client.set_cookie(SESSION, signed_in_cookie)
    client.get("/offline")
    token = re.search(r'name="csrf-token" content="([^"]+)"', form)
    assert token is not None
    assert client.post("/players/", data={"name": "Luis", "csrf_token": token.group(1)}).status_code == 302


def test_signing_out_empties_the_session_of_everything_it_carried(ana: Browser, app: Flask, bea: Browser) -> None:
    from .matchhelpers import start
    from .test_table import join, make_link

    start(bea, "tute2", ["Bea", "Juan"])
    join(app, make_link(bea), ana.client)  # Ana's phone also joined Bea's table
    ana.post("/language", data={"language": "es"})
    with ana.client.session_transaction() as session:
        assert "joined" in session and "_user_id" in session
    ana.post("/logout")
    with ana.client.session_transaction() as session:
        assert set(session) <= {"language", "_remember"}, dict(session)
        assert session.get("language") == "es"  # the page language chosen on this phone stays
    assert ana.client.get_cookie(REMEMBER) is None
    assert ana.get("/matches/1").status_code == 302  # neither Ana's account nor Bea's table


def test_signing_out_everywhere_empties_this_browsers_session_too(ana: Browser, app: Flask) -> None:
    ana.get("/account")
    ana.post("/account/sign-out-everywhere")
    with ana.client.session_transaction() as session:
        assert set(session) <= {"_remember", "_flashes"}, dict(session)


def test_pages_of_a_signed_in_browser_are_kept_by_no_cache(ana: Browser, app: Flask) -> None:
    from .matchhelpers import start

    start(ana, "tute2", ["Ana", "Luis"])
    made = ana.post("/account", data={"name": "script"})  # the page that shows a new API token, once
    assert made.status_code == 200 and "sk_" in made.get_data(as_text=True)
    assert made.headers["Cache-Control"] == "no-store"
    for page in ("/", "/matches/1", "/matches/1/deal", "/history", "/account", "/players/", "/nights"):
        assert ana.get(page).headers.get("Cache-Control") == "no-store", page
    assert ana.get("/matches/1/state?version=0").headers["Cache-Control"] == "no-store"
    with ana.get("/static/app.css") as stylesheet:  # the app's own files stay in the browser's cache
        assert "no-store" not in stylesheet.headers.get("Cache-Control", "")
    assert "Cache-Control" not in app.test_client().get("/login").headers  # nothing of an account on it
