"""Players: list, add, rename, archive; names unique within an account; other accounts' answer 404."""

from __future__ import annotations

from flask import Flask

from ..conftest import Browser


def test_add_and_list_players(ana: Browser) -> None:
    assert ana.post("/players/", data={"name": "  Luis   García "}).status_code == 302
    page = ana.get("/players/").get_data(as_text=True)
    assert "Luis García" in page


def test_a_name_taken_in_any_case_is_refused_with_the_typed_value_kept(ana: Browser) -> None:
    ana.post("/players/", data={"name": "Luis"})
    response = ana.post("/players/", data={"name": "LUIS"})
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "There is already a player called LUIS." in page
    assert 'value="LUIS"' in page


def test_an_empty_or_overlong_name_is_refused(ana: Browser) -> None:
    assert ana.post("/players/", data={"name": "   "}).status_code == 422
    assert ana.post("/players/", data={"name": "x" * 41}).status_code == 422


def test_rename_a_player(ana: Browser) -> None:
    ana.post("/players/", data={"name": "Luis"})
    ana.post("/players/", data={"name": "Carmen"})
    assert 'value="Luis"' in ana.get("/players/1/rename").get_data(as_text=True)
    assert ana.post("/players/1/rename", data={"rename-name": "Luisito"}).status_code == 302
    assert "Luisito" in ana.get("/players/").get_data(as_text=True)
    clash = ana.post("/players/1/rename", data={"rename-name": "carmen"})
    assert clash.status_code == 422 and "There is already a player called carmen." in clash.get_data(as_text=True)


def test_archive_and_bring_back_a_player(ana: Browser) -> None:
    ana.post("/players/", data={"name": "Luis"})
    ana.post("/players/1/archive")
    assert "(archived)" in ana.get("/players/").get_data(as_text=True)
    assert "Luis" not in ana.get("/matches/new/tute2").get_data(as_text=True).split("known-players")[1]
    ana.post("/players/1/archive")
    assert "(archived)" not in ana.get("/players/").get_data(as_text=True)


def test_the_same_name_may_be_used_in_two_accounts_and_each_sees_only_its_own(ana: Browser, bea: Browser) -> None:
    ana.post("/players/", data={"name": "Luis"})
    assert bea.post("/players/", data={"name": "Luis"}).status_code == 302
    bea.post("/players/", data={"name": "Zoe"})
    assert "Zoe" not in ana.get("/players/").get_data(as_text=True)


def test_another_account_s_player_answers_404(ana: Browser, bea: Browser, app: Flask) -> None:
    ana.post("/players/", data={"name": "Luis"})
    assert bea.get("/players/1/rename").status_code == 404
    assert bea.post("/players/1/rename", data={"rename-name": "Hacked"}).status_code == 404
    assert bea.post("/players/1/archive").status_code == 404
    assert "Luis" in ana.get("/players/").get_data(as_text=True)
