"""A match's note: written and changed at any time by its owner, at most 200 characters, shown in the
history and on its night, found by the history's search, exported and imported, and in the API."""

from __future__ import annotations

import json
import unicodedata

import pytest
import sqlalchemy as sa
from flask import Flask

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import Match
from scorekeeper.reads import transfer

from ..conftest import Browser, signed_in
from .matchhelpers import start, tute_form
from .test_api import TUTE, Api, api  # noqa: F401  (the fixture)
from .test_matches import text


def note_of(app: Flask, match_id: int) -> str | None:
    with app.app_context():
        match = db.session.get(Match, match_id)
        assert match is not None
        return match.note


def test_the_owner_writes_changes_and_clears_a_note_from_the_scoreboard(ana: Browser, app: Flask) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    assert "Add a note" in text(ana.get("/matches/1"))
    answer = ana.post("/matches/1/note", data={"note": "  At   Carmen's,\tthe loser pays  "})
    assert answer.status_code == 302 and answer.headers["Location"].endswith("/matches/1")
    assert note_of(app, 1) == "At Carmen's, the loser pays"  # spaces tidied as in names
    page = text(ana.get("/matches/1"))
    assert "At Carmen's, the loser pays" in page and "Change the note" in page
    ana.post("/matches/1/note", data={"note": "   "})
    assert note_of(app, 1) is None


def test_a_note_is_editable_once_the_match_is_over_or_abandoned_from_its_detail_page(ana: Browser, app: Flask) -> None:
    start(ana, "tute2", ["Ana", "Luis"], opt_target="1")
    ana.post("/matches/1/deal", data=tute_form(80, 0))
    start(ana, "tute2", ["Ana", "Luis"])
    ana.post("/matches/2/abandon")
    for match_id in (1, 2):
        answer = ana.post(f"/matches/{match_id}/note?back=detail", data={"note": "Bar Pepe"})
        assert answer.status_code == 302 and answer.headers["Location"].endswith(f"/history/{match_id}")
        assert note_of(app, match_id) == "Bar Pepe"
        assert "Bar Pepe" in text(ana.get(f"/history/{match_id}"))


def test_a_note_over_200_characters_is_refused_at_the_field_and_comes_back_as_typed(ana: Browser, app: Flask) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    ana.post("/matches/1/note", data={"note": "Kept"})
    typed = "x" * 201
    for back, heading in (("scoreboard", "Live view for the other phones"), ("detail", "Download the deals as CSV")):
        answer = ana.post(f"/matches/1/note?back={back}", data={"note": typed})
        page = answer.get_data(as_text=True)
        assert answer.status_code == 422
        assert "A note has at most 200 characters." in page and f'value="{typed}"' in page and heading in page
        assert 'id="note-error"' in page and '<details class="note-edit" open>' in page
        if back == "scoreboard":  # the rest of the owner's scoreboard comes back with it
            assert "Let the table enter deals" in page and "Abandon the match" in page
    assert note_of(app, 1) == "Kept"
    ana.post("/matches/1/note", data={"note": "y" * 200})
    assert note_of(app, 1) == "y" * 200


def test_control_characters_are_refused_and_another_account_s_match_is_not_found(ana: Browser, app: Flask) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    assert ana.post("/matches/1/note", data={"note": "bad\u200bnote"}).status_code == 422
    bea = signed_in(app, "bea")
    assert bea.post("/matches/1/note", data={"note": "mine"}).status_code == 404
    assert note_of(app, 1) is None


def test_a_note_can_be_written_when_the_match_starts(ana: Browser, app: Flask) -> None:
    with app.app_context():
        user = services.user_named("ana")
        assert user is not None
        match = services.start_match(user, "tute2", ["Ana", "Luis"], {}, 0, note="Casa de Luis")
        assert match.note == "Casa de Luis"


