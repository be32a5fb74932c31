"""The operator's commands: accounts, tokens, export and import, recompute."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from flask import Flask

from scorekeeper import create_app, services
from scorekeeper.extensions import db
from scorekeeper.models import ApiToken, Deal, Match, Player, User

from ..conftest import Browser, signed_in
from .matchhelpers import bids_form, start, tricks_form, tute_form
from .test_upkeep_property import assert_same_tables, derived_tables


def run(app: Flask, *args: str, input: str | None = None) -> Any:
    return app.test_cli_runner().invoke(args=list(args), input=input)


def fresh_app(tmp_path: Path, name: str) -> Flask:
    folder = tmp_path / name
    folder.mkdir()
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "x",
            "INSTANCE_PATH": str(folder),
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'db.sqlite'}",
        }
    )


def test_user_create_reads_the_password_from_standard_input(app: Flask) -> None:
    result = run(app, "user", "create", "ana", "--password-stdin", input="a long secret\n")
    assert result.exit_code == 0, result.output
    with app.app_context():
        assert services.authenticate("ana", "a long secret") is not None
    again = run(app, "user", "create", "ANA", "--password-stdin", input="a long secret\n")
    assert again.exit_code == 1 and "That username is taken." in again.output
    short = run(app, "user", "create", "bea", "--password-stdin", input="short\n")
    assert short.exit_code == 1 and "at least 8 characters" in short.output


def test_token_create_prints_the_token_last_and_keeps_only_its_hash(app: Flask) -> None:
    run(app, "user", "create", "ana", "--password-stdin", input="a long secret\n")
    result = run(app, "token", "create", "ana")
    assert result.exit_code == 0
    token = result.output.strip().splitlines()[-1]
    assert token.startswith("sk_") and len(token) > 40
    with app.app_context():
        stored = db.session.scalars(db.select(ApiToken)).one()
        assert stored.token_hash == services.hash_token(token)
    response = app.test_client().get("/api/v1/matches", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200
    assert run(app, "token", "create", "nobody").exit_code == 1


def play_an_evening(browser: Browser) -> None:
    """Leave matches in every state: finished, abandoned, playing with bids pending, and an archived player."""
    start(browser, "tute2", ["Ana", "Luis"], opt_target="1", opt_double_over_100="y")
    browser.post("/matches/1/deal", data=tute_form(80, 0, trump="copas", cantes={"oros": 0}))
    start(browser, "tute4", ["Ana", "Luis", "Carmen", "Pedro"], leader="3")
    browser.post("/matches/2/deal", data=tute_form("", "", tute=(2, "caballos"), dealer=2))
    browser.post("/matches/2/abandon")
    start(browser, "pocha", ["Ana", "Luis", "Carmen"], opt_schedule="custom", schedule_list="2 2")
    browser.post("/matches/3/bids", data=bids_form([1, 0, 0], number=1, dealer=0, cards=2))
    browser.post("/matches/3/deal", data=tricks_form([1, 0, 0], [1, 1, 0], number=1, dealer=0, cards=2))
    browser.post("/matches/3/bids", data=bids_form([2, 1, 0], number=2, dealer=1, cards=2, trump="oros"))
    browser.post("/players/", data={"name": "Zoe"})
    browser.post("/players/5/archive")


def without_stamp(data: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in data.items() if key != "exported_at"}


def test_export_then_import_round_trips_every_match_exactly(app: Flask, tmp_path: Path) -> None:
    play_an_evening(signed_in(app, "ana"))
    exported = run(app, "export")
    assert exported.exit_code == 0
    data = json.loads(exported.output)
    statuses = [m["status"] for m in data["accounts"][0]["matches"]]
    assert statuses == ["finished", "abandoned", "playing"]
    backup = tmp_path / "backup.json"
    backup.write_text(exported.output)

    other = fresh_app(tmp_path, "restored")
    imported = run(other, "import", str(backup))
    assert imported.exit_code == 0, imported.output
    assert "Imported 3 matches, 5 players, 0 seasons and 1 accounts" in imported.output
    assert without_stamp(json.loads(run(other, "export").output)) == without_stamp(data)
    with other.app_context():
        assert services.authenticate("ana", "correct horse") is not None
    again = run(other, "import", str(backup))
    assert "0 matches" in again.output and "3 matches were there already" in again.output


def settings_of(app: Flask, username: str = "ana") -> tuple[Any, ...]:
    """Return the account's language, time zone and night gap."""
    with app.app_context():
        user = services.user_named(username)
        assert user is not None
        return user.language, user.time_zone, user.night_gap_hours


