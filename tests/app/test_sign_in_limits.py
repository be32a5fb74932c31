"""Failed sign-ins are limited per address, per address and account, and per account: the guesser is stopped,
the owner still gets in from elsewhere, and nothing tells whether an account exists."""

from __future__ import annotations

import os
import threading
import uuid
from collections import Counter
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.extensions import limiter

from ..conftest import CHEAP_PASSWORD_HASH, PASSWORD, Browser, csrf_token, signed_in
from .servers import PASSWORD as PASSWORD_OF_SERVER
from .servers import HttpBrowser, served

STRANGER, OWNER = "203.0.113.7", "198.51.100.2"


@pytest.fixture
def behind_proxy(tmp_path: Path) -> Flask:
    """An app behind one proxy, so that each test request can come from the address it names."""
    app = create_app(
        {
            "SECRET_KEY": "x",
            "INSTANCE_PATH": str(tmp_path),
            "PROXY_FIX": 1,
            "PASSWORD_HASH_METHOD": CHEAP_PASSWORD_HASH,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'db.sqlite'}",
        }
    )
    signed_in(app, "ana")
    with app.app_context():
        limiter.reset()
    return app


def attempt(client: FlaskClient, username: str, password: str, address: str | None = None) -> int:
    headers = {"X-Forwarded-For": address} if address else {}
    token = csrf_token(client)
    return client.post(
        "/login", data={"username": username, "password": password, "csrf_token": token}, headers=headers
    ).status_code


def test_a_stranger_guessing_from_one_address_is_stopped_and_the_owner_still_gets_in(behind_proxy: Flask) -> None:
    behind_proxy.config["SIGN_IN_LIMIT_PER_ADDRESS_AND_ACCOUNT"] = "5 per 10 minutes"
    stranger = behind_proxy.test_client()
    statuses = [attempt(stranger, "ana", f"guess {i}", STRANGER) for i in range(8)]
    assert statuses == [422] * 5 + [429] * 3
    assert attempt(stranger, "ana", PASSWORD, STRANGER) == 429  # not even the right password, from there
    assert attempt(behind_proxy.test_client(), "ana", PASSWORD, OWNER) == 302


def test_one_address_trying_many_accounts_is_stopped(behind_proxy: Flask) -> None:
    behind_proxy.config["SIGN_IN_LIMIT_PER_ADDRESS"] = "4 per 10 minutes"
    client = behind_proxy.test_client()
    statuses = [attempt(client, f"someone{i}", "wrong", STRANGER) for i in range(5)]
    assert statuses == [422, 422, 422, 422, 429]
    assert attempt(client, "other", "wrong", OWNER) == 422  # another address is counted apart


def test_guesses_spread_over_many_addresses_meet_the_account_s_ceiling(behind_proxy: Flask) -> None:
    behind_proxy.config["SIGN_IN_LIMIT_PER_ACCOUNT"] = "6 per hour"
    client = behind_proxy.test_client()
    statuses = [attempt(client, "ana", "wrong", f"192.0.2.{i}") for i in range(8)]
    assert statuses == [422] * 6 + [429] * 2


def test_spellings_of_one_username_share_its_counts_whether_or_not_it_exists(ana: Browser, app: Flask) -> None:
    app.config["SIGN_IN_LIMIT_PER_ADDRESS_AND_ACCOUNT"] = "3 per 10 minutes"
    for username, variants in (("ana", ["ana", " ANA ", "Ana"]), ("nobody", ["nobody", "NoBody", "nobody"])):
        client = app.test_client()
        statuses = [attempt(client, name, "wrong") for name in variants + [username]]
        assert statuses == [422, 422, 422, 429], username
        page = client.post(
            "/login", data={"username": username, "password": "wrong", "csrf_token": csrf_token(client)}
        ).get_data(as_text=True)
        assert "Too many sign-in attempts. Wait a few minutes and try again." in page


