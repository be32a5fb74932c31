"""Tute for three's own through the pages: its house rules on the new-match form, the third player's
points following the other two, a tie settled by the order of play as the scoreboard says it. What
every game does (the API, refusals, edits, undo, export and import) is tests/app/test_every_game.py's."""

from __future__ import annotations

import html
import re
from typing import Any

from flask import Flask

from ..conftest import Browser
from .matchhelpers import start, tute_form
from .test_api import Api, token_for

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
