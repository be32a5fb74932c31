"""Seasons: each calendar year's and each named season's league table, against hand-counted matches
(points per result, shared wins, the best N, the rating's change, a season across a year's end in the
account's time zone), its pages, CSV and form, a player's places, and the upgrade that began keeping
the running sums the tables read."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import pytz
from flask import Flask
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.figures import seasons
from scorekeeper.models import Match, Player, PlayerRating, PlayerResult, Season, User, YearReview
from scorekeeper.reads import transfer
from scorekeeper.season_rules import LeaguePoints

from ..conftest import Browser
from .matchhelpers import start
from .test_api import Api, api  # noqa: F401  (the fixture)
from .test_killed_upgrades import migrate_to
from .test_matches import text
from .test_nights import import_matches, played
from .test_openapi import check_answer

MADRID = pytz.timezone("Europe/Madrid")
AT = datetime(2026, 3, 7, 19, 0, tzinfo=UTC)


def tute(start: datetime, winner: str, loser: str) -> dict[str, Any]:
    """Return a finished match of Tute for two that `winner` won, played at `start`."""
    return played(start, [5], players=(winner, loser), won_by=0)


def pocha_tie(start: datetime, players: tuple[str, str, str]) -> dict[str, Any]:
    """Return a finished Pocha match of one deal of two cards in which the first two players tie for first."""
    match = played(start, [5], players=players, game="pocha")
    match["document"]["options"] = {"schedule": [2], "hook": False}
    match["document"]["deals"] = [{"dealer": 0, "cards": 2, "trump": None, "bids": [1, 1, 0], "tricks": [1, 1, 0]}]
    return match


def user(app: Flask, username: str = "ana") -> User:
    found = services.user_named(username)
    assert found is not None
    return found


def table(
    app: Flask, game: str, season: seasons.SeasonSpan, zone: Any = pytz.UTC, best_of: int | None = None
) -> list[tuple[int, str, int, int, int, int]]:
    """Return a season's table as (place, name, points, played, won, shared) lines."""
    with app.app_context():
        lines = seasons.season_table(user(app), game, season, zone, best_of)
        return [(line.place, line.name, line.points, line.played, line.won, line.shared) for line in lines]


def test_a_year_gives_three_points_a_win_and_places_by_points_then_wins(ana: Browser, app: Flask) -> None:
    hours = iter(range(100))
    matches = [tute(AT + timedelta(hours=next(hours)), *pair) for pair in [("Ana", "Luis")] * 3]
    matches += [tute(AT + timedelta(hours=next(hours)), "Luis", "Ana")]
    matches += [tute(AT + timedelta(hours=next(hours)), "Carmen", "Luis")]
    # Another year's and another game's matches stay out of 2026's Tute-for-two table.
    matches += [tute(datetime(2025, 6, 1, tzinfo=UTC), "Luis", "Ana")]
    matches += [played(AT, [5], players=("Ana", "Luis", "Carmen"), game="pocha", won_by=2)]
    import_matches(app, matches)
    # Luis and Carmen: one win each; Luis scored more over his five matches than Carmen in her one.
    assert table(app, "tute2", seasons.calendar_year(2026)) == [
        (1, "Ana", 9, 4, 3, 0),
        (2, "Luis", 3, 5, 1, 0),
        (3, "Carmen", 3, 1, 1, 0),
    ]


def test_a_tie_on_points_and_wins_goes_to_the_points_scored_and_else_shares_the_place(ana: Browser, app: Flask) -> None:
    # Ana and Luis each win one of two: equal league points and wins, and each totals the same.
    import_matches(app, [tute(AT, "Ana", "Luis"), tute(AT + timedelta(hours=1), "Luis", "Ana")])
    assert table(app, "tute2", seasons.calendar_year(2026)) == [(1, "Ana", 3, 2, 1, 0), (1, "Luis", 3, 2, 1, 0)]


