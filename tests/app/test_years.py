"""The year at the table: each figure against hand-made matches with known answers (hours from the
deals, a winning streak across midnight and a year's end, cantes and tutes, the biggest comeback, the
best pair, the most frequent rivalry, each game's champion), a player's year, the page and its card,
how a kept year is made stale and worked out again, and the upgrade that began keeping comebacks."""

from __future__ import annotations

import io
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytz
from flask import Flask
from PIL import Image
from sqlalchemy import select

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.figures import years
from scorekeeper.figures.stale_years import make_years_stale
from scorekeeper.models import Player, PlayerResult, YearReview
from scorekeeper.services import kept as kept_figures

from ..conftest import Browser
from .matchhelpers import start, tute_form
from .test_killed_upgrades import migrate_to
from .test_matches import text
from .test_nights import import_matches
from .test_seasons import user

MADRID = pytz.timezone("Europe/Madrid")
EVENING = datetime(2026, 3, 7, 19, 0, tzinfo=UTC)
#: The year the tests run in, and a moment at its start: a match started in a test is of this year.
THIS_YEAR = datetime.now(UTC).year
NEW_YEAR_NOW = datetime(THIS_YEAR, 1, 1, 0, 1, tzinfo=UTC)


def match_of(
    start_at: datetime,
    game: str,
    players: tuple[str, ...],
    deals: list[dict[str, Any]],
    minutes: list[int],
    **options: Any,
) -> dict[str, Any]:
    """Return a finished match as an import carries it: these deals, entered these many minutes after `start_at`."""
    dates = [(start_at + timedelta(minutes=m), start_at + timedelta(minutes=m)) for m in minutes]
    return {
        "uid": uuid.uuid4().hex,
        "status": "finished",
        "first_dealer": 0,
        "pending": None,
        "document": {"game": game, "players": list(players), "options": options, "deals": deals},
        "created_at": start_at,
        "updated_at": dates[-1][0],
        "ended_at": dates[-1][0],
        "deal_dates": dates,
        "note": None,
    }


def tute_won(
    start_at: datetime, winner: str, loser: str, *, cantes: list[tuple[int, str]] | None = None
) -> dict[str, Any]:
    """Return a match of Tute for two to one juego, won by `winner` (seat 0) in one deal entered 20 minutes in."""
    deal: dict[str, Any] = {"dealer": 0, "trump": "oros", "points": [80, 40], "last_trick": 0}
    if cantes:
        deal["cantes"] = [{"seat": seat, "suit": suit} for seat, suit in cantes]
    return match_of(start_at, "tute2", (winner, loser), [deal], [20], target=1)


def pocha(
    start_at: datetime, players: tuple[str, str, str], bids_and_tricks: list[tuple[list[int], list[int]]]
) -> dict[str, Any]:
    """Return a Pocha match of one-card deals (bids, tricks), a deal every 10 minutes."""
    deals = [
        {"dealer": number % 3, "cards": 1, "trump": None, "bids": bids, "tricks": tricks}
        for number, (bids, tricks) in enumerate(bids_and_tricks)
    ]
    minutes = [10 * (number + 1) for number in range(len(deals))]
    return match_of(start_at, "pocha", players, deals, minutes, schedule=[1] * len(deals), hook=False)


def review(app: Flask, year: int, zone: Any = pytz.UTC, player: str | None = None) -> dict[str, Any]:
    """Return the year's review as worked out now, of the table or of the player named."""
    with app.app_context():
        account = user(app)
        player_id = years.WHOLE_TABLE
        if player is not None:
            player_id = player_id_of(app, player)
        return years.work_out_year(account, year, zone, player_id)


def player_id_of(app: Flask, name: str) -> int:
    with app.app_context():
        return int(
            db.session.scalars(select(Player.id).where(Player.user_id == user(app).id, Player.name == name)).one()
        )


def names(app: Flask, ids: list[int]) -> list[str]:
    with app.app_context():
        found = years.player_names(user(app), ids)
    return [found[player_id] for player_id in ids]


# ---------------------------------------------------------------- the counts


