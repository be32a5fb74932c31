"""Entry links: the other phones at the table enter a match's deals, and reach nothing else."""

from __future__ import annotations

import hashlib
import logging
import re
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import Deal, EntryLink, Match, User

from ..conftest import Browser, csrf_token, make_user, signed_in
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


def match_ids(app: Flask) -> list[int]:
    with app.app_context():
        return list(db.session.scalars(sa.select(Match.id).order_by(Match.id)))


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
    assert f'data-share-url="http://127.0.0.2/join#{secret}"' in page


def test_a_joined_phone_enters_corrects_and_undoes_deals_and_each_deal_says_where_it_came_from(
    table: Any, app: Flask
) -> None:
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
    version = re.search(
        r'name="version"[^>]*value="(\d+)"', guest.get("/matches/1/deals/1/edit").get_data(as_text=True)
    )
    assert version
    assert guest.post("/matches/1/deals/1/edit", data={**tute_form(80, 0), "version": version[1]}).status_code == 302
    assert "80" in ana.get("/matches/1").get_data(as_text=True)
    assert guest.post("/matches/1/undo").status_code == 302
    assert deals(app) == [(1, link.id)]


def test_a_joined_phone_enters_pocha_bids_then_tricks(ana: Browser, app: Flask) -> None:
    start(ana, "pocha", ["Ana", "Luis", "Carmen"], opt_schedule="custom", schedule_list="2,2")
    guest = join(app, make_link(ana))
    assert guest.post("/matches/1/bids", data=bids_form([1, 1, 1], number=1, dealer=0, cards=2)).status_code == 302
    assert "The bids add up to 3 of 2: 1 trick too many, so someone will fall short." in ana.get("/matches/1").get_data(
        as_text=True
    )
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
    _ana, guest, _secret = table
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
    assert (
        '<p class="error" role="alert">This match is over: nobody can enter its deals any more.</p>'
        in refused.get_data(as_text=True)
    )


def test_the_scoreboard_asks_for_the_version_to_reload_when_another_phone_changed_it(table: Any) -> None:
    ana, guest, _secret = table
    shown = re.search(r'data-watch-version="(\d+)"', guest.get("/matches/1").get_data(as_text=True))
    assert shown
    assert guest.get(f"/matches/1/state?version={shown[1]}").status_code == 204
    guest.post("/matches/1/deal", data=tute_form(70, 0))
    answer = ana.get(f"/matches/1/state?version={shown[1]}")
    assert answer.status_code == 200 and answer.get_json() == {"version": int(shown[1]) + 1}
    assert f'data-watch-version="{int(shown[1]) + 1}"' in ana.get("/matches/1").get_data(as_text=True)


def test_wrong_links_are_rate_limited_and_a_right_one_always_gets_in(table: Any, app: Flask) -> None:
    _ana, _guest, secret = table
    app.config["ENTRY_LINK_LIMIT_PER_ADDRESS"] = "3 per hour"
    guesser = app.test_client()
    token = csrf_token(guesser)
    for _ in range(5):  # right links do not use up the address's allowance
        assert guesser.post("/join", data={"secret": secret, "csrf_token": token}).status_code == 302
    answers = [guesser.post("/join", data={"secret": f"guess{n}", "csrf_token": token}) for n in range(4)]
    assert [answer.status_code for answer in answers] == [404, 404, 404, 429]
    assert int(answers[-1].headers["Retry-After"]) > 0
    # The guesser's address is used up for wrong links, and only for them: a phone of the table
    # on the same Wi-Fi (one address) still joins with the right link, and so does the guesser.
    table_phone = app.test_client()
    assert table_phone.post("/join", data={"secret": secret, "csrf_token": csrf_token(table_phone)}).status_code == 302
    assert table_phone.get("/matches/1").status_code == 200
    assert guesser.post("/join", data={"secret": secret, "csrf_token": token}).status_code == 302
    assert guesser.post("/join", data={"secret": "guess9", "csrf_token": token}).status_code == 429


