"""Matches through the HTML pages: starting, the scoreboard, deal entry, edits, undo, abandon, history."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask

from scorekeeper.extensions import db
from scorekeeper.models import Match
from scorekeeper.reads import queries
from scorekeeper.reads import table as table_reads

from ..conftest import Browser
from .matchhelpers import bids_form, start, tricks_form, tute_form
from .sql import statements_sent


def text(response: object) -> str:
    """Return a page's text with tags and repeated spaces removed."""
    page = response.get_data(as_text=True)  # type: ignore[attr-defined]
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def checked_value(page: str, name: str) -> str | None:
    """Return the value of the checked radio button called `name`."""
    found = re.search(rf'<input type="radio" name="{re.escape(name)}" value="([^"]*)"[^>]* checked>', page)
    return found.group(1) if found else None


def field_value(page: str, name: str) -> str | None:
    found = re.search(rf'<input[^>]*name="{re.escape(name)}"[^>]*value="([^"]*)"', page)
    return found.group(1) if found else None


# ---------------------------------------------------------------- starting a match


@pytest.mark.parametrize("game", ["tute2", "tute3", "tute4", "pocha"])
def test_the_new_match_form_lists_every_house_rule_with_its_explanation(ana: Browser, game: str) -> None:
    page = ana.get(f"/matches/new/{game}").get_data(as_text=True)
    from scorekeeper.registry import get_game

    for spec in get_game(game).option_specs:
        assert f'name="opt_{spec.name}"' in page
        assert spec.description.replace("'", "&#39;") in page
    assert "<details" in page  # folded away under their defaults


def test_choose_game_offers_the_three_games(ana: Browser) -> None:
    page = text(ana.get("/matches/new"))
    assert "Tute (two players)" in page and "Tute in pairs" in page and "Pocha" in page


def test_start_a_tute2_match_with_new_players_and_see_who_deals(ana: Browser) -> None:
    response = start(ana, "tute2", ["Ana", "Luis"], first_dealer="1")
    assert response.status_code == 302 and response.location == "/matches/1"
    page = text(ana.get("/matches/1"))
    assert "Deal 1: Luis deals." in page
    assert "Ana" in text(ana.get("/players/")) and "Luis" in text(ana.get("/players/"))


def test_known_players_are_picked_by_name_whatever_the_case(ana: Browser, app: Flask) -> None:
    ana.post("/players/", data={"name": "Luis"})
    start(ana, "tute2", ["Ana", "luis"])
    players = text(ana.get("/players/"))
    assert players.count("Rename") == 2 and "luis" not in players


def test_tute4_first_dealer_follows_the_holder_of_the_2_of_oros(ana: Browser) -> None:
    start(ana, "tute4", ["Ana", "Luis", "Carmen", "Pedro"], leader="2")
    page = text(ana.get("/matches/1"))
    assert "Deal 1: Luis deals." in page  # Carmen (seat 3) leads, so the seat before her deals
    assert "Ana & Carmen" in page and "Luis & Pedro" in page


def test_pocha_scoreboard_shows_cards_and_who_bids_first(ana: Browser) -> None:
    start(ana, "pocha", ["Ana", "Luis", "Carmen"], first_dealer="2")
    page = text(ana.get("/matches/1"))
    assert "Deal 1: Carmen deals." in page
    assert "1 card each; Ana bids first." in page


def test_a_rejected_new_match_keeps_every_value_and_marks_the_fields(ana: Browser) -> None:
    response = start(
        ana,
        "pocha",
        ["Ana", "Luis", "ana"],
        opt_last_trick_bonus=None,
        opt_exact_base="500",
        opt_schedule="custom",
        schedule_list="3 30",
    )
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "ana is already at this table." in page
    assert "House rule &#39;Exact-bid bonus&#39; must be a whole number from 0 to 100." in page
    assert field_value(page, "players-2") == "ana"
    assert field_value(page, "opt_exact_base") == "500"
    assert field_value(page, "schedule_list") == "3 30"
    assert "<details open" in page


def test_too_few_players_is_refused(ana: Browser) -> None:
    response = start(ana, "tute4", ["Ana", "Luis", "Carmen"])
    assert response.status_code == 422
    assert "is played by 4 players, not 3" in text(response)