def test_a_year_counts_its_matches_nights_and_hours_from_the_first_deal_to_the_last(ana: Browser, app: Flask) -> None:
    import_matches(
        app,
        [
            # One night: Pocha from 19:10 to 19:30, then Tute from 19:40 (its deal at 20:00): 50 minutes.
            pocha(EVENING, ("Ana", "Luis", "Carmen"), [([0, 1, 0], [0, 1, 0]), ([0, 1, 0], [0, 1, 0])]),
            tute_won(EVENING + timedelta(minutes=40), "Ana", "Luis"),
            # A night a week later with two deals 70 minutes apart.
            pocha(
                EVENING + timedelta(days=7),
                ("Ana", "Luis", "Carmen"),
                [([0, 1, 0], [0, 1, 0])] * 8,
            ),
            # The year before stays out.
            tute_won(datetime(2025, 12, 30, 20, tzinfo=UTC), "Luis", "Ana"),
        ],
    )
    year = review(app, 2026)
    assert year["matches"] == {"pocha": 2, "tute2": 1}
    assert (year["nights"], year["seconds"]) == (2, 50 * 60 + 70 * 60)
    luis = review(app, 2026, player="Luis")
    assert luis["matches"] == {"pocha": 2, "tute2": 1} and luis["won"] == {"pocha": 2, "tute2": 0}
    # Carmen sat in neither Tute match: her first night ended with her last Pocha deal at 19:20.
    carmen = review(app, 2026, player="Carmen")
    assert (carmen["nights"], carmen["seconds"]) == (2, 10 * 60 + 70 * 60)
    assert review(app, 2025)["matches"] == {"tute2": 1} and review(app, 2024)["matches"] == {}


def test_a_night_across_new_year_counts_once_in_the_year_it_began(ana: Browser, app: Flask) -> None:
    # 22:00 on New Year's Eve and 00:30 (UTC): one night, from 22:20 to 00:50, in 2026 alone.
    import_matches(
        app,
        [
            tute_won(datetime(2026, 12, 31, 22, tzinfo=UTC), "Ana", "Luis"),
            tute_won(datetime(2027, 1, 1, 0, 30, tzinfo=UTC), "Ana", "Luis"),
        ],
    )
    assert (review(app, 2026)["nights"], review(app, 2026)["seconds"]) == (1, 150 * 60)
    assert (review(app, 2027)["nights"], review(app, 2027)["seconds"]) == (0, 0)
    # Its matches count in the years they ended.
    assert review(app, 2026)["matches"] == review(app, 2027)["matches"] == {"tute2": 1}


def test_each_game_s_champion_leads_its_year_table(ana: Browser, app: Flask) -> None:
    import_matches(
        app,
        [
            tute_won(EVENING, "Ana", "Luis"),
            tute_won(EVENING + timedelta(hours=1), "Ana", "Luis"),
            tute_won(EVENING + timedelta(hours=2), "Luis", "Ana"),
            pocha(EVENING, ("Ana", "Luis", "Carmen"), [([0, 0, 1], [0, 0, 1])]),
        ],
    )
    champions = review(app, 2026)["champions"]
    assert [(c["game"], names(app, c["player_ids"]), c["points"]) for c in champions] == [
        ("tute2", ["Ana"], 6),
        ("pocha", ["Carmen"], 3),
    ]
    places = review(app, 2026, player="Luis")["champions"]
    assert [(p["game"], p["place"], p["of"], p["points"]) for p in places] == [("tute2", 2, 2, 3), ("pocha", 2, 3, 0)]


# ---------------------------------------------------------------- the records


def test_a_winning_streak_runs_across_midnight_but_ends_with_the_year_in_the_zone_s_days(
    ana: Browser, app: Flask
) -> None:
    at = datetime(2026, 12, 30, 22, 30, tzinfo=UTC)
    winners = [
        (at, "Ana"),  # 23:30 in Madrid
        (at + timedelta(hours=1), "Ana"),  # 00:30 on the 31st
        (at + timedelta(hours=2), "Ana"),
        (at + timedelta(hours=3, minutes=30), "Luis"),
        (datetime(2026, 12, 31, 21, 30, tzinfo=UTC), "Ana"),  # 22:30 in Madrid
        (datetime(2026, 12, 31, 23, 0, tzinfo=UTC), "Ana"),  # New Year's Day in Madrid, not in UTC
        (datetime(2027, 1, 1, 0, 30, tzinfo=UTC), "Ana"),
    ]
    import_matches(app, [tute_won(moment, winner, "Luis" if winner == "Ana" else "Ana") for moment, winner in winners])

    def streak(year: int, zone: Any) -> tuple[str, int, str, str]:
        found = review(app, year, zone)["streak"]
        return names(app, [found["player_id"]])[0], found["length"], found["from"][:10], found["to"][:10]

    # The three wins across midnight, their matches ending 20 minutes after each start.
    assert streak(2026, pytz.UTC) == ("Ana", 3, "2026-12-30", "2026-12-31")
    assert streak(2026, MADRID) == ("Ana", 3, "2026-12-30", "2026-12-31")
    # In Madrid the 23:00 (UTC) match opens 2027: two in a row there, one in UTC's 2027.
    assert streak(2027, MADRID)[:2] == ("Ana", 2)
    assert streak(2027, pytz.UTC)[:2] == ("Ana", 1)
    # Luis's one win is a streak of one of his own.
    assert review(app, 2026, player="Luis")["streak"]["length"] == 1


