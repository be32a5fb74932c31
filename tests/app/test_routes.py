"""Every route either needs an account (or an API token), or is on the reviewed public list; every
account-owned resource answers 404 to another account."""

from __future__ import annotations

import re

from flask import Flask

from scorekeeper.views import PUBLIC_ENDPOINTS
from scorekeeper.views.api import OPEN_ENDPOINTS as OPEN_API_ENDPOINTS
from scorekeeper.views.table import TABLE_ENDPOINTS

from ..conftest import Browser, csrf_token
from .matchhelpers import start, tute_form
from .test_api import token_for

#: Reviewed: what anyone may open without an account, and why.
REVIEWED_PUBLIC = {
    "static": "the app's CSS, JavaScript and icons",
    "auth.login": "signing in",
    "auth.setup": "the first account of a fresh install (closed once one exists)",
    "auth.signup": "a new account, while the host keeps sign-up open",
    "auth.language": "choosing the page language before signing in",
    "share.live": "the live view's page, which holds nothing until its script sends the link's secret",
    "share.state": "the live view's scoreboard, for whoever sends its secret link",
    "share.old_link": "a live view's link made before 0.2 (its secret in the path), sent on to the page",
    "share.old_state": "the poll of a live view's page opened before 0.2, for whoever holds its secret: a reload",
    "cards.preview": "the card of a shared live view, for a chat app's preview of the link (its key shows that alone)",
    "table.join": "the page an entry link opens, which hands its secret over",
    "table.enter": "joining a match's table with an entry link's secret (wrong ones rate-limited)",
    "pwa.manifest": "installing the app",
    "pwa.service_worker": "installing the app",
    "pwa.offline": "the page shown without a connection",
    "pwa.game_script": "the games' browser code (their rules and deal forms' checks), the same for everyone",
}
#: Reviewed: what the API answers without a token, and why.
REVIEWED_OPEN_API = {
    "api.openapi": "the API's description (its OpenAPI document), which holds nothing of any account",
}
SAMPLE_VALUES = {
    "match_id": "1",
    "night_id": "1",
    "player_id": "1",
    "token_id": "1",
    "number": "1",
    "season_id": "1",
    "key": "0" * 32,
    "year": "2026",
    "game_name": "tute2",
    "game": "tute2",
    "token": "not-a-real-share-token",
    "filename": "app.css",
    "digest": "0" * 12,
    "part": "rules",
}


def concrete(rule: str) -> str:
    return re.sub(r"<(?:\w+:)?(\w+)>", lambda m: SAMPLE_VALUES[m.group(1)], rule)


def test_the_public_list_is_the_reviewed_one() -> None:
    assert set(PUBLIC_ENDPOINTS) == set(REVIEWED_PUBLIC)
    assert set(OPEN_API_ENDPOINTS) == set(REVIEWED_OPEN_API)


def test_every_route_needs_an_account_a_token_or_is_reviewed_public(ana: Browser, app: Flask) -> None:
    anonymous = app.test_client()
    token = csrf_token(anonymous)
    checked = 0
    for rule in app.url_map.iter_rules():
        if rule.endpoint in REVIEWED_PUBLIC or rule.endpoint in REVIEWED_OPEN_API:
            continue
        path = concrete(rule.rule)
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            data = {"csrf_token": token} if method == "POST" else None
            response = anonymous.open(path, method=method, data=data)
            checked += 1
            if rule.endpoint.startswith("api."):
                assert response.status_code == 401, (method, path)
            else:
                assert response.status_code == 302 and response.location.startswith("/login"), (method, path)
    assert checked > 30


def test_every_account_owned_resource_answers_404_to_another_account(ana: Browser, bea: Browser, app: Flask) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    ana.post("/matches/1/deal", data=tute_form(70, 0))
    ana.post("/account", data={"name": "mine"})
    intruder_api = token_for(app, "bea")
    owned = [
        rule
        for rule in app.url_map.iter_rules()
        if any(arg in rule.arguments for arg in ("match_id", "player_id", "token_id"))
    ]
    assert len(owned) > 15
    for rule in owned:
        path = concrete(rule.rule)
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            if rule.endpoint.startswith("api."):
                response = bea.client.open(
                    path, method=method, json={"dealer": 0}, headers={"Authorization": f"Bearer {intruder_api}"}
                )
            elif method == "POST":
                response = bea.post(path, data={})
            else:
                response = bea.client.open(path, method=method)
            assert response.status_code == 404, (method, path, response.status_code)
    assert "Ana, Luis" in ana.get("/history").get_data(as_text=True)


def test_a_phone_that_joined_a_table_reaches_that_match_s_table_and_is_a_stranger_everywhere_else(
    ana: Browser, app: Flask
) -> None:
    from .test_table import join, make_link

    start(ana, "tute2", ["Ana", "Luis"])
    start(ana, "tute2", ["Ana", "Carmen"])  # match 2: ana's too, but not joined
    ana.post("/matches/1/deal", data=tute_form(70, 0))
    guest = join(app, make_link(ana, 1))
    stranger = app.test_client()
    stranger_token = csrf_token(stranger)
    reached, walked = set(), 0
    for rule in app.url_map.iter_rules():
        for match_id in ("1", "2") if "match_id" in rule.arguments else ("1",):
            path = re.sub(
                r"<(?:\w+:)?(\w+)>",
                lambda m: match_id if m.group(1) == "match_id" else SAMPLE_VALUES[m.group(1)],
                rule.rule,
            )
            for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
                if rule.endpoint in TABLE_ENDPOINTS and match_id == "1":
                    reached.add(rule.endpoint)
                    continue  # what the phone may do at its own table: the table's tests check it
                if rule.endpoint == "main.home":  # the logo: back to its table (tests/app/test_table.py)
                    assert guest.client.get(path).location == "/matches/1"
                    continue
                walked += 1
                as_guest = guest.client.open(
                    path, method=method, data={"csrf_token": guest.token} if method == "POST" else None
                )
                as_stranger = stranger.open(
                    path, method=method, data={"csrf_token": stranger_token} if method == "POST" else None
                )
                as_guest.close()
                as_stranger.close()
                assert (as_guest.status_code, as_guest.location) == (as_stranger.status_code, as_stranger.location), (
                    method,
                    path,
                )
                if rule.endpoint in TABLE_ENDPOINTS:  # match 2, though the same account's: as to a stranger
                    assert as_guest.status_code == 302 and as_guest.location.startswith("/login"), (method, path)
    assert reached == TABLE_ENDPOINTS and walked > 60
    assert "Ana, Carmen" not in guest.get("/history").get_data(as_text=True)
    assert len(re.findall(r"<tr", ana.get("/matches/1").get_data(as_text=True))) >= 2