def test_the_secret_appears_in_no_address_log_line_or_error_page(
    table: Any, app: Flask, caplog: pytest.LogCaptureFixture
) -> None:
    ana, _guest, secret = table
    caplog.set_level(logging.DEBUG)
    phone = app.test_client()
    page = phone.get("/join").get_data(as_text=True)
    assert secret not in page and "data-join" in page
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
    assert f"/join#{secret}" in page and "QR code of the entry link" in page  # drawn again on any of Ana's phones
    stopped = api.client.delete(f"/api/v1/matches/{match_id}/entry-link", headers=api.headers)
    assert stopped.status_code == 204 and stopped.get_data() == b""
    assert guest.get(f"/matches/{match_id}").status_code == 404
    intruder = Api(app.test_client(), token_for(app, "bea"))
    assert intruder.post(f"/api/v1/matches/{match_id}/entry-link", {}).status_code == 404
    assert intruder.client.delete(f"/api/v1/matches/{match_id}/entry-link", headers=intruder.headers).status_code == 404


def test_another_accounts_phone_that_joined_reaches_the_match_only_through_the_link(
    table: Any, app: Flask, bea: Browser
) -> None:
    _ana, _guest, secret = table
    assert bea.get("/matches/1").status_code == 404
    join(app, secret, bea.client)
    assert bea.get("/matches/1").status_code == 200
    assert bea.post("/matches/1/deal", data=tute_form(70, 0)).status_code == 302
    assert bea.post("/matches/1/abandon").status_code == 404
    assert "Ana, Luis" not in bea.get("/history").get_data(as_text=True)


def test_a_phone_that_joined_a_deleted_match_reaches_nothing_of_the_next_match_made(
    table: Any, app: Flask, bea: Browser
) -> None:
    ana, guest, _secret = table
    guest.post("/matches/1/deal", data=tute_form(70, 0))
    assert ana.post("/matches/1/delete").status_code == 302
    start(bea, "tute2", ["Bea", "Juan"])
    [new_id] = match_ids(app)
    make_link(bea, new_id)
    assert new_id != 1  # SQLite hands the deleted match's id out no more
    for match_id in (1, new_id):
        answer = guest.get(f"/matches/{match_id}")
        assert answer.status_code in (302, 404) and "Bea" not in answer.get_data(as_text=True)
        assert guest.post(f"/matches/{match_id}/deal", data=tute_form(70, 0)).status_code in (302, 404)
        assert guest.post(f"/matches/{match_id}/undo").status_code in (302, 404)
        assert guest.get(f"/matches/{match_id}/state?version=0").status_code in (302, 404)
    assert deals(app) == []  # nothing stored in Bea's match


def _use_ids_again(app: Flask, table: str) -> None:
    """Have the database hand out its lowest ids again, as one restored or rebuilt by hand may."""
    with app.app_context():
        if db.engine.dialect.name == "sqlite":  # (a table without AUTOINCREMENT does so by itself)
            if db.session.execute(sa.text("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'")).first():
                db.session.execute(sa.text("UPDATE sqlite_sequence SET seq = 0 WHERE name = :table"), {"table": table})
        else:
            db.session.execute(sa.text(f"ALTER SEQUENCE {table}_id_seq RESTART WITH 1"))
        db.session.commit()


def test_a_phone_whose_match_and_link_ids_come_back_reaches_nothing(table: Any, app: Flask, bea: Browser) -> None:
    """Ids alone never let a phone in: even where a deleted match's and link's ids are handed out again,
    the phone's session names its link for good (its hash, and the match's account)."""
    ana, guest, _secret = table
    [old_link] = links(app)
    ana.post("/matches/1/delete")
    _use_ids_again(app, "matches")
    _use_ids_again(app, "entry_links")
    start(bea, "tute2", ["Bea", "Juan"])
    make_link(bea, 1)
    assert match_ids(app) == [1] and [link.id for link in links(app)] == [old_link.id]
    assert bea.get("/matches/1").status_code == 200
    answer = guest.get("/matches/1")
    assert answer.status_code == 404 and "Bea" not in answer.get_data(as_text=True)
    assert guest.post("/matches/1/deal", data=tute_form(70, 0)).status_code == 404
    assert guest.post("/matches/1/undo").status_code == 404
    assert guest.get("/matches/1/state?version=0").status_code == 404
    assert deals(app) == []