def test_a_shared_win_gives_its_own_points(ana: Browser, app: Flask) -> None:
    import_matches(
        app,
        [
            pocha_tie(AT, ("Ana", "Luis", "Carmen")),
            played(AT + timedelta(hours=1), [5], players=("Ana", "Luis", "Carmen"), game="pocha", won_by=2),
        ],
    )
    rows = table(app, "pocha", seasons.calendar_year(2026))
    assert rows[0] == (1, "Carmen", 3, 2, 1, 0)
    # Ana and Luis shared the first match's win: a point each, and the same totals; the same place.
    assert rows[1:] == [(2, "Ana", 1, 2, 1, 1), (2, "Luis", 1, 2, 1, 1)]
    worth_a_win = seasons.SeasonSpan("Liga", date(2026, 1, 1), date(2026, 12, 31), seasons.LeaguePoints(2, 2, 0))
    assert [row[1:3] for row in table(app, "pocha", worth_a_win)] == [("Ana", 2), ("Carmen", 2), ("Luis", 2)]


def test_the_best_n_count_each_player_s_most_rewarded_matches(ana: Browser, app: Flask) -> None:
    # Ana wins her first two, then loses three; Luis the other way round.
    winners = ["Ana", "Ana", "Luis", "Luis", "Luis"]
    import_matches(
        app,
        [
            tute(AT + timedelta(hours=hour), winner, "Luis" if winner == "Ana" else "Ana")
            for hour, winner in enumerate(winners)
        ],
    )
    year = seasons.calendar_year(2026)
    assert table(app, "tute2", year) == [(1, "Luis", 9, 5, 3, 0), (2, "Ana", 6, 5, 2, 0)]
    # Best two: both count two wins, 6 points; Luis's three wins in all place him first.
    assert table(app, "tute2", year, best_of=2) == [(1, "Luis", 6, 5, 3, 0), (2, "Ana", 6, 5, 2, 0)]
    with app.app_context():
        lines = seasons.season_table(user(app), "tute2", year, pytz.UTC, 2)
    assert [line.counted for line in lines] == [2, 2]
    # Best of more than played: every match.
    assert table(app, "tute2", year, best_of=9) == table(app, "tute2", year)


def test_league_points_of_best_n_take_the_best_kinds_first() -> None:
    points = seasons.LeaguePoints(3, 1, 0, 4)
    assert points.of(won=3, shared=1, played=6) == (3 + 3 + 1 + 0, 4)
    assert seasons.LeaguePoints(3, 1, 0).of(won=3, shared=1, played=6) == (7, 6)
    assert seasons.LeaguePoints(5, 2, 1, 10).of(won=1, shared=0, played=3) == (7, 3)


def test_a_season_across_the_year_s_end_counts_the_days_of_the_account_s_zone(ana: Browser, app: Flask) -> None:
    def madrid(*moment: int) -> datetime:
        return MADRID.localize(datetime(*moment)).astimezone(UTC)

    import_matches(
        app,
        [
            tute(madrid(2026, 11, 30, 23, 0), "Luis", "Ana"),  # the day before the season
            tute(madrid(2026, 12, 31, 23, 0), "Ana", "Luis"),
            tute(madrid(2027, 1, 1, 0, 30), "Ana", "Luis"),  # 31 December in UTC
            tute(madrid(2027, 1, 31, 23, 0), "Ana", "Luis"),
            tute(madrid(2027, 2, 1, 0, 30), "Luis", "Ana"),  # the day after
        ],
    )
    winter = seasons.SeasonSpan("Liga de invierno", date(2026, 12, 1), date(2027, 1, 31), seasons.LeaguePoints())
    assert table(app, "tute2", winter, MADRID) == [(1, "Ana", 9, 3, 3, 0), (2, "Luis", 0, 3, 0, 0)]
    assert table(app, "tute2", seasons.calendar_year(2026), MADRID)[0] == (1, "Ana", 3, 2, 1, 0)
    assert table(app, "tute2", seasons.calendar_year(2027), MADRID)[0] == (1, "Ana", 6, 3, 2, 0)
    # In UTC the match of half past midnight on New Year's Day belongs to 2026.
    assert table(app, "tute2", seasons.calendar_year(2026))[0] == (1, "Ana", 6, 3, 2, 0)
    with app.app_context():
        assert seasons.years_played(user(app), MADRID) == [2027, 2026]