def test_a_custom_pocha_schedule_and_house_rules_are_kept(ana: Browser, app: Flask) -> None:
    start(ana, "pocha", ["Ana", "Luis"], opt_schedule="custom", schedule_list="5, 5 5", opt_oros_double="y")
    from scorekeeper.extensions import db
    from scorekeeper.models import Match

    with app.app_context():
        match = db.session.get(Match, 1)
        assert match.options == {"schedule": [5, 5, 5], "oros_double": True}
    assert "5 cards each" in text(ana.get("/matches/1"))


# ---------------------------------------------------------------- Tute deals


def test_enter_a_tute_deal_with_cantes_and_see_the_scores(ana: Browser) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    response = ana.post("/matches/1/deal", data=tute_form(78, 0, trump="copas", cantes={"oros": 0, "copas": 1}))
    assert response.status_code == 302
    page = text(ana.get("/matches/1"))
    assert "108" in page and "82" in page
    assert "Ana sang 20 in oros" in page and "Luis sang 40 in copas" in page
    assert "Deal 2: Luis deals." in page


def test_the_other_side_gets_120_minus_the_typed_points(ana: Browser, app: Flask) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    ana.post("/matches/1/deal", data=tute_form("", 1, points1="45"))
    from scorekeeper.extensions import db
    from scorekeeper.models import Deal

    with app.app_context():
        assert db.session.scalars(db.select(Deal)).one().data["points"] == [75, 45]


def test_a_wrong_tute_deal_comes_back_with_every_value_and_a_message_at_the_field(ana: Browser) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    response = ana.post("/matches/1/deal", data=tute_form(70, 0, points1="60", trump="bastos", cantes={"espadas": 1}))
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "The card points must add up to 120; these add up to 130." in page
    assert field_value(page, "points0") == "70" and field_value(page, "points1") == "60"
    assert re.search(r'value="bastos"[^>]*checked|checked[^>]*value="bastos"', page)
    assert checked_value(page, "cante_espadas") == "1"
    assert "No deals yet." in text(ana.get("/matches/1"))


def test_missing_trump_and_last_trick_are_named_at_their_fields(ana: Browser) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    data = tute_form(70, "")
    del data["trump"]
    page = text(ana.post("/matches/1/deal", data=data))
    assert "Choose the trump suit" in page and "Say which side took the last trick." in page


def test_text_in_a_number_field_is_refused_and_kept(ana: Browser) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    response = ana.post("/matches/1/deal", data=tute_form("seventy", 0))
    assert response.status_code == 422
    assert field_value(response.get_data(as_text=True), "points0") == "seventy"


def test_a_tute_declaration_wins_the_deal(ana: Browser) -> None:
    start(ana, "tute4", ["Ana", "Luis", "Carmen", "Pedro"])
    response = ana.post("/matches/1/deal", data=tute_form("", "", tute=(3, "reyes")))
    assert response.status_code == 302
    page = text(ana.get("/matches/1"))
    assert "Pedro: tute of Reyes" in page and "won by Luis & Pedro" in page


def test_a_deal_posted_twice_from_two_phones_is_stored_once(ana: Browser, app: Flask) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    assert ana.post("/matches/1/deal", data=tute_form(70, 0, number=1)).status_code == 302
    second = ana.post("/matches/1/deal", data=tute_form(60, 1, number=1))
    assert second.status_code == 409
    assert "Deal 1 was just entered" in text(second)
    from scorekeeper.extensions import db
    from scorekeeper.models import Deal

    with app.app_context():
        assert len(db.session.scalars(db.select(Deal)).all()) == 1


def test_a_whole_tute2_match_ends_with_the_winner_and_a_rematch(ana: Browser) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    for number in (1, 2, 3):
        ana.post("/matches/1/deal", data=tute_form(80, 0, number=number, dealer=(number - 1) % 2))
    page = text(ana.get("/matches/1"))
    assert "Winner: Ana" in page
    assert "Enter deal" not in page
    assert ana.get("/matches/1/deal").location == "/matches/1"
    late = ana.post("/matches/1/deal", data=tute_form(80, 0, number=4))
    assert late.status_code == 422 and "no deal can be added" in text(late)
    rematch = ana.post("/matches/1/rematch")
    assert rematch.location == "/matches/2"
    assert "Deal 1: Luis deals." in text(ana.get("/matches/2"))


# ---------------------------------------------------------------- Pocha deals


