"""The live view's share links, the installable app's files, and retried requests answered once."""

from __future__ import annotations

import hashlib
import logging
import re
from pathlib import Path
from typing import Any

import pytest
import segno
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.games.web import game_folders
from scorekeeper.models import Deal, Match
from scorekeeper.views import pwa

from ..conftest import Browser, signed_in
from .matchhelpers import bids_form, start, tute_form
from .test_api import TUTE, Api, token_for


def share_link(browser: Browser, match_id: int = 1) -> str:
    """Make the match's share link on the owner's phone; return its secret, read off the scoreboard."""
    browser.post(f"/matches/{match_id}/share")
    page = browser.get(f"/matches/{match_id}").get_data(as_text=True)
    found = re.search(r'class="share-link" href="http://127.0.0.2/live\?preview=[0-9a-f]{32}#([A-Za-z0-9_-]+)"', page)
    assert found, "no share link on the scoreboard"
    return found.group(1)


def live_state(client: FlaskClient, secret: str, version: int | str = "") -> Any:
    """Ask for the live view's scoreboard as its page's script does: the secret in the body, never the address."""
    return client.post("/live/state", data={"secret": secret, "version": str(version)})


def test_a_share_link_shows_the_scoreboard_to_anyone_read_only(ana: Browser, app: Flask) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    ana.post("/matches/1/deal", data=tute_form(70, 0))
    secret = share_link(ana)
    assert len(secret) >= 43  # 256 bits: unguessable
    stranger = app.test_client()
    page = stranger.get("/live").get_data(as_text=True)
    assert 'data-live-url="/live/state"' in page and secret not in page
    answer = live_state(stranger, secret)
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"
    state = answer.get_json()
    assert state["title"] == "Tute (two players)" and state["players"] == "Ana, Luis"
    assert "80" in state["html"] and "Deal by deal" in state["html"]
    assert "/edit" not in state["html"] and 'action="/matches' not in state["html"]


def test_the_share_link_is_kept_only_as_a_hash_and_travels_in_no_address(
    ana: Browser, app: Flask, caplog: pytest.LogCaptureFixture
) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    caplog.set_level(logging.DEBUG)
    secret = share_link(ana)
    with app.app_context():
        match = db.session.get(Match, 1)
        assert match is not None and match.share_key_hash == hashlib.sha256(secret.encode()).hexdigest()
        row = db.session.execute(sa.text("SELECT * FROM matches")).mappings().one()
        assert all(secret not in str(value) for value in row.values())
    stranger = app.test_client()
    assert live_state(stranger, secret).status_code == 200
    # The page's addresses never hold it: only the fragment, which the browser keeps to itself.
    assert "/live/" + secret not in ana.get("/matches/1").get_data(as_text=True)
    assert all(secret not in record.getMessage() for record in caplog.records)


def test_a_link_made_before_links_were_hashed_still_opens_and_is_sent_on_to_the_fragment(
    ana: Browser, app: Flask
) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    old_secret = "o" * 43  # as an earlier version kept it: in clear, now hashed by the upgrade
    with app.app_context():
        db.session.execute(
            sa.update(Match)
            .where(Match.id == 1)
            .values(share_key_hash=hashlib.sha256(old_secret.encode()).hexdigest(), share_salt=None)
        )
        db.session.commit()
    stranger = app.test_client()
    moved = stranger.get(f"/live/{old_secret}")
    assert moved.status_code == 303 and moved.location == f"/live#{old_secret}"
    assert live_state(stranger, old_secret).status_code == 200
    # The owner's scoreboard cannot draw such a link again: it says so and offers a new one.
    page = ana.get("/matches/1").get_data(as_text=True)
    assert "cannot be shown again" in page and "Stop sharing" in page and old_secret not in page


