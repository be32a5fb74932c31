"""Player figures against a hand-computed evening, kept right through edits, abandons and deletes,
in a number of queries that does not grow with the history."""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from sqlalchemy import event, select

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.figures import reads
from scorekeeper.models import Player, PlayerRating, PlayerResult, PlayerSummary, User

from ..conftest import Browser
from .matchhelpers import start, tute_form
from .sql import statements_sent
from .test_killed_upgrades import migrate_to


def figures(app: Flask, name: str) -> dict[str, reads.GameFigures]:
    with app.app_context():
        user = db.session.scalar(db.select(User).where(User.username_key == "ana"))
        player = db.session.scalar(db.select(Player).where(Player.user_id == user.id, Player.name == name))
        games = [f.game for f in reads.player_page_figures(user, player, None)[0]]
        shown = (reads.player_page_figures(user, player, game)[1] for game in games)
        return {f.game: f for f in shown if f is not None}


def test_tute_figures_match_the_hand_count(evening: Browser, app: Flask) -> None:
    ana = figures(app, "Ana")["tute2"]
    # A: 78+10+20 = 108 against 82 (won); B: 30 against 90+10 = 100 (lost); C: 110 against 20 (won)
    assert (ana.played, ana.won, ana.abandoned, ana.finished) == (4, 2, 1, 3)
    assert ana.win_rate == pytest.approx(2 / 3)
    assert ana.average_deal == pytest.approx((108 + 30 + 110) / 3)
    assert (ana.juegos, ana.tallies) == (2, {"cantes_20": 1, "cantes_40": 0, "tutes": 0, "last_tricks": 2})
    assert ana.per_deal("last_tricks") == pytest.approx(2 / 3)
    assert (ana.current_streak, ana.longest_streak) == (1, 1)
    assert ana.recent == [True, False, True]
    luis = figures(app, "Luis")["tute2"]
    assert (luis.won, luis.count("cantes_40"), luis.current_streak) == (1, 1, 0)
    assert luis.rating is not None and ana.rating is not None and ana.rating > luis.rating
    assert len(ana.rating_history) == 3


def test_pocha_figures_match_the_hand_count_and_a_tie_is_a_win_for_each(evening: Browser, app: Flask) -> None:
    ana, luis, carmen = (figures(app, name)["pocha"] for name in ("Ana", "Luis", "Carmen"))
    # bids 1, 1, 1 with 2 cards; tricks 1, 1, 0: Ana and Luis exact (+15), Carmen one short (-5)
    assert (ana.won, luis.won, carmen.won) == (1, 1, 0)
    bids = ("exact_bids", "over_bids", "under_bids")
    assert (ana.share("exact_bids", bids), ana.count("over_bids"), ana.average_deal) == (1.0, 0, 15.0)
    assert (carmen.share("exact_bids", bids), carmen.tallies) == (
        0.0,
        {"exact_bids": 0, "over_bids": 1, "under_bids": 0},
    )
    assert ana.best == (15, 5) and carmen.worst == (-5, 5)


def test_the_player_page_shows_the_figures(evening: Browser) -> None:
    page = evening.get("/players/1").get_data(as_text=True)
    assert "Win rate" in page and "67%" in page and "Exact bids" not in page
    assert "abandoned and unfinished matches (1) are left out" in page
    assert '<svg class="chart"' in page
    pocha = evening.get("/players/1?game=pocha").get_data(as_text=True)
    assert "Exact bids" in pocha and "100%" in pocha and "67%" not in pocha
    luis = evening.get("/players/2?game=pocha").get_data(as_text=True)
    assert "Bid accuracy: 1 exact, 0 too high, 0 too low." in luis


def test_the_player_page_shows_the_game_played_most_and_a_button_for_each(evening: Browser) -> None:
    # Ana played four matches of Tute for two and one of Pocha.
    for address in ("/players/1", "/players/1?game=tute4", "/players/1?game=nonsense"):
        page = evening.get(address).get_data(as_text=True)
        assert re.search(r'<h2 id="game-tute2">', page) and 'id="game-pocha"' not in page
        current = re.findall(r'<a class="button primary" href="([^"]+)" aria-current="page">', page)
        assert current == ["/players/1?game=tute2"], address
        assert 'href="/players/1?game=pocha"' in page
    pocha = evening.get("/players/1?game=pocha").get_data(as_text=True)
    assert 'id="game-pocha"' in pocha and 'id="game-tute2"' not in pocha


def test_an_edited_old_deal_moves_the_figures(evening: Browser, app: Flask) -> None:
    from .test_matches import edit

    edit(evening, 2, 1, tute_form(100, 0, trump="copas"))  # match B becomes Ana's
    ana = figures(app, "Ana")["tute2"]
    assert (ana.won, ana.current_streak, ana.longest_streak) == (3, 3, 3)
    assert figures(app, "Luis")["tute2"].won == 0