def test_an_export_carries_each_account_s_settings_and_an_import_restores_them(app: Flask, tmp_path: Path) -> None:
    from .test_nights import import_matches, nights_of, played, uids

    signed_in(app, "ana")
    # Two matches six hours apart, the second after midnight in New York: one night under a gap of 9 hours.
    evening = [played(datetime(2026, 3, 7, 23, tzinfo=UTC), [10]), played(datetime(2026, 3, 8, 5, tzinfo=UTC), [10])]
    import_matches(app, evening)
    with app.app_context():
        user = services.user_named("ana")
        services.set_language(user, "es")
        services.set_time_zone(user, "America/New_York")
        services.set_night_gap(user, 9)
    assert nights_of(app) == [uids(evening)]
    exported = run(app, "export")
    data = json.loads(exported.output)
    account = data["accounts"][0]
    assert (account["language"], account["time_zone"], account["night_gap_hours"]) == ("es", "America/New_York", 9)
    backup = tmp_path / "backup.json"
    backup.write_text(exported.output)
    other = fresh_app(tmp_path, "restored")
    imported = run(other, "import", str(backup))
    assert imported.exit_code == 0, imported.output
    assert settings_of(other) == ("es", "America/New_York", 9)
    assert nights_of(other) == [uids(evening)]  # grouped under the account's own gap, not the default
    assert without_stamp(json.loads(run(other, "export").output)) == without_stamp(data)
    # An account already there keeps the settings it chose: the file's are those of another place.
    run(other, "user", "create", "bea", "--password-stdin", input="a long secret\n")
    assert run(other, "import", str(backup), "--user", "bea").exit_code == 0
    assert settings_of(other, "bea") == (None, None, 4)


def test_an_export_of_an_earlier_version_without_settings_makes_accounts_with_the_defaults_and_says_so(
    app: Flask, tmp_path: Path
) -> None:
    play_an_evening(signed_in(app, "ana"))
    data = json.loads(run(app, "export").output)
    for key in ("language", "time_zone", "night_gap_hours"):  # as 0.2.0 and earlier wrote them
        del data["accounts"][0][key]
    backup = tmp_path / "old.json"
    backup.write_text(json.dumps(data))
    other = fresh_app(tmp_path, "restored")
    imported = run(other, "import", str(backup))
    assert imported.exit_code == 0, imported.output
    assert "Imported 3 matches" in imported.output
    assert "1 account was made without some of its settings (language, time zone, night gap)" in imported.output
    assert settings_of(other) == (None, None, 4)


def test_settings_no_account_can_have_are_refused_as_a_damaged_file(app: Flask, tmp_path: Path) -> None:
    play_an_evening(signed_in(app, "ana"))
    signed_in(app, "bea")
    signed_in(app, "carla")
    data = json.loads(run(app, "export").output)
    wrong = [
        {"language": "xx", "time_zone": "Mars/Olympus", "night_gap_hours": 0},
        {"language": 5, "time_zone": "Europe/Madrid\x00", "night_gap_hours": True},
        {"language": "es", "time_zone": ["UTC"], "night_gap_hours": "4"},
    ]
    for account, settings in zip(data["accounts"], wrong, strict=True):
        account.update(settings)
    backup = tmp_path / "damaged.json"
    backup.write_text(json.dumps(data))
    other = fresh_app(tmp_path, "other")
    result = run(other, "import", str(backup))
    assert result.exit_code == 1 and "nothing was imported" in result.output
    for where in ("account 1", "account 2"):
        assert f"{where}: has a language that is none of en, es, it, nb." in result.output
    for where in ("account 1", "account 2", "account 3"):
        assert f"{where}: has a time zone that is not one (an IANA name such as Europe/Madrid)." in result.output
        assert f"{where}: has a night gap that is not a whole number of hours from 1 to 12." in result.output
    with other.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(User)) == 0


