"""Fixtures shared by the app tests: an app on a fresh database per test, and signed-in clients.

Each test gets a new SQLite file in its own temporary folder (a copy of one that every migration
was applied to once per worker process); when SCOREKEEPER_TEST_POSTGRES_URL is set, every app
test runs a second time on a fresh PostgreSQL database of that server (likewise a copy of one
migrated once per worker process).
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import settings

from scorekeeper import create_app, registry
from scorekeeper.api.document import openapi_document
from scorekeeper.extensions import db
from scorekeeper.rules import Game

# No property test is timed: speed is the benchmark's to measure, and a loaded machine (CI runs
# the suite beside its browsers) once took a 1 ms example past hypothesis's 200 ms deadline.
settings.register_profile("untimed", deadline=None)
settings.load_profile("untimed")

POSTGRES_URL = os.environ.get("SCOREKEEPER_TEST_POSTGRES_URL", "")
DATABASES = ["sqlite"] + (["postgresql"] if POSTGRES_URL else [])
PASSWORD = "correct horse"
#: The password hash the test apps make: one round of PBKDF2 instead of the default scrypt, whose
#: tenth of a second, at every account made and every sign-in, was half the time of the app tests.
#: (tests/app/test_auth.py checks that an app left to its defaults hashes with scrypt.)
CHEAP_PASSWORD_HASH = "pbkdf2:sha256:1"

#: The slowest tests, longest first (node id prefixes; the seconds each took in one process on a busy 2-core machine).
#: The workers take tests in this order, so these start first: begun last, the hostile-input test
#: alone would keep one worker busy for minutes after the other had run out of tests.
SLOWEST_FIRST = (
    "tests/app/test_hostile_server.py::",  # 60 s: 5,000 requests to gunicorn
    "tests/app/test_hosts_together.py::",  # 85 s: ten rounds of two hosts upgrading one PostgreSQL database
    "tests/e2e/test_table.py::test_a_whole_classic_pocha_match",  # 45 s: 28 deals tapped in
    "tests/app/test_upkeep_property.py::test_any_sequence",  # 30 s: the state machine
    "tests/app/test_sign_in_limits.py::test_the_limits_hold_across_worker_processes",  # 26 s: gunicorn and Redis
    "tests/app/test_races.py::",  # 10 to 22 s each, gunicorn started and stopped included
    "tests/app/test_concurrency.py::",
    "tests/test_bench.py::",  # 17 s
    "tests/app/test_backup.py::test_an_import_killed_halfway",  # 16 s
    "tests/e2e/test_accessibility.py::",  # 10 to 13 s each: axe scans
    "tests/e2e/",  # 3 to 8 s each
    "tests/app/test_table_concurrency.py::",  # 9 s
    "tests/app/test_hostile.py::",  # 4 to 9 s each
    "tests/app/test_killed_upgrades.py::test_on_postgresql",  # 5 s each: a schema at the release made for every kill
)


#: The app tests of what a page says and how it looks (words, numbers, dates, charts, cards, sizes),
#: read from rows any database gives alike: run on SQLite alone.
SAID_NOT_STORED = tuple(
    f"tests/app/{module}.py::"
    for module in (
        "test_i18n",
        "test_plurals",
        "test_regional_formats",
        "test_local_time",
        "test_card_layout",
        "test_result_card",
        "test_words_in_each_language",
        "test_charts",
        "test_weight",
    )
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the browser's tests on SQLite alone but for those marked `both_databases`, and so the app
    tests of what a page says and how it looks; run the slowest tests first, keeping the collection
    order among the others."""
    # Every request a page makes is an app test's too, run on both databases; a browser test adds
    # what the browser does, the same whatever the server stores in. Those that marked themselves
    # are where the database's own behaviour shows: two phones writing, kept deals sent together.
    on_one_database = [
        item
        for item in items
        if (item.nodeid.startswith("tests/e2e/") or item.nodeid.startswith(SAID_NOT_STORED))
        and "[postgresql" in item.nodeid
        and item.get_closest_marker("both_databases") is None
    ]
    if on_one_database:
        config.hook.pytest_deselected(items=on_one_database)
        dropped = set(on_one_database)
        items[:] = [item for item in items if item not in dropped]

    def rank(item: pytest.Item) -> int:
        return next((n for n, prefix in enumerate(SLOWEST_FIRST) if item.nodeid.startswith(prefix)), len(SLOWEST_FIRST))

    items.sort(key=rank)  # stable: every worker collects the same order, as xdist requires