def test_the_most_cantes_and_tutes_are_counted_over_the_year(ana: Browser, app: Flask) -> None:
    # Trumps are oros: a cante in oros is worth 40, in another suit 20.
    tute_with_a_tute = match_of(
        EVENING + timedelta(hours=2),
        "tute2",
        ("Luis", "Ana"),
        [{"dealer": 0, "trump": "oros", "last_trick": None, "tute": {"seat": 0, "kind": "reyes"}}],
        [20],
        target=1,
    )
    import_matches(
        app,
        [
            tute_won(EVENING, "Ana", "Luis", cantes=[(0, "oros"), (0, "copas")]),
            tute_won(EVENING + timedelta(hours=1), "Ana", "Luis", cantes=[(0, "espadas"), (1, "bastos")]),
            tute_with_a_tute,
        ],
    )
    year = review(app, 2026)
    assert (names(app, [year["cantes"]["player_id"]]), year["cantes"]["twenties"], year["cantes"]["forties"]) == (
        ["Ana"],
        2,
        1,
    )
    assert (names(app, [year["tutes"]["player_id"]]), year["tutes"]["tutes"]) == (["Luis"], 1)
    luis = review(app, 2026, player="Luis")
    assert (luis["cantes"]["twenties"], luis["cantes"]["forties"], luis["tutes"]["tutes"]) == (1, 0, 1)
    assert review(app, 2026, player="Ana")["tutes"] is None


def test_the_biggest_comeback_is_the_most_points_a_winner_trailed_by(ana: Browser, app: Flask) -> None:
    players = ("Ana", "Luis", "Carmen")
    # Ana: −5 against Carmen's 10 (15 behind), then 10 against 20 (10 behind), then 25 against 15 and 15.
    comeback = pocha(EVENING, players, [([1, 0, 0], [0, 1, 0]), ([1, 0, 0], [1, 0, 0]), ([1, 0, 1], [1, 0, 0])])
    # Carmen leads from the first deal to the last: no comeback.
    ahead_all_along = pocha(EVENING + timedelta(hours=1), players, [([0, 0, 1], [0, 0, 1])] * 2)
    import_matches(app, [comeback, ahead_all_along])
    year = review(app, 2026)["comeback"]
    assert (names(app, year["player_ids"]), year["deficit"], year["game"]) == (["Ana"], 15, "pocha")
    assert review(app, 2026, player="Carmen")["comeback"] is None
    # Tute to juegos is won on juegos: Luis, 90 card points behind after the first deal, then two juegos up,
    # made no comeback on the scoreboard's totals.
    juegos = match_of(
        EVENING + timedelta(hours=2),
        "tute2",
        ("Luis", "Ana"),
        [
            {"dealer": 0, "trump": "oros", "points": [20, 100], "last_trick": 1},
            {"dealer": 1, "trump": "oros", "points": [100, 20], "last_trick": 0},
            {"dealer": 0, "trump": "oros", "points": [100, 20], "last_trick": 0},
        ],
        [10, 20, 30],
        target=2,
    )
    import_matches(app, [juegos])
    assert review(app, 2026, player="Luis")["comeback"] is None
    with app.app_context():
        kept = db.session.scalars(select(PlayerResult.comeback).order_by(PlayerResult.match_id, PlayerResult.seat))
        assert list(kept)[:6] == [15, 0, 0, 0, 0, 0]