def test_the_rating_change_is_the_rating_at_the_end_less_that_at_the_start(ana: Browser, app: Flask) -> None:
    import_matches(
        app,
        [
            tute(datetime(2025, 5, 1, tzinfo=UTC), "Ana", "Luis"),
            tute(AT, "Luis", "Ana"),
            tute(AT + timedelta(1), "Luis", "Ana"),
        ],
    )
    with app.app_context():
        ana_id = db.session.scalar(select(Player.id).where(Player.name == "Ana"))
        ratings = list(
            db.session.scalars(
                select(PlayerRating.ordinal).where(PlayerRating.player_id == ana_id).order_by(PlayerRating.rated_at)
            )
        )
        lines = seasons.season_table(user(app), "tute2", seasons.calendar_year(2026), pytz.UTC, None)
        first_year = seasons.season_table(user(app), "tute2", seasons.calendar_year(2025), pytz.UTC, None)
    change = {line.name: line.rating_change for line in lines}
    assert change["Ana"] is not None and abs(change["Ana"] - (ratings[2] - ratings[0])) < 1e-9
    assert change["Ana"] < 0 < (change["Luis"] or 0)
    assert abs((first_year[0].rating_change or 0) - (ratings[0] - seasons.NEW_RATING)) < 1e-9


def test_a_correction_and_a_deletion_move_the_table(ana: Browser, app: Flask) -> None:
    import_matches(app, [tute(AT, "Ana", "Luis"), tute(AT + timedelta(hours=1), "Ana", "Luis")])
    year = seasons.calendar_year(2026)
    assert table(app, "tute2", year)[0] == (1, "Ana", 6, 2, 2, 0)
    with app.app_context():
        first = db.session.scalar(select(Match).order_by(Match.created_at))
        assert first is not None
        deal = dict(first.deals[0].data, points=[30, 90])
        services.replace_deal(first, 1, deal, first.version)
    assert table(app, "tute2", year) == [(1, "Ana", 3, 2, 1, 0), (1, "Luis", 3, 2, 1, 0)]
    with app.app_context():
        last = db.session.scalar(select(Match).order_by(Match.created_at.desc()))
        assert last is not None
        services.delete_match(last)
    assert table(app, "tute2", year) == [(1, "Luis", 3, 1, 1, 0), (2, "Ana", 0, 1, 0, 0)]
    with app.app_context():
        services.recompute_all()
    assert table(app, "tute2", year) == [(1, "Luis", 3, 1, 1, 0), (2, "Ana", 0, 1, 0, 0)]


# ---------------------------------------------------------------- pages


def test_the_season_page_shows_the_table_with_a_button_per_game(ana: Browser, app: Flask) -> None:
    import_matches(
        app,
        [tute(AT, "Ana", "Luis"), played(AT, [5], players=("Ana", "Luis", "Carmen"), game="pocha", won_by=2)],
    )
    page = ana.get("/seasons/2026?game=tute2")
    assert page.status_code == 200
    shown = text(page)
    assert "Season 2026" in shown and "1 Ana 3 1 1" in shown and "Carmen" not in shown
    assert 'href="/seasons/2026?game=pocha"' in page.get_data(as_text=True)
    assert "1 Carmen 3 1 1" in text(ana.get("/seasons/2026?game=pocha"))
    assert "No finished matches of Tute in pairs (four players) in this season." in text(
        ana.get("/seasons/2026?game=tute4")
    )
    assert ana.get("/seasons/99999").status_code == 404
    listed = text(ana.get("/seasons/"))
    assert "Season 2026" in listed