def test_abandoning_and_deleting_matches_move_the_figures(evening: Browser, app: Flask) -> None:
    start(evening, "tute2", ["Ana", "Luis"])
    evening.post("/matches/6/abandon")
    assert figures(app, "Ana")["tute2"].abandoned == 2
    evening.post("/matches/3/delete")
    ana = figures(app, "Ana")["tute2"]
    assert (ana.played, ana.won, ana.finished) == (4, 1, 2)
    assert ana.recent == [False, True]
    with app.app_context():
        assert (
            db.session.scalar(db.select(db.func.count()).select_from(PlayerRating).where(PlayerRating.game == "tute2"))
            == 4
        )  # two finished matches, two players each
    assert evening.get("/matches/3").status_code == 404


def add_finished_matches(app: Flask, count: int) -> None:
    """Import `count` finished Tute matches at once (one transaction, rated once)."""
    start_time = datetime(2026, 1, 1, tzinfo=UTC)
    matches = []
    for n in range(count):
        when = start_time + timedelta(hours=n)
        points = [80, 40] if n % 3 else [30, 90]
        matches.append(
            {
                "uid": uuid.uuid4().hex,
                "status": "finished",
                "first_dealer": 0,
                "pending": None,
                "document": {
                    "game": "tute2",
                    "players": ["Ana", "Luis"],
                    "options": {"target": 1},
                    "deals": [{"dealer": 0, "trump": "oros", "points": points, "last_trick": 0}],
                },
                "created_at": when,
                "updated_at": when,
                "ended_at": when,
                "deal_dates": [(when, when)],
            }
        )
    with app.app_context():
        user = services.user_named("ana")
        services.import_accounts(
            [{"username": "ana", "password_hash": "", "created_at": start_time, "players": [], "matches": matches}],
            into=user,
        )


def queries_for(app: Flask, browser: Browser, path: str) -> int:
    def request() -> None:
        assert browser.get(path).status_code == 200

    return len(statements_sent(app, request))


def test_the_player_page_asks_as_many_queries_for_200_matches_as_for_10(ana: Browser, app: Flask) -> None:
    add_finished_matches(app, 10)
    few = queries_for(app, ana, "/players/1")
    add_finished_matches(app, 190)
    many = queries_for(app, ana, "/players/1")
    assert few == many
    assert figures(app, "Ana")["tute2"].played == 200


def test_tutes_are_counted_for_the_player_who_showed_them(ana: Browser, app: Flask) -> None:
    start(ana, "tute4", ["Ana", "Luis", "Carmen", "Pedro"], opt_target="1")
    ana.post("/matches/1/deal", data=tute_form("", "", tute=(2, "reyes"), cantes={"copas": 2}, trump="copas"))
    carmen = figures(app, "Carmen")["tute4"]
    assert (carmen.count("tutes"), carmen.count("cantes_40"), carmen.won, carmen.juegos) == (1, 1, 1, 1)
    assert figures(app, "Ana")["tute4"].count("tutes") == 0


def test_recompute_rebuilds_the_figures_and_ratings_from_the_deals(evening: Browser, app: Flask) -> None:
    from scorekeeper.models import PlayerResult, PlayerSummary

    from .test_cli import run

    before = {name: figures(app, name) for name in ("Ana", "Luis", "Carmen")}
    with app.app_context():
        db.session.execute(db.delete(PlayerSummary))
        db.session.execute(db.delete(PlayerResult))
        db.session.execute(db.delete(PlayerRating))
        db.session.commit()
    assert figures(app, "Ana") == {}
    assert run(app, "recompute").exit_code == 0
    assert {name: figures(app, name) for name in ("Ana", "Luis", "Carmen")} == before


def test_home_and_history_name_the_winners_ties_and_pairs_included(evening: Browser) -> None:
    start(evening, "tute4", ["Ana", "Luis", "Carmen", "Pedro"], opt_target="1")
    evening.post("/matches/6/deal", data=tute_form(30, 1, trump="oros"))
    home = evening.get("/").get_data(as_text=True)
    history = evening.get("/history").get_data(as_text=True)
    for page in (home, history):
        assert "won by Luis &amp; Pedro" in page  # seats 1 and 3 are partners
        assert "won by Ana and Luis" in page  # the Pocha match's tie for first


def test_the_rating_chart_shows_the_latest_thirty_ratings_and_says_so(ana: Browser, app: Flask) -> None:
    add_finished_matches(app, 12)
    page = ana.get("/players/1").get_data(as_text=True)
    assert "Rating after each finished match" in page
    assert re.search(r'class="label series-0"[^>]*>Rating</text>', page)  # a line name that fits, not the title
    add_finished_matches(app, 23)
    page = ana.get("/players/1").get_data(as_text=True)
    assert "Rating after each of the last 30 finished matches" in page
    assert figures(app, "Ana")["tute2"].played == 35
    assert len(figures(app, "Ana")["tute2"].rating_history) == 30