@pytest.fixture(autouse=True)
def _alone_when_marked(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Run a test marked `alone` while no other worker runs a test; let the others run side by side.

    A test that times the server's answers must not share the processor with another worker's tests.
    Every test holds a lock file shared by the workers (in their common temporary folder) while it
    runs, with its fixtures: shared by the others, exclusive for those marked `alone`. (So a
    test that waited for one shows the wait in its setup time in --durations.)
    """
    if "PYTEST_XDIST_WORKER" not in os.environ:  # one process: no test runs beside another
        yield
        return
    with open(tmp_path_factory.getbasetemp().parent / "alone.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX if request.node.get_closest_marker("alone") else fcntl.LOCK_SH)
        yield  # closing the file lets the lock go


def _postgres_url(url: str) -> str:
    return re.sub(r"^postgres(ql)?(\+\w+)?://", "postgresql+psycopg://", url)


#: The loopback address that stands in for this computer's address on the local network.
LOCAL_NETWORK = "127.0.0.2"


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Return a SQLite file that the app has brought up to date, made once per worker process.

    Applying the migrations takes longer than most tests; a copy of this file gives each test
    the same database that the app would have made in its place.
    """
    folder = tmp_path_factory.mktemp("migrated")
    path = folder / "migrated.sqlite"
    application = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "migrated",
            "INSTANCE_PATH": str(folder / "instance"),
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}",
        }
    )
    with application.app_context():
        db.engine.dispose()  # its last connection closed: the write-ahead log is folded into the file
    assert not path.with_name(path.name + "-wal").exists()
    return path


@pytest.fixture(scope="session")
def migrated_postgres() -> Iterator[str]:
    """Yield the name of a PostgreSQL database that the app has brought up to date, made once per worker
    process on the server of SCOREKEEPER_TEST_POSTGRES_URL, and dropped at the end.

    Each test's database is made from it as a template: a copy of its files, where applying every
    migration to each test's database again took most of a short test's time.
    """
    name = f"scorekeeper_migrated_{uuid.uuid4().hex[:12]}"
    with _postgres_admin() as admin:
        admin.execute(sa.text(f'CREATE DATABASE "{name}"'))
    application = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "migrated",
            "SQLALCHEMY_DATABASE_URI": _postgres_database_url(name),
        }
    )
    with application.app_context():
        db.engine.dispose()  # a template database takes no copy while anyone is connected to it
    yield name
    with _postgres_admin() as admin:
        admin.execute(sa.text(f'DROP DATABASE "{name}" WITH (FORCE)'))


def _postgres_database_url(name: str) -> str:
    """Return the URL of database `name` on the test server, with the settings of SCOREKEEPER_TEST_POSTGRES_URL."""
    return sa.make_url(_postgres_url(POSTGRES_URL)).set(database=name).render_as_string(hide_password=False)


@contextmanager
def _postgres_admin() -> Iterator[sa.Connection]:
    """Yield a connection to the test server's own database, outside any transaction (as CREATE DATABASE asks)."""
    engine = sa.create_engine(_postgres_url(POSTGRES_URL), isolation_level="AUTOCOMMIT", poolclass=sa.NullPool)
    try:
        with engine.connect() as connection:
            yield connection
    finally:
        engine.dispose()