def test_the_table_as_csv(ana: Browser, app: Flask) -> None:
    import_matches(app, [tute(AT, "=Ana", "Luis")])
    answer = ana.get("/seasons/2026.csv?game=tute2")
    assert answer.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(answer.get_data(as_text=True))))
    assert rows[0][:6] == ["place", "player", "played", "won", "shared_wins", "points"]
    assert rows[1][:6] == ["1", "'=Ana", "1", "1", "0", "3"]


def test_naming_changing_and_forgetting_a_season(ana: Browser, app: Flask) -> None:
    import_matches(app, [tute(AT, "Ana", "Luis"), tute(datetime(2026, 10, 2, 20, tzinfo=UTC), "Luis", "Ana")])
    fields = {
        "name": "Liga de otoño",
        "starts_on": "2026-09-01",
        "ends_on": "2026-11-30",
        "win_points": "2",
        "shared_points": "1",
        "other_points": "0",
        "best_of": "",
    }
    made = ana.post("/seasons/", data=fields)
    assert made.status_code == 302
    page = text(ana.get(made.headers["Location"] + "?game=tute2"))
    assert "Liga de otoño" in page and "A win gives 2 points" in page
    assert "Luis 2 1 1" in page
    # A season that ends before it begins comes back with everything typed, and the message at its field.
    wrong = ana.post("/seasons/", data={**fields, "name": "Liga de invierno", "ends_on": "2026-08-01"})
    assert wrong.status_code == 422
    shown = wrong.get_data(as_text=True)
    assert "The last day comes before the first." in shown and 'value="Liga de invierno"' in shown
    same = ana.post("/seasons/", data=fields)
    assert same.status_code == 422 and "There is already a season called Liga de otoño." in text(same)
    season_id = int(made.headers["Location"].rsplit("/", 1)[1])
    changed = ana.post(f"/seasons/named/{season_id}/edit", data={**fields, "starts_on": "2026-03-01", "best_of": "1"})
    assert changed.status_code == 302
    page = text(ana.get(f"/seasons/named/{season_id}?game=tute2"))
    assert "each player's best 1 match counts" in page
    assert ana.post(f"/seasons/named/{season_id}/delete").status_code == 302
    assert ana.get(f"/seasons/named/{season_id}").status_code == 404
    assert "Season 2026" in text(ana.get("/seasons/"))


@pytest.mark.parametrize("field", ["win_points", "shared_points", "other_points"])
def test_league_points_given_as_spaces_are_refused_at_their_field_when_named_and_changed(
    ana: Browser, app: Flask, field: str
) -> None:
    fields = {
        "name": "Liga de otoño",
        "starts_on": "2026-09-01",
        "ends_on": "2026-11-30",
        "win_points": "3",
        "shared_points": "1",
        "other_points": "0",
        "best_of": "",
    }
    error = re.compile(rf'id="{field}-error"[^>]*>\s*<p class="error">This field is required')
    for blank in (" ", "\t", "\n"):
        refused = ana.post("/seasons/", data={**fields, field: blank})
        assert refused.status_code == 422
        page = refused.get_data(as_text=True)
        assert error.search(page) and 'value="Liga de otoño"' in page  # what was typed stays
    made = ana.post("/seasons/", data=fields)
    assert made.status_code == 302
    season_id = int(made.headers["Location"].rsplit("/", 1)[1])
    refused = ana.post(f"/seasons/named/{season_id}/edit", data={**fields, field: " "})
    assert refused.status_code == 422 and error.search(refused.get_data(as_text=True))
    with app.app_context():
        kept = db.session.get(Season, season_id)
        assert kept is not None and (kept.win_points, kept.shared_points, kept.other_points) == (3, 1, 0)