def test_a_live_view_left_open_across_the_upgrade_is_answered_with_a_reload_into_the_page_of_today(
    ana: Browser, app: Flask
) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    secret = share_link(ana)
    stranger = app.test_client()
    # The page of versions before 0.2.0 asks for its link's state by the secret in the path, with the version
    # it shows: whatever the version, its script swaps the answer's `html` into the page, where the
    # refresh sends it on to its link's address, now the page that keeps the secret in the fragment.
    for version in ("1", "0", "", "x"):
        answer = stranger.get(f"/live/{secret}/state", query_string={"version": version})
        assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"
        state = answer.get_json()
        assert isinstance(state["version"], int)
        assert f'<meta http-equiv="refresh" content="0; url=/live#{secret}">' in state["html"]
        assert f'href="/live#{secret}"' in state["html"]  # for a browser that does not follow the refresh
    assert stranger.get(f"/live/{secret}").location == f"/live#{secret}"
    # A link no longer shared is answered 404, which that page says as it always did.
    for wrong in ("x" * 43, "not a key", secret[:-1]):
        assert stranger.get(f"/live/{wrong}/state", query_string={"version": "1"}).status_code == 404
    ana.post("/matches/1/share/revoke")
    assert stranger.get(f"/live/{secret}/state", query_string={"version": "1"}).status_code == 404


def test_the_share_link_comes_with_a_qr_code_of_itself_and_a_button_to_send_it(ana: Browser) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    assert '<svg role="img"' not in ana.get("/matches/1").get_data(as_text=True)  # nothing shared yet
    secret = share_link(ana)
    page = ana.get("/matches/1").get_data(as_text=True)
    shown = re.search(r'class="share-link" href="([^"]+)"', page)
    assert shown is not None and shown.group(1).endswith(f"#{secret}")
    link = shown.group(1)
    found = re.search(
        r'<figure class="qr-box"><svg role="img" viewBox="0 0 (\d+) \1" class="qr">'
        r"<title>QR code of the live view's link[^<]*</title>.*?</svg></figure>",
        page,
    )
    assert found, "no QR code beside the share link"
    # The code holds the whole link: the modules segno draws for exactly that text, and no other.
    expected = segno.make(link, error="m").svg_inline(scale=1, border=4, omitsize=True)
    assert re.findall(r'd="([^"]+)"', expected)[-1] in found.group(0)
    other = segno.make(link + "x", error="m").svg_inline(scale=1, border=4, omitsize=True)
    assert re.findall(r'd="([^"]+)"', other)[-1] not in found.group(0)
    assert f'data-share-url="{link}"' in page and "Send the link" in page


def test_every_phone_of_the_owner_shows_the_share_link_again(ana: Browser, app: Flask) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    secret = share_link(ana)
    other_phone = signed_in(app, "ana")
    assert re.search(rf"/live\?preview=[0-9a-f]{{32}}#{secret}", other_phone.get("/matches/1").get_data(as_text=True))


def test_the_live_state_answers_204_until_the_match_changes(ana: Browser, app: Flask) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    secret = share_link(ana)
    stranger = app.test_client()
    version = live_state(stranger, secret).get_json()["version"]
    assert live_state(stranger, secret, version).status_code == 204
    ana.post("/matches/1/deal", data=tute_form(70, 0))
    changed = live_state(stranger, secret, version)
    assert changed.status_code == 200
    assert changed.get_json()["version"] > int(version) and "80" in changed.get_json()["html"]


def test_the_live_view_works_across_app_processes_sharing_one_database(
    ana: Browser, app: Flask, tmp_path: Path
) -> None:
    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        return  # the PostgreSQL run shares its server the same way; this checks a second app on the file
    start(ana, "tute2", ["Ana", "Luis"])
    secret = share_link(ana)
    other_process = create_app(
        {
            "SECRET_KEY": "other",
            "INSTANCE_PATH": str(tmp_path / "other"),
            "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
        }
    )
    reader = other_process.test_client()
    version = live_state(reader, secret).get_json()["version"]
    ana.post("/matches/1/deal", data=tute_form(70, 0))
    assert live_state(reader, secret, version).status_code == 200
    with other_process.app_context():
        db.engine.dispose()


def test_a_revoked_link_answers_404_and_a_new_one_replaces_it(ana: Browser, app: Flask) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    first = share_link(ana)
    second = share_link(ana)
    stranger = app.test_client()
    assert first != second and live_state(stranger, first).status_code == 404
    ana.post("/matches/1/share/revoke")
    assert live_state(stranger, second).status_code == 404
    assert live_state(stranger, "").status_code == 404


