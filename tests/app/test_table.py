"""Entry links: the other phones at the table enter a match's deals, and reach nothing else."""

from __future__ import annotations

import hashlib
import logging
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.models import Deal, EntryLink

from ..conftest import Browser, csrf_token
from .matchhelpers import bids_form, start, tricks_form, tute_form
from .test_api import Api, token_for

SECRET = re.compile(r"/join#([A-Za-z0-9_-]+)")


def make_link(owner: Browser, match_id: int = 1) -> str:
    """Make the match's entry link on the owner's phone; return its secret, read off the scoreboard."""
    response = owner.post(f"/matches/{match_id}/entry-link")
    assert response.status_code == 302 and response.location.endswith(f"/matches/{match_id}#entry-link")
    found = SECRET.search(owner.get(f"/matches/{match_id}").get_data(as_text=True))
    assert found, "the scoreboard shows no entry link"
    return found.group(1)


def join(app: Flask, secret: str, client: FlaskClient | None = None) -> Browser:
    """Open the entry link on a phone signed in to nothing, as the join page's script does."""
    client = client or app.test_client()
    page = client.get("/join").get_data(as_text=True)
    token = re.search(r'name="csrf-token" content="([^"]+)"', page)
    assert token
    response = client.post("/join", data={"secret": secret, "csrf_token": token.group(1)})
    assert response.status_code == 302, response.get_data(as_text=True)
    return Browser(client)


def deals(app: Flask) -> list[tuple[int, int | None]]:
    with app.app_context():
        return [(d.number, d.entry_link_id) for d in db.session.query(Deal).order_by(Deal.match_id, Deal.number)]


def links(app: Flask) -> list[EntryLink]:
    with app.app_context():
        found = db.session.query(EntryLink).order_by(EntryLink.id).all()
        db.session.expunge_all()
        return found


@pytest.fixture
def table(ana: Browser, app: Flask) -> tuple[Browser, Browser, str]:
    """Ana's Tute match with an entry link, and a phone that joined it."""
    start(ana, "tute2", ["Ana", "Luis"], opt_target="2")
    secret = make_link(ana)
    return ana, join(app, secret), secret


def test_the_link_is_a_long_secret_kept_only_as_a_hash_and_drawn_as_a_qr_code(table: Any, app: Flask) -> None:
    ana, _guest, secret = table
    assert len(secret) >= 43  # 32 random bytes: 256 bits
    [link] = links(app)
    assert link.key_hash == hashlib.sha256(secret.encode()).hexdigest() and secret not in link.key_hash
    page = ana.get("/matches/1").get_data(as_text=True)
    assert 'class="qr"' in page and "QR code of the entry link" in page
    assert f'data-share-url="http://localhost/join#{secret}"' in page


def test_a_joined_phone_enters_corrects_and_undoes_deals_and_each_deal_says_where_it_came_from(
        table: Any, app: Flask) -> None:
    ana, guest, _secret = table
    page = guest.get("/matches/1").get_data(as_text=True)
    assert "Enter deal 1" in page and "through the table" in page
    for owner_only in ("Abandon the match", "Delete the match", "Make a share link", "Make an entry link", "☰"):
        assert owner_only not in page
    assert guest.get("/matches/1/deal").status_code == 200
    assert guest.post("/matches/1/deal", data=tute_form(70, 0)).status_code == 302
    assert ana.post("/matches/1/deal", data=tute_form(30, 1, number=2, dealer=1)).status_code == 302
    [link] = links(app)
    assert deals(app) == [(1, link.id), (2, None)]
    version = re.search(r'name="version"[^>]*value="(\d+)"', guest.get("/matches/1/deals/1/edit").get_data(as_text=True))
    assert version
    assert guest.post("/matches/1/deals/1/edit", data={**tute_form(80, 0), "version": version[1]}).status_code == 302
    assert "80" in ana.get("/matches/1").get_data(as_text=True)
    assert guest.post("/matches/1/undo").status_code == 302
    assert deals(app) == [(1, link.id)]