def test_another_account_s_season_is_not_found(ana: Browser, bea: Browser, app: Flask) -> None:
    with app.app_context():
        season = services.name_season(user(app), services.SeasonRules("Liga", date(2026, 1, 1), date(2026, 2, 1)))
        season_id = season.id
    assert bea.get(f"/seasons/named/{season_id}").status_code == 404
    assert bea.post(f"/seasons/named/{season_id}/delete").status_code == 404


def test_the_player_page_names_their_place_in_each_season(ana: Browser, app: Flask) -> None:
    import_matches(
        app,
        [
            tute(datetime(2025, 5, 1, tzinfo=UTC), "Luis", "Ana"),
            tute(AT, "Ana", "Luis"),
            tute(AT + timedelta(hours=1), "Ana", "Carmen"),
        ],
    )
    with app.app_context():
        ana_id = db.session.scalar(select(Player.id).where(Player.name == "Ana"))
    page = ana.get(f"/players/{ana_id}?game=tute2")
    shown = text(page)
    assert "Season 2026 Place 1 of 3 6 points, 2 matches" in shown
    assert "Season 2025 Place 2 of 2 0 points, 1 match" in shown
    assert 'href="/seasons/2026?game=tute2"' in page.get_data(as_text=True)


THIS_YEAR = datetime.now(UTC).year


def kept_standings(app: Flask) -> dict[str, bool]:
    """Return the account's kept standings of seasons, by their figure: whether a document is stored."""
    with app.app_context():
        rows = db.session.execute(select(YearReview.figure, YearReview.review).where(YearReview.figure != "year"))
        return {figure: review is not None for figure, review in rows}


def test_a_season_that_is_over_is_placed_once_and_kept_until_a_change_of_its_matches(ana: Browser, app: Flask) -> None:
    # Years two and three back: a change made today reaches back two days at most.
    old, older = THIS_YEAR - 2, THIS_YEAR - 3
    import_matches(
        app,
        [
            tute(datetime(older, 5, 1, 19, tzinfo=UTC), "Luis", "Ana"),
            tute(datetime(old, 5, 1, 19, tzinfo=UTC), "Ana", "Luis"),
        ],
    )
    ana_id, luis_id = player_id(app, "Ana"), player_id(app, "Luis")
    old_year, older_year = (seasons.standings_figure("tute2", seasons.calendar_year(year)) for year in (old, older))
    shown = text(ana.get(f"/players/{ana_id}?game=tute2"))
    assert f"Season {old} Place 1 of 2 3 points, 1 match" in shown
    assert f"Season {older} Place 2 of 2 0 points, 1 match" in shown
    # Both are over, and kept: every player's place in each, for any player's page.
    assert kept_standings(app) == {old_year: True, older_year: True}
    with app.app_context():
        row = db.session.scalars(select(YearReview).where(YearReview.figure == old_year)).one()
        assert row.year == old
        assert row.review == {"of": 2, "placed": {str(ana_id): [1, 3, 1], str(luis_id): [2, 0, 1]}}
        # Kept, it is read as stored: standings changed by hand show (the page does not count them again).
        row.review = {"of": 9, "placed": {str(ana_id): [7, 0, 1]}}
        db.session.commit()
    assert f"Season {old} Place 7 of 9" in text(ana.get(f"/players/{ana_id}?game=tute2"))
    # Luis's page reads the same standings: the older season's as kept, and in the hand-made ones he is not placed.
    luis_page = text(ana.get(f"/players/{luis_id}?game=tute2"))
    assert f"Season {older} Place 1 of 2" in luis_page and f"Season {old} Place" not in luis_page
    # A match started today leaves the seasons that are over as kept.
    start(ana, "tute2", ["Ana", "Luis"])
    assert kept_standings(app) == {old_year: True, older_year: True}
    # A change of a match of a season (an import, here) makes it stale, and those after it.
    import_matches(app, [tute(datetime(older, 6, 1, 19, tzinfo=UTC), "Ana", "Carmen")])
    assert kept_standings(app) == {old_year: False, older_year: False}
    shown = text(ana.get(f"/players/{ana_id}?game=tute2"))
    assert f"Season {old} Place 1 of 2 3 points" in shown and f"Season {older} Place 1 of 3 3 points" in shown
    assert kept_standings(app) == {old_year: True, older_year: True}
    # The season under way is counted at each look, and not kept: each deal would make it stale.
    import_matches(app, [tute(datetime(THIS_YEAR, 1, 1, 19, tzinfo=UTC), "Ana", "Luis")])
    assert f"Season {THIS_YEAR} Place 1 of 2" in text(ana.get(f"/players/{ana_id}?game=tute2"))
    assert seasons.standings_figure("tute2", seasons.calendar_year(THIS_YEAR)) not in kept_standings(app)