def test_only_the_owner_can_share_or_revoke(ana: Browser, bea: Browser) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    assert bea.post("/matches/1/share").status_code == 404
    secret = share_link(ana)
    assert bea.post("/matches/1/share/revoke").status_code == 404
    assert live_state(bea.client, secret).status_code == 200  # the link itself is for anyone who has it


def game_script_url(app: Flask, part: str) -> str:
    with app.test_request_context():
        return pwa.game_script_url(part)


def test_every_game_s_browser_code_is_one_file_kept_a_year_under_an_address_that_names_it(app: Flask) -> None:
    client = app.test_client()
    address = game_script_url(app, "rules")
    served = client.get(address)  # signed out: it is the same for everyone
    assert served.status_code == 200 and served.mimetype == "text/javascript"
    assert served.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert "Cookie" not in served.headers.get("Vary", "")
    text = served.get_data(as_text=True)
    # each folder's, in the registry's order (a family's own before the games built on it)
    places = [text.index((folder / "static" / "rules.js").read_text()) for folder in game_folders().values()]
    assert places == sorted(places) and len(set(places)) == len(places)
    assert client.get(address, headers={"If-None-Match": served.headers["ETag"]}).status_code == 304
    # asked for by a page from before a change: today's, checked again every time
    old = client.get(address.replace(address.split("/")[3], "0" * 12))
    assert old.get_data(as_text=True) == text and old.headers["Cache-Control"] == "no-cache"
    assert client.get(address.replace("rules.js", "other.js")).status_code == 404


def test_the_manifest_service_worker_and_offline_page_are_served_to_anyone(app: Flask) -> None:
    client = app.test_client()
    manifest = client.get("/manifest.webmanifest")
    assert manifest.mimetype == "application/manifest+json"
    assert {icon["sizes"] for icon in manifest.get_json()["icons"]} >= {"192x192", "512x512"}
    worker = client.get("/sw.js")
    assert worker.status_code == 200 and worker.mimetype == "text/javascript"
    assert worker.headers["Service-Worker-Allowed"] == "/"
    body = worker.get_data(as_text=True)
    assert "__VERSION__" not in body and '"/offline"' in body
    # The shell holds the addresses the pages ask for, named by content, so installing fetches nothing twice.
    page = client.get("/offline").get_data(as_text=True)
    stylesheet = re.search(r'href="(/static/v/[0-9a-f]+/app\.css)"', page)
    assert stylesheet and f'"{stylesheet.group(1)}"' in body
    # and the games' own browser code, which a deal form kept on the phone needs without a connection
    assert re.findall(r'"(/static/games/[0-9a-f]+/(?:rules|form)\.js)"', body) == [
        game_script_url(app, "rules"),
        game_script_url(app, "form"),
    ]
    assert client.get("/offline").status_code == 200
    for icon in manifest.get_json()["icons"]:
        with client.get(icon["src"]) as response:  # a file response: closed when read
            assert response.status_code == 200


def test_a_deal_form_sent_twice_with_one_idempotency_key_is_stored_once(ana: Browser, app: Flask) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    data = {**tute_form(70, 0, number=1), "idempotency_key": "phone-key-1"}
    assert ana.post("/matches/1/deal", data=data).location == "/matches/1"
    again = ana.client.post(
        "/matches/1/deal", data={**data, "csrf_token": ana.token}, headers={"Idempotency-Key": "phone-key-1"}
    )
    assert again.status_code == 302 and again.location == "/matches/1"
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Deal)) == 1


def test_keys_are_kept_a_week_and_the_pages_keep_no_answer_with_them(ana: Browser, app: Flask) -> None:
    from datetime import timedelta

    from scorekeeper.models import IdempotencyKey, utcnow

    start(ana, "tute2", ["Ana", "Luis"], opt_target="9")
    ana.post("/matches/1/deal", data={**tute_form(70, 0, number=1), "idempotency_key": "old"})
    ana.post("/matches/1/deal", data={**tute_form(70, 0, number=2, dealer=1), "idempotency_key": "recent"})
    with app.app_context():
        assert db.session.scalars(db.select(IdempotencyKey.body)).all() == [None, None]
        old = db.session.scalar(db.select(IdempotencyKey).where(IdempotencyKey.key == "old"))
        old.created_at = utcnow() - timedelta(days=8)
        db.session.commit()
    # A deal keeps its key and leaves the others be; the account's next match forgets the old ones.
    ana.post("/matches/1/deal", data={**tute_form(70, 0, number=3), "idempotency_key": "new"})
    with app.app_context():
        assert sorted(db.session.scalars(db.select(IdempotencyKey.key))) == ["new", "old", "recent"]
    start(ana, "tute2", ["Ana", "Luis"])
    with app.app_context():
        assert sorted(db.session.scalars(db.select(IdempotencyKey.key))) == ["new", "recent"]