def test_a_joined_phone_enters_pocha_bids_then_tricks(ana: Browser, app: Flask) -> None:
    start(ana, "pocha", ["Ana", "Luis", "Carmen"], opt_schedule="custom", schedule_list="2,2")
    guest = join(app, make_link(ana))
    assert guest.post("/matches/1/bids", data=bids_form([1, 1, 1], number=1, dealer=0, cards=2)).status_code == 302
    assert "The bids are in" in ana.get("/matches/1").get_data(as_text=True)
    response = guest.post("/matches/1/deal", data=tricks_form([1, 1, 1], [1, 1, 0], number=1, dealer=0, cards=2))
    assert response.status_code == 302
    [link] = links(app)
    assert deals(app) == [(1, link.id)]


def test_a_stopped_link_answers_404_at_once_even_to_a_phone_that_joined(table: Any, app: Flask) -> None:
    ana, guest, secret = table
    assert ana.post("/matches/1/entry-link/stop").status_code == 302
    assert guest.get("/matches/1").status_code == 404
    assert guest.post("/matches/1/deal", data=tute_form(70, 0)).status_code == 404
    assert guest.get("/matches/1/state?version=0").status_code == 404
    assert deals(app) == []
    stranger = app.test_client()
    answer = stranger.post("/join", data={"secret": secret, "csrf_token": csrf_token(stranger)})
    assert answer.status_code == 404 and secret not in answer.get_data(as_text=True)
    assert "Make an entry link" in ana.get("/matches/1").get_data(as_text=True)


def test_a_new_link_shuts_out_the_phones_of_the_old_one(table: Any, app: Flask) -> None:
    ana, guest, _secret = table
    newer = make_link(ana)
    assert guest.get("/matches/1").status_code == 404
    assert join(app, newer).get("/matches/1").status_code == 200
    assert [link.stopped_at is not None for link in links(app)] == [True, False]


def test_when_the_match_ends_the_phone_reads_the_scoreboard_and_changes_nothing(table: Any, app: Flask) -> None:
    ana, guest, _secret = table
    guest.post("/matches/1/deal", data=tute_form(70, 0))
    guest.post("/matches/1/deal", data=tute_form(70, 0, number=2, dealer=1))
    page = guest.get("/matches/1").get_data(as_text=True)
    assert "Winner: Ana" in page and "can only be read now" in page
    assert "Enter deal" not in page and "Undo the last deal" not in page and "✎" not in page
    assert guest.post("/matches/1/undo").status_code == 409
    assert guest.post("/matches/1/deal", data=tute_form(70, 0, number=3)).status_code == 409
    assert guest.get("/matches/1/deals/1/edit").status_code == 302
    assert guest.post("/matches/1/deals/1/edit", data={**tute_form(30, 0), "version": "9"}).status_code == 409
    assert len(deals(app)) == 2
    assert "Rematch" not in page or "rematch" not in page.split("can only be read now")[1]


def test_an_abandoned_match_takes_nothing_more_from_the_table(table: Any, app: Flask) -> None:
    ana, guest, _secret = table
    ana.post("/matches/1/abandon")
    assert guest.get("/matches/1").status_code == 200
    assert guest.post("/matches/1/deal", data=tute_form(70, 0)).status_code == 409
    assert deals(app) == []
    refused = ana.post("/matches/1/entry-link")
    assert refused.status_code == 409
    # The page says why, marked as an error as a form's field would be.
    assert '<p class="error" role="alert">This match is over: nobody can enter its deals any more.</p>' \
        in refused.get_data(as_text=True)


def test_the_scoreboard_asks_for_the_version_to_reload_when_another_phone_changed_it(table: Any) -> None:
    ana, guest, _secret = table
    shown = re.search(r'data-watch-version="(\d+)"', guest.get("/matches/1").get_data(as_text=True))
    assert shown
    assert guest.get(f"/matches/1/state?version={shown[1]}").status_code == 204
    guest.post("/matches/1/deal", data=tute_form(70, 0))
    answer = ana.get(f"/matches/1/state?version={shown[1]}")
    assert answer.status_code == 200 and answer.get_json() == {"version": int(shown[1]) + 1}
    assert f'data-watch-version="{int(shown[1]) + 1}"' in ana.get("/matches/1").get_data(as_text=True)


