"""The deal form reads as the engine's document, for every game of the registry: deals made at random by
the game's folder (ones that could have been played), each stored and opened on its correction page in
Chromium, are read by the browser (the game's `formDeal`, which checks a deal as it is entered and keeps
it offline) exactly as the server reads the same form when it is sent back, and that deal scores as the
one stored did."""

from __future__ import annotations

import random
from importlib import import_module
from typing import Any

import pytest

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.games.web import web_game
from scorekeeper.models import Deal as StoredDeal
from scorekeeper.registry import FOLDER_OF, GAMES, check_options, get_game, score_match
from scorekeeper.rules import RuleViolation

from .conftest import Phone, Server
from .test_table import SAVE

#: Matches made for each game, and the most deals of each: every deal is opened and sent back.
MATCHES, DEALS = 2, 4

READ = """(cards) => {
  const form = document.querySelector("form.deal-form");
  return Rules.formDeal(rulesOf(form), fieldOf(form), { cards });
}"""
#: Whether the page has its game's rules and deal form's checks (app.js loads them after the page).
READY = """(kind) => typeof Rules !== "undefined" && Rules.kinds[kind] !== undefined
  && typeof DEAL_FORMS !== "undefined" && DEAL_FORMS[kind] !== undefined"""


def random_match(name: str, rnd: random.Random) -> tuple[list[str], dict[str, Any], list[dict[str, Any]]]:
    """Return players, house rules, and deals that could have been played, each checked by the engine after
    the others (up to the one that ends the match), made by the game's folder, under the default house
    rules (with those the table sets from its players)."""
    game = GAMES[name]
    players = [f"P{seat}" for seat in range(rnd.randint(game.min_players, game.max_players))]
    options = web_game(name).options_for_table({}, len(players))
    rules = game.browser_rules(check_options(name, options, len(players)), len(players))
    valid = import_module(f"{FOLDER_OF[name]}.examples").VALID_DEAL
    deals: list[dict[str, Any]] = []
    for number in range(1, DEALS + 1):
        deal = valid(rules, number, rnd)
        try:
            result = score_match({"game": name, "players": players, "options": options, "deals": [*deals, deal]})
        except RuleViolation:
            continue
        deals.append(deal)
        if result["finished"]:
            break
    return players, options, deals


def stored_deal(server: Server, match_id: int, number: int) -> dict[str, Any]:
    with server.app.app_context():
        data = db.session.scalar(
            db.select(StoredDeal.data).where(StoredDeal.match_id == match_id, StoredDeal.number == number)
        )
        db.session.remove()
    assert data is not None
    return dict(data)


def read_and_send_back(phone: Phone, match_id: int, number: int, kind: str, cards: int | None) -> Any:
    """Open a deal's correction page; return the deal the browser reads from its form, then send the form."""
    phone.go(f"/matches/{match_id}/deals/{number}/edit")
    for _ in range(100):
        if phone.page.evaluate(READY, kind):
            break
        phone.page.wait_for_timeout(50)
    read = phone.page.evaluate(READ, cards)
    with phone.page.expect_navigation():
        phone.tap(SAVE)
    assert phone.page.url.endswith(f"/matches/{match_id}"), phone.page.url
    return read


@pytest.mark.parametrize("name", list(GAMES))
def test_the_browser_reads_each_game_s_deal_form_as_the_server_does(phone: Phone, server: Server, name: str) -> None:
    rnd = random.Random(f"form parity {name}")
    kind = get_game(name).form_kind
    read_back = 0
    for _ in range(MATCHES):
        players, options, deals = random_match(name, rnd)
        with server.app.app_context():
            user = services.user_named("ana")
            assert user is not None
            match = services.start_match(user, name, players, options, deals[0]["dealer"] if deals else 0)
            for deal in deals:
                services.add_deal(match, deal)
            match_id = match.id
            db.session.remove()
        for number, deal in enumerate(deals, start=1):
            read = read_and_send_back(phone, match_id, number, kind, deal.get("cards"))
            sent_back = stored_deal(server, match_id, number)
            assert read == sent_back, (name, deal)
            # the form may write a deal its own way (a Tute deal's cantes in the suits' order), never another deal
            document = {"game": name, "players": players, "options": options}
            before = score_match({**document, "deals": deals[:number]})
            after = score_match({**document, "deals": [*deals[: number - 1], sent_back]})
            assert after == before, (name, deal, sent_back)
            read_back += 1
    assert read_back >= MATCHES  # every match gave deals to read