def test_pocha_bids_then_tricks(ana: Browser) -> None:
    start(ana, "pocha", ["Ana", "Luis", "Carmen", "Pedro"], opt_schedule="custom", schedule_list="5", first_dealer="3")
    page = text(ana.get("/matches/1/deal"))
    assert "Deal 1: bids" in page and "may not make the bids add up to 5" in page
    saved = ana.post("/matches/1/bids", data=bids_form([2, 0, 1, 1], number=1, dealer=3, cards=5))
    assert saved.status_code == 302 and saved.location == "/matches/1/deal"
    page = text(ana.get("/matches/1/deal"))
    assert "Deal 1: tricks" in page and "bid 2" in page
    done = ana.post("/matches/1/deal", data=tricks_form([2, 0, 1, 1], [2, 1, 1, 1], number=1, dealer=3, cards=5))
    assert done.status_code == 302
    board = text(ana.get("/matches/1"))
    # the score sheet's row: each player's bid/tricks over their total (one deal: its score)
    assert "1 5 – 2/2 20 0/1 -5 1/1 15 1/1 15" in board
    assert "Winner: Ana" in board


def test_the_dealer_s_forbidden_bid_is_refused_at_the_dealer_s_bid(ana: Browser) -> None:
    start(ana, "pocha", ["Ana", "Luis", "Carmen", "Pedro"], opt_schedule="custom", schedule_list="5", first_dealer="3")
    response = ana.post("/matches/1/bids", data=bids_form([2, 0, 1, 2], number=1, dealer=3, cards=5))
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "Pedro deals and bids last, and may not bid 2" in page
    assert checked_value(page, "bids-3") == "2" and checked_value(page, "bids-0") == "2"
    assert 'id="bids-3-error"' in page


def test_tricks_that_do_not_add_up_are_refused_and_the_bids_stay(ana: Browser) -> None:
    start(ana, "pocha", ["Ana", "Luis"], opt_schedule="custom", schedule_list="3")
    ana.post("/matches/1/bids", data=bids_form([1, 1], number=1, dealer=0, cards=3))
    response = ana.post("/matches/1/deal", data=tricks_form([1, 1], [1, 1], number=1, dealer=0, cards=3))
    assert response.status_code == 422
    assert "The tricks must add up to the 3 cards in hand; these add up to 2." in text(response)
    assert "Deal 1: tricks" in text(ana.get("/matches/1/deal"))


def test_tricks_cannot_come_before_bids(ana: Browser) -> None:
    start(ana, "pocha", ["Ana", "Luis"])
    response = ana.post("/matches/1/deal", data=tricks_form([0, 0], [1, 0], number=1, dealer=0, cards=1))
    assert response.status_code == 409 and "The bids of deal 1 are not in" in text(response)


def test_undo_removes_pending_bids_first_then_the_last_deal(ana: Browser) -> None:
    start(ana, "pocha", ["Ana", "Luis"])
    ana.post("/matches/1/bids", data=bids_form([1, 1], number=1, dealer=0, cards=1))
    ana.post("/matches/1/deal", data=tricks_form([1, 1], [1, 0], number=1, dealer=0, cards=1))
    ana.post("/matches/1/bids", data=bids_form([0, 0], number=2, dealer=1, cards=1))
    ana.post("/matches/1/undo")
    page = text(ana.get("/matches/1"))
    assert "Enter the bids" in page and "1/1 15" in page  # deal 1 stays: Ana's bid/tricks over her total
    ana.post("/matches/1/undo")
    assert "No deals yet." in text(ana.get("/matches/1"))


# ---------------------------------------------------------------- editing, abandoning, history


def edit(browser: Browser, match_id: int, number: int, data: dict[str, object]) -> object:
    """Open deal `number`'s edit form, as a player would, and post `data` with its version."""
    version = field_value(browser.get(f"/matches/{match_id}/deals/{number}/edit").get_data(as_text=True), "version")
    return browser.post(f"/matches/{match_id}/deals/{number}/edit", data={**data, "version": version})


