"""Odd and hostile input answers with a message, never a server error, and never loses or mixes data."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import delete

from scorekeeper import services
from scorekeeper.errors import Conflict
from scorekeeper.extensions import db
from scorekeeper.models import Deal, Match, Seat

from ..conftest import Browser, csrf_token, signed_in
from .matchhelpers import bids_form, start, tricks_form, tute_form
from .test_api import TUTE, Api, token_for
from .test_cli import fresh_app, play_an_evening, run
from .test_hostile import snapshot
from .test_matches import text
from .test_share_and_offline import live_state, share_link


def test_odd_numbers_in_forms_and_urls_are_answered_without_a_server_error(ana: Browser) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    assert ana.post("/matches/1/deal", data=tute_form(70, 0, number="²")).status_code == 409  # type: ignore[arg-type]
    assert ana.post("/matches/1/deal", data=tute_form(70, 0, number="9" * 5000)).status_code == 409  # type: ignore[arg-type]
    assert ana.get("/history?player=%C2%B2").status_code == 200
    assert ana.get("/history?player=99999999999999999999").status_code == 200
    for path in (
        "/matches/99999999999999999999999",
        "/history/99999999999999999999",
        "/players/99999999999999999999/rename",
    ):
        assert ana.get(path).status_code == 404, path
    assert ana.post("/account/tokens/99999999999999999999/revoke").status_code == 404
    assert "No deals yet." in text(ana.get("/matches/1"))


def test_an_edit_without_a_readable_version_is_treated_as_out_of_date(ana: Browser) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    ana.post("/matches/1/deal", data=tute_form(70, 0))
    response = ana.post("/matches/1/deals/1/edit", data={**tute_form(60, 0), "version": "x"})
    assert response.status_code == 409


def test_a_match_read_without_its_seats_answers_404_not_a_server_error(ana: Browser, app: Flask) -> None:
    """On PostgreSQL a match deleted by another phone between the reads of its row and of its
    seats looks like a match without players: the pages must answer as for a deleted match."""
    start(ana, "tute2", ["Ana", "Luis"])
    ana.post("/matches/1/deal", data=tute_form(70, 0))
    secret = share_link(ana)
    with app.app_context():
        db.session.execute(delete(Seat).where(Seat.match_id == 1))  # what that read sees
        db.session.commit()
    api = Api(app.test_client(), token_for(app, "ana"))
    for path in ("/matches/1", "/matches/1/deals/1/edit", "/history/1"):
        assert ana.get(path).status_code == 404, path
    assert api.get("/api/v1/matches/1").status_code == 404
    assert live_state(app.test_client(), secret).status_code == 404


def test_a_long_token_name_gets_a_message(ana: Browser) -> None:
    response = ana.post("/account", data={"name": "x" * 50})
    assert response.status_code == 422 and "Field cannot be longer than 40 characters." in text(response)


def test_a_json_body_nested_too_deep_answers_400(app: Flask) -> None:
    api = Api(app.test_client(), token_for(app, "ana"))
    response = api.client.post(
        "/api/v1/matches", data="[" * 100000 + "]" * 100000, headers={**api.headers, "Content-Type": "application/json"}
    )
    assert response.status_code == 400


def test_unknown_api_paths_answer_json(app: Flask) -> None:
    api = Api(app.test_client(), token_for(app, "ana"))
    response = api.get("/api/v1/nothing")
    assert response.status_code == 404 and response.get_json() == {"message": "There is nothing at this address."}
    assert api.client.patch("/api/v1/matches", headers=api.headers).status_code == 405


def test_names_that_grow_when_case_folded_fit(ana: Browser) -> None:
    assert ana.post("/players/", data={"name": "ß" * 40}).status_code == 302
    assert ana.post("/players/", data={"name": "ß" * 20}).status_code == 302
    assert ana.post("/players/", data={"name": "SS" * 20}).status_code == 422  # the same name, folded


def test_names_are_compared_composed_and_invisible_characters_are_refused(ana: Browser) -> None:
    ana.post("/players/", data={"name": "Jos\u00e9"})
    assert ana.post("/players/", data={"name": "Jose\u0301"}).status_code == 422
    assert ana.post("/players/", data={"name": "Ana\u200b"}).status_code == 422


def test_two_spellings_of_one_name_through_the_api_are_a_duplicate(app: Flask) -> None:
    api = Api(app.test_client(), token_for(app, "ana"))
    response = api.post("/api/v1/matches", {"game": "tute2", "players": ["Ana  María", "ana\u00a0maría"]})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["code"] == "players_duplicate"


def test_an_empty_seat_row_does_not_shift_the_first_dealer(ana: Browser) -> None:
    start(ana, "pocha", ["Ana", "", "Carmen", "Pedro"], first_dealer="2")
    assert "Deal 1: Carmen deals." in text(ana.get("/matches/1"))
    refused = start(ana, "pocha", ["Ana", "", "Carmen"], first_dealer="1")
    assert refused.status_code == 422 and "The dealer must be one of the 2 players at this table." in text(refused)


def test_a_new_match_refused_at_a_player_row_answers_422(ana: Browser) -> None:
    response = start(ana, "tute2", ["Ana", "x" * 41])
    assert response.status_code == 422


@pytest.mark.parametrize("language", ("en", "es"))
def test_an_unreadable_schedule_is_refused_in_words_at_its_field(ana: Browser, language: str) -> None:
    ana.post("/language", data={"language": language, "next": "/"})
    response = start(ana, "pocha", ["Carmen", "Ana"], opt_schedule="custom", schedule_list="x")
    assert response.status_code == 422
    words = {"en": "classic, ladder, or a list of cards per player", "es": "clásico, escalera"}[language]
    at_field = re.search(r'data-errors-for="schedule_list"[^>]*>(.*?)</div>', response.get_data(as_text=True), re.S)
    assert at_field and words in at_field[1]


def test_tricks_for_bids_changed_on_another_phone_are_refused(ana: Browser, app: Flask) -> None:
    start(ana, "pocha", ["Ana", "Luis", "Carmen"], opt_schedule="custom", schedule_list="2")
    ana.post("/matches/1/bids", data=bids_form([0, 0, 0], number=1, dealer=0, cards=2))
    other_phone = signed_in(app, "ana")
    # A correction of the bids that names the version it replaces (the other phone saw them).
    version = re.search(r'data-watch-version="(\d+)"', other_phone.get("/matches/1").get_data(as_text=True))
    assert version
    corrected = other_phone.post(
        "/matches/1/bids", data={**bids_form([0, 1, 0], number=1, dealer=0, cards=2), "version": version[1]}
    )
    assert corrected.status_code == 302
    response = ana.post("/matches/1/deal", data=tricks_form([0, 0, 0], [1, 1, 0], number=1, dealer=0, cards=2))
    assert response.status_code == 409 and "were changed on another phone" in text(response)
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Deal)) == 0


def test_tricks_for_a_deal_entered_on_another_phone_are_refused_with_the_values_kept(ana: Browser) -> None:
    start(ana, "pocha", ["Ana", "Luis"], opt_schedule="custom", schedule_list="2 2")
    ana.post("/matches/1/bids", data=bids_form([1, 0], number=1, dealer=0, cards=2))
    ana.post("/matches/1/deal", data=tricks_form([1, 0], [1, 1], number=1, dealer=0, cards=2))
    late = ana.post("/matches/1/deal", data=tricks_form([1, 0], [2, 0], number=1, dealer=0, cards=2))
    assert late.status_code == 409 and "Deal 1 was just entered" in text(late)
    assert 'name="tricks-0"' in late.get_data(as_text=True) and 'value="2"' in late.get_data(as_text=True)


def test_rematch_waits_for_the_end_and_tute4_asks_who_holds_the_2_of_oros(ana: Browser) -> None:
    start(ana, "tute4", ["Ana", "Luis", "Carmen", "Pedro"], opt_target="1")
    assert ana.post("/matches/1/rematch").location == "/matches/1"
    assert "still being played" in text(ana.get("/matches/1"))
    ana.post("/matches/1/deal", data=tute_form(80, 0, dealer=3))
    assert "Who holds the 2 of oros now?" in text(ana.get("/matches/1"))
    assert ana.post("/matches/1/rematch", data={"leader": "1"}).location == "/matches/2"
    assert "Deal 1: Ana deals." in text(ana.get("/matches/2"))


def test_undo_with_nothing_to_undo_says_so(ana: Browser) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    ana.post("/matches/1/undo")
    assert "There was nothing to undo." in text(ana.get("/matches/1"))


def test_an_export_with_impossible_pending_bids_is_refused(app: Flask, tmp_path: Path) -> None:
    play_an_evening(signed_in(app, "ana"))
    data = json.loads(run(app, "export").output)
    data["accounts"][0]["matches"][2]["pending"] = {"dealer": "zz", "cards": 2, "bids": [0, 0, 0]}
    data["accounts"][0]["players"][0]["archived"] = "yes"
    backup = tmp_path / "pending.json"
    backup.write_text(json.dumps(data))
    other = fresh_app(tmp_path, "other")
    result = run(other, "import", str(backup))
    assert result.exit_code == 1
    assert "account 1, match 3: pending bids, dealer: The dealer must be given as a seat number." in result.output
    assert "account 1, player 1: says neither true nor false for archived." in result.output
    with other.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Match)) == 0


def test_a_token_label_too_long_for_the_cli_gets_a_message(app: Flask) -> None:
    with app.app_context():
        services.create_user("ana", "a long secret")
    result = run(app, "token", "create", "ana", "--label", "x" * 50)
    assert result.exit_code == 1 and "at most 40 characters" in result.output


def test_tute_match_api_body_junk_is_refused_cleanly(app: Flask) -> None:
    api = Api(app.test_client(), token_for(app, "ana"))
    for body in (
        [1, 2],
        "tute2",
        {"game": "tute2", "players": [{"x": 1}, None]},
        {**TUTE, "first_dealer": "x"},
        {**TUTE, "first_dealer": 7},
        {**TUTE, "deals": {"a": 1}},
    ):
        response = api.post("/api/v1/matches", body)
        assert response.status_code == 422, body
        assert all(error["message"] for error in response.get_json()["errors"])


def test_nul_bytes_are_refused_before_they_reach_the_database(ana: Browser, app: Flask) -> None:
    from ..conftest import csrf_token

    client = app.test_client()
    response = client.post("/login", data={"username": "an\x00a", "password": "x", "csrf_token": csrf_token(client)})
    assert response.status_code == 422
    assert app.test_client().get("/live/ab%00cd").status_code == 404
    assert live_state(app.test_client(), "ab\x00cd").status_code == 404
    start(ana, "tute2", ["Ana", "Luis"])
    assert ana.post("/matches/1/deal", data={**tute_form(70, 0), "idempotency_key": "k\x00"}).status_code == 302
    api = Api(app.test_client(), token_for(app, "ana"))
    answer = api.client.post(
        "/api/v1/matches/1/deals",
        json={"dealer": 1, "trump": "oros", "points": [60, 60], "last_trick": 0},
        headers={**api.headers, "Idempotency-Key": "a\x01"},
    )
    assert answer.status_code == 400


def test_half_a_utf16_pair_in_a_name_is_refused_before_it_reaches_the_database(app: Flask) -> None:
    api = Api(app.test_client(), token_for(app, "ana"))
    for names in (["\ud800", "Luis"], ["Ana\udfff", "Luis"]):
        answer = api.client.post(
            "/api/v1/matches",
            data='{"game": "tute2", "players": ["'
            + '", "'.join(name.encode("unicode_escape").decode() for name in names)
            + '"]}',
            headers={**api.headers, "Content-Type": "application/json"},
        )
        assert answer.status_code == 422, answer.get_data(as_text=True)
        assert answer.get_json()["errors"][0]["field"] == "players.0"


def test_an_api_edit_of_a_version_read_before_a_change_is_refused(app: Flask) -> None:
    api = Api(app.test_client(), token_for(app, "ana"))
    deal = {"dealer": 0, "trump": "oros", "points": [70, 50], "last_trick": 0}
    match_id = api.post("/api/v1/matches", {**TUTE, "deals": [deal]}).get_json()["id"]
    read = api.get(f"/api/v1/matches/{match_id}")
    etag = read.headers["ETag"]
    first = api.client.put(
        f"/api/v1/matches/{match_id}/deals/1",
        json={**deal, "points": [60, 60]},
        headers={**api.headers, "If-Match": etag},
    )
    assert first.status_code == 200 and first.headers["ETag"] != etag
    stale = api.client.put(
        f"/api/v1/matches/{match_id}/deals/1",
        json={**deal, "points": [20, 100]},
        headers={**api.headers, "If-Match": etag},
    )
    assert stale.status_code == 412 and "changed since" in stale.get_json()["message"]
    assert api.get(f"/api/v1/matches/{match_id}").get_json()["match"]["deals"][0]["points"] == [60, 60]


def test_templates_hold_no_inline_script_handler_or_style() -> None:
    import re
    from pathlib import Path

    offenders = []
    for template in (Path(__file__).resolve().parents[2] / "templates").rglob("*.html"):
        text = template.read_text()
        scripts = re.findall(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", text)
        if scripts or re.search(r"\son[a-z]+=", text) or re.search(r"\sstyle=", text):
            offenders.append(template.name)
    assert offenders == []


JSON_BODIES = [
    "[1, 2]",
    '"ab"',
    '{"username": 5, "password": 5}',
    "[" * 100000 + "]" * 100000,
    "NaN",
    '{"name": 5}',
    '{"bids-0": 1e9}',
]


def test_json_bodies_posted_to_the_pages_forms_are_refused_and_sign_nobody_in(app: Flask) -> None:
    signed_in(app, "ana")
    client = app.test_client()
    token = csrf_token(client)
    for body in JSON_BODIES:
        response = client.post("/login", data=body, headers={"Content-Type": "application/json", "X-CSRFToken": token})
        assert response.status_code in (400, 415), (body[:20], response.status_code)
    assert client.get("/account").status_code == 302  # still signed out


def test_json_bodies_posted_to_signed_in_forms_are_refused_and_change_nothing(ana: Browser, app: Flask) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    start(ana, "pocha", ["Ana", "Luis"])
    before = snapshot(app)
    for path in (
        "/players/",
        "/players/1/rename",
        "/account",
        "/account/password",
        "/matches/1/deal",
        "/matches/2/bids",
        "/matches/1/deals/1/edit",
        "/matches/new/tute2",
        "/language",
    ):
        for body in JSON_BODIES:
            response = ana.client.post(
                path, data=body, headers={"Content-Type": "application/json", "X-CSRFToken": ana.token}
            )
            assert response.status_code in (400, 415), (path, body[:20], response.status_code)
        raw = ana.client.post(
            path,
            data=b"\xff\xfe\x00junk",
            headers={"Content-Type": "application/octet-stream", "X-CSRFToken": ana.token},
        )
        assert raw.status_code in (400, 415), path
    assert snapshot(app) == before


def test_a_file_posted_to_a_page_s_form_is_refused(ana: Browser, app: Flask) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    before = snapshot(app)
    for path, field in (
        ("/account", "name"),
        ("/players/", "name"),
        ("/matches/1/deal", "points0"),
        ("/login", "username"),
    ):
        response = ana.client.post(
            path,
            data={field: (io.BytesIO(b"x" * 10), "file.txt"), "csrf_token": ana.token},
            content_type="multipart/form-data",
        )
        assert response.status_code == 415, (path, response.status_code)
    assert snapshot(app) == before
    ok = ana.client.post(
        "/players/", data={"name": "Carmen", "csrf_token": ana.token}, content_type="multipart/form-data"
    )
    assert ok.status_code == 302  # a form sent as multipart without a file is read as any other


def test_a_line_break_in_next_sends_home_after_signing_in(ana: Browser, app: Flask) -> None:
    client = app.test_client()
    data = {"username": "ana", "password": "correct horse", "csrf_token": csrf_token(client)}
    for target in ("/%0D%0ALocation:%20http://evil.example", "/%0ASet-Cookie:x=1", "/\\evil.example", "/caf%C3%A9"):
        response = client.post(f"/login?next={target}", data={**data, "csrf_token": csrf_token(client)})
        assert response.status_code == 302 and response.location == "/", target
        client.post("/logout", data={"csrf_token": csrf_token(client)})
    response = ana.post("/language", data={"language": "es", "next": "/\r\nLocation: http://evil.example"})
    assert response.status_code == 302 and response.location == "/"
    assert (
        ana.post("/language", data={"language": "en", "next": "/history?game=pocha"}).location == "/history?game=pocha"
    )


def test_a_retry_whose_match_was_deleted_meanwhile_is_refused_not_a_server_error(ana: Browser, app: Flask) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    with app.app_context():
        match = db.session.get(Match, 1)
        assert match is not None

        def refused_after_another_phone_deleted_the_match(_key: str | None) -> Match:
            with db.engine.begin() as other_phone:
                other_phone.execute(delete(Match).where(Match.id == 1))
            db.session.rollback()  # as the service does when it refuses: the match is expired
            raise Conflict("Deal 1 was just entered, perhaps on another phone.")

        with pytest.raises(Conflict):
            services.once(match, "key-1", refused_after_another_phone_deleted_the_match)