def test_the_best_pair_won_most_together_and_the_top_rivalry_met_most(ana: Browser, app: Flask) -> None:
    # Tute for four: seats 0 and 2 against 1 and 3; Ana and Luis win two of three, Carmen and Pedro one.
    seats = ("Ana", "Carmen", "Luis", "Pedro")
    deal = {"dealer": 0, "trump": "oros", "points": [80, 40], "last_trick": 0}
    lost = {"dealer": 0, "trump": "oros", "points": [40, 80], "last_trick": 1}
    fours = [
        match_of(EVENING + timedelta(hours=hour), "tute4", seats, [played], [20], target=1)
        for hour, played in enumerate([deal, deal, lost])
    ]
    # Ana meets Carmen once more, at Tute for two: four meetings, the most of any two.
    import_matches(app, [*fours, tute_won(EVENING + timedelta(hours=5), "Carmen", "Ana")])
    year = review(app, 2026)
    assert (names(app, year["pair"]["player_ids"]), year["pair"]["won"], year["pair"]["together"]) == (
        ["Ana", "Luis"],
        2,
        3,
    )
    rivalry = year["rivalry"]
    assert (names(app, rivalry["player_ids"]), rivalry["met"], rivalry["wins"]) == (["Ana", "Carmen"], 4, [2, 2])
    pedro = review(app, 2026, player="Pedro")
    assert names(app, pedro["pair"]["player_ids"]) == ["Pedro", "Carmen"] and pedro["pair"]["won"] == 1
    assert pedro["rivalry"]["met"] == 3


# ---------------------------------------------------------------- the pages and the card


def test_the_year_page_shows_its_figures_links_each_player_s_year_and_sends_its_card(
    ana: Browser, bea: Browser, app: Flask
) -> None:
    import_matches(app, [tute_won(EVENING, "Ana", "Luis"), tute_won(EVENING + timedelta(hours=1), "Ana", "Luis")])
    assert ana.get("/years/").headers["Location"].endswith("/years/2026")
    page = text(ana.get("/years/2026"))
    assert "2026 at the table" in page and "Champion of Tute (two players)" in page and "2 wins in a row" in page
    assert "Most frequent rivalry" in page and "Send the result" in page
    luis_id = player_id_of(app, "Luis")
    mine = text(ana.get(f"/years/2026/players/{luis_id}"))
    assert "Luis's 2026 at the table" in mine and "Place 2 of 2" in mine and "Most frequent rival " in mine
    for address in ("/years/2026/card.png", f"/years/2026/players/{luis_id}/card.png?theme=dark"):
        answer = ana.get(address)
        assert answer.status_code == 200 and answer.mimetype == "image/png"
        assert Image.open(io.BytesIO(answer.data)).size == (1200, 630)
        assert ana.get(address, headers={"If-None-Match": answer.headers["ETag"]}).status_code == 304
    # A year with nothing finished says so; another account's player and years out of range are not there.
    assert "No match was finished in 2020." in text(ana.get("/years/2020"))
    assert bea.get(f"/years/2026/players/{luis_id}").status_code == 404
    assert ana.get("/years/10000").status_code == 404 and ana.get("/years/2026/players/0").status_code == 404
    assert "Luis's 2026 at the table" in text(ana.get(f"/players/{luis_id}"))


def kept(app: Flask) -> dict[tuple[int, int], bool]:
    """Return the account's kept years as {(year, player id): whether a review is stored}."""
    with app.app_context():
        rows = db.session.execute(
            select(YearReview.year, YearReview.player_id, YearReview.review).where(YearReview.figure == "year")
        )
        return {(year, player): review is not None for year, player, review in rows}


def test_a_kept_year_is_read_until_a_change_of_its_days_makes_it_stale(ana: Browser, app: Flask) -> None:
    # This year and one two years back: a change made today reaches back two days at most.
    this, old = THIS_YEAR, THIS_YEAR - 2
    import_matches(
        app,
        [tute_won(datetime(old, 5, 1, 19, tzinfo=UTC), "Ana", "Luis"), tute_won(NEW_YEAR_NOW, "Luis", "Ana")],
    )
    assert "1 win in a row" in text(ana.get(f"/years/{old}"))
    assert f"{this} at the table" in text(ana.get(f"/years/{this}"))
    assert kept(app) == {(old, 0): True, (this, 0): True}
    # Kept, it is read as stored: a review changed by hand shows (the page does not work it out again).
    with app.app_context():
        row = db.session.scalars(select(YearReview).where(YearReview.year == old)).one()
        row.review = {**row.review, "nights": 41}
        db.session.commit()
    assert "41" in text(ana.get(f"/years/{old}"))
    # A match started today leaves the older year as kept, and makes this year's stale.
    start(ana, "tute2", ["Ana", "Luis"])
    assert kept(app) == {(old, 0): True, (this, 0): False}
    # A change of an older match (an import, here) makes every year from then on stale.
    import_matches(app, [tute_won(datetime(old, 6, 1, 19, tzinfo=UTC), "Luis", "Ana")])
    assert kept(app) == {(old, 0): False, (this, 0): False}
    page = text(ana.get(f"/years/{old}"))
    assert "41" not in page and "Most frequent rivalry" in page and kept(app)[(old, 0)]