def test_pocha_bids_sent_twice_are_kept_once(ana: Browser) -> None:
    start(ana, "pocha", ["Ana", "Luis"])
    data = {**bids_form([1, 1], number=1, dealer=0, cards=1), "idempotency_key": "bids-1"}
    assert ana.post("/matches/1/bids", data=data).location == "/matches/1/deal"
    assert ana.post("/matches/1/bids", data=data).location == "/matches/1/deal"


def test_the_api_answers_a_retried_post_with_the_first_answer(app: Flask) -> None:
    api = Api(app.test_client(), token_for(app, "ana"))
    match_id = api.post("/api/v1/matches", TUTE).get_json()["id"]
    deal = {"dealer": 0, "trump": "oros", "points": [70, 50], "last_trick": 0}
    headers = {**api.headers, "Idempotency-Key": "retry-me"}
    first = api.client.post(f"/api/v1/matches/{match_id}/deals", json=deal, headers=headers)
    second = api.client.post(f"/api/v1/matches/{match_id}/deals", json=deal, headers=headers)
    assert first.status_code == second.status_code == 201
    assert first.get_json() == second.get_json()
    assert len(api.get(f"/api/v1/matches/{match_id}").get_json()["match"]["deals"]) == 1
    other = api.post("/api/v1/matches", TUTE).get_json()["id"]
    reused = api.client.post(f"/api/v1/matches/{other}/deals", json=deal, headers=headers)
    assert reused.status_code == 409
    too_long = api.client.post(
        f"/api/v1/matches/{match_id}/deals", json=deal, headers={**api.headers, "Idempotency-Key": "x" * 101}
    )
    assert too_long.status_code == 400


def test_a_retried_deal_the_rules_would_now_refuse_gets_the_first_answer(app: Flask) -> None:
    api = Api(app.test_client(), token_for(app, "ana"))
    match_id = api.post("/api/v1/matches", {**TUTE, "options": {"target": 1}}).get_json()["id"]
    deal = {"dealer": 0, "trump": "oros", "points": [70, 50], "last_trick": 0}
    headers = {**api.headers, "Idempotency-Key": "the-last-deal"}
    first = api.client.post(f"/api/v1/matches/{match_id}/deals", json=deal, headers=headers)
    assert first.status_code == 201 and first.get_json()["result"]["finished"]
    # Sent again, the deal would come after the end of the match; the key says it was stored.
    again = api.client.post(f"/api/v1/matches/{match_id}/deals", json=deal, headers=headers)
    assert again.status_code == 201 and again.get_json() == first.get_json()
    refused = api.client.post(
        f"/api/v1/matches/{match_id}/deals", json=deal, headers={**api.headers, "Idempotency-Key": "a-new-deal"}
    )
    assert refused.status_code == 422


def test_a_form_deal_with_a_key_used_for_another_match_is_refused_and_says_so(ana: Browser, app: Flask) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    start(ana, "tute2", ["Ana", "Luis"])
    assert ana.post("/matches/1/deal", data={**tute_form(70, 0), "idempotency_key": "k1"}).location == "/matches/1"
    response = ana.post("/matches/2/deal", data={**tute_form(60, 0), "idempotency_key": "k1"})
    assert response.status_code == 409
    assert "sent before for another match" in response.get_data(as_text=True)
    assert 'value="60"' in response.get_data(as_text=True)  # what was typed comes back
    with app.app_context():
        assert [m.id for m in db.session.scalars(db.select(Deal)).all() if m.match_id == 2] == []
    assert ana.post("/matches/2/deal", data={**tute_form(60, 0), "idempotency_key": "k2"}).location == "/matches/2"