def test_a_refusal_says_when_to_try_again(ana: Browser, app: Flask) -> None:
    app.config["SIGN_IN_LIMIT_PER_ADDRESS_AND_ACCOUNT"] = "1 per 10 minutes"
    client = app.test_client()
    attempt(client, "ana", "wrong")
    response = client.post("/login", data={"username": "ana", "password": "wrong", "csrf_token": csrf_token(client)})
    assert response.status_code == 429 and 0 < int(response.headers["Retry-After"]) <= 600


def test_signing_in_right_is_no_failure(ana: Browser, app: Flask) -> None:
    app.config["SIGN_IN_LIMIT_PER_ADDRESS_AND_ACCOUNT"] = "2 per 10 minutes"
    app.config["SIGN_IN_LIMIT_PER_ADDRESS"] = "2 per 10 minutes"
    for _ in range(5):
        assert attempt(app.test_client(), "ana", PASSWORD) == 302
    client = app.test_client()
    assert [attempt(client, "ana", "wrong") for _ in range(3)] == [422, 422, 429]


def test_signing_up_is_limited_per_address(ana: Browser, app: Flask) -> None:
    app.config["SIGN_UP_LIMIT_PER_ADDRESS"] = "2 per hour"
    client = app.test_client()
    statuses = []
    for i in range(3):
        statuses.append(
            client.post(
                "/signup",
                data={
                    "username": f"new{i}",
                    "password": PASSWORD,
                    "confirm": PASSWORD,
                    "csrf_token": csrf_token(client),
                },
            ).status_code
        )
    assert statuses == [302, 302, 429]


def test_a_wrong_username_takes_as_long_as_a_wrong_password(
    ana: Browser, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    import scorekeeper.services.accounts as services_module

    checked: list[str] = []
    real = services_module.check_password_hash
    monkeypatch.setattr(services_module, "check_password_hash", lambda h, p: checked.append(h) or real(h, p))
    with app.app_context():
        assert services_module.authenticate("nobody", "wrong") is None
        assert services_module.authenticate("ana", "wrong") is None
    assert len(checked) == 2  # a hash is checked either way, made the same way
    assert checked[0].split("$")[0] == checked[1].split("$")[0] == CHEAP_PASSWORD_HASH


REDIS_URL = os.environ.get("SCOREKEEPER_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def redis_or_skip() -> None:
    """Skip without a Redis server, unless under CI, where one must run."""
    import redis

    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except redis.RedisError as error:
        if os.environ.get("CI") == "true":
            pytest.fail(f"no Redis at {REDIS_URL}: {error}")
        pytest.skip(f"no Redis at {REDIS_URL}")


def test_the_limits_hold_across_worker_processes_through_redis(tmp_path: Path) -> None:
    redis_or_skip()
    settings = {
        "SCOREKEEPER_RATELIMIT_STORAGE_URI": REDIS_URL,
        "SCOREKEEPER_PROXY_FIX": "1",
        "SCOREKEEPER_RATELIMIT_KEY_PREFIX": f"test-{uuid.uuid4().hex}-",
        "SCOREKEEPER_SIGN_IN_LIMIT_PER_ADDRESS_AND_ACCOUNT": "10 per 10 minutes",
    }
    with served(f"sqlite:///{tmp_path / 'db.sqlite'}", tmp_path, settings) as (url, _token):
        visitors = [HttpBrowser(url, STRANGER) for _ in range(5)]
        answers: list[int] = []
        lock = threading.Lock()

        def guess(visitor: HttpBrowser) -> None:
            for number in range(10):
                status = visitor.sign_in("ana", f"guess {number}")
                with lock:
                    answers.append(status)

        threads = [threading.Thread(target=guess, args=(visitor,)) for visitor in visitors]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        assert Counter(answers) == {422: 10, 429: 40}  # 50 guesses over 4 processes: 10 tried, whichever served them
        assert HttpBrowser(url, OWNER).sign_in("ana", PASSWORD_OF_SERVER) == 302  # the owner, elsewhere, is let in
