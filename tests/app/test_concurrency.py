"""Two phones, one match: real concurrent requests against gunicorn with several worker processes."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .servers import served

PHONES = 6


def call(method: str, url: str, token: str, body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        url, data=data, method=method, headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        payload = error.read()
        error.close()
        return error.code, json.loads(payload) if payload.startswith(b"{") else payload.decode()


@pytest.fixture
def gunicorn(database_url: str, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """Serve the app with several worker processes on one database; yield its URL and an API token."""
    with served(database_url, tmp_path) as server:
        yield server


def test_the_same_next_deal_posted_by_several_phones_at_once_is_stored_once(gunicorn: Any) -> None:
    url, token = gunicorn
    status, match = call(
        "POST",
        f"{url}/api/v1/matches",
        token,
        {"game": "tute2", "players": ["Ana", "Luis"], "options": {"mode": "points", "target": 10000}},
    )
    assert status == 201
    deals_url = f"{url}/api/v1/matches/{match['id']}/deals"
    for number in range(1, 6):
        start = threading.Barrier(PHONES)
        answers: list[tuple[int, Any]] = []

        def phone(seat: int) -> None:
            deal = {
                "number": number,
                "dealer": number % 2,
                "trump": "oros",
                "points": [60 + seat, 60 - seat],
                "last_trick": 0,
            }
            start.wait()
            answers.append(call("POST", deals_url, token, deal))

        threads = [threading.Thread(target=phone, args=(seat,)) for seat in range(PHONES)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        statuses = Counter(status for status, _ in answers)
        assert statuses == {201: 1, 409: PHONES - 1}, answers
        refusals = [body["message"] for status, body in answers if status == 409]
        assert all("was just entered" in message or "at the same moment" in message for message in refusals)
    status, final = call("GET", f"{url}/api/v1/matches/{match['id']}", token)
    assert [d["number"] for d in final["result"]["deals"]] == [1, 2, 3, 4, 5]


def test_many_phones_on_many_matches_never_meet_a_locked_database(gunicorn: Any) -> None:
    url, token = gunicorn
    ids = [
        call(
            "POST",
            f"{url}/api/v1/matches",
            token,
            {"game": "pocha", "players": ["Ana", "Luis"], "options": {"schedule": [1] * 30}},
        )[1]["id"]
        for _ in range(PHONES)
    ]
    failures: list[Any] = []

    def phone(match_id: int) -> None:
        for number in range(1, 21):
            status, body = call(
                "POST",
                f"{url}/api/v1/matches/{match_id}/deals",
                token,
                {"number": number, "dealer": number % 2, "cards": 1, "trump": None, "bids": [1, 1], "tricks": [1, 0]},
            )
            if status != 201:
                failures.append((match_id, number, status, body))

    threads = [threading.Thread(target=phone, args=(match_id,)) for match_id in ids]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert failures == []


def test_two_phones_editing_the_same_deal_from_one_reading_store_one_edit(gunicorn: Any) -> None:
    url, token = gunicorn
    deal = {"dealer": 0, "trump": "oros", "points": [70, 50], "last_trick": 0}
    _status, match = call(
        "POST", f"{url}/api/v1/matches", token, {"game": "tute2", "players": ["Ana", "Luis"], "deals": [deal]}
    )
    request = urllib.request.Request(
        f"{url}/api/v1/matches/{match['id']}", headers={"Authorization": f"Bearer {token}"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        etag = response.headers["ETag"]
    start = threading.Barrier(PHONES)
    answers: list[int] = []

    def phone(points: int) -> None:
        body = json.dumps({**deal, "points": [points, 120 - points]}).encode()
        edit = urllib.request.Request(
            f"{url}/api/v1/matches/{match['id']}/deals/1",
            data=body,
            method="PUT",
            headers={"Authorization": f"Bearer {token}", "If-Match": etag, "Content-Type": "application/json"},
        )
        start.wait()
        try:
            with urllib.request.urlopen(edit, timeout=30) as response:
                answers.append(response.status)
        except urllib.error.HTTPError as error:
            answers.append(error.code)
            error.close()

    threads = [threading.Thread(target=phone, args=(points,)) for points in range(60, 60 + PHONES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    # the others lost: refused before writing when the first edit was already in (412, If-Match),
    # or at the write when it landed at the same moment (409)
    assert sorted(answers)[0] == 200 and all(answer in (409, 412) for answer in sorted(answers)[1:]), answers