def test_the_rating_chart_reads_its_ratings_from_the_player_s_index_alone(ana: Browser, app: Flask) -> None:
    # Each rating's row besides its index entry tripled the read on a long history.
    add_finished_matches(app, 35)
    sent = statements_sent(app, lambda: ana.get("/players/1"))
    ratings = [statement for statement in sent if "FROM player_ratings" in statement]
    assert len(ratings) == 1
    with app.app_context():
        connection = db.session.connection()
        # one walk down the index, for the game shown
        if connection.dialect.name == "sqlite":
            plan = " ".join(
                row[3] for row in connection.exec_driver_sql("EXPLAIN QUERY PLAN " + ratings[0], (1, "tute2", 0))
            )
            assert plan.count("USING COVERING INDEX ix_player_ratings_player_id_game_rated_at_ordinal") == 1, plan
        else:
            connection.exec_driver_sql("SET enable_seqscan = off")  # a few rows: a scan would be as good here
            values = {"player_id": 1, "game_1": "tute2"}
            plan = " ".join(row[0] for row in connection.exec_driver_sql("EXPLAIN " + ratings[0], values))
            assert plan.count("ix_player_ratings_player_id_game_rated_at_ordinal") == 1, plan
        db.session.rollback()
    assert len(figures(app, "Ana")["tute2"].rating_history) == 30


def test_the_player_page_reads_only_the_ratings_of_the_game_it_shows(evening: Browser, app: Flask) -> None:
    with app.app_context():
        user = db.session.scalar(db.select(User).where(User.username_key == "ana"))
        ana = db.session.scalar(db.select(Player).where(Player.name == "Ana"))
        assert user is not None and ana is not None
        for asked in (None, "tute2", "tute4"):  # Ana played Tute for two most, and never Tute for four
            every, shown = reads.player_page_figures(user, ana, asked)
            assert shown is not None and shown.game == "tute2" and len(shown.rating_history) == 3
            assert [(f.game, f.rating_history) for f in every if f is not shown] == [("pocha", [])]
        every, shown = reads.player_page_figures(user, ana, "pocha")
        assert shown is not None and shown.game == "pocha" and shown.rating_history == [shown.rating]
        assert shown.rating == figures(app, "Ana")["pocha"].rating
        assert [f.rating for f in every if f is not shown] == [None]


def test_an_import_writes_each_match_s_result_rows_once(ana: Browser, app: Flask) -> None:
    written: list[str] = []
    with app.app_context():
        engine = db.engine

    def note(*args: Any) -> None:
        statement = " ".join(args[2].split()).lower()
        # ANALYZE (PostgreSQL's statistics, read again at the import's end) reads the table, writes nothing.
        if "player_results" in statement and not statement.startswith(("select", "analyze")):
            written.append(statement.split(None, 1)[0])

    event.listen(engine, "before_cursor_execute", note)
    try:
        add_finished_matches(app, 7)
    finally:
        event.remove(engine, "before_cursor_execute", note)
    # One insert for every seat of every match at once, and nothing written over afterwards.
    assert written == ["insert"]
    assert figures(app, "Ana")["tute2"].finished == 7


def test_the_upgrade_that_keeps_each_game_s_figures_by_name_keeps_every_count(
    evening: Browser, app: Flask, database_url: str, tmp_path: Path
) -> None:
    def tallies() -> list[tuple[Any, ...]]:
        with app.app_context():
            results, summaries = PlayerResult.__table__.c, PlayerSummary.__table__.c
            found = [
                *db.session.execute(
                    select(results.match_id, results.seat, results.tallies).order_by(results.match_id, results.seat)
                ),
                *db.session.execute(
                    select(summaries.player_id, summaries.game, summaries.tallies).order_by(
                        summaries.player_id, summaries.game
                    )
                ),
            ]
            db.session.remove()
            db.engine.dispose()
            return found

    before = tallies()
    assert (1, "tute2", {"cantes_20": 1, "cantes_40": 0, "tutes": 0, "last_tricks": 2}) in before
    migrate_to(database_url, tmp_path, "0025", down=True)  # a column for each count, as before
    with app.app_context():
        counted = "SELECT game, sum(cantes_20), sum(over_bids) FROM player_summaries GROUP BY game"
        kept = {game: (twenties, over) for game, twenties, over in db.session.execute(sa.text(counted))}
        assert kept["tute2"] == (1, 0) and kept["pocha"] == (0, 1)
        db.session.remove()
        db.engine.dispose()
    migrate_to(database_url, tmp_path, "head")
    assert tallies() == before