def test_ids_of_deleted_rows_are_never_handed_out_again(ana: Browser, app: Flask) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    make_link(ana)
    [first_link] = links(app)
    ana.post("/matches/1/delete")
    start(ana, "tute2", ["Ana", "Luis"])
    [second] = match_ids(app)
    make_link(ana, second)
    assert second != 1 and links(app)[-1].id != first_link.id
    zed = make_user(app, "zed")
    with app.app_context():
        spare = services.add_player(db.session.get(User, zed), "Spare").id
        db.session.execute(sa.text("DELETE FROM players WHERE id = :id"), {"id": spare})
        db.session.execute(sa.text("DELETE FROM users WHERE id = :id"), {"id": zed})
        db.session.commit()
    bea = make_user(app, "bea")
    with app.app_context():
        assert bea > zed and services.add_player(db.session.get(User, bea), "Bea").id > spare


def test_the_finishing_deal_sent_again_by_a_joined_phone_is_answered_as_stored(table: Any, app: Flask) -> None:
    _ana, guest, _secret = table
    guest.post("/matches/1/deal", data=tute_form(70, 0))
    finishing = {**tute_form(70, 0, number=2, dealer=1), "idempotency_key": "finishing-deal"}
    assert guest.post("/matches/1/deal", data=finishing).location == "/matches/1"
    # Its answer was lost; the phone's queue sends it again, as the owner's would.
    again = guest.post("/matches/1/deal", data=finishing)
    assert again.status_code == 302 and again.location == "/matches/1"
    assert len(deals(app)) == 2
    # Anything else sent to the finished match is still refused.
    other = guest.post("/matches/1/deal", data={**tute_form(70, 0, number=3), "idempotency_key": "another"})
    assert other.status_code == 409


def test_the_last_pocha_tricks_sent_again_by_a_joined_phone_are_answered_as_stored(ana: Browser, app: Flask) -> None:
    start(ana, "pocha", ["Ana", "Luis", "Carmen"], opt_schedule="custom", schedule_list="2")
    guest = join(app, make_link(ana))
    guest.post("/matches/1/bids", data={**bids_form([1, 1, 1], number=1, dealer=0, cards=2), "idempotency_key": "b"})
    tricks = {**tricks_form([1, 1, 1], [1, 1, 0], number=1, dealer=0, cards=2), "idempotency_key": "t"}
    assert guest.post("/matches/1/deal", data=tricks).status_code == 302
    assert "Winner" in guest.get("/matches/1").get_data(as_text=True)
    assert guest.post("/matches/1/deal", data=tricks).status_code == 302
    assert (
        guest.post(
            "/matches/1/bids", data={**bids_form([1, 1, 1], number=1, dealer=0, cards=2), "idempotency_key": "b"}
        ).status_code
        == 302
    )
    assert len(deals(app)) == 1


def test_no_link_secret_stays_in_the_owners_session_and_every_owner_phone_shows_the_link(
    table: Any, app: Flask
) -> None:
    ana, _guest, secret = table
    with ana.client.session_transaction() as session:
        assert secret not in repr(dict(session))
    other_phone = signed_in(app, "ana")
    assert f"/join#{secret}" in other_phone.get("/matches/1").get_data(as_text=True)
    [link] = links(app)
    assert link.salt and secret not in link.salt and secret not in link.key_hash


def test_a_session_from_before_keeps_no_link_secret(ana: Browser) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    with ana.client.session_transaction() as session:
        session["entry_links_made"] = {"1": "an old secret"}
    ana.get("/matches/1")
    with ana.client.session_transaction() as session:
        assert "entry_links_made" not in session


def test_a_finished_matchs_link_can_be_stopped_from_its_scoreboard(table: Any, app: Flask) -> None:
    ana, guest, _secret = table
    guest.post("/matches/1/deal", data=tute_form(70, 0))
    guest.post("/matches/1/deal", data=tute_form(70, 0, number=2, dealer=1))
    page = ana.get("/matches/1").get_data(as_text=True)
    assert "Winner: Ana" in page and "can read the final scoreboard" in page and "Stop the link" in page
    assert guest.get("/matches/1").status_code == 200
    assert ana.post("/matches/1/entry-link/stop").status_code == 302
    assert guest.get("/matches/1").status_code == 404
    assert "Stop the link" not in ana.get("/matches/1").get_data(as_text=True)