def test_the_bids_waiting_for_tricks_show_on_the_scoreboard_and_the_live_view(ana: Browser, app: Flask) -> None:
    start(ana, "pocha", ["Ana", "Luis", "Carmen"], opt_schedule="custom", schedule_list="5")
    secret = share_link(ana)
    ana.post("/matches/1/bids", data=bids_form([2, 1, 1], number=1, dealer=0, cards=5))  # Luis, Carmen, then Ana
    # Level at 0 points, all three share the first rank, in seat order, each with their bid before their total.
    pending = re.compile(
        r"Bids\s+points in 1 deal\s+1\s+Ana\s+2\s+0\s+1\s+Luis\s+1\s+0\s+1\s+Carmen\s+1\s+0\s.*"
        r"The bids add up to 4 of 5: 1 trick is left over, so someone will take more than they bid\.",
        re.S,
    )
    for shown in (
        ana.get("/matches/1").get_data(as_text=True),
        live_state(app.test_client(), secret).get_json()["html"],
    ):
        assert pending.search(re.sub(r"<[^>]+>", " ", shown)), shown[:2000]
    ana.post("/matches/1/undo")
    ana.post("/matches/1/bids", data=bids_form([3, 2, 2], number=1, dealer=0, cards=5))
    shown = re.sub(r"<[^>]+>", " ", ana.get("/matches/1").get_data(as_text=True))
    assert "The bids add up to 7 of 5: 2 tricks too many, so someone will fall short." in shown


def test_the_offline_page_leaves_the_session_as_it_is(app: Flask) -> None:
    # The service worker fetches it while the page that installs it may be joining a table: the
    # session it was sent, sent back, undid the join (the phone then met the sign-in page).
    client = app.test_client()
    assert client.get("/join").headers.get("Set-Cookie")
    answer = client.get("/offline")
    assert answer.status_code == 200 and answer.headers.get("Set-Cookie") is None


def test_a_shared_link_previews_the_scoreboard_in_a_chat_app_with_a_card_that_loads(ana: Browser, app: Flask) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    ana.post("/matches/1/deal", data=tute_form(70, 0))
    secret = share_link(ana)
    shown = re.search(
        r'class="share-link" href="http://127.0.0.2(/live\?preview=([0-9a-f]{32}))#',
        ana.get("/matches/1").get_data(as_text=True),
    )
    assert shown is not None
    address, key = shown.groups()
    with app.app_context():
        match = db.session.get(Match, 1)
        assert match is not None and key == match.share_preview and key != match.share_salt
    # A chat app fetches the link as it was pasted: without its fragment, with no session.
    crawler = app.test_client()
    answer = crawler.get(address)
    # It shows the match to whoever holds the link, and stops with the link: no cache keeps it.
    assert answer.headers["Cache-Control"] == "no-store"
    page = answer.get_data(as_text=True)
    image = re.search(r'<meta property="og:image" content="([^"]+)">', page)
    assert image is not None and image.group(1) == f"http://localhost/live/preview/{key}.png"
    assert '<meta property="og:title" content="Tute (two players): Ana, Luis">' in page
    assert (
        '<meta property="og:description" content="After 1 deal. 1. Ana 1 juego (80) · 2. Luis 0 juegos (50)">' in page
    )
    assert secret not in page
    card = crawler.get(f"/live/preview/{key}.png")
    assert card.status_code == 200 and card.mimetype == "image/png" and card.data.startswith(b"\x89PNG")
    assert (
        card.headers["ETag"]
        and crawler.get(f"/live/preview/{key}.png", headers={"If-None-Match": card.headers["ETag"]}).status_code == 304
    )
    # The preview's key opens no live view; a stopped or renewed link previews nothing more.
    assert live_state(crawler, key).status_code == 404
    ana.post("/matches/1/share/revoke")
    assert crawler.get(f"/live/preview/{key}.png").status_code == 404
    assert "og:image" not in crawler.get(address).get_data(as_text=True)
    ana.post("/matches/1/share")
    assert crawler.get(f"/live/preview/{key}.png").status_code == 404
    for wrong in ("0" * 32, "not-a-salt", "A" * 32, "1" * 400):
        assert crawler.get(f"/live/preview/{wrong}.png").status_code == 404
        assert crawler.get(f"/live?preview={wrong}").status_code == 200
        assert crawler.get(f"/live?preview={wrong}").headers["Cache-Control"] == "no-store"
