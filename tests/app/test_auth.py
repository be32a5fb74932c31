"""Accounts: the first account, sign-in and out, sign-up, the sign-in gate, CSRF."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask

from scorekeeper import create_app, services

from ..conftest import CHEAP_PASSWORD_HASH, PASSWORD, Browser, csrf_token, signed_in


def test_a_fresh_install_sends_every_page_to_the_first_account_form(app: Flask) -> None:
    client = app.test_client()
    for path in ("/", "/login", "/history", "/players/", "/matches/new"):
        response = client.get(path)
        assert response.status_code == 302 and response.location == "/setup"
    page = client.get("/setup").get_data(as_text=True)
    assert "Create the first account" in page


def test_passwords_are_hashed_with_scrypt_unless_another_method_is_configured(app: Flask, tmp_path: Path) -> None:
    left_to_defaults = create_app({"SECRET_KEY": "x", "INSTANCE_PATH": str(tmp_path / "defaults")})
    for application, method in ((left_to_defaults, "scrypt:32768:8:1"), (app, CHEAP_PASSWORD_HASH)):
        with application.app_context():
            user = services.create_user("ana", PASSWORD)
            assert user.password_hash.split("$")[0] == method
            assert getattr(services.authenticate("ana", PASSWORD), "id", None) == user.id
            assert services.authenticate("ana", PASSWORD + "!") is None


def test_the_first_account_is_created_signed_in_and_the_setup_page_closes(app: Flask) -> None:
    client = app.test_client()
    token = csrf_token(client)
    response = client.post(
        "/setup", data={"username": "ana", "password": PASSWORD, "confirm": PASSWORD, "csrf_token": token}
    )
    assert response.status_code == 302 and response.location == "/"
    assert client.get("/").status_code == 200
    assert client.get("/setup").location == "/login"


def test_a_bad_first_account_comes_back_with_the_values_and_messages(app: Flask) -> None:
    client = app.test_client()
    token = csrf_token(client)
    response = client.post(
        "/setup", data={"username": "a b", "password": "short", "confirm": "short", "csrf_token": token}
    )
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "A username has 3 to 40 letters" in page
    assert 'value="a b"' in page


def test_sign_in_with_a_wrong_password_says_so_without_telling_which_part(ana: Browser, app: Flask) -> None:
    client = app.test_client()
    token = csrf_token(client)
    response = client.post("/login", data={"username": "ana", "password": "wrong", "csrf_token": token})
    assert response.status_code == 422
    assert "do not match an account" in response.get_data(as_text=True)
    response = client.post("/login", data={"username": "nobody", "password": "wrong", "csrf_token": token})
    assert "do not match an account" in response.get_data(as_text=True)


def test_sign_in_returns_to_the_page_asked_for_but_never_to_another_site(ana: Browser, app: Flask) -> None:
    client = app.test_client()
    assert client.get("/history?game=pocha").location == "/login?next=/history?game%3Dpocha"
    token = csrf_token(client)
    data = {"username": "ana", "password": PASSWORD, "csrf_token": token}
    assert client.post("/login?next=/history", data=data).location == "/history"
    client.post("/logout", data={"csrf_token": csrf_token(client)})
    assert client.post("/login?next=//evil.example/x", data={**data, "csrf_token": csrf_token(client)}).location == "/"


def test_sign_out_ends_the_session(ana: Browser) -> None:
    assert ana.post("/logout").location == "/login"
    assert ana.get("/").status_code == 302


def test_every_page_but_sign_in_and_sign_up_needs_an_account(ana: Browser, app: Flask) -> None:
    client = app.test_client()
    for path in (
        "/",
        "/history",
        "/history/1",
        "/players/",
        "/account",
        "/matches/new",
        "/matches/new/tute2",
        "/matches/1",
        "/matches/1/deal",
        "/matches/1/deals/1/edit",
    ):
        response = client.get(path)
        assert response.status_code == 302 and response.location.startswith("/login"), path
    assert client.get("/login").status_code == 200
    assert client.get("/signup").status_code == 200


def test_sign_up_makes_a_second_account_while_open(ana: Browser, app: Flask) -> None:
    client = app.test_client()
    token = csrf_token(client)
    response = client.post(
        "/signup", data={"username": "bea", "password": PASSWORD, "confirm": PASSWORD, "csrf_token": token}
    )
    assert response.status_code == 302
    token = csrf_token(client)  # signing in gives the browser a new CSRF token
    taken = client.post(
        "/signup", data={"username": "BEA", "password": PASSWORD, "confirm": PASSWORD, "csrf_token": token}
    )
    assert "That username is taken." in taken.get_data(as_text=True)


def test_closing_sign_up_hides_the_page(ana: Browser, app: Flask) -> None:
    app.config["SIGNUP_OPEN"] = False
    client = app.test_client()
    assert client.get("/signup").status_code == 404
    assert "Create an account" not in client.get("/login").get_data(as_text=True)


@pytest.mark.parametrize("path", ["/login", "/players/", "/logout", "/matches/new/tute2", "/matches/1/deal"])
def test_a_form_posted_without_its_csrf_token_is_refused(ana: Browser, path: str) -> None:
    response = ana.client.post(path, data={"name": "Luis", "username": "ana", "password": PASSWORD})
    assert response.status_code == 400
    assert "CSRF" in response.get_data(as_text=True)


def test_api_tokens_are_made_on_the_account_page_shown_once_and_revocable(ana: Browser, app: Flask) -> None:
    page = ana.post("/account", data={"name": "my script"}).get_data(as_text=True)
    assert "shown only this once" in page and "my script" in page
    token = page.split('<code class="token">')[1].split("<")[0]
    assert app.test_client().get("/api/v1/matches", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    assert token not in ana.get("/account").get_data(as_text=True)
    from scorekeeper.models import ApiToken

    with app.app_context():
        from scorekeeper.extensions import db

        stored = db.session.scalars(db.select(ApiToken)).one()
        assert stored.token_hash != token and token not in stored.token_hash
        token_id = stored.id
    ana.post(f"/account/tokens/{token_id}/revoke")
    assert app.test_client().get("/api/v1/matches", headers={"Authorization": f"Bearer {token}"}).status_code == 401


def test_another_account_cannot_revoke_my_token(ana: Browser, app: Flask) -> None:
    ana.post("/account", data={"name": "mine"})
    bea = signed_in(app, "bea")
    assert bea.post("/account/tokens/1/revoke").status_code == 404


def test_every_response_carries_the_security_headers(ana: Browser, app: Flask) -> None:
    for response in (ana.get("/"), app.test_client().get("/login"), app.test_client().get("/api/v1/matches")):
        policy = response.headers["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy and "unsafe-inline" not in policy
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Referrer-Policy"] == "same-origin"


def test_the_session_cookie_is_http_only_and_same_site_lax(app: Flask) -> None:
    signed_in(app, "ana")
    client = app.test_client()
    response = client.get("/login")
    cookie = response.headers.get("Set-Cookie", "")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    app.config["SESSION_COOKIE_SECURE"] = True
    assert "Secure" in app.test_client().get("/login").headers.get("Set-Cookie", "")
