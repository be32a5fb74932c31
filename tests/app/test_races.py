"""Races between phones on a real server (gunicorn, several workers), on SQLite and PostgreSQL: both phones that
start the same new match get one, matches of the same players finishing at the same moment both count, two phones
naming a season alike make one, two taps on Rematch start one match, and of two entry links made at once one lasts."""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from flask import Flask

from scorekeeper import create_app, services
from scorekeeper.extensions import db
from scorekeeper.models import EntryLink, Match, Season

from .servers import PASSWORD, HttpBrowser
from .test_concurrency import call, gunicorn  # noqa: F401  (the server fixture)
from .test_derived_rows import pairs_now, ratings_now, summaries_now

ROUNDS = 6


def phone(url: str) -> HttpBrowser:
    """Return a browser signed in to the gunicorn fixture's account."""
    browser = HttpBrowser(url)
    assert browser.sign_in("ana", PASSWORD) == 302
    return browser


def at_once(count: int, action: Any) -> list[Any]:
    """Run `action(i)` in `count` threads released together; return their answers."""
    barrier = threading.Barrier(count)
    answers: list[Any] = [None] * count

    def run(index: int) -> None:
        barrier.wait()
        answers[index] = action(index)

    threads = [threading.Thread(target=run, args=(index,)) for index in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return answers


def test_two_phones_starting_the_same_new_match_both_get_one(gunicorn: Any) -> None:
    url, _token = gunicorn
    phones = [phone(url), phone(url)]
    for round_ in range(ROUNDS):
        form = {
            "players-0": f"Ana {round_}",
            "players-1": f"Luis {round_}",
            "first_dealer": "0",
            "opt_deck": "40",
            "opt_last_trick_bonus": "10",
            "opt_mode": "juegos",
            "opt_tute": "deal",
        }
        answers = at_once(2, lambda index: phones[index].post("/matches/new/tute2", form))
        assert [status for status, _ in answers] == [302, 302], answers
        assert all(re.fullmatch(r"/matches/\d+", location) for _, location in answers), answers


def test_two_scripts_creating_matches_with_the_same_new_players_both_succeed(gunicorn: Any) -> None:
    url, token = gunicorn
    for round_ in range(ROUNDS):
        document = {"game": "pocha", "players": [f"Ana {round_}", f"Luis {round_}", f"Carmen {round_}"]}
        answers = at_once(2, lambda _index: call("POST", f"{url}/api/v1/matches", token, document))
        assert [status for status, _ in answers] == [201, 201], answers
        assert answers[0][1]["match"]["players"] == answers[1][1]["match"]["players"]


def test_matches_of_the_same_players_finishing_at_once_both_count(
    gunicorn: Any, database_url: str, tmp_path: Path
) -> None:
    url, token = gunicorn
    statuses: Counter[int] = Counter()
    for round_ in range(ROUNDS):
        players = ["Ana", "Luis", "Carmen", "Pedro"]
        ids = [
            call(
                "POST",
                f"{url}/api/v1/matches",
                token,
                {"game": game, "players": players[:size], "options": {"target": 1}},
            )[1]["id"]
            for game, size in (("tute2", 2), ("tute4", 4))
        ]
        deal = {"number": 1, "dealer": 0, "trump": "oros", "points": [90 - round_, 30 + round_], "last_trick": 0}
        answers = at_once(2, lambda index: call("POST", f"{url}/api/v1/matches/{ids[index]}/deals", token, deal))
        statuses.update(status for status, _ in answers)
        assert all(body["status"] == "finished" for _, body in answers), answers
    assert statuses == {201: 2 * ROUNDS}
    app = create_app(
        {
            "SECRET_KEY": "x",
            "SQLALCHEMY_DATABASE_URI": database_url,
            "AUTO_MIGRATE": False,
            "INSTANCE_PATH": str(tmp_path / "reader"),
        }
    )
    assert_figures_rebuild_alike(app)


def assert_figures_rebuild_alike(app: Flask) -> None:
    """Check that the derived rows kept change by change are what a rebuild from the facts gives."""
    with app.app_context():
        kept = summaries_now(), pairs_now(), ratings_now()
        services.recompute_all()
        db.session.expire_all()
        assert (summaries_now(), pairs_now(), ratings_now()) == kept
        db.session.remove()
        db.engine.dispose()


@contextmanager
def reader(database_url: str, folder: Path) -> Iterator[None]:
    """Read the served database from this process, in an app context of its own."""
    app = create_app(
        {
            "SECRET_KEY": "x",
            "SQLALCHEMY_DATABASE_URI": database_url,
            "AUTO_MIGRATE": False,
            "INSTANCE_PATH": str(folder),
        }
    )
    with app.app_context():
        try:
            yield
        finally:
            db.session.remove()
            db.engine.dispose()


def finished_match(url: str, token: str) -> int:
    """Make a Tute match that one deal finishes; return its id."""
    document = {
        "game": "tute2",
        "players": ["Ana", "Luis"],
        "options": {"target": 1},
        "deals": [{"dealer": 0, "trump": "oros", "points": [90, 30], "last_trick": 0}],
    }
    status, body = call("POST", f"{url}/api/v1/matches", token, document)
    assert status == 201 and body["status"] == "finished", body
    return int(body["id"])


def test_two_phones_naming_a_season_alike_at_once_make_one_and_are_told_of_it(
    gunicorn: Any, database_url: str, tmp_path: Path
) -> None:
    url, _token = gunicorn
    phones = [phone(url), phone(url)]
    for round_ in range(ROUNDS):
        form = {
            "name": f"Liga {round_}",
            "starts_on": "2026-09-01",
            "ends_on": "2026-11-30",
            "win_points": "3",
            "shared_points": "1",
            "other_points": "0",
            "best_of": "",
        }
        answers = at_once(2, lambda index, form=form: phones[index].post("/seasons/", form))
        assert sorted(status for status, _ in answers) == [302, 422], answers
    with reader(database_url, tmp_path / "reader"):
        names = list(db.session.scalars(sa.select(Season.name).order_by(Season.id)))
    assert names == [f"Liga {round_}" for round_ in range(ROUNDS)]


def test_two_phones_tapping_rematch_at_once_start_one_match_and_both_go_to_it(
    gunicorn: Any, database_url: str, tmp_path: Path
) -> None:
    url, token = gunicorn
    phones = [phone(url), phone(url)]
    ended = [finished_match(url, token) for _ in range(ROUNDS)]
    for match_id in ended:
        answers = at_once(2, lambda index, match_id=match_id: phones[index].post(f"/matches/{match_id}/rematch", {}))
        assert [status for status, _ in answers] == [302, 302], answers
        assert answers[0][1] == answers[1][1] and re.fullmatch(r"/matches/\d+", answers[0][1]), answers
    with reader(database_url, tmp_path / "reader"):
        made = Counter(db.session.scalars(sa.select(Match.rematch_of).where(Match.rematch_of.is_not(None))))
    assert made == dict.fromkeys(ended, 1)


def test_two_entry_links_made_at_once_leave_one_open(gunicorn: Any, database_url: str, tmp_path: Path) -> None:
    url, token = gunicorn
    phones = [phone(url), phone(url)]
    playing = [
        call("POST", f"{url}/api/v1/matches", token, {"game": "tute2", "players": ["Ana", "Luis"]})[1]["id"]
        for _ in range(ROUNDS)
    ]
    for match_id in playing:
        answers = at_once(2, lambda index, match_id=match_id: phones[index].post(f"/matches/{match_id}/entry-link", {}))
        assert [status for status, _ in answers] == [302, 302], answers
    with reader(database_url, tmp_path / "reader"):
        lasting = Counter(db.session.scalars(sa.select(EntryLink.match_id).where(EntryLink.stopped_at.is_(None))))
        made = Counter(db.session.scalars(sa.select(EntryLink.match_id)))
    assert made == dict.fromkeys(playing, 2)
    assert lasting == dict.fromkeys(playing, 1)  # the older of each pair stopped at once, as the docs say