def test_edit_an_old_deal_and_the_totals_follow(ana: Browser) -> None:
    start(ana, "tute2", ["Ana", "Luis"], opt_mode="points", opt_target="500")
    ana.post("/matches/1/deal", data=tute_form(70, 0, number=1))
    ana.post("/matches/1/deal", data=tute_form(70, 0, number=2, dealer=1))
    form = ana.get("/matches/1/deals/1/edit").get_data(as_text=True)
    assert field_value(form, "points0") == "70"
    version = field_value(form, "version")
    data = tute_form(20, 1, number=1, points1="100")
    response = ana.post("/matches/1/deals/1/edit", data={**data, "version": version})
    assert response.status_code == 302
    page = text(ana.get("/matches/1"))
    assert re.search(r"points of 500 1 Luis 160 2 Ana 100 ", page), page


def test_a_wrong_edit_is_refused_at_its_field_and_nothing_changes(ana: Browser) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    ana.post("/matches/1/deal", data=tute_form(80, 0, number=1))
    response = edit(ana, 1, 1, tute_form(200, 0, number=1))
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert page.count("cannot capture 200") == 1 and "A side cannot capture 200 card points" in page
    assert field_value(page, "points0") == "200"
    assert "80–40" in text(ana.get("/matches/1"))


def test_editing_an_early_deal_refused_because_of_a_later_one_names_that_deal(ana: Browser) -> None:
    start(ana, "tute2", ["Ana", "Luis"], opt_target="2")
    ana.post("/matches/1/deal", data=tute_form(80, 0, number=1))
    ana.post("/matches/1/deal", data=tute_form(20, 1, number=2, dealer=1))
    ana.post("/matches/1/deal", data=tute_form(80, 0, number=3))
    assert "Winner: Ana" in text(ana.get("/matches/1"))
    # If deal 2 had been Ana's too, the match would have ended there and deal 3 could not exist.
    response = edit(ana, 1, 2, tute_form(80, 0, number=2, dealer=1))
    assert response.status_code == 422
    assert "Deal 3: The match ended with deal 2; no deal can be added." in text(response)
    page = text(ana.get("/matches/1"))
    assert "20–100" in page


def test_an_edit_from_a_stale_page_is_refused(ana: Browser) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    ana.post("/matches/1/deal", data=tute_form(70, 0, number=1))
    version = field_value(ana.get("/matches/1/deals/1/edit").get_data(as_text=True), "version")
    ana.post("/matches/1/deal", data=tute_form(70, 0, number=2, dealer=1))
    response = ana.post("/matches/1/deals/1/edit", data={**tute_form(60, 0, number=1), "version": version})
    assert response.status_code == 409
    assert "changed since the page was opened" in text(response)


