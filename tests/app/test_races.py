"""Races between phones on a real server (gunicorn, several workers): both phones that start the same new match
get one, and matches of the same players finishing at the same moment both count, on SQLite and PostgreSQL."""

from __future__ import annotations

import re
import threading
from collections import Counter
from pathlib import Path
from typing import Any

from flask import Flask

from scorekeeper import create_app, services
from scorekeeper.extensions import db

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
