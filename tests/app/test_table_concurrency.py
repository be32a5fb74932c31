"""Phones at one table on a real server (gunicorn, several workers): the owner's and those that joined
through the entry link, entering the same deal, or the same deal's bids, at the same moment, store it
once and tell the others, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import sqlalchemy as sa

from .matchhelpers import bids_form, tricks_form, tute_form
from .servers import PASSWORD, HttpBrowser, served
from .test_concurrency import call
from .test_races import at_once

ROUNDS = 5
#: Before they were refused, a second phone's bids overwrote the first's in about one race in five
#: on PostgreSQL, one in two on SQLite: enough rounds to see it.
BID_ROUNDS = 10


def test_the_owner_and_two_joined_phones_entering_the_same_deal_at_once_store_it_once(
    database_url: str, tmp_path: Path
) -> None:
    access_log = tmp_path / "access.log"
    with served(database_url, tmp_path, {"GUNICORN_CMD_ARGS": f"--access-logfile {access_log}"}) as (url, token):
        status, match = call(
            "POST",
            f"{url}/api/v1/matches",
            token,
            {"game": "tute2", "players": ["Ana", "Luis"], "options": {"mode": "points", "target": 10000}},
        )
        assert status == 201
        match_id = match["id"]
        status, link = call("POST", f"{url}/api/v1/matches/{match_id}/entry-link", token)
        assert status == 201
        secret = link["url"].split("#", 1)[1]
        owner = HttpBrowser(url)
        assert owner.sign_in("ana", PASSWORD) == 302
        guests = [HttpBrowser(url), HttpBrowser(url)]
        for guest in guests:
            guest.token = guest.csrf("/join")
            assert guest.post("/join", {"secret": secret}) == (302, f"/matches/{match_id}")
        phones = [owner, *guests]
        winners = []
        for number in range(1, ROUNDS + 1):

            def enter(index: int, number: int = number) -> tuple[int, str]:
                deal = tute_form(60 + index, 0, number=number, dealer=(number - 1) % 2)
                return phones[index].post(f"/matches/{match_id}/deal", {k: str(v) for k, v in deal.items()})

            answers = at_once(len(phones), enter)
            assert Counter(status for status, _ in answers) == {302: 1, 409: 2}, answers
            winners.append(next(index for index, (status, _) in enumerate(answers) if status == 302))
        status, final = call("GET", f"{url}/api/v1/matches/{match_id}", token)
        assert [deal["points"][0] for deal in final["match"]["deals"]] == [60 + index for index in winners]
    engine = sa.create_engine(database_url.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with engine.connect() as connection:
            link_id = connection.scalar(sa.text("SELECT id FROM entry_links"))
            entered = [
                row[0]
                for row in connection.execute(
                    sa.text("SELECT entry_link_id FROM deals WHERE match_id = :id ORDER BY number"), {"id": match_id}
                )
            ]
    finally:
        engine.dispose()
    assert entered == [None if index == 0 else link_id for index in winners]
    logged = access_log.read_text()
    assert "POST /join" in logged and f"/matches/{match_id}/deal" in logged
    assert secret not in logged


def test_bids_entered_on_two_phones_at_once_are_stored_once_and_the_other_phone_is_told(
    database_url: str, tmp_path: Path
) -> None:
    with served(database_url, tmp_path) as (url, token):
        status, match = call(
            "POST",
            f"{url}/api/v1/matches",
            token,
            {"game": "pocha", "players": ["Ana", "Luis", "Carmen"], "options": {"schedule": [3] * BID_ROUNDS}},
        )
        assert status == 201
        match_id = match["id"]
        status, link = call("POST", f"{url}/api/v1/matches/{match_id}/entry-link", token)
        owner, guest = HttpBrowser(url), HttpBrowser(url)
        assert owner.sign_in("ana", PASSWORD) == 302
        guest.token = guest.csrf("/join")
        assert guest.post("/join", {"secret": link["url"].split("#", 1)[1]})[0] == 302
        phones = [owner, guest]
        for number in range(1, BID_ROUNDS + 1):
            dealer = (number - 1) % 3
            bids = [[0, 0, 0], [1, 0, 0]]  # never 3 in all: the dealer's bid is never the one refused

            def enter(index: int, number: int = number, dealer: int = dealer) -> tuple[int, str]:
                form = bids_form(bids[index], number=number, dealer=dealer, cards=3)
                return phones[index].post(f"/matches/{match_id}/bids", {k: str(v) for k, v in form.items()})

            answers = at_once(len(phones), enter)
            assert Counter(status for status, _ in answers) == {302: 1, 409: 1}, answers
            winner = next(index for index, (status, _) in enumerate(answers) if status == 302)
            tricks = tricks_form(bids[winner], [1, 1, 1], number=number, dealer=dealer, cards=3)
            assert owner.post(f"/matches/{match_id}/deal", {k: str(v) for k, v in tricks.items()})[0] == 302
        status, final = call("GET", f"{url}/api/v1/matches/{match_id}", token)
        assert len(final["match"]["deals"]) == BID_ROUNDS and final["status"] == "finished"