def test_a_named_season_named_again_or_forgotten_forgets_its_kept_standings(ana: Browser, app: Flask) -> None:
    old = THIS_YEAR - 1
    import_matches(app, [tute(datetime(old, 5, 1, 19, tzinfo=UTC), "Ana", "Luis")])
    with app.app_context():
        rules = services.SeasonRules("Liga de primavera", date(old, 3, 1), date(old, 5, 31))
        season_id = services.name_season(user(app), rules).id
    ana_id = player_id(app, "Ana")
    assert "Liga de primavera Place 1 of 2 3 points" in text(ana.get(f"/players/{ana_id}?game=tute2"))
    spring = seasons.standings_figure("tute2", seasons.SeasonSpan(None, rules.starts_on, rules.ends_on, LeaguePoints()))
    assert kept_standings(app)[spring]
    with app.app_context():
        services.change_season(user(app), season_id, replace(rules, win_points=2))
    assert spring not in kept_standings(app)
    assert "Liga de primavera Place 1 of 2 2 points" in text(ana.get(f"/players/{ana_id}?game=tute2"))
    with app.app_context():
        services.delete_season(user(app), season_id)
    assert len(kept_standings(app)) == 1  # the calendar year's alone


def player_id(app: Flask, name: str) -> int:
    with app.app_context():
        found = db.session.scalar(select(Player.id).where(Player.name == name))
        assert found is not None
        return found


def test_the_upgrade_that_began_keeping_running_sums_sums_earlier_results(
    ana: Browser, app: Flask, database_url: str, tmp_path: Path
) -> None:
    import_matches(
        app,
        [
            tute(AT, "Ana", "Luis"),
            tute(AT + timedelta(hours=1), "Luis", "Ana"),
            pocha_tie(AT + timedelta(hours=2), ("Ana", "Luis", "Carmen")),
            played(AT + timedelta(hours=3), players=("Ana", "Luis")),  # still being played
        ],
    )

    def sums() -> list[tuple[Any, ...]]:
        with app.app_context():
            columns = (
                PlayerResult.match_id,
                PlayerResult.seat,
                PlayerResult.shared,
                PlayerResult.run_finished,
                PlayerResult.run_won,
                PlayerResult.run_shared,
                PlayerResult.run_points,
            )
            return [
                tuple(row)
                for row in db.session.execute(select(*columns).order_by(PlayerResult.match_id, PlayerResult.seat))
            ]

    before = sums()
    assert any(row[2] for row in before) and max(row[3] for row in before) == 2
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
    migrate_to(database_url, tmp_path, "0020", down=True)
    migrate_to(database_url, tmp_path, "0021")
    assert sums() == before


# ---------------------------------------------------------------- the API