def test_a_deal_of_a_match_being_played_makes_its_year_stale(ana: Browser, app: Flask) -> None:
    # Each deal moves the night's hours at the table: on PostgreSQL the years are made stale by the
    # statement that stores the deal, on SQLite by a statement of their own.
    import_matches(app, [tute_won(NEW_YEAR_NOW, "Ana", "Luis")])
    match = start(ana, "tute2", ["Ana", "Luis"]).headers["Location"]
    ana.get(f"/years/{THIS_YEAR}")
    assert kept(app) == {(THIS_YEAR, 0): True}
    assert ana.post(f"{match}/deal", data=tute_form(70, 0)).status_code == 302
    assert kept(app) == {(THIS_YEAR, 0): False}
    ana.get(f"/years/{THIS_YEAR}")
    with app.app_context():
        stored = db.session.scalars(select(YearReview.review).where(YearReview.year == THIS_YEAR)).one()
    assert stored["nights"] == 2 and stored == review(app, THIS_YEAR)


def test_a_year_made_stale_while_it_was_worked_out_is_not_stored(ana: Browser, app: Flask) -> None:
    import_matches(app, [tute_won(EVENING, "Ana", "Luis")])
    with app.app_context():
        key = {"user_id": user(app).id, "year": 2026, "zone": "UTC", "player_id": 0, "figure": "year"}
        (read_at,) = kept_figures._keep_rows([key])
        review = years.work_out_year(user(app), 2026, pytz.UTC)
        make_years_stale(user(app).id, EVENING)  # a deal entered meanwhile, by another phone
        db.session.commit()
        kept_figures._store([(key, read_at, review)])
    assert kept(app) == {(2026, 0): False}
    with app.app_context():
        assert services.year_review(user(app), 2026, pytz.UTC) == review
    assert kept(app) == {(2026, 0): True}


def test_years_to_come_and_years_with_nothing_played_are_not_kept(ana: Browser, app: Flask) -> None:
    import_matches(app, [tute_won(EVENING, "Ana", "Luis")])
    for year in (2020, 2026, 2040):
        assert ana.get(f"/years/{year}").status_code == 200
    assert kept(app) == {(2026, 0): True}


def test_recompute_forgets_the_kept_years(ana: Browser, app: Flask) -> None:
    import_matches(app, [tute_won(EVENING, "Ana", "Luis")])
    ana.get("/years/2026")
    assert kept(app) == {(2026, 0): True}
    result = app.test_cli_runner().invoke(args=["recompute"])
    assert result.exit_code == 0, result.output
    assert kept(app) == {(2026, 0): False}


def test_the_0023_upgrade_keeps_each_win_s_comeback_as_a_rebuild_does(
    ana: Browser, app: Flask, database_url: str, tmp_path: Path
) -> None:
    players = ("Ana", "Luis", "Carmen")
    import_matches(
        app,
        [
            pocha(EVENING, players, [([1, 0, 0], [0, 1, 0]), ([1, 0, 0], [1, 0, 0]), ([1, 0, 1], [1, 0, 0])]),
            tute_won(EVENING + timedelta(hours=1), "Ana", "Luis"),
        ],
    )

    def comebacks() -> list[tuple[int, int, int]]:
        with app.app_context():
            columns = (PlayerResult.match_id, PlayerResult.seat, PlayerResult.comeback)
            return [tuple(row) for row in db.session.execute(select(*columns).order_by(*columns[:2]))]  # type: ignore[misc]

    before = comebacks()
    assert [row[2] for row in before] == [15, 0, 0, 0, 0]
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
    migrate_to(database_url, tmp_path, "0022", down=True)
    migrate_to(database_url, tmp_path, "0023")
    assert comebacks() == before