@pytest.mark.parametrize("change", ["deal", "edit"])
def test_a_change_refused_because_another_phone_deleted_the_match_meanwhile_answers_404(
    app: Flask, ana: Browser, monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    from scorekeeper import services
    from scorekeeper.extensions import db
    from scorekeeper.services.base import atomic

    start(ana, "tute2", ["Ana", "Luis"])
    ana.post("/matches/1/deal", data=tute_form(70, 0, number=1))
    version = field_value(ana.get("/matches/1/deals/1/edit").get_data(as_text=True), "version")

    @atomic
    def deleted_meanwhile(*_args: object, **_kwargs: object) -> None:
        # Another phone deletes the match between this request's reading and its writing, so the
        # write finds no row to update: refused as a conflict, after the rollback that expires the match.
        with db.engine.begin() as connection:
            connection.execute(sa.delete(Match.__table__).where(Match.__table__.c.id == 1))
        raise services.Conflict("Someone else changed this at the same moment.")

    monkeypatch.setattr(services, "add_deal" if change == "deal" else "replace_deal", deleted_meanwhile)
    if change == "deal":
        response = ana.post("/matches/1/deal", data=tute_form(70, 0, number=2, dealer=1))
    else:
        response = ana.post("/matches/1/deals/1/edit", data={**tute_form(60, 0, number=1), "version": version})
    assert response.status_code == 404
    assert "There is no such match." in text(response)


def test_edit_a_pocha_deal(ana: Browser) -> None:
    start(ana, "pocha", ["Ana", "Luis"], opt_schedule="custom", schedule_list="3 3")
    ana.post("/matches/1/bids", data=bids_form([1, 1], number=1, dealer=0, cards=3))
    ana.post("/matches/1/deal", data=tricks_form([1, 1], [1, 2], number=1, dealer=0, cards=3))
    form = ana.get("/matches/1/deals/1/edit").get_data(as_text=True)
    assert checked_value(form, "tricks-1") == "2"
    response = edit(ana, 1, 1, tricks_form([2, 2], [1, 2], number=1, dealer=0, cards=3))
    assert response.status_code == 302
    page = text(ana.get("/matches/1"))
    assert "2/1 -5" in page and "2/2 20" in page  # the sheet: bid/tricks over each running total


def test_abandon_keeps_the_deals_and_has_no_winner(ana: Browser) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    ana.post("/matches/1/deal", data=tute_form(70, 0, number=1))
    ana.post("/matches/1/abandon")
    page = text(ana.get("/matches/1"))
    assert "abandoned after 1 deal." in page and "Winner" not in page
    assert ana.post("/matches/1/deal", data=tute_form(70, 0, number=2)).status_code == 422


def test_history_lists_newest_first_and_filters(ana: Browser) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    start(ana, "pocha", ["Ana", "Carmen"])
    start(ana, "tute2", ["Pedro", "Luis"])
    ana.post("/matches/3/abandon")
    page = text(ana.get("/history"))
    assert page.index("Pedro, Luis") < page.index("Ana, Carmen") < page.index("Ana, Luis")
    assert "Ana, Carmen" not in text(ana.get("/history?game=tute2"))
    carmen = text(ana.get("/history?player=3"))
    assert "Ana, Carmen" in carmen and "Ana, Luis" not in carmen
    abandoned = text(ana.get("/history?status=abandoned"))
    assert "Pedro, Luis" in abandoned and "Ana, Luis" not in abandoned


def test_history_shows_a_page_at_a_time_and_keeps_the_filters(ana: Browser, app: Flask) -> None:
    from scorekeeper import services

    with app.app_context():
        user = services.user_named("ana")
        for number in range(1, 30):
            players = ["Ana", "Luis"] if number % 2 else ["Carmen", "Pedro"]
            services.start_match(user, "tute2", players, {}, 0)
    first = ana.get("/history").get_data(as_text=True)
    assert first.count('class="card"') == 25 and "Page 1 of 2" in first
    assert 'href="/history/29"' in first and 'href="/history/4"' not in first
    second = ana.get("/history?page=2").get_data(as_text=True)
    assert [int(n) for n in re.findall(r'href="/history/(\d+)"', second)] == [4, 3, 2, 1]
    assert 'rel="prev" href="/history?page=1"' in second and 'rel="next"' not in second
    filtered = ana.get("/history?player=1").get_data(as_text=True)  # Ana: 15 matches, one page
    assert filtered.count('class="card"') == 15 and "Page 1 of" not in filtered
    both = ana.get("/history?game=tute2&status=playing").get_data(as_text=True)
    assert 'href="/history?game=tute2&amp;status=playing&amp;page=2"' in both
    assert "No matches found." in text(ana.get("/history?page=7"))
    # The page's rows carry the count; past the last page, where there is none, it is counted on its own.
    with app.app_context():
        user = services.user_named("ana")
        assert user is not None
        assert [queries.history_page(user, page).total for page in (1, 2, 7)] == [29, 29, 29]
        assert queries.history_page(user, 2, game="pocha").total == 0


def test_the_detail_page_is_read_only(ana: Browser) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    ana.post("/matches/1/deal", data=tute_form(70, 0, number=1))
    page = ana.get("/history/1").get_data(as_text=True)
    assert "Deal by deal" in page and "/edit" not in page
    # Only the match's note, never its deals, can be changed from here.
    assert re.findall(r'action="(/matches[^"]*)"', page) == ["/matches/1/note?back=detail"]


def test_home_shows_matches_in_progress_and_finished_ones(ana: Browser) -> None:
    start(ana, "tute2", ["Ana", "Luis"], opt_target="1")
    start(ana, "pocha", ["Ana", "Carmen"])
    ana.post("/matches/1/deal", data=tute_form(70, 0, number=1))
    page = text(ana.get("/"))
    assert page.index("Playing now") < page.index("Ana, Carmen") < page.index("Finished lately")
    assert "won by Ana" in page


def test_home_shows_the_latest_ten_matches_in_progress_and_links_to_all(ana: Browser) -> None:
    for number in range(10):
        start(ana, "tute2", ["Ana", f"Rival {number}"])
    page = ana.get("/").get_data(as_text=True)
    assert page.count('class="card"') == 10 and "Every match in progress" not in page
    start(ana, "tute2", ["Ana", "Rival 10"])
    page = ana.get("/").get_data(as_text=True)
    # The latest ten, newest first; the first one started is left to the history.
    assert [int(n) for n in re.findall(r'href="/matches/(\d+)"', page)] == list(range(11, 1, -1))
    assert '<a href="/history?status=playing">Every match in progress</a>' in page
    assert ana.get("/history?status=playing").get_data(as_text=True).count('class="card"') == 11


def test_a_scoreboard_reads_its_match_in_the_same_statements_however_many_deals(ana: Browser, app: Flask) -> None:
    start(ana, "tute2", ["Ana", "Luis"], opt_target="9")
    ana.post("/matches/1/deal", data=tute_form(70, 0, number=1))
    short = statements_sent(app, lambda: ana.get("/matches/1"))
    for number in range(2, 8):
        ana.post("/matches/1/deal", data=tute_form(70, 0, number=number, dealer=(number - 1) % 2))
    page = ana.get("/matches/1").get_data(as_text=True)
    assert "Deal 8:" in page
    # The match with its seats, then its deals: no statement for each deal (their dates stay unread).
    assert len(statements_sent(app, lambda: ana.get("/matches/1"))) == len(short)
    assert sum("FROM deals" in statement for statement in short) == 1


@pytest.mark.parametrize("path", ["/matches/1", "/matches/1/deal", "/history/1"])
def test_the_pages_that_only_show_a_match_read_it_as_rows_not_objects(ana: Browser, app: Flask, path: str) -> None:
    # Building an object for the match, each seat and each player took more than the page's own layout.
    from scorekeeper.models import Player, Seat

    start(ana, "tute2", ["Ana", "Luis"], opt_target="9")
    ana.post("/matches/1/deal", data=tute_form(70, 0, number=1))
    loaded: list[object] = []

    def record(target: object, _context: object) -> None:
        loaded.append(target)

    for model in (Match, Seat, Player):
        sa.event.listen(model, "load", record)
    try:
        response = ana.get(path)
    finally:
        for model in (Match, Seat, Player):
            sa.event.remove(model, "load", record)
    assert response.status_code == 200
    assert "Ana" in text(response) and "Luis" in text(response)
    assert loaded == []


@pytest.mark.parametrize("game", ["tute2", "pocha"])
def test_a_deal_entered_reads_the_match_s_deals_as_facts_not_objects(ana: Browser, app: Flask, game: str) -> None:
    # Adding a deal needs the facts of the deals before it, for the engine and the players' figures:
    # loading each of a long match's deals as an object took most of a millisecond of every deal.
    from scorekeeper.models import Deal

    def bid(number: int) -> None:  # Pocha's bids come first, through a form of their own
        if game == "pocha":
            form = bids_form([1, 1], number=number, dealer=(number - 1) % 2, cards=3)
            assert ana.post("/matches/1/bids", data=form).status_code == 302

    def enter(number: int) -> Any:
        bid(number)
        return play(number)

    def play(number: int) -> Any:
        dealer = (number - 1) % 2
        if game == "tute2":
            return ana.post("/matches/1/deal", data=tute_form(70, number % 2, number=number, dealer=dealer))
        return ana.post("/matches/1/deal", data=tricks_form([1, 1], [2, 1], number=number, dealer=dealer, cards=3))

    if game == "tute2":
        start(ana, "tute2", ["Ana", "Luis"], opt_target="9")
    else:
        start(ana, "pocha", ["Ana", "Luis"], opt_schedule="custom", schedule_list="3 3 3 3")
    loaded: list[object] = []

    def record(target: object, _context: object) -> None:
        loaded.append(target)

    assert [enter(number).status_code for number in (1, 2)] == [302, 302]
    bid(3)
    sa.event.listen(Deal, "load", record)
    try:
        response = play(3)
    finally:
        sa.event.remove(Deal, "load", record)
    assert response.status_code == 302
    with app.app_context():
        stored = db.session.scalars(sa.select(Deal.number).where(Deal.match_id == 1).order_by(Deal.number)).all()
    assert stored == [1, 2, 3]
    assert loaded == []


def test_a_match_deleted_while_its_scoreboard_is_read_answers_404(ana: Browser, app: Flask) -> None:
    # On PostgreSQL each statement sees what was committed when it began: a match deleted from another
    # phone after its row was read shows no players to the next statement, and is gone for the page too.
    start(ana, "tute2", ["Ana", "Luis"])
    with app.app_context():
        db.session.execute(sa.text("DELETE FROM seats WHERE match_id = 1"))
        db.session.commit()
    response = ana.get("/matches/1")
    assert response.status_code == 404
    assert "There is no such match." in text(response)


def test_postgresql_keeps_one_plan_for_storing_a_deal(ana: Browser, app: Flask) -> None:
    # Planning the statement that stores a deal took a third of a millisecond of every deal entered.
    with app.app_context():
        if db.engine.dialect.name != "postgresql":
            pytest.skip("SQLite keeps no plans")
    start(ana, "tute2", ["Ana", "Luis"], opt_target="9")
    start(ana, "tute2", ["Eva", "Pau"], opt_target="9")  # a later match: its start is looked for at every deal
    # psycopg prepares a statement at its fifth run, and PostgreSQL plans its first five runs for their values.
    for number in range(1, 17):  # won in turns: the match, to nine juegos, goes on
        deal = tute_form(70 if number % 2 else 50, 0, number=number, dealer=(number - 1) % 2)
        sent = statements_sent(app, lambda deal=deal: ana.post("/matches/1/deal", data=deal))
        # On a long history a LIMIT sent as a parameter made every plan for any time dearer than planning again.
        stored = [statement for statement in sent if statement.startswith("WITH rescored")]
        assert len(stored) == 1 and "LIMIT 1" in stored[0], stored
    with app.app_context():
        plans = db.session.execute(
            sa.text(
                "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement LIKE 'WITH rescored%'"
            )
        ).all()
        # The owner's read of the match under the lock, with its deals' facts, is planned once too.
        reads = db.session.execute(
            sa.text(
                "SELECT generic_plans, custom_plans FROM pg_prepared_statements "
                "WHERE statement LIKE 'SELECT matches.id%json_agg%'"
            )
        ).all()
        db.session.rollback()
    assert len(plans) == 1 and plans[0].generic_plans >= 3, plans
    assert len(reads) == 1 and reads[0].generic_plans >= 3, reads


# ---------------------------------------------------------------- isolation


def test_another_account_s_match_answers_404_everywhere(ana: Browser, bea: Browser, app: Flask) -> None:
    start(ana, "pocha", ["Ana", "Luis"])
    for path in ("/matches/1", "/matches/1/deal", "/history/1"):
        assert bea.get(path).status_code == 404, path
    for path, data in (
        ("/matches/1/bids", bids_form([0, 0], number=1, dealer=0, cards=1)),
        ("/matches/1/deal", {}),
        ("/matches/1/undo", {}),
        ("/matches/1/abandon", {}),
        ("/matches/1/rematch", {}),
        ("/matches/1/deals/1/edit", {}),
    ):
        assert bea.post(path, data=data).status_code == 404, path
    assert "Ana, Luis" not in text(bea.get("/history"))
    assert "Ana, Luis" not in text(bea.get("/"))
    assert "Enter the bids" in text(ana.get("/matches/1"))


def test_unknown_pages_answer_404(ana: Browser) -> None:
    assert ana.get("/matches/99").status_code == 404
    assert ana.get("/matches/new/mus").status_code == 404
    assert ana.get("/nowhere").status_code == 404


def test_the_scoreboard_reads_the_cached_result_and_does_not_score_again(
    ana: Browser, monkeypatch: pytest.MonkeyPatch
) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    ana.post("/matches/1/deal", data=tute_form(70, 0, number=1))
    from scorekeeper.pages import boards

    def no_scoring(document: object) -> object:
        raise AssertionError("the scoreboard scored the match again")

    monkeypatch.setattr(boards, "check_match", no_scoring)
    page = ana.get("/matches/1")
    assert page.status_code == 200 and "Deal 2: Luis deals." in text(page)


def test_a_deal_added_to_a_match_another_phone_changed_since_it_was_read_is_refused_whole(
    ana: Browser, app: Flask
) -> None:
    from scorekeeper import services
    from scorekeeper.extensions import db
    from scorekeeper.models import Deal

    start(ana, "tute2", ["Ana", "Luis"])
    deal = {"dealer": 0, "trump": "oros", "points": [70, 50], "last_trick": 0}
    with app.app_context():
        match = table_reads.match_at_table(1)  # read, as a phone's request reads it
        with db.engine.begin() as other_phone:  # meanwhile another phone's change is committed
            other_phone.execute(
                sa.update(Match.__table__)
                .where(Match.__table__.c.id == 1)
                .values(version=Match.__table__.c.version + 1)
            )
        with pytest.raises(services.Conflict, match="at the same moment"):
            services.add_deal(match, deal, 1)
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Deal)) == 0
        stored = db.session.get(Match, 1)
        assert stored is not None and stored.result is not None and stored.result["deals"] == []
    # Read afresh, the same deal goes in, once.
    assert ana.post("/matches/1/deal", data=tute_form(70, 0)).status_code == 302
    with app.app_context():
        assert [d.number for d in db.session.scalars(sa.select(Deal))] == [1]


