"""Leaderboards, head-to-head, and the figures as CSV and JSON."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from flask import Flask

from scorekeeper.extensions import db

from ..conftest import Browser
from .matchhelpers import bids_form, start, tricks_form, tute_form
from .sql import statements_sent
from .test_statistics import add_finished_matches, queries_for


def table(browser: Browser, path: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(browser.get(path).get_data(as_text=True))))


def test_the_leaderboard_ranks_by_win_rate_and_sorts_by_any_column(evening: Browser) -> None:
    rows = table(evening, "/stats/tute2.csv")
    assert rows[0] == ["player", "matches", "won", "win_rate", "average_deal", "rating"]
    assert [row[:4] for row in rows[1:]] == [["Ana", "3", "2", "0.6667"], ["Luis", "3", "1", "0.3333"]]
    by_name = table(evening, "/stats/tute2.csv?sort=name&dir=asc")
    assert [row[0] for row in by_name[1:]] == ["Ana", "Luis"]
    by_average = table(evening, "/stats/tute2.csv?sort=average_deal&dir=desc")
    assert by_average[1][0] == "Ana" and float(by_average[1][4]) > float(by_average[2][4])  # 248/3 against 202/3
    page = evening.get("/stats/tute2?sort=won&dir=asc").get_data(as_text=True)
    assert 'aria-sort="ascending"' in page


def test_a_pocha_tie_for_first_counts_for_both_on_the_board(evening: Browser) -> None:
    rows = table(evening, "/stats/pocha.csv")
    assert {row[0]: row[2] for row in rows[1:]} == {"Ana": "1", "Luis": "1", "Carmen": "0"}


def test_the_minimum_of_matches_and_the_period_filter_the_board(evening: Browser) -> None:
    assert len(table(evening, "/stats/tute2.csv?min=4")) == 1  # nobody has four finished matches
    assert len(table(evening, "/stats/tute2.csv?period=month")) == 3  # all played now
    assert len(table(evening, "/stats/tute2.csv?period=range&from=2001-01-01&to=2001-12-31")) == 1
    assert len(table(evening, "/stats/tute2.csv?period=range&from=2001-01-01")) == 3


def test_head_to_head_lists_shared_matches_and_each_one_s_wins(evening: Browser) -> None:
    page = evening.get("/stats/head-to-head?a=1&b=2").get_data(as_text=True)
    numbers = [int(n) for n in __import__("re").findall(r'class="big-number">(\d+)<', page)]
    assert numbers == [3, 2]  # Ana: A, C and the Pocha tie; Luis: B and the Pocha tie
    assert page.count('class="card"') == 5  # the abandoned match is listed too


def test_head_to_head_in_tute_for_four_gives_the_partners_record(ana: Browser) -> None:
    start(ana, "tute4", ["Ana", "Luis", "Carmen", "Pedro"], opt_target="1")
    ana.post("/matches/1/deal", data=tute_form(80, 0, dealer=3))  # Ana and Carmen win
    page = ana.get("/stats/head-to-head?a=1&b=3").get_data(as_text=True)
    assert "As partners in Tute for four: 1 won of 1." in page
    against = ana.get("/stats/head-to-head?a=1&b=2").get_data(as_text=True)
    assert "As partners" not in against


def test_a_match_s_deal_table_as_csv(evening: Browser) -> None:
    rows = table(evening, "/stats/matches/1.csv")
    assert rows[0] == ["deal", "dealer", "summary", "Ana score", "Luis score", "Ana total", "Luis total"]
    assert rows[1][3:] == ["108", "82", "108", "82"]


def test_the_whole_account_as_json_match_documents(evening: Browser) -> None:
    body = json.loads(evening.get("/stats/export.json").get_data(as_text=True))
    assert [m["id"] for m in body["matches"]] == [1, 2, 3, 4, 5]
    assert body["matches"][0]["match"]["deals"][0]["points"] == [78, 42]
    assert body["matches"][3]["status"] == "abandoned"


def test_another_account_sees_none_of_it(evening: Browser, bea: Browser) -> None:
    assert table(bea, "/stats/tute2.csv") == [["player", "matches", "won", "win_rate", "average_deal", "rating"]]
    assert bea.get("/stats/head-to-head?a=1&b=2").status_code == 404
    assert bea.get("/stats/matches/1.csv").status_code == 404
    assert json.loads(bea.get("/stats/export.json").get_data(as_text=True)) == {"matches": []}


def test_the_statistics_pages_ask_as_many_queries_for_200_matches_as_for_10(ana: Browser, app: Flask) -> None:
    add_finished_matches(app, 10)
    paths = ("/stats/tute2", "/stats/head-to-head?a=1&b=2", "/players/1")
    few = [queries_for(app, ana, path) for path in paths]
    add_finished_matches(app, 190)
    assert [queries_for(app, ana, path) for path in paths] == few


def test_head_to_head_counts_every_shared_match_and_lists_them_a_page_at_a_time(ana: Browser, app: Flask) -> None:
    add_finished_matches(app, 25)  # Ana beats Luis unless the match's number is a multiple of 3
    first = ana.get("/stats/head-to-head?a=1&b=2").get_data(as_text=True)
    wins = [int(n) for n in re.findall(r'class="big-number">(\d+)<', first)]
    assert wins == [16, 9]
    assert first.count('class="card"') == 20 and "Page 1 of 2" in first
    assert 'href="/stats/head-to-head?a=1&amp;b=2&amp;page=2"' in first
    second = ana.get("/stats/head-to-head?a=1&b=2&page=2").get_data(as_text=True)
    assert second.count('class="card"') == 5
    assert [int(n) for n in re.findall(r'class="big-number">(\d+)<', second)] == [16, 9]


def test_head_to_head_reads_its_first_page_without_an_offset(ana: Browser, app: Flask) -> None:
    # PostgreSQL plans a query with an OFFSET it cannot see anew at every run on a long history.
    with app.app_context():
        if db.engine.dialect.name != "postgresql":
            pytest.skip("SQLAlchemy writes SQLite's LIMIT with an OFFSET always, and SQLite keeps no plans")
    add_finished_matches(app, 25)
    for page, offset in ((1, False), (2, True)):
        sent = statements_sent(app, lambda page=page: ana.get(f"/stats/head-to-head?a=1&b=2&page={page}"))
        shared = [s for s in sent if "JOIN player_results AS other" in s]
        assert len(shared) == 1 and ("OFFSET" in shared[0]) == offset, shared


def test_home_and_the_leaderboard_write_their_limits_into_their_statements(ana: Browser, app: Flask) -> None:
    # PostgreSQL priced a plan kept for any LIMIT parameter above planning again, at every view.
    add_finished_matches(app, 3)
    for path in ("/", "/stats/tute2"):
        sent = statements_sent(app, lambda path=path: ana.get(path))
        limited = [statement for statement in sent if "LIMIT" in statement]
        assert len(limited) >= 2, sent
        assert not [statement for statement in limited if re.search(r"LIMIT (\?|%\(|\$)", statement)], limited


@pytest.mark.parametrize(
    "query",
    [
        "period=range&to=9999-12-31",
        "period=range&from=0001-01-01&to=9999-12-31",
        "period=range&from=9999-12-31",
        "period=range&from=0001-01-01",
    ],
)
def test_far_dates_on_the_leaderboard_are_answered(evening: Browser, query: str) -> None:
    page = evening.get(f"/stats/tute2?{query}")
    assert page.status_code == 200
    rows = table(evening, f"/stats/tute2.csv?{query}")
    assert rows[0][0] == "player"
    if "from=9999" not in query:
        assert [row[0] for row in rows[1:]] == ["Ana", "Luis"]


FORMULAS = ['=HYPERLINK("http://e.vil","x")', "+1+1", "-2+3", "@SUM(A1)"]


def test_names_a_spreadsheet_would_run_as_formulas_are_written_as_text(ana: Browser) -> None:
    start(ana, "pocha", FORMULAS, opt_schedule="custom", schedule_list="1")
    ana.post("/matches/1/bids", data=bids_form([0, 0, 0, 0], number=1, dealer=0, cards=1))
    ana.post("/matches/1/deal", data=tricks_form([0, 0, 0, 0], [1, 0, 0, 0], number=1, dealer=0, cards=1))
    cells = [cell for row in table(ana, "/stats/matches/1.csv") + table(ana, "/stats/pocha.csv") for cell in row]
    assert not [
        cell
        for cell in cells
        if cell.startswith(("=", "+", "@")) or (cell.startswith("-") and not re.fullmatch(r"-\d+(\.\d+)?", cell))
    ]
    for name in FORMULAS:
        assert "'" + name in cells
    assert "-5" in cells  # a negative score stays a number