def test_the_history_shows_each_match_s_note_and_searches_them_in_any_case(ana: Browser, app: Flask) -> None:
    notes = ["Bar Pepe, 50% of the pot", "bar pepe again", "At home_2", "Ñandú club"]
    for number, note in enumerate(notes, start=1):
        start(ana, "tute2", ["Ana", "Luis"])
        ana.post(f"/matches/{number}/note", data={"note": note})
    start(ana, "tute2", ["Ana", "Luis"])  # no note
    history = text(ana.get("/history"))
    assert all(note in history for note in notes)

    def found(words: str) -> list[str]:
        page = text(ana.get("/history", query_string={"note": words}))
        return [note for note in notes if note in page]

    assert found("BAR PEPE") == notes[:2]
    assert found("50%") == notes[:1]  # a percent sign is a percent sign, not "anything"
    assert found("%") == notes[:1]
    assert found("e_2") == notes[2:3]  # an underscore is an underscore, not "any one character"
    assert found("_") == notes[2:3]
    assert found("ñANDÚ") == notes[3:]
    assert found("nowhere") == []
    assert "No matches found." in text(ana.get("/history?note=nowhere"))
    assert 'value="BAR PEPE"' in ana.get("/history?note=BAR+PEPE").get_data(as_text=True)
    # No note holds a control character: one typed in the search parts words as a space does (a NUL
    # byte could not even be sent to PostgreSQL to look for).
    assert found("bar\x00pepe") == notes[:2]
    assert found("\x00") == notes and found("\u200bÑandú\x1b") == notes[3:]


def test_a_night_shows_its_first_match_s_note_as_its_place(ana: Browser, app: Flask) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    ana.post("/matches/1/note", data={"note": "Casa de Carmen"})
    start(ana, "tute2", ["Ana", "Luis"])
    ana.post("/matches/2/note", data={"note": "Second table"})
    assert "Casa de Carmen" in text(ana.get("/nights"))
    night = text(ana.get("/nights/1"))
    assert "Casa de Carmen" in night and "Second table" in night


def test_notes_travel_in_the_export_and_back_in(ana: Browser, app: Flask) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    ana.post("/matches/1/note", data={"note": "Bar Pepe"})
    start(ana, "tute2", ["Ana", "Luis"])
    exported = ana.get("/stats/export.json").get_json()
    assert [m["note"] for m in exported["matches"]] == ["Bar Pepe", None]
    with app.app_context():
        file = json.loads(json.dumps(transfer.export_data("ana")))
        for match in file["accounts"][0]["matches"]:
            match["uid"] = "copy" + match["uid"][4:]
        file["accounts"][0]["username"] = "carla"
        services.import_accounts(transfer.read_export(file))
        copies = db.session.scalars(db.select(Match).where(Match.uid.startswith("copy")).order_by(Match.id))
        assert [(m.note, m.note_key) for m in copies] == [("Bar Pepe", "bar pepe"), (None, None)]
        # A note is read back whatever its length was when it was kept (up to 600 characters: see
        # the next test), but no longer.
        file["accounts"][0]["matches"][0]["note"] = "x" * 601
        try:
            transfer.read_export(file)
        except transfer.DamagedFile as damaged:
            assert damaged.problems == ["account 1, match 1: A note has at most 600 characters."]
        else:
            raise AssertionError("an overlong note was read")
        del file["accounts"][0]["matches"][0]["note"]  # a file from before notes were kept
        assert transfer.read_export(file)[0]["matches"][0]["note"] is None


def test_the_api_carries_the_note_and_sets_it(api: Api, app: Flask) -> None:
    created = api.post("/api/v1/matches", {**TUTE, "note": "  Bar   Pepe "})
    assert created.status_code == 201 and created.get_json()["note"] == "Bar Pepe"
    match_id = created.get_json()["id"]
    changed = api.client.patch(f"/api/v1/matches/{match_id}", json={"note": "Casa de Luis"}, headers=api.headers)
    assert changed.status_code == 200 and changed.get_json()["note"] == "Casa de Luis" and changed.headers["ETag"]
    assert api.get(f"/api/v1/matches/{match_id}").get_json()["note"] == "Casa de Luis"
    assert api.get("/api/v1/matches").get_json()[0]["note"] == "Casa de Luis"
    cleared = api.client.patch(f"/api/v1/matches/{match_id}", json={"note": None}, headers=api.headers)
    assert cleared.get_json()["note"] is None
    for wrong, field in (
        ({"note": "x" * 201}, "note"),
        ({"note": 5}, "note"),
        ({"status": "finished"}, "note"),
        ([], "note"),
    ):
        refused = api.client.patch(f"/api/v1/matches/{match_id}", json=wrong, headers=api.headers)
        assert refused.status_code == 422 and refused.get_json()["errors"][0]["field"] == field, wrong
    assert api.post("/api/v1/matches", {**TUTE, "note": "x" * 201}).status_code == 422
    assert api.client.patch("/api/v1/matches/999", json={"note": "x"}, headers=api.headers).status_code == 404