@contextmanager
def read_before_another_phone_undoes_deal_2(ana: Browser, app: Flask) -> Iterator[Match]:
    """Play two deals of a Tute match; in an app context, read the match with its deals as a
    request reads it, then undo deal 2 from another connection, as another phone would; yield
    the match read before."""
    from scorekeeper.extensions import db
    from scorekeeper.models import Deal, User

    start(ana, "tute2", ["Ana", "Luis"], opt_target="9")
    ana.post("/matches/1/deal", data=tute_form(70, 0, number=1))
    ana.post("/matches/1/deal", data=tute_form(70, 0, number=2, dealer=1))
    with app.app_context():
        user = db.session.scalar(sa.select(User).where(User.username == "ana"))
        assert user is not None
        match = table_reads.match_for(user, 1)
        with db.engine.begin() as other_phone:
            other_phone.execute(sa.delete(Deal.__table__).where(Deal.__table__.c.number == 2))
            other_phone.execute(
                sa.update(Match.__table__)
                .where(Match.__table__.c.id == 1)
                .values(version=Match.__table__.c.version + 1)
            )
        yield match


def test_a_match_deleted_after_another_phone_undid_its_last_deal_is_deleted_whole(ana: Browser, app: Flask) -> None:
    from scorekeeper import services
    from scorekeeper.extensions import db
    from scorekeeper.models import Deal

    with read_before_another_phone_undoes_deal_2(ana, app) as match:
        services.delete_match(match)
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Match)) == 0
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Deal)) == 0