def test_an_imported_history_has_every_derived_row_of_the_original(app: Flask, tmp_path: Path) -> None:
    play_an_evening(signed_in(app, "ana"))
    rng = random.Random(3)
    with app.app_context():
        user = services.user_named("ana")
        for _ in range(12):  # many matches, many deals, the same players: ratings, streaks, pairs and nights
            names = rng.sample(["Ana", "Luis", "Carmen", "Pedro"], rng.choice([2, 4]))
            match = services.start_match(user, "tute2" if len(names) == 2 else "tute4", names, {"target": 3}, 0)
            while match.status == "playing":
                points = rng.choice([30, 61, 90])
                match = services.add_deal(
                    match,
                    {
                        "dealer": len(match.deals) % len(names),
                        "trump": "copas",
                        "points": [points, 120 - points],
                        "last_trick": rng.randrange(2),
                    },
                )
        original = derived_tables()
    backup = tmp_path / "history.json"
    backup.write_text(run(app, "export").output)
    other = fresh_app(tmp_path, "restored")
    imported = run(other, "import", str(backup))
    assert imported.exit_code == 0 and "Imported 15 matches" in imported.output, imported.output
    with other.app_context():
        assert_same_tables(derived_tables(), original)
        assert len(original["player_results"]) > 30 and len({r["night_id"] for r in original["matches"]}) >= 1


def test_export_of_one_account_and_import_into_another(app: Flask, tmp_path: Path) -> None:
    play_an_evening(signed_in(app, "ana"))
    signed_in(app, "bea")
    only_ana = json.loads(run(app, "export", "--user", "ana").output)
    assert [a["username"] for a in only_ana["accounts"]] == ["ana"]
    assert run(app, "export", "--user", "nobody").exit_code == 1
    backup = tmp_path / "ana.json"
    backup.write_text(json.dumps(only_ana))
    other = fresh_app(tmp_path, "other")
    run(other, "user", "create", "carla", "--password-stdin", input="a long secret\n")
    assert run(other, "import", str(backup), "--user", "carla").exit_code == 0
    with other.app_context():
        carla = services.user_named("carla")
        assert db.session.scalar(db.select(db.func.count()).select_from(Match).where(Match.user_id == carla.id)) == 3
        assert services.user_named("ana") is None


def test_a_damaged_file_is_refused_whole_with_a_clear_message(app: Flask, tmp_path: Path) -> None:
    play_an_evening(signed_in(app, "ana"))
    data = json.loads(run(app, "export").output)
    data["accounts"][0]["matches"][2]["match"]["deals"][0]["tricks"] = [2, 2, 0]
    data["accounts"][0]["matches"][1]["created_at"] = "yesterday"
    backup = tmp_path / "damaged.json"
    backup.write_text(json.dumps(data))
    other = fresh_app(tmp_path, "other")
    result = run(other, "import", str(backup))
    assert result.exit_code == 1
    assert "nothing was imported" in result.output
    assert "account 1, match 3: deal 1, tricks: The tricks must add up to the 2 cards in hand" in result.output
    assert "account 1, match 2: 'yesterday' is not a date and time." in result.output
    with other.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(User)) == 0
        assert db.session.scalar(db.select(db.func.count()).select_from(Player)) == 0


def test_times_no_match_can_have_been_played_at_and_nul_bytes_are_refused_as_a_damaged_file(
    app: Flask, tmp_path: Path
) -> None:
    play_an_evening(signed_in(app, "ana"))
    data = json.loads(run(app, "export").output)
    account = data["accounts"][0]
    after_next_year = datetime(datetime.now(UTC).year + 2, 1, 1, 0, 30, tzinfo=UTC).isoformat()
    # Past what the database holds (year 0 or 10000 once in UTC), held but absurd, or years to come.
    account["created_at"] = "0001-01-01T00:30:00+01:00"
    account["players"][0]["created_at"] = "9999-12-31T23:00:00-05:00"
    account["matches"][0]["created_at"] = "0001-01-01T00:00:00+00:00"
    account["matches"][0]["ended_at"] = "9999-06-01T12:00:00+00:00"
    account["matches"][1]["deal_dates"][0][1] = "1899-12-31T23:59:59+00:00"
    account["matches"][2]["updated_at"] = after_next_year
    # Text no database keeps (PostgreSQL refuses a NUL byte, SQLite kept it).
    account["password_hash"] = account["password_hash"] + "\x00"
    account["matches"][1]["uid"] = "a\x00b"
    account["matches"][2]["match"]["players"][1] = "Luis\x00"
    backup = tmp_path / "damaged.json"
    backup.write_text(json.dumps(data))
    for target in (app, fresh_app(tmp_path, "other")):  # this database (SQLite or PostgreSQL), and a new one
        with target.app_context():
            before = db.session.scalar(db.select(db.func.count()).select_from(Match))
        result = run(target, "import", str(backup))
        assert result.exit_code == 1 and "The file is damaged; nothing was imported" in result.output, result.output
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        for problem in (
            "account 1: '0001-01-01T00:30:00+01:00' is not a time a match can have been played",
            "account 1, player 1: '9999-12-31T23:00:00-05:00' is not a time a match can have been played",
            "account 1, match 1: '0001-01-01T00:00:00+00:00' is not a time a match can have been played",
            "account 1, match 1: '9999-06-01T12:00:00+00:00' is not a time a match can have been played",
            "account 1, match 2, deal 1: '1899-12-31T23:59:59+00:00' is not a time a match can have been played",
            f"account 1, match 3: {after_next_year!r} is not a time a match can have been played",
            "account 1: has no password hash.",
            "account 1, match 2: has no valid uid.",
            "account 1, match 3: players.1: A name cannot hold invisible or control characters.",
        ):
            assert problem in result.output, (problem, result.output)
        with target.app_context():
            assert db.session.scalar(db.select(db.func.count()).select_from(Match)) == before


