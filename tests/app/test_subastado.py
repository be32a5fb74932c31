"""Tute subastado's own through the pages and the API: a whole match to 500 with a contract failed and
a deal everyone passed on the way as the scoreboard says them, a table of four, a match of a set
number of deals, refusals at the auction's fields. What every game does (edits, undo, export and
import) is tests/app/test_every_game.py's."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from flask import Flask

from ..conftest import Browser
from .matchhelpers import start
from .test_api import Api, token_for

PLAYERS = ["Ana", "Luis", "Carmen"]


def text(response: Any) -> str:
    page = response.get_data(as_text=True)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def contract(
    declarer: Any,
    bid: Any,
    points: Any,
    last_trick: bool = False,
    *,
    number: int = 1,
    dealer: int = 0,
    trump: str = "copas",
    sung: tuple[str, ...] = (),
) -> dict[str, Any]:
    """The fields of a subastado deal form in which `declarer` won the auction."""
    data: dict[str, Any] = {
        "number": number,
        "dealer": dealer,
        "declarer": str(declarer),
        "bid": bid,
        "trump": trump,
        "points": points,
    }
    if last_trick:
        data["last_trick"] = "y"
    for suit in sung:
        data[f"cante_{suit}"] = "y"
    return data


def passed(*, number: int, dealer: int) -> dict[str, Any]:
    """The fields of a deal everyone passed (the bid keeps the value the form started it at)."""
    return {"number": number, "dealer": dealer, "declarer": "passed", "bid": "60", "points": "", "tute_seat": ""}


def stored_deals(app: Flask, match_id: int) -> list[dict[str, Any]]:
    api = Api(app.test_client(), token_for(app, "ana"))
    deals: list[dict[str, Any]] = api.get(f"/api/v1/matches/{match_id}").get_json()["match"]["deals"]
    return deals


def test_the_new_match_page_offers_subastado_with_its_house_rules_but_not_the_players_count(ana: Browser) -> None:
    assert "Tute subastado" in text(ana.get("/matches/new"))
    page = ana.get("/matches/new/subastado").get_data(as_text=True)
    for rule in ("min_bid", "bid_step", "last_trick_bonus", "made", "failed", "target", "deals", "tute"):
        assert f'name="opt_{rule}"' in page
    assert 'name="opt_players"' not in page
    assert 'name="players-3"' in page  # a fourth seat, optional
    assert start(ana, "subastado", PLAYERS[:2]).status_code == 422


def test_a_table_of_four_sets_the_players_house_rule_from_the_names(ana: Browser, app: Flask) -> None:
    response = start(ana, "subastado", [*PLAYERS, "Pedro"], first_dealer="3")
    assert response.status_code == 302, text(response)
    api = Api(app.test_client(), token_for(app, "ana"))
    assert api.get("/api/v1/matches/1").get_json()["match"]["options"] == {"players": 4}
    board = text(ana.get("/matches/1"))
    assert "Deal 1: Pedro deals." in board and "Ana speaks first in the auction." in board
    saved = ana.post("/matches/1/deal", data=contract(3, 60, 60, dealer=3))
    assert saved.status_code == 302
    assert "Deal 2: Ana deals." in text(ana.get("/matches/1"))


def test_a_whole_subastado_match_to_500_through_the_pages(ana: Browser, app: Flask) -> None:
    assert start(ana, "subastado", PLAYERS).location == "/matches/1"
    board = text(ana.get("/matches/1"))
    assert "Deal 1: Ana deals." in board and "Luis speaks first in the auction." in board
    form = ana.get("/matches/1/deal").get_data(as_text=True)
    assert 'data-live-check="auction"' in form and 'value="passed"' in form
    assert re.search(r'name="bid"[^>]*value="60"', form), "the bid starts at the lowest the auction allows"
    # docs/rules.md's first example: Luis bids 80 in copas, takes 62 card points and the last trick, sings copas
    assert ana.post("/matches/1/deal", data=contract(1, 80, 62, True, sung=("copas",))).status_code == 302
    assert stored_deals(app, 1)[0] == {
        "dealer": 0,
        "declarer": 1,
        "bid": 80,
        "trump": "copas",
        "points": 62,
        "last_trick": True,
        "cantes": [{"seat": 1, "suit": "copas"}],
    }
    board = text(ana.get("/matches/1"))
    assert "points of 500" in board  # the standings say the target
    assert "Luis bid 80 in copas · sang 40 in copas · contract made with 112" in board and "won by Luis" in board
    assert "Deal 2: Luis deals." in board and "Carmen speaks first in the auction." in board
    # everyone passes: nothing scored, the deal moves on
    assert ana.post("/matches/1/deal", data=passed(number=2, dealer=1)).status_code == 302
    assert stored_deals(app, 1)[1] == {"dealer": 1, "passed": True}
    board = text(ana.get("/matches/1"))
    assert "everyone passed" in board and "Deal 3: Carmen deals." in board
    # docs/rules.md's second example: Ana bids 100 in oros and fails with 90
    ana.post("/matches/1/deal", data=contract(0, 100, 70, number=3, dealer=2, trump="oros", sung=("espadas",)))
    board = text(ana.get("/matches/1"))
    assert "Ana bid 100 in oros · sang 20 in espadas · contract failed with 90" in board
    assert "−100" in board or "-100" in board
    dealer = 0
    for number in range(4, 10):
        ana.post("/matches/1/deal", data=contract(1, 100, 120, True, number=number, dealer=dealer))
        dealer = (dealer + 1) % 3
    board = text(ana.get("/matches/1"))
    assert "Winner: Luis" in board and "Enter deal" not in board
    assert ana.post("/matches/1/rematch").location == "/matches/2"
    assert "Tute subastado" in text(ana.get("/players/2"))


def test_a_match_played_for_a_set_number_of_deals_says_so_over_its_points(ana: Browser) -> None:
    start(ana, "subastado", PLAYERS, opt_deals="12")
    board = text(ana.get("/matches/1"))
    assert "points in 12 deals" in board and "points of 500" not in board


def test_a_refused_subastado_deal_says_why_at_each_field_and_keeps_the_values(ana: Browser) -> None:
    start(ana, "subastado", PLAYERS)
    refused = ana.post("/matches/1/deal", data=contract(1, 62, 119, trump=""))
    assert refused.status_code == 422
    page = refused.get_data(as_text=True)
    said = text(refused)
    assert "Bids go up in steps of 5 points: 62 is not one of them." in said
    assert "cannot capture 119 card points" in said
    assert "Choose the trump suit" in said
    assert re.search(r'id="bid-error"[^>]*>\s*<p class="error">Bids go up', page)
    assert re.search(r'id="points-error"[^>]*>\s*<p class="error">A side cannot capture 119', page)
    assert re.search(r'name="bid"[^>]*value="62"', page) and re.search(r'name="points"[^>]*value="119"', page)
    refused = ana.post("/matches/1/deal", data={**contract("", 60, 60), "declarer": ""})
    assert refused.status_code == 422
    assert re.search(
        r'id="declarer-error"[^>]*>\s*<p class="error">Say who won the auction', refused.get_data(as_text=True)
    )
    refused = ana.post("/matches/1/deal", data=contract(1, 55, 60))
    assert "A bid is from 60 to 230 points, not 55." in text(refused)


@pytest.mark.parametrize("blank", [" ", "\t", "\n"])
def test_a_winner_of_the_auction_given_as_spaces_is_refused_at_its_field_on_entry_and_edit(
    ana: Browser, app: Flask, blank: str
) -> None:
    from .test_table import join, make_link

    start(ana, "subastado", PLAYERS)
    phone = join(app, make_link(ana))
    for browser in (ana, phone):  # the owner's phone and a phone that joined the table
        refused = browser.post("/matches/1/deal", data={**contract(1, 60, 60), "declarer": blank})
        assert refused.status_code == 422
        assert re.search(
            r'id="declarer-error"[^>]*>\s*<p class="error">Not a valid choice', refused.get_data(as_text=True)
        )
        assert re.search(r'name="bid"[^>]*value="60"', refused.get_data(as_text=True))  # what was typed stays
    assert ana.post("/matches/1/deal", data=contract(1, 80, 62)).status_code == 302
    for browser in (ana, phone):
        form = browser.get("/matches/1/deals/1/edit").get_data(as_text=True)
        version = re.search(r'name="version"[^>]*value="([^"]*)"', form)
        assert version is not None
        edit = {**contract(1, 80, 62), "declarer": blank, "version": version.group(1)}
        refused = browser.post("/matches/1/deals/1/edit", data=edit)
        assert refused.status_code == 422
        assert re.search(
            r'id="declarer-error"[^>]*>\s*<p class="error">Not a valid choice', refused.get_data(as_text=True)
        )
    assert [deal["declarer"] for deal in stored_deals(app, 1)] == [1]


def test_the_api_refuses_a_table_larger_than_the_players_house_rule(app: Flask) -> None:
    api = Api(app.test_client(), token_for(app, "ana"))
    four = api.post("/api/v1/matches", {"game": "subastado", "players": [*PLAYERS, "Pedro"]})
    assert four.status_code == 422 and four.get_json()["errors"][0]["code"] == "players_count"
    assert api.post("/api/v1/matches", {"game": "subastado", "players": PLAYERS}).status_code == 201
