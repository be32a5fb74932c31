"""Tute for three through the pages and the API: a whole match, the third player's points following
the other two, a tie settled by the order of play, an edit, an undo, a rematch, export and import."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

from flask import Flask

from ..conftest import Browser, signed_in
from .matchhelpers import start, tute_form
from .test_api import Api, token_for
from .test_cli import fresh_app, run, without_stamp

PLAYERS = ["Ana", "Luis", "Carmen"]


def text(response: Any) -> str:
    page = response.get_data(as_text=True)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def deal(points: tuple[Any, Any, Any], last_trick: Any, **fields: Any) -> dict[str, Any]:
    """The fields of a tute3 deal form: three players' points (the third may be left blank)."""
    return tute_form(points[0], last_trick, points1=points[1], points2=points[2], **fields)


def stored_deals(app: Flask, match_id: int) -> list[dict[str, Any]]:
    """The match's deals as stored, read through the API."""
    api = Api(app.test_client(), token_for(app, "ana"))
    deals: list[dict[str, Any]] = api.get(f"/api/v1/matches/{match_id}").get_json()["match"]["deals"]
    return deals


def test_the_new_match_page_offers_tute_for_three_with_its_house_rules(ana: Browser) -> None:
    assert "Tute for three" in text(ana.get("/matches/new"))
    page = ana.get("/matches/new/tute3").get_data(as_text=True)
    for rule in ("deck", "last_trick_bonus", "mode", "target", "double_over_100", "tute"):
        assert f'name="opt_{rule}"' in page
    assert start(ana, "tute3", PLAYERS[:2]).status_code == 422


def test_a_whole_tute3_match_through_the_pages_ends_with_its_winner_and_a_rematch(ana: Browser, app: Flask) -> None:
    response = start(ana, "tute3", PLAYERS)
    assert response.location == "/matches/1"
    board = text(ana.get("/matches/1"))
    assert "Deal 1: Ana deals." in board
    form = ana.get("/matches/1/deal").get_data(as_text=True)
    for side in range(3):
        assert f'name="points{side}"' in form
    assert form.count('name="last_trick"') == 3 and 'name="cante_oros" value="2"' in form
    # docs/rules.md's first tute3 example, Carmen's points left for the form to fill in (120 - 50 - 40)
    saved = ana.post("/matches/1/deal", data=deal((50, 40, ""), 2, trump="oros", cantes={"oros": 1}))
    assert saved.status_code == 302
    assert stored_deals(app, 1)[0]["points"] == [50, 40, 30]
    board = text(ana.get("/matches/1"))
    assert "Deal 2: Luis deals." in board
    assert "50–40–30" in board and "Luis sang 40 in oros" in board
    # docs/rules.md's second example, dealt by Luis: Ana and Carmen tie on 60, Carmen plays first after Luis
    ana.post("/matches/1/deal", data=deal((60, 0, 60), 1, number=2, dealer=1))
    ana.post("/matches/1/deal", data=deal((20, 30, 70), 2, number=3, dealer=2))
    board = text(ana.get("/matches/1"))
    assert "1 Carmen 2 180 2 Luis 1 120 3 Ana 0 130" in board, board
    assert "Luis dealt Oros · 60–0–60 · last trick: Luis won by Carmen" in board
    ana.post("/matches/1/deal", data=deal((0, 40, 80), 2, number=4, dealer=0))
    board = text(ana.get("/matches/1"))
    assert "Winner: Carmen" in board and "Enter deal" not in board
    assert ana.post("/matches/1/rematch").location == "/matches/2"
    assert "Deal 1: Luis deals." in text(ana.get("/matches/2"))
    player = text(ana.get("/players/3"))
    assert "Tute for three" in player


def test_a_refused_tute3_deal_names_the_field_and_keeps_the_values(ana: Browser) -> None:
    start(ana, "tute3", PLAYERS)
    refused = ana.post("/matches/1/deal", data=deal((50, 40, 40), 0))
    assert refused.status_code == 422
    assert "The card points must add up to 120; these add up to 130." in text(refused)
    refused = ana.post("/matches/1/deal", data=deal((50, "", ""), 0))
    assert refused.status_code == 422 and "Card points must be 3 whole numbers" in text(refused)


def test_edit_and_undo_a_tute3_deal(ana: Browser, app: Flask) -> None:
    start(ana, "tute3", PLAYERS, opt_mode="points", opt_target="500")
    ana.post("/matches/1/deal", data=deal((50, 40, 30), 0))
    ana.post("/matches/1/deal", data=deal((40, 40, 40), 1, number=2, dealer=1))
    form = ana.get("/matches/1/deals/1/edit").get_data(as_text=True)
    assert re.search(r'name="points2"[^>]*value="30"', form)
    version = re.search(r'name="version"[^>]*value="([^"]*)"', form)
    assert version is not None
    edited = ana.post("/matches/1/deals/1/edit", data={**deal((20, 100, ""), 2), "version": version.group(1)})
    assert edited.status_code == 302
    assert stored_deals(app, 1)[0]["points"] == [20, 100, 0]
    assert re.search(r"Luis 150 .*Carmen 50 .*Ana 60", text(ana.get("/matches/1")))
    assert ana.post("/matches/1/undo").status_code == 302
    assert [d["points"] for d in stored_deals(app, 1)] == [[20, 100, 0]]
    assert "Deal 2: Luis deals." in text(ana.get("/matches/1"))


def test_a_tute3_deal_through_the_json_api(app: Flask) -> None:
    api = Api(app.test_client(), token_for(app, "ana"))
    created = api.post("/api/v1/matches", {"game": "tute3", "players": PLAYERS})
    assert created.status_code == 201
    match_id = created.get_json()["id"]
    first = {"number": 1, "dealer": 0, "trump": "oros", "points": [60, 60, 0], "last_trick": 2}
    answer = api.post(f"/api/v1/matches/{match_id}/deals", first)
    assert answer.status_code in (200, 201)
    result = answer.get_json()["result"]
    assert result["deals"][0] == {"number": 1, "scores": [60, 60, 10], "winner": 1, "juegos": [0, 1, 0]}
    assert result["next_dealer"] == 1
    wrong = api.post(f"/api/v1/matches/{match_id}/deals", {**first, "number": 2, "points": [60, 60]})
    assert wrong.status_code == 422 and wrong.get_json()["errors"][0]["code"] == "malformed"


def test_export_then_import_keeps_a_tute3_match_exactly(app: Flask, tmp_path: Path) -> None:
    ana = signed_in(app, "ana")
    start(ana, "tute3", PLAYERS, opt_target="1")
    ana.post("/matches/1/deal", data=deal((50, 40, 30), 2, trump="oros", cantes={"oros": 1}))
    start(ana, "tute3", PLAYERS)
    ana.post("/matches/2/deal", data=deal(("", "", ""), "", tute=(0, "caballos")))
    exported = run(app, "export")
    assert exported.exit_code == 0
    data = json.loads(exported.output)
    assert [m["status"] for m in data["accounts"][0]["matches"]] == ["finished", "playing"]
    backup = tmp_path / "backup.json"
    backup.write_text(exported.output)
    other = fresh_app(tmp_path, "restored")
    assert run(other, "import", str(backup)).exit_code == 0
    assert without_stamp(json.loads(run(other, "export").output)) == without_stamp(data)