def test_the_api_lists_the_seasons_and_answers_their_tables_as_documented(api: Api, app: Flask) -> None:
    document = app.test_client().get("/api/v1/openapi.json").get_json()
    import_matches(app, [tute(datetime(2025, 5, 1, tzinfo=UTC), "Luis", "Ana"), tute(AT, "Ana", "Luis")])
    with app.app_context():
        rules = services.SeasonRules("Liga de otoño", date(2026, 1, 1), date(2026, 6, 30), 2, 1, 0, best_of=4)
        season_id = services.name_season(user(app), rules).id
    listed = check_answer(document, api.get("/api/v1/seasons"), "/seasons", "get")
    assert [(season["year"], season["id"], season["name"]) for season in listed] == [
        (2026, None, None),
        (2025, None, None),
        (None, season_id, "Liga de otoño"),
    ]
    assert listed[2]["points"] == {"win": 2, "shared": 1, "other": 0} and listed[2]["best_of"] == 4
    year = check_answer(document, api.get("/api/v1/seasons/years/2026/tute2"), "/seasons/years/{year}/{game}", "get")
    assert [(line["place"], line["player"], line["points"], line["played"]) for line in year["lines"]] == [
        (1, "Ana", 3, 1),
        (2, "Luis", 0, 1),
    ]
    named = check_answer(
        document, api.get(f"/api/v1/seasons/{season_id}/tute2?best=1"), "/seasons/{season_id}/{game}", "get"
    )
    assert named["best_of"] == 1 and named["lines"][0]["points"] == 2 and named["season"]["name"] == "Liga de otoño"
    for wrong in (
        "/api/v1/seasons/years/2026/mus",
        f"/api/v1/seasons/{season_id + 1}/tute2",
        "/api/v1/seasons/years/99999/tute2",
    ):
        assert api.get(wrong).status_code == 404
    refused = api.get("/api/v1/seasons/years/2026/tute2?best=0")
    check_answer(document, refused, "/seasons/years/{year}/{game}", "get")
    assert refused.status_code == 400


def test_an_export_carries_the_named_seasons_and_an_import_brings_them_back_once(ana: Browser, app: Flask) -> None:
    with app.app_context():
        rules = services.SeasonRules("Liga de otoño", date(2026, 9, 1), date(2026, 11, 30), 2, 1, 0, best_of=10)
        services.name_season(user(app), rules)
        exported = transfer.export_data("ana")
        assert exported["accounts"][0]["seasons"] == [
            {
                "name": "Liga de otoño",
                "starts_on": "2026-09-01",
                "ends_on": "2026-11-30",
                "win_points": 2,
                "shared_points": 1,
                "other_points": 0,
                "best_of": 10,
            }
        ]
        again = services.import_accounts(transfer.read_export(exported))
        assert again["seasons"] == 0
        exported["accounts"][0]["username"] = "carmen"
        assert services.import_accounts(transfer.read_export(exported))["seasons"] == 1
        carmen = services.user_named("carmen")
        assert carmen is not None
        assert [(season.name, season.points.best_of) for season in seasons.named_seasons(carmen)] == [
            ("Liga de otoño", 10)
        ]
        # A file from before seasons had none; a wrong season is named with what is wrong.
        del exported["accounts"][0]["seasons"]
        assert transfer.read_export(exported)[0]["seasons"] == []
        exported["accounts"][0]["seasons"] = [
            {
                "name": "Liga",
                "starts_on": "2026-09-01",
                "ends_on": "2026-08-01",
                "win_points": 3,
                "shared_points": 1,
                "other_points": 0,
                "best_of": None,
            },
            {"name": "Liga", "starts_on": "0001-01-01", "ends_on": "0001-12-31"},
            {
                "name": "Liga",
                "starts_on": "9999-01-01",
                "ends_on": "9999-12-31",
                "win_points": 3,
                "shared_points": 1,
                "other_points": 0,
                "best_of": None,
            },
            {
                "name": "Liga",
                "starts_on": "2026-01-01",
                "ends_on": "2026-12-31",
                "win_points": 1,
                "shared_points": 3,
                "other_points": 0,
                "best_of": 5000,
            },
        ]
        try:
            transfer.read_export(exported)
        except transfer.DamagedFile as error:
            assert error.problems == [
                "account 1, season 1: The last day comes before the first.",
                "account 1, season 2: gives points or a best of that are not whole numbers.",
                "account 1, season 3: Choose a day in the years 1900 to 9998.",
                "account 1, season 4: A win alone gives at least a shared win, and that at least any other result.",
            ]
        else:
            raise AssertionError("a damaged season was read")