@pytest.fixture(params=DATABASES)
def database_url(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[str]:
    """Yield the URL of a database of the test's own: a migrated SQLite file, or a migrated PostgreSQL database."""
    if request.param == "sqlite":
        path = tmp_path / "test.sqlite"
        shutil.copy2(request.getfixturevalue("migrated_sqlite"), path)  # with its owner-only mode
        yield f"sqlite:///{path}"
        return
    template = request.getfixturevalue("migrated_postgres")
    name = f"scorekeeper_test_{uuid.uuid4().hex[:12]}"
    with _postgres_admin() as admin:
        admin.execute(sa.text(f'CREATE DATABASE "{name}" TEMPLATE "{template}"'))
    try:
        yield _postgres_database_url(name)
    finally:
        with _postgres_admin() as admin:
            # FORCE: a server a test started and stopped may still be letting its connections go.
            admin.execute(sa.text(f'DROP DATABASE "{name}" WITH (FORCE)'))


@pytest.fixture
def app(database_url: str, tmp_path: Any) -> Iterator[Flask]:
    """Yield an app on a fresh, migrated database."""
    from scorekeeper.extensions import limiter

    application = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test secret",
            "PASSWORD_HASH_METHOD": CHEAP_PASSWORD_HASH,
            "SQLALCHEMY_DATABASE_URI": database_url,
            "INSTANCE_PATH": str(tmp_path / "instance"),
            # The quick start's first visit: its visitor makes the first account at /setup (a server,
            # whose settings name the database, leaves that to its host: tests/app/test_hosting.py).
            "SETUP_OPEN": True,
            # A page opened on this computer hands out links under its address on the local network:
            # the tests stand it in with another loopback address, so that no test reaches the network.
            "LOCAL_NETWORK_ADDRESS": LOCAL_NETWORK,
        }
    )
    with application.app_context():
        limiter.reset()  # counts are kept per process: start every test afresh
    yield application
    with application.app_context():
        db.session.remove()
        db.engine.dispose()


def csrf_token(client: FlaskClient) -> str:
    """Return the CSRF token of the client's session (as every page's meta tag carries it)."""
    page = client.get("/login").get_data(as_text=True)
    if 'name="csrf-token"' not in page:
        page = client.get("/setup").get_data(as_text=True)
    found = re.search(r'name="csrf-token" content="([^"]+)"', page)
    assert found, "no CSRF token on the page"
    return found.group(1)


class Browser:
    """A test client that signs its forms with the session's CSRF token, like a browser would."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self._token: str | None = None

    @property
    def token(self) -> str:
        if self._token is None:
            page = self.client.get("/account").get_data(as_text=True)
            found = re.search(r'name="csrf-token" content="([^"]+)"', page)
            self._token = found.group(1) if found else csrf_token(self.client)
        return self._token

    def get(self, url: str, **kwargs: Any) -> Any:
        return self.client.get(url, **kwargs)

    def post(self, url: str, data: dict[str, Any] | None = None, **kwargs: Any) -> Any:
        return self.client.post(url, data={**(data or {}), "csrf_token": self.token}, **kwargs)


def make_user(app: Flask, username: str) -> Any:
    """Create an account directly through the service layer."""
    from scorekeeper import services

    with app.app_context():
        user = services.create_user(username, PASSWORD)
        return user.id


def signed_in(app: Flask, username: str) -> Browser:
    """Return a browser signed in as `username` (created if needed)."""
    from scorekeeper import services

    with app.app_context():
        if services.user_named(username) is None:
            services.create_user(username, PASSWORD)
    client = app.test_client()
    token = csrf_token(client)
    response = client.post("/login", data={"username": username, "password": PASSWORD, "csrf_token": token})
    assert response.status_code == 302, response.get_data(as_text=True)
    return Browser(client)


@pytest.fixture
def ana(app: Flask) -> Browser:
    """A browser signed in as the account 'ana'."""
    return signed_in(app, "ana")


@pytest.fixture
def bea(app: Flask, ana: Browser) -> Browser:
    """A browser signed in as a second account, 'bea'."""
    return signed_in(app, "bea")


@contextmanager
def folder_registered(folder: str) -> Iterator[None]:
    """Register a game folder (one under tests/) while the block runs, and leave the registry as it was
    after it (and the API's document, which names the registered games, to be made again)."""
    folders, games, folder_of, codes = (
        list(registry.FOLDERS),
        dict(registry.GAMES),
        dict(registry.FOLDER_OF),
        list(registry.CODES),
    )
    openapi_document.cache_clear()
    registry.register(folder)
    try:
        yield
    finally:
        registry.FOLDERS[:], registry.CODES[:] = folders, codes
        registry.GAMES.clear()
        registry.GAMES.update(games)
        registry.FOLDER_OF.clear()
        registry.FOLDER_OF.update(folder_of)
        openapi_document.cache_clear()


@pytest.fixture
def lowball() -> Iterator[Game]:
    """Register Lowball, the test game of `tests/lowball/`, for one test."""
    with folder_registered("tests.lowball"):
        yield registry.GAMES["lowball"]