def test_an_undo_that_reopens_a_finished_match_does_not_let_the_table_back_in(table: Any, app: Flask) -> None:
    ana, guest, _secret = table
    guest.post("/matches/1/deal", data=tute_form(70, 0))
    guest.post("/matches/1/deal", data=tute_form(70, 0, number=2, dealer=1))
    assert guest.post("/matches/1/undo").status_code == 409
    assert ana.post("/matches/1/undo").status_code == 302  # the owner reopens the match
    assert "Winner" not in ana.get("/matches/1").get_data(as_text=True)
    assert guest.get("/matches/1").status_code == 404
    assert guest.post("/matches/1/deal", data=tute_form(70, 0, number=2, dealer=1)).status_code == 404
    assert len(deals(app)) == 1
    assert "Make an entry link" in ana.get("/matches/1").get_data(as_text=True)


def test_a_correction_of_the_owners_that_reopens_the_match_stops_the_link_too(table: Any, app: Flask) -> None:
    ana, guest, _secret = table
    guest.post("/matches/1/deal", data=tute_form(70, 0))
    guest.post("/matches/1/deal", data=tute_form(70, 0, number=2, dealer=1))
    version = re.search(r'name="version"[^>]*value="(\d+)"', ana.get("/matches/1/deals/2/edit").get_data(as_text=True))
    assert version
    reopened = ana.post("/matches/1/deals/2/edit", data={**tute_form(30, 0, number=2, dealer=1), "version": version[1]})
    assert reopened.status_code == 302 and "Winner" not in ana.get("/matches/1").get_data(as_text=True)
    assert guest.get("/matches/1").status_code == 404


def test_bids_entered_on_a_second_phone_never_replace_the_first_unseen(ana: Browser, app: Flask) -> None:
    start(ana, "pocha", ["Ana", "Luis", "Carmen"], opt_schedule="custom", schedule_list="2,2")
    guest = join(app, make_link(ana))
    # Both phones open the bids form of deal 1; the table's phone saves first.
    ana_form = ana.get("/matches/1/deal").get_data(as_text=True)
    version = re.search(r'name="version"[^>]*value="(\d+)"', ana_form)
    assert version
    assert guest.post("/matches/1/bids", data=bids_form([0, 0, 1], number=1, dealer=0, cards=2)).status_code == 302
    late = ana.post(
        "/matches/1/bids", data={**bids_form([2, 2, 1], number=1, dealer=0, cards=2), "version": version[1]}
    )
    assert late.status_code == 409
    shown = re.sub(r"\s+", " ", late.get_data(as_text=True))
    assert "The bids of deal 1 are in already, perhaps from another phone: Ana 0, Luis 0, Carmen 1." in shown
    assert 'value="2"' in late.get_data(as_text=True)  # what was typed comes back
    with app.app_context():
        assert db.session.get(Match, 1).pending["bids"] == [0, 0, 1]  # type: ignore[union-attr]
    # A phone that never opened a form (an old page, a script) cannot replace them either.
    assert guest.post("/matches/1/bids", data=bids_form([0, 0, 0], number=1, dealer=0, cards=2)).status_code == 409


def test_a_joined_phone_s_home_is_its_table(table: Any, app: Flask) -> None:
    """The logo (and the app opened from the home screen) leads a phone at the table back to the match it
    joined, the last it joined when several; once the link stops, to the sign-in page."""
    ana, guest, _secret = table
    home = guest.get("/")
    assert home.status_code == 302 and home.location == "/matches/1"
    assert 'class="brand" href="/"' in guest.get("/matches/1").get_data(as_text=True)
    start(ana, "pocha", ["Ana", "Luis", "Carmen"])
    join(app, make_link(ana, 2), guest.client)
    assert guest.get("/").location == "/matches/2"
    ana.post("/matches/2/entry-link/stop")
    assert guest.get("/").location == "/matches/1"
    ana.post("/matches/1/entry-link/stop")
    assert guest.get("/").location.startswith("/login")
    assert app.test_client().get("/").location.startswith("/login")  # a phone that joined nothing