def test_wrong_links_are_rate_limited_and_right_ones_do_not_count(table: Any, app: Flask) -> None:
    _ana, _guest, secret = table
    app.config["ENTRY_LINK_LIMIT_PER_ADDRESS"] = "3 per hour"
    guesser = app.test_client()
    token = csrf_token(guesser)
    for _ in range(5):  # right links do not use up the address's allowance
        assert guesser.post("/join", data={"secret": secret, "csrf_token": token}).status_code == 302
    answers = [guesser.post("/join", data={"secret": f"guess{n}", "csrf_token": token}).status_code
               for n in range(4)]
    assert answers == [404, 404, 404, 429]
    assert guesser.post("/join", data={"secret": secret, "csrf_token": token}).status_code == 429


def test_the_secret_appears_in_no_address_log_line_or_error_page(table: Any, app: Flask,
                                                                caplog: pytest.LogCaptureFixture) -> None:
    ana, _guest, secret = table
    caplog.set_level(logging.DEBUG)
    phone = app.test_client()
    page = phone.get("/join").get_data(as_text=True)
    assert secret not in page and 'data-join' in page
    answer = phone.post("/join", data={"secret": secret, "csrf_token": csrf_token(phone)})
    assert answer.status_code == 302 and secret not in answer.location
    for address in ("/matches/1", "/matches/1/deal", "/matches/2", "/history"):
        assert secret not in phone.get(address).get_data(as_text=True)
    assert secret not in phone.post("/join", data={"secret": secret + "x"}).get_data(as_text=True)  # no CSRF: 400
    assert all(secret not in record.getMessage() for record in caplog.records)
    with phone.session_transaction() as session:
        assert secret not in repr(dict(session))  # the phone keeps the link's id, never its secret
    assert ana.get("/matches/1").headers.get("Referrer-Policy") == "same-origin"


def test_the_api_makes_and_stops_the_entry_link(ana: Browser, app: Flask) -> None:
    api = Api(app.test_client(), token_for(app, "ana"))
    match_id = api.post("/api/v1/matches", {"game": "tute2", "players": ["Ana", "Luis"]}).get_json()["id"]
    answer = api.post(f"/api/v1/matches/{match_id}/entry-link", {})
    assert answer.status_code == 201
    body = answer.get_json()
    assert set(body) == {"url", "qr_svg"} and body["qr_svg"].startswith("<svg")
    secret = body["url"].split("#", 1)[1]
    guest = join(app, secret)
    assert guest.get(f"/matches/{match_id}").status_code == 200
    page = ana.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "made on another phone" in page and secret not in page
    stopped = api.client.delete(f"/api/v1/matches/{match_id}/entry-link", headers=api.headers)
    assert stopped.status_code == 204 and stopped.get_data() == b""
    assert guest.get(f"/matches/{match_id}").status_code == 404
    intruder = Api(app.test_client(), token_for(app, "bea"))
    assert intruder.post(f"/api/v1/matches/{match_id}/entry-link", {}).status_code == 404
    assert intruder.client.delete(f"/api/v1/matches/{match_id}/entry-link",
                                  headers=intruder.headers).status_code == 404


def test_another_accounts_phone_that_joined_reaches_the_match_only_through_the_link(table: Any, app: Flask,
                                                                                     bea: Browser) -> None:
    ana, _guest, secret = table
    assert bea.get("/matches/1").status_code == 404
    join(app, secret, bea.client)
    assert bea.get("/matches/1").status_code == 200
    assert bea.post("/matches/1/deal", data=tute_form(70, 0)).status_code == 302
    assert bea.post("/matches/1/abandon").status_code == 404
    assert "Ana, Luis" not in bea.get("/history").get_data(as_text=True)