def test_a_match_another_phone_deleted_since_it_was_read_is_not_found_when_deleted_again(
    ana: Browser, app: Flask
) -> None:
    from scorekeeper import services
    from scorekeeper.extensions import db
    from scorekeeper.models import User

    start(ana, "tute2", ["Ana", "Luis"])
    ana.post("/matches/1/deal", data=tute_form(70, 0, number=1))
    with app.app_context():
        user = db.session.scalar(sa.select(User).where(User.username == "ana"))
        assert user is not None
        match = table_reads.match_for(user, 1)
    assert ana.post("/matches/1/delete").status_code == 302  # another phone deletes it first
    with app.app_context():
        db.session.add(match)
        with pytest.raises(services.NotFound):
            services.delete_match(match)


def test_undoing_a_deal_another_phone_undid_since_it_was_read_is_refused_as_a_conflict(
    ana: Browser, app: Flask
) -> None:
    from scorekeeper import services
    from scorekeeper.extensions import db
    from scorekeeper.models import Deal

    with read_before_another_phone_undoes_deal_2(ana, app) as match:
        with pytest.raises(services.Conflict):
            services.undo(match)
        assert [d.number for d in db.session.scalars(sa.select(Deal))] == [1]


def test_a_second_rematch_goes_to_the_match_the_first_made(ana: Browser) -> None:
    """The finished scoreboard still offers Rematch (on this phone after going back, or on another
    of the owner's phones): a second tap makes no second match."""
    start(ana, "tute2", ["Ana", "Luis"])
    for number in (1, 2, 3):
        ana.post("/matches/1/deal", data=tute_form(80, 0, number=number, dealer=(number - 1) % 2))
    first = ana.post("/matches/1/rematch")
    assert first.status_code == 302 and first.location == "/matches/2"
    again = ana.post("/matches/1/rematch")
    assert again.status_code == 302 and again.location == "/matches/2"
    assert "The rematch was started already: here it is." in ana.get("/matches/2").get_data(as_text=True)
    assert ana.get("/matches/3").status_code == 404
    ana.post("/matches/2/delete")
    assert ana.post("/matches/1/rematch").location == "/matches/3"  # the rematch deleted: a new one