def test_a_file_that_is_not_an_export_is_refused(app: Flask, tmp_path: Path) -> None:
    not_json = tmp_path / "notes.txt"
    not_json.write_text("Ana 3, Luis 1")
    assert "is not JSON" in run(app, "import", str(not_json)).output
    other_json = tmp_path / "other.json"
    other_json.write_text('{"matches": []}')
    assert "not a Scorekeeper export file" in run(app, "import", str(other_json)).output


def test_a_match_whose_status_contradicts_its_deals_is_refused(app: Flask, tmp_path: Path) -> None:
    play_an_evening(signed_in(app, "ana"))
    data = json.loads(run(app, "export").output)
    data["accounts"][0]["matches"][0]["status"] = "playing"
    backup = tmp_path / "wrong.json"
    backup.write_text(json.dumps(data))
    result = run(fresh_app(tmp_path, "other"), "import", str(backup))
    assert result.exit_code == 1 and "is marked playing, but its deals say it is over" in result.output


def test_recompute_rebuilds_the_cached_results_from_the_deals(app: Flask) -> None:
    play_an_evening(signed_in(app, "ana"))
    with app.app_context():
        before = {m.id: (m.result, m.status) for m in db.session.scalars(db.select(Match))}
        for match in db.session.scalars(db.select(Match)):
            match.result = None
            match.status = "playing" if match.status != "abandoned" else match.status
        db.session.commit()
    result = run(app, "recompute")
    assert result.exit_code == 0 and "Recomputed 3 matches." in result.output
    with app.app_context():
        db.session.expire_all()
        assert {m.id: (m.result, m.status) for m in db.session.scalars(db.select(Match))} == before


def test_an_import_leaves_postgresql_statistics_that_count_what_it_wrote(app: Flask, tmp_path: Path) -> None:
    # Stale statistics had PostgreSQL plan head to head as a scan of the whole history after an import.
    source = fresh_app(tmp_path, "source")
    play_an_evening(signed_in(source, "ana"))
    backup = tmp_path / "history.json"
    backup.write_text(run(source, "export").output)
    imported = run(app, "import", str(backup))
    assert imported.exit_code == 0, imported.output
    with app.app_context():
        if db.engine.dialect.name != "postgresql":
            return  # SQLite's planner keeps no statistics that an import could leave stale
        deals = db.session.scalar(sa.select(sa.func.count()).select_from(Deal))
        counted = db.session.scalar(
            sa.text(
                "SELECT c.reltuples FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                "WHERE c.relname = 'deals' AND n.nspname = current_schema()"
            )
        )
        assert deals and counted == deals


def test_a_start_scores_again_the_matches_to_juegos_cached_before_deals_said_their_juegos(
    app: Flask, tmp_path: Path
) -> None:
    ana = signed_in(app, "ana")
    start(ana, "tute2", ["Ana", "Luis"], opt_target="3")
    ana.post("/matches/1/deal", data=tute_form(70, 0))
    start(ana, "tute2", ["Ana", "Luis"], opt_mode="points")  # a match without juegos, and one without deals
    start(ana, "tute2", ["Ana", "Luis"], opt_target="3")
    with app.app_context():
        match = db.session.get(Match, 1)
        assert match is not None and match.result is not None
        kept = match.result
        match.result = {**kept, "deals": [{k: v for k, v in deal.items() if k != "juegos"} for deal in kept["deals"]]}
        db.session.commit()
        url = str(db.engine.url.render_as_string(hide_password=False))
    create_app({"TESTING": True, "SECRET_KEY": "again", "INSTANCE_PATH": str(tmp_path), "SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        db.session.expire_all()
        match = db.session.get(Match, 1)
        assert match is not None and match.result == kept and kept["deals"][0]["juegos"] == [1, 0]