def season_names(app: Flask, username: str = "ana") -> list[str]:
    """Return the names of the account's named seasons, in the order they were named."""
    with app.app_context():
        account = services.user_named(username)
        assert account is not None
        return list(db.session.scalars(select(Season.name).where(Season.user_id == account.id).order_by(Season.id)))


def test_an_export_holding_twin_seasons_imports_every_one_named_apart_and_once(ana: Browser, app: Flask) -> None:
    def season(name: str, first: str = "2026-09-01", points: int = 3) -> dict[str, Any]:
        return {
            "name": name,
            "starts_on": first,
            "ends_on": "2026-11-30",
            "win_points": points,
            "shared_points": 1,
            "other_points": 0,
            "best_of": None,
        }

    with app.app_context():
        services.name_season(user(app), services.SeasonRules("Liga", date(2026, 1, 1), date(2026, 6, 30)))
        exported = transfer.export_data("ana")
    # Seasons named alike on two phones at the same moment, as an earlier version let them be, and
    # one of the account's name with other days; a name at the longest a season's name is.
    long_name = "Campeonato de invierno del bar de Pepe 2"
    assert len(long_name) == 40
    exported["accounts"][0]["seasons"] = [
        season("Liga de otoño"),
        season("liga de OTOÑO"),
        season("Liga de otoño", points=2),
        season("Liga"),
        season(long_name),
        season(long_name, first="2026-10-01"),
    ]
    with app.app_context():
        report = services.import_accounts(transfer.read_export(exported))
    assert report["seasons"] == 6
    assert season_names(app) == [
        "Liga",
        "Liga de otoño",
        "liga de OTOÑO (2)",
        "Liga de otoño (3)",
        "Liga (2)",
        long_name,
        "Campeonato de invierno del bar de Pe (2)",
    ]
    # Every season of the file is there, under its name or named apart: the same file adds nothing more.
    with app.app_context():
        assert services.import_accounts(transfer.read_export(exported))["seasons"] == 0
    assert len(season_names(app)) == 7


def test_the_upgrade_that_names_seasons_once_keeps_twins_named_apart(
    ana: Browser, app: Flask, database_url: str, tmp_path: Path
) -> None:
    with app.app_context():
        for name in ("Liga", "Verano (2)"):
            services.name_season(user(app), services.SeasonRules(name, date(2026, 1, 1), date(2026, 6, 30)))
        db.session.remove()
        db.engine.dispose()
    migrate_to(database_url, tmp_path, "0024", down=True)
    with app.app_context():  # as two phones could name them before: twins, in any case
        ana_id = user(app).id
        for name in ("LIGA", "Verano", "verano", "Liga"):
            db.session.execute(
                Season.__table__.insert().values(
                    user_id=ana_id,
                    name=name,
                    starts_on=date(2026, 7, 1),
                    ends_on=date(2026, 8, 31),
                    win_points=3,
                    shared_points=1,
                    other_points=0,
                    created_at=AT,
                )
            )
        db.session.commit()
        db.session.remove()
        db.engine.dispose()
    migrate_to(database_url, tmp_path, "head")
    assert season_names(app) == ["Liga", "Verano (2)", "LIGA (2)", "Verano", "verano (3)", "Liga (3)"]
    # From now on the database keeps them apart itself.
    with app.app_context():
        twin = Season(
            user_id=ana_id, name="liga", name_key="liga", starts_on=date(2026, 1, 1), ends_on=date(2026, 2, 1)
        )
        db.session.add(twin)
        with pytest.raises(IntegrityError):
            db.session.commit()
        db.session.rollback()