def _deleted_by_another_phone_after(monkeypatch: pytest.MonkeyPatch) -> None:
    """Have another phone delete match 1 once `set_note` has committed, before the answer reads it again."""
    kept = services.set_note

    def then_deleted(match: Match, note: object, expected_version: int | None = None) -> Match:
        noted = kept(match, note, expected_version)
        with db.engine.begin() as connection:
            connection.execute(sa.delete(Match.__table__).where(Match.__table__.c.id == 1))
        return noted

    monkeypatch.setattr(services, "set_note", then_deleted)


def test_a_note_saved_as_another_phone_deletes_the_match_answers_404(
    ana: Browser, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    _deleted_by_another_phone_after(monkeypatch)
    answer = ana.post("/matches/1/note", data={"note": "At Carmen's"})
    assert answer.status_code == 404
    assert "There is nothing at this address." in text(answer)


def test_a_note_patched_as_another_phone_deletes_the_match_answers_404_in_json(
    api: Api, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    match_id = api.post("/api/v1/matches", TUTE).get_json()["id"]
    assert match_id == 1
    _deleted_by_another_phone_after(monkeypatch)
    answer = api.client.patch("/api/v1/matches/1", json={"note": "Casa de Luis"}, headers=api.headers)
    assert answer.status_code == 404
    assert answer.get_json() == {"message": "There is nothing at this address."}


#: A character that composing (NFC) turns into three: 200 of them are 600 characters once stored.
EXPANDING = "\ufb2c"


def test_a_note_is_counted_once_composed_on_every_way_in(ana: Browser, api: Api, app: Flask) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    overlong = EXPANDING * 200
    page = ana.post("/matches/1/note", data={"note": overlong})
    assert page.status_code == 422 and "A note has at most 200 characters." in text(page)
    assert overlong in page.get_data(as_text=True)  # what was typed comes back
    patched = api.client.patch("/api/v1/matches/1", json={"note": overlong}, headers=api.headers)
    assert patched.status_code == 422 and patched.get_json()["errors"][0]["field"] == "note"
    created = api.post("/api/v1/matches", {**TUTE, "note": overlong})
    assert created.status_code == 422 and created.get_json()["errors"][0]["field"] == "note"
    assert note_of(app, 1) is None
    # 66 of them compose to 198 characters: a note that fits is kept, composed.
    assert ana.post("/matches/1/note", data={"note": EXPANDING * 66}).status_code == 302
    assert note_of(app, 1) == unicodedata.normalize("NFC", EXPANDING * 66)


def test_an_export_imports_whatever_note_an_earlier_version_kept(ana: Browser, app: Flask) -> None:
    """Before 0.2 the length was counted before composing: SQLite kept notes of up to 600 characters.
    Their export imports (on PostgreSQL too), and the note comes back whole."""
    start(ana, "tute2", ["Ana", "Luis"])
    kept = unicodedata.normalize("NFC", EXPANDING * 200)
    assert len(kept) == 600
    with app.app_context():
        db.session.execute(sa.update(Match).values(note=kept, note_key=kept.casefold()))
        db.session.commit()
        file = json.loads(json.dumps(transfer.export_data("ana")))
        file["accounts"][0]["username"] = "carla"
        file["accounts"][0]["matches"][0]["uid"] = "copy"
        services.import_accounts(transfer.read_export(file))
        copy = db.session.scalars(db.select(Match).where(Match.uid == "copy")).one()
        assert copy.note == kept


def test_usernames_and_names_are_counted_once_composed(app: Flask, api: Api) -> None:
    with app.app_context():
        with pytest.raises(services.InvalidInput):
            services.create_user(EXPANDING * 20, "a long password")
        composed = services.create_user("jose\u0301", "a long password")  # typed decomposed
        assert composed.username == "jos\u00e9"
        assert services.authenticate("JOSE\u0301", "a long password") is not None
        assert services.authenticate("jos\u00e9", "a long password") is not None
    answer = api.post("/api/v1/matches", {"game": "tute2", "players": [EXPANDING * 14, "Luis"]})
    assert answer.status_code == 422 and "at most 40 characters" in answer.get_json()["errors"][0]["message"]
