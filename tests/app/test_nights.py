"""Game nights: matches fall into nights by themselves (across midnight, time zones, a change of
daylight-saving time, overlapping matches, the exact gap), the account's gap regroups them, the
pages and the API show them, and their pages ask as many queries for 500 nights as for 10."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import Connection, delete, insert, select

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.figures import nights as night_reads
from scorekeeper.models import Deal, Match, PlayerResult, User

from ..conftest import Browser, signed_in
from .matchhelpers import start, tute_form
from .sql import statements_sent
from .test_api import Api, api  # noqa: F401  (the fixture)
from .test_matches import text

T0 = datetime(2026, 3, 7, 19, 0, tzinfo=UTC)


def played(
    start_at: datetime,
    minutes: list[int] | None = None,
    *,
    players: tuple[str, ...] = ("Ana", "Luis"),
    won_by: int = 0,
    game: str = "tute2",
    note: str | None = None,
) -> dict[str, Any]:
    """Return a finished match (one deal per entry of `minutes`, each that many minutes after the start)
    as an import carries it; without `minutes`, a match without deals, still being played."""
    deal = {"dealer": 0, "trump": "oros", "points": [80, 40] if won_by == 0 else [30, 90], "last_trick": 0}
    document: dict[str, Any] = {
        "game": game,
        "players": list(players),
        "options": {"target": 1},
        "deals": [dict(deal)] if minutes else [],
    }
    if game == "pocha":
        document["options"] = {"schedule": [1], "hook": False}
        tricks = [1 if seat == won_by else 0 for seat in range(len(players))]
        document["deals"] = (
            [{"dealer": 0, "cards": 1, "trump": None, "bids": tricks, "tricks": tricks}] if minutes else []
        )
    dates = [(start_at + timedelta(minutes=m), start_at + timedelta(minutes=m)) for m in (minutes or [])[:1]]
    last = dates[-1][0] if dates else start_at
    return {
        "uid": uuid.uuid4().hex,
        "status": "finished" if minutes else "playing",
        "first_dealer": 0,
        "pending": None,
        "document": document,
        "created_at": start_at,
        "updated_at": last,
        "ended_at": last if minutes else None,
        "deal_dates": dates,
        "note": note,
    }


def import_matches(app: Flask, matches: list[dict[str, Any]], username: str = "ana") -> None:
    with app.app_context():
        user = services.user_named(username)
        services.import_accounts(
            [{"username": username, "password_hash": "", "created_at": T0, "players": [], "matches": matches}],
            into=user,
        )


def nights_of(app: Flask, username: str = "ana") -> list[list[str]]:
    """Return the account's nights as lists of their matches' uids, in the order the matches started."""
    with app.app_context():
        user = services.user_named(username)
        assert user is not None
        rows = db.session.execute(
            select(Match.uid, Match.night_id).where(Match.user_id == user.id).order_by(Match.created_at, Match.id)
        )
        nights: dict[int, list[str]] = {}
        for uid, night in rows:
            assert night is not None
            nights.setdefault(night, []).append(uid)
        return list(nights.values())


def uids(matches: list[dict[str, Any]]) -> list[str]:
    return [match["uid"] for match in matches]


# ---------------------------------------------------------------- grouping


def test_a_pause_shorter_than_the_gap_keeps_the_night_and_exactly_the_gap_begins_a_new_one(
    ana: Browser, app: Flask
) -> None:
    first = played(T0, [30])  # 19:00, last deal 19:30
    second = played(T0 + timedelta(hours=4, minutes=29), [20])  # 23:29, 3 h 59 min later: same night
    third = played(T0 + timedelta(hours=8, minutes=49), [10])  # 03:49, exactly 4 h after 23:49: a new one
    import_matches(app, [first, second, third])
    assert nights_of(app) == [uids([first, second]), uids([third])]


def test_a_night_runs_past_midnight_and_keeps_the_day_it_began(ana: Browser, app: Flask) -> None:
    late = datetime(2026, 3, 7, 22, 30, tzinfo=UTC)
    matches = [played(late, [40]), played(late + timedelta(hours=1, minutes=45), [30])]  # 00:15 the next day
    import_matches(app, matches)
    assert nights_of(app) == [uids(matches)]
    page = text(ana.get("/nights"))
    assert "Mar 7, 2026" in page and "Mar 8, 2026" not in page


def test_overlapping_matches_share_their_night_through_the_latest_last_deal(ana: Browser, app: Flask) -> None:
    long_one = played(T0, [300])  # 19:00, last deal at 00:00
    side = played(T0 + timedelta(minutes=10), [5])  # started while the first was running
    # Five hours after the side match's last deal, but less than 4 after the long one's: same night.
    late = played(T0 + timedelta(hours=7, minutes=30), [10])
    import_matches(app, [long_one, side, late])
    assert nights_of(app) == [uids([long_one, side, late])]


def test_a_match_without_deals_ends_where_it_began(ana: Browser, app: Flask) -> None:
    empty = played(T0)
    later = played(T0 + timedelta(hours=3, minutes=59), [10])
    apart = played(T0 + timedelta(hours=9), [10])
    import_matches(app, [empty, later, apart])
    assert nights_of(app) == [uids([empty, later]), uids([apart])]


def test_the_same_matches_make_the_same_nights_in_every_time_zone_and_show_local_dates(
    ana: Browser, app: Flask
) -> None:
    # 23:30 UTC on 7 March: still the 7th in New York (18:30), already the 8th in Madrid (00:30).
    evening = datetime(2026, 3, 7, 23, 30, tzinfo=UTC)
    matches = [
        played(evening, [30]),
        played(evening + timedelta(hours=2), [30]),
        played(evening + timedelta(days=2), [30]),
    ]
    import_matches(app, matches)
    expected = [uids(matches[:2]), uids(matches[2:])]
    for zone, day in (("America/New_York", "Mar 7, 2026"), ("Europe/Madrid", "Mar 8, 2026")):
        ana.post("/account/time-zone", data={"time_zone": zone})
        assert nights_of(app) == expected
        page = text(ana.get("/nights"))
        assert day in page, zone
        assert page.count("Night") >= 1


def test_a_night_across_the_change_from_summer_time_is_grouped_by_real_hours(ana: Browser, app: Flask) -> None:
    # Madrid, Sunday 25 October 2026: at 03:00 summer time (01:00 UTC) the clocks go back to 02:00.
    first = played(datetime(2026, 10, 24, 23, 0, tzinfo=UTC), [55])  # 01:00 summer time, last deal 01:55
    # 04:55 winter time: 3 hours later by the wall clock, but 4 hours have passed: a new night.
    after = played(datetime(2026, 10, 25, 3, 55, tzinfo=UTC), [20])
    import_matches(app, [first, after])
    assert nights_of(app) == [uids([first]), uids([after])]
    # A match from 02:30 summer time to 02:30 winter time (the hour from 02:00 to 03:00 twice) joins
    # the first night and brings the later match into it: 2 h 25 min after its last deal.
    twice = played(datetime(2026, 10, 25, 0, 30, tzinfo=UTC), [60])
    import_matches(app, [twice])
    assert nights_of(app) == [uids([first, twice, after])]
    ana.post("/account/time-zone", data={"time_zone": "Europe/Madrid"})
    page = text(ana.get("/nights"))
    assert "Oct 25, 2026" in page and "Oct 24, 2026" not in page  # it began at 01:00 on the 25th, Madrid time
    ana.post("/account/time-zone", data={"time_zone": "UTC"})
    assert "Oct 24, 2026" in text(ana.get("/nights"))  # 23:00 on the 24th in UTC


def test_changing_the_gap_regroups_the_nights(ana: Browser, app: Flask) -> None:
    matches = [played(T0, [10]), played(T0 + timedelta(hours=2), [10]), played(T0 + timedelta(hours=7), [10])]
    import_matches(app, matches)
    assert nights_of(app) == [uids(matches[:2]), uids(matches[2:])]
    ana.post("/account/night-gap", data={"night_gap": "1"})
    assert nights_of(app) == [uids(matches[:1]), uids(matches[1:2]), uids(matches[2:])]
    ana.post("/account/night-gap", data={"night_gap": "12"})
    assert nights_of(app) == [uids(matches)]
    assert 'value="12" selected' in ana.get("/account").get_data(as_text=True)
    refused = text(ana.post("/account/night-gap", data={"night_gap": "13"}, follow_redirects=True))
    assert "Choose from 1 to 12 hours." in refused and nights_of(app) == [uids(matches)]


def test_the_nights_follow_deals_undos_and_deletions(ana: Browser, app: Flask) -> None:
    # An old match that ended 4 hours before the second started: two nights.
    first, second = played(T0), played(T0 + timedelta(hours=4))
    import_matches(app, [first, second])
    assert nights_of(app) == [[first["uid"]], [second["uid"]]]
    with app.app_context():
        match = db.session.scalar(select(Match).where(Match.uid == first["uid"]))
        assert match is not None
        # A deal entered now on the first match carries its end far past the second's start.
        services.add_deal(match, {"dealer": 0, "trump": "oros", "points": [70, 50], "last_trick": 0})
    assert nights_of(app) == [[first["uid"], second["uid"]]]
    with app.app_context():
        match = db.session.scalar(select(Match).where(Match.uid == first["uid"]))
        assert match is not None
        services.undo(match)
    assert nights_of(app) == [[first["uid"]], [second["uid"]]]
    with app.app_context():
        match = db.session.scalar(select(Match).where(Match.uid == first["uid"]))
        assert match is not None
        services.delete_match(match)
    assert nights_of(app) == [[second["uid"]]]


def test_a_deal_entered_where_the_database_has_no_update_returning_regroups_the_nights_too(
    ana: Browser, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    # SQLite before 3.35 has no UPDATE ... RETURNING: the later match is then looked for on its own.
    first, second = played(T0), played(T0 + timedelta(hours=4))
    import_matches(app, [first, second])
    with app.app_context():
        monkeypatch.setattr(db.engine.dialect, "update_returning", False)
        match = db.session.scalar(select(Match).where(Match.uid == first["uid"]))
        assert match is not None
        sent = statements_sent(
            app, lambda: services.add_deal(match, {"dealer": 0, "trump": "oros", "points": [70, 50], "last_trick": 0})
        )
    assert any(statement.startswith("SELECT later.id") for statement in sent)
    assert not any("RETURNING (SELECT" in statement for statement in sent)
    assert nights_of(app) == [[first["uid"], second["uid"]]]


def test_a_match_started_at_the_table_joins_tonight(ana: Browser, app: Flask) -> None:
    start(ana, "tute2", ["Ana", "Luis"], opt_target="1")
    ana.post("/matches/1/deal", data=tute_form(80, 0))
    start(ana, "pocha", ["Ana", "Luis", "Carmen"])
    with app.app_context():
        assert [m.night_id for m in db.session.scalars(select(Match).order_by(Match.id))] == [1, 1]


# ---------------------------------------------------------------- the pages


def a_night_of_three(app: Flask) -> list[dict[str, Any]]:
    matches = [
        played(T0, [30], note="At Carmen's"),
        played(T0 + timedelta(hours=1), [30], won_by=1),
        played(T0 + timedelta(hours=2), [30], players=("Ana", "Luis", "Carmen"), game="pocha", won_by=2),
    ]
    import_matches(app, matches)
    return matches


def test_the_nights_page_shows_date_place_games_players_winners_and_points(ana: Browser, app: Flask) -> None:
    a_night_of_three(app)
    page = text(ana.get("/nights"))
    assert "Mar 7, 2026 · At Carmen's" in page
    assert "3 matches · Ana, Luis, Carmen" in page
    # A line for each game: one match each is a tie, both named
    assert "Tute (two players) · 2 matches · winners Ana, Luis Pocha" in page
    assert "Pocha · 1 match · winner Carmen Points, highest first: Carmen 15 · Ana 10 · Luis 10" in page


def pocha(start_at: datetime, cards: int, bids: list[int], tricks: list[int]) -> dict[str, Any]:
    """Return a finished Pocha match of Ana, Luis and Carmen, one deal of `cards` each, as an import carries it."""
    match = played(start_at, [20], players=("Ana", "Luis", "Carmen"), game="pocha")
    match["document"]["options"] = {"schedule": [cards], "hook": False}
    match["document"]["deals"] = [{"dealer": 0, "cards": cards, "trump": None, "bids": bids, "tricks": tricks}]
    return match


def test_a_night_s_card_lists_each_game_s_points_highest_first_whoever_won_more(ana: Browser, app: Flask) -> None:
    import_matches(
        app,
        [
            pocha(T0, 1, [0, 1, 1], [0, 0, 1]),  # Carmen wins: Ana 10, Luis -5, Carmen 15
            pocha(T0 + timedelta(hours=1), 4, [1, 3, 1], [1, 3, 0]),  # Luis wins: Ana 15, Luis 25, Carmen -5
        ],
    )
    page = text(ana.get("/nights"))
    # Luis and Carmen won a match each and Ana none; Ana scored most points
    assert "Pocha · 2 matches · winners Luis, Carmen Points, highest first: Ana 25 · Luis 20 · Carmen 10" in page


def test_a_night_s_page_shows_its_matches_charts_and_standings(ana: Browser, app: Flask) -> None:
    a_night_of_three(app)
    page = ana.get("/nights/1").get_data(as_text=True)
    assert page.count('<svg class="chart"') == 3
    assert "Standings of the night" in page
    plain = text(ana.get("/nights/1"))
    assert "Ana 2 1 Luis 2 1" in plain and "Carmen 1 1 15 Ana 1 0 10 Luis 1 0 10" in plain
    assert ana.get("/nights/2").status_code == 404  # a match that does not begin a night


def between_the_reads(monkeypatch: pytest.MonkeyPatch, *changes: Any) -> None:
    """Have the night's reads see `changes` made after its matches were read and before their results,
    as on PostgreSQL, where each statement of a request reads what was committed when it began."""
    execute = Connection.execute
    pending = list(changes)

    def interrupted(connection: Connection, statement: Any, *args: Any, **kwargs: Any) -> Any:
        if pending and statement is night_reads._seats_statement(connection.dialect.name):
            for change in pending:
                execute(connection, change)
            pending.clear()
        return execute(connection, statement, *args, **kwargs)

    # The nights' reads run on the session's connection (in its transaction), as the changes do here.
    monkeypatch.setattr(Connection, "execute", interrupted)


def test_a_night_s_page_stands_a_deal_entered_by_another_phone_while_it_is_read(
    ana: Browser, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    a_night_of_three(app)
    deal = {"dealer": 1, "trump": "copas", "points": [30, 90], "last_trick": 1}
    at = T0 + timedelta(hours=1, minutes=40)
    between_the_reads(
        monkeypatch, insert(Deal.__table__).values(match_id=2, number=2, data=deal, created_at=at, updated_at=at)
    )
    response = ana.get("/nights/1")
    assert response.status_code == 200
    assert response.get_data(as_text=True).count('<svg class="chart"') == 3


def test_a_night_s_page_leaves_out_a_match_deleted_by_another_phone_while_it_is_read(
    ana: Browser, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    a_night_of_three(app)
    between_the_reads(
        monkeypatch,
        delete(PlayerResult.__table__).where(PlayerResult.match_id == 2),
        delete(Match.__table__).where(Match.id == 2),
    )
    response = ana.get("/nights/1")
    assert response.status_code == 200
    assert response.get_data(as_text=True).count('<svg class="chart"') == 2
    assert "Carmen 1 1 15" in text(response)


def test_the_nights_read_their_results_in_the_same_statement_however_many_matches(ana: Browser, app: Flask) -> None:
    # A night's matches grow through the evening: PostgreSQL planned each new count of ids anew.
    with app.app_context():
        if db.engine.dialect.name != "postgresql":
            pytest.skip("SQLite has no arrays, and keeps no plans: it is sent a list of parameters")
    import_matches(app, [played(T0, [30]), played(T0 + timedelta(hours=1), [30])])
    before = [s for s in statements_sent(app, lambda: ana.get("/nights")) if "FROM player_results" in s]
    import_matches(app, [played(T0 + timedelta(hours=2), [30])])
    after = [s for s in statements_sent(app, lambda: ana.get("/nights")) if "FROM player_results" in s]
    assert "3 matches" in text(ana.get("/nights"))
    assert len(before) == 1 and after == before, (before, after)


def test_another_account_s_night_is_not_found(ana: Browser, app: Flask) -> None:
    a_night_of_three(app)
    bea = signed_in(app, "bea")
    assert bea.get("/nights/1").status_code == 404
    assert "No nights yet" in text(bea.get("/nights"))


def test_history_and_the_player_page_lead_to_the_nights(ana: Browser, app: Flask) -> None:
    a_night_of_three(app)
    history = ana.get("/history").get_data(as_text=True)
    assert history.count('href="/nights/1"') == 3
    assert 'href="/nights?player=1"' in ana.get("/players/1").get_data(as_text=True)
    only_carmen = text(ana.get("/nights?player=3"))
    assert "The nights Carmen played." in only_carmen and "3 matches" in only_carmen
    import_matches(app, [played(T0 + timedelta(days=3), [10])])  # Ana and Luis, without Carmen
    assert ana.get("/nights?player=3").get_data(as_text=True).count('class="card"') == 1
    assert ana.get("/nights?player=1").get_data(as_text=True).count('class="card"') == 2
    assert ana.get("/nights?player=99").status_code == 404


def test_the_nights_page_is_paged(ana: Browser, app: Flask) -> None:
    import_matches(app, [played(T0 + timedelta(days=n), [10]) for n in range(15)])
    first = ana.get("/nights").get_data(as_text=True)
    assert first.count('class="card"') == 10 and "Page 1 of 2" in first
    assert ana.get("/nights?page=2").get_data(as_text=True).count('class="card"') == 5


def queries_for(app: Flask, client: Any, path: str, **kwargs: Any) -> int:
    def request() -> None:
        assert client.get(path, **kwargs).status_code == 200

    return len(statements_sent(app, request))


def nights_of_two(days: range) -> list[dict[str, Any]]:
    """Return two matches a night, a night a day."""
    return [
        match
        for day in days
        for match in (played(T0 + timedelta(days=day), [20]), played(T0 + timedelta(days=day, hours=1), [20], won_by=1))
    ]


def test_the_nights_pages_ask_as_many_queries_for_500_nights_as_for_10(ana: Browser, app: Flask) -> None:
    import_matches(app, nights_of_two(range(10)))
    few = (queries_for(app, ana, "/nights"), queries_for(app, ana, "/nights/1"))
    import_matches(app, nights_of_two(range(10, 500)))
    with app.app_context():
        user = db.session.scalar(select(User).where(User.username == "ana"))
        assert user is not None
        assert (
            db.session.scalar(select(db.func.count()).where(Match.user_id == user.id, Match.night_id == Match.id))
            == 500
        )
    assert (queries_for(app, ana, "/nights"), queries_for(app, ana, "/nights/1")) == few


# ---------------------------------------------------------------- the API


def test_the_api_lists_the_nights_paged_as_the_matches(api: Api, app: Flask) -> None:
    matches = a_night_of_three(app)
    import_matches(app, [played(T0 + timedelta(days=n), [10]) for n in range(1, 4)])
    response = api.get("/api/v1/nights?per_page=2")
    assert response.status_code == 200 and response.headers["X-Total-Count"] == "4"
    assert "page=2" in response.headers["Link"] and 'rel="next"' in response.headers["Link"]
    newest, _ = response.get_json()
    assert newest["start"] == (T0 + timedelta(days=3)).isoformat()
    last_page = api.get("/api/v1/nights?per_page=2&page=2").get_json()
    night = last_page[-1]
    assert night == {
        "id": 1,
        "start": T0.isoformat(),
        "end": (T0 + timedelta(hours=2, minutes=30)).isoformat(),
        "matches": [1, 2, 3],
        "players": ["Ana", "Luis", "Carmen"],
        "winners": {"tute2": ["Ana", "Luis"], "pocha": ["Carmen"]},
    }
    assert len(matches) == 3
    past_the_last = api.get("/api/v1/nights?page=3&per_page=2")
    assert past_the_last.get_json() == [] and past_the_last.headers["X-Total-Count"] == "4"
    assert api.get("/api/v1/nights?page=0").status_code == 400


def test_the_api_never_shows_another_account_s_nights(api: Api, app: Flask) -> None:
    a_night_of_three(app)
    with app.app_context():
        services.create_user("bea", "a long secret")
        token = services.create_api_token(services.user_named("bea"), "script")  # type: ignore[arg-type]
    other = app.test_client().get("/api/v1/nights", headers={"Authorization": f"Bearer {token}"})
    assert other.status_code == 200 and other.get_json() == [] and other.headers["X-Total-Count"] == "0"


@pytest.mark.parametrize("gap", [1, 12])
def test_the_gap_option_is_a_service_refusing_what_is_out_of_range(ana: Browser, app: Flask, gap: int) -> None:
    with app.app_context():
        user = services.user_named("ana")
        assert user is not None
        services.set_night_gap(user, gap)
        assert user.night_gap_hours == gap
        for wrong in (0, 13, "4", True):
            with pytest.raises(services.InvalidInput):
                services.set_night_gap(user, wrong)


def test_the_nights_are_counted_on_their_own_index(ana: Browser, app: Flask) -> None:
    # SQLite, which keeps no table statistics, counted on the index of every match's night: three
    # times the entries, and seven times as slow on a long history.
    import_matches(app, [played(T0 + timedelta(days=day), [30]) for day in range(3)])
    sent = [s for s in statements_sent(app, lambda: ana.get("/nights")) if "count(*)" in s]
    assert len(sent) == 1
    with app.app_context():
        connection = db.session.connection()
        if connection.dialect.name != "sqlite":
            pytest.skip("PostgreSQL plans from its own statistics of the tables")
        values = (1,) * sent[0].count("?")
        plan = " ".join(row[3] for row in connection.exec_driver_sql("EXPLAIN QUERY PLAN " + sent[0], values))
        db.session.rollback()
    # the page's nights, and their count
    assert plan.count("COVERING INDEX ix_matches_user_id_nights") == 2, plan
