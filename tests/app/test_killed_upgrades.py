"""A host's first start after an upgrade killed inside any migration, or while it derives the figures, then
started again: the second start brings the database to the head with every fact it held.

Every migration in migrations/ is covered, those added later included. For each, the app's start
is killed (SIGKILL, as the host's supervisor or the kernel's out-of-memory killer would) at several
points inside that migration: after its first statement that writes and its first that is not
Alembic's own, after each table a rebuild makes (Alembic's batch mode), half way, after its last
(the update of the version number), and at its commit, just before it is sent. The kill must leave
the database at the migration before (each migration commits on its own, or not at all); the next
start must finish the upgrade; and the database must then be what an upgrade of the same database
that nobody killed makes of it: the models' schema exactly, intact, no row referring to nothing,
no table of a rebuild left behind, and the same rows in every table. An upgrade nobody killed must
keep every row it began with.

Each start is a process of its own, forked from one that imported the app and started it once on
a database of its own (tests/app/app_starts.py); it watches every engine's statements and commits.
A start that nobody kills writes down which statements each commit took, and the kills are placed
by them.

The databases hold a table's months of use (accounts, players, matches of every game finished,
abandoned and in play, deals, notes, entry links, shared views, sign-ins, API tokens), made at the
head through the services and taken down by the migrations' downgrades to the revision an upgrade
begins at. A migration after the last release (0007, what hosts upgrade from) is killed in an
upgrade from that release, and in one from the revision just before it, which holds every kind of
row a database can hold by then; a migration up to the release, in an upgrade from the revision
before it (the first, in the quick start's first run, on no database).

On PostgreSQL, whose DDL is transactional of itself, a few migrations suffice: there every
migration is one transaction of the server's whatever it does, so that the point inside it makes
no difference; what the test shows there is that the app commits each migration on its own and
nothing it does at start leaves that transaction early.
"""

from __future__ import annotations

import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import IO, Any

import click
import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask import Flask
from flask.cli import ScriptInfo
from sqlalchemy.pool import NullPool

from scorekeeper import create_app, services
from scorekeeper.extensions import db
from scorekeeper.models import ApiToken, EntryLink, utcnow
from scorekeeper.web.paths import app_folder

from ..conftest import CHEAP_PASSWORD_HASH, PASSWORD, POSTGRES_URL, _postgres_url

#: The top of the checkout under test: the starts import its code, whatever is installed.
CHECKOUT = Path(__file__).resolve().parents[2]
SCRIPTS = ScriptDirectory(str(app_folder("migrations")))
#: Every revision, the first first.
REVISIONS = [script.revision for script in reversed(list(SCRIPTS.walk_revisions()))]
HEAD = REVISIONS[-1]
#: The revision of the last release, which hosts upgrade from.
RELEASE = "0007"
#: The tables of derived rows, rebuilt from the facts: their rows' ids are not facts.
DERIVED = frozenset({"player_results", "player_ratings", "player_summaries", "player_pairs"})
#: How long one start may take before the test gives up on it.
START_TIMEOUT = 120
VERSION = re.compile(r"^(?:INSERT INTO|UPDATE) alembic_version\b.*?'([^']+)'")


def before(revision: str) -> str | None:
    """Return the revision a migration applies to (None for the first)."""
    down = SCRIPTS.get_revision(revision).down_revision
    assert down is None or isinstance(down, str), f"{revision} merges branches: this test expects one line"
    return down


def upgrades() -> list[Any]:
    """Return each migration with each revision an upgrade that is killed inside it begins at: the
    release's, for a migration after it, and the one just before it (None, no database, for the first)."""
    cases = []
    for revision in REVISIONS:
        starts = [before(revision)]
        if REVISIONS.index(revision) > REVISIONS.index(RELEASE) + 1:
            starts.insert(0, RELEASE)
        cases += [pytest.param(revision, since, id=f"{revision}-from-{since or 'nothing'}") for since in starts]
    return cases


def kill_points(statements: list[str]) -> list[int | str]:
    """Return where to kill a segment of a start: after which of its writing statements (by their place),
    and at its commit.

    After its first statement, and its first that is not Alembic's own (the version table, made with
    the first migration); after each table a rebuild makes (Alembic's batch mode on SQLite: where the
    audit's start was killed); half way; after its last, the version number's update; and at its
    commit, before it is sent.
    """
    points: list[int | str] = [0]
    points += [n for n, statement in enumerate(statements) if "alembic_version" not in statement][:1]
    points += [n for n, statement in enumerate(statements) if statement.startswith("CREATE TABLE _alembic_tmp_")]
    points += [len(statements) // 2, len(statements) - 1, "commit"]
    return list(dict.fromkeys(point for point in points if point != -1))


@dataclass(frozen=True)
class Outcome:
    """How a start ended (its exit status, or the signal that ended it), and what it wrote to its output."""

    exit: int | None
    signal: int | None
    log: str

    @property
    def killed(self) -> bool:
        """Tell whether SIGKILL ended the start."""
        return self.signal == signal.SIGKILL

    @property
    def succeeded(self) -> bool:
        """Tell whether the start ran to its end."""
        return self.exit == 0


class Starter:
    """The process that makes the app's starts (tests/app/app_starts.py), each in a child of its own."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.count = 0
        environment = {key: value for key, value in os.environ.items() if not key.startswith("SCOREKEEPER_")}
        # The checkout's code first, whatever is installed (an editable install may name another checkout).
        environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(CHECKOUT), os.environ.get("PYTHONPATH")]))
        # Open for the starter's whole life, closed when it is stopped.
        self.errors = open(folder / "starter.log", "w")  # noqa: SIM115
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.app.app_starts"],
            cwd=CHECKOUT,
            env=environment,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.errors,
            bufsize=0,
        )
        imported = Path(self._answer()["scorekeeper"]).resolve()
        assert imported.is_relative_to(CHECKOUT), f"the starts import {imported}, not the checkout's code"

    def _answer(self) -> dict[str, Any]:
        """Read the process's next answer."""
        stdout: IO[bytes] = self.process.stdout  # type: ignore[assignment]
        ready, _, _ = select.select([stdout], [], [], START_TIMEOUT)
        line = stdout.readline() if ready else b""
        if not line:
            raise AssertionError(
                "the starts' process gave no answer: " + (self.folder / "starter.log").read_text()[-3000:]
            )
        answer: dict[str, Any] = json.loads(line)
        return answer

    def start(self, url: str, kill: list[int | str] | None = None, record: Path | None = None) -> Outcome:
        """Start the app on the database at `url` as a host does, killed at `kill` (a segment and a
        point in it) if given; write down the segments it ran to `record`, if given."""
        self.count += 1
        log = self.folder / f"start-{self.count}.log"
        request = {
            "environment": {
                "SCOREKEEPER_DATABASE_URL": url,
                "SCOREKEEPER_SECRET_KEY": "killed upgrades",
                "SCOREKEEPER_INSTANCE_PATH": str(self.folder / "instance"),
            },
            "log": str(log),
            "kill": kill,
            "record": None if record is None else str(record),
        }
        stdin: IO[bytes] = self.process.stdin  # type: ignore[assignment]
        stdin.write(json.dumps(request).encode() + b"\n")
        stdin.flush()
        answer = self._answer()
        return Outcome(answer.get("exit"), answer.get("signal"), log.read_text())

    def close(self) -> None:
        """Let the process end, once it has read every request."""
        stdin: IO[bytes] = self.process.stdin  # type: ignore[assignment]
        stdin.close()
        self.process.wait(30)
        self.process.stdout.close()  # type: ignore[union-attr]
        self.errors.close()


@pytest.fixture(scope="session")
def starter(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Starter]:
    """The process that makes the app's starts, one per worker."""
    starts = Starter(tmp_path_factory.mktemp("starts"))
    yield starts
    starts.close()


def make_history() -> None:
    """Fill the app's database (in an app context) with what months of use leave in it: two accounts,
    their players (one archived), matches of every game finished, abandoned and in play (a Pocha deal's
    bids waiting for its tricks), last month's matches brought in from an export, notes, a shared live
    view, entry links (one stopped) and a deal entered through one, a retried request's key, sign-ins
    and API tokens (one used)."""
    tute = {"dealer": 0, "trump": "oros", "points": [70, 50], "last_trick": 0, "cantes": [{"seat": 0, "suit": "copas"}]}
    pocha = {"dealer": 0, "cards": 1, "trump": None, "bids": [1, 1, 1], "tricks": [1, 0, 0]}
    ana = services.create_user("ana", PASSWORD)
    services.set_language(ana, "es")
    services.set_time_zone(ana, "Europe/Madrid")
    services.set_night_gap(ana, 6)
    bea = services.create_user("Bea", PASSWORD)
    month_ago = utcnow() - timedelta(days=30)
    services.import_accounts(
        [
            {
                "username": "ana",
                "password_hash": "",
                "created_at": month_ago,
                "players": [],
                "matches": [
                    {
                        "uid": uuid.uuid4().hex,
                        "status": status,
                        "first_dealer": 0,
                        "pending": None,
                        "document": {
                            "game": "tute2",
                            "players": ["Ana", "Pedro"],
                            "options": {"target": 1},
                            "deals": deals,
                        },
                        "created_at": month_ago + timedelta(hours=hour),
                        "updated_at": month_ago + timedelta(hours=hour),
                        "ended_at": month_ago + timedelta(hours=hour) if status == "finished" else None,
                        "deal_dates": [(month_ago + timedelta(hours=hour),) * 2 for _ in deals],
                        "note": note,
                    }
                    for hour, status, deals, note in (
                        (0, "finished", [tute], "Casa de Pedro"),
                        (1, "abandoned", [], None),
                    )
                ],
            }
        ],
        into=ana,
    )
    services.create_match_from_document(
        ana, {"game": "tute2", "players": ["Ana", "Luis"], "options": {"target": 1}, "deals": [tute]}, note="En el bar"
    )
    services.create_match_from_document(
        ana, {"game": "tute4", "players": ["Ana", "Luis", "Carmen", "Pedro"], "options": {"target": 1}, "deals": [tute]}
    )
    services.create_match_from_document(
        ana,
        {
            "game": "pocha",
            "players": ["Ana", "Luis"],
            "options": {"schedule": [1]},
            "deals": [{**pocha, "bids": [1, 1], "tricks": [1, 0]}],
        },
    )
    abandoned = services.start_match(ana, "tute2", ["Ana", "Carmen"], {}, 0)
    services.abandon_match(services.add_deal(abandoned, tute, 1))
    bidding = services.start_match(ana, "pocha", ["Ana", "Luis", "Carmen"], {"schedule": [1, 2, 1]}, 0, note="Final")
    bidding = services.add_deal(bidding, pocha, 1)
    services.save_bids(bidding, {"dealer": 1, "cards": 2, "trump": "oros", "bids": [1, 0, 0]}, 2)
    services.share_match(bidding)
    table = services.start_match(ana, "tute4", ["Ana", "Luis", "Carmen", "Pedro"], {"target": 3}, 0)
    services.open_entry_link(table)
    link = db.session.scalar(sa.select(EntryLink.id).where(EntryLink.match_id == table.id))
    table = services.add_deal(table, tute, 1, idempotency_key="phone-1", entry_link_id=link)
    services.open_entry_link(table)  # the first link stops
    player = services.add_player(ana, "Zoe")
    services.set_player_archived(ana, player.id, True)
    services.create_match_from_document(
        bea, {"game": "tute2", "players": ["Bea", "Luis"], "options": {"target": 1}, "deals": [tute]}
    )
    for user in (ana, ana, bea):
        services.start_sign_in(user)
    services.create_api_token(ana, "Marcador")
    services.create_api_token(bea, "Script")
    services.note_token_use(db.session.scalars(sa.select(ApiToken).where(ApiToken.user_id == ana.id)).one())


def app_on(url: str, folder: Path, migrate: bool) -> Flask:
    """Return an app on the database at `url`; with `migrate`, brought to the head at its start."""
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "killed upgrades",
            "PASSWORD_HASH_METHOD": CHEAP_PASSWORD_HASH,
            "SQLALCHEMY_DATABASE_URI": url,
            "INSTANCE_PATH": str(folder / "instance"),
            "AUTO_MIGRATE": migrate,
        }
    )


def migrate_to(url: str, folder: Path, revision: str, down: bool = False) -> None:
    """Take the database at `url` up (or down) to `revision` with the app's migrations.

    On SQLite, with foreign keys off, whatever engine the migrations run on: a downgrade rebuilds
    tables, and a dropped parent table would otherwise take its children's rows with it. (The
    migrations' own engine has them off already; the app's has them on.)
    """
    # As `flask db upgrade` (or `downgrade`) makes the app: on a database the code's schema is not
    # at, which only the flask commands open (a server refuses to start on it: scorekeeper.web.hosting).
    with click.Context(click.Command("db"), info_name="db", obj=ScriptInfo()):
        app = app_on(url, folder, migrate=False)
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            sa.event.listen(db.engine, "connect", lambda dbapi, _record: dbapi.execute("PRAGMA foreign_keys=OFF"))
        config = app.extensions["migrate"].migrate.get_config()
        config.attributes["skip_logging_config"] = True  # the test's logging stays as it is
        (command.downgrade if down else command.upgrade)(config, revision)
        db.engine.dispose()


def sqlite_url(path: Path) -> str:
    """Return the URL of a SQLite file."""
    return f"sqlite:///{path}"


def facts(url: str) -> dict[str, list[str]]:
    """Return every row of every table, sorted; without their ids in the tables of derived rows, which
    are numbered again whenever they are rebuilt (on PostgreSQL, by sequences no rollback takes back)."""
    engine = sa.create_engine(_postgres_url(url) if url.startswith("postgres") else url, poolclass=NullPool)
    found: dict[str, list[str]] = {}
    with engine.connect() as connection:
        for table in sa.inspect(connection).get_table_names():
            rows = connection.execute(sa.text(f'SELECT * FROM "{table}"')).mappings()
            found[table] = sorted(
                json.dumps(
                    {column: value for column, value in row.items() if table not in DERIVED or column != "id"},
                    sort_keys=True,
                    default=str,
                )
                for row in rows
            )
    engine.dispose()
    return found


def assert_kept(start: dict[str, list[str]], after: dict[str, list[str]]) -> None:
    """Check that an upgrade kept every row of each table of the database it began with, with the same
    values in the columns it kept."""
    for table, rows in start.items():
        if table == "alembic_version":
            continue
        before_rows = [json.loads(row) for row in rows]
        after_rows = [json.loads(row) for row in after.get(table, [])]
        if not before_rows:
            assert table in DERIVED or not after_rows, f"the upgrade made rows of {table}"
            continue
        columns = set(before_rows[0]) & set(after_rows[0] if after_rows else before_rows[0])
        assert sorted(json.dumps({c: row[c] for c in columns}, sort_keys=True) for row in before_rows) == sorted(
            json.dumps({c: row[c] for c in columns}, sort_keys=True) for row in after_rows
        ), f"the upgrade lost or changed rows of {table}"


def counts(url: str) -> dict[str, int]:
    """Return how many rows each table holds, but for the version number's."""
    return {table: len(rows) for table, rows in facts(url).items() if table != "alembic_version"}


def left_at(url: str, folder: Path) -> tuple[str, ...]:
    """Return the revision a killed start left the database at, as the next start will find it.

    A SQLite file is read from a copy of it with its journal or write-ahead log (what a kill
    leaves), so that the reader's recovery is the copy's, and the app's next start finds the
    files as the kill left them.
    """
    if url.startswith("sqlite:///"):
        path = Path(url.removeprefix("sqlite:///"))
        folder.mkdir()
        for suffix in ("", "-journal", "-wal"):
            if path.with_name(path.name + suffix).exists():
                shutil.copy2(path.with_name(path.name + suffix), folder / ("copy.sqlite" + suffix))
        url = sqlite_url(folder / "copy.sqlite")
    engine = sa.create_engine(_postgres_url(url) if url.startswith("postgres") else url, poolclass=NullPool)
    with engine.connect() as connection:
        heads = MigrationContext.configure(connection).get_current_heads()
    engine.dispose()
    return heads


def assert_whole(url: str) -> None:
    """Check that the database is at the head, has exactly the models' schema, is intact, has no row
    that refers to nothing and no table of a rebuild left behind."""
    engine = sa.create_engine(_postgres_url(url) if url.startswith("postgres") else url, poolclass=NullPool)
    with engine.connect() as connection:
        assert MigrationContext.configure(connection).get_current_heads() == (HEAD,)
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, db.metadata) == []
        assert [t for t in sa.inspect(connection).get_table_names() if t.startswith("_alembic_tmp_")] == []
        if engine.dialect.name == "sqlite":
            assert connection.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"
            assert connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall() == []
    engine.dispose()


@dataclass(frozen=True)
class Upgraded:
    """A start that ran to its end: the segments of statements it ran (each ending with a commit,
    each a list of its writing statements' first lines), and the rows it left."""

    segments: list[list[str]]
    facts: dict[str, list[str]]

    def segment_of(self, revision: str) -> int:
        """Return the segment that applied a migration (the one that wrote its version number)."""
        found = [
            n
            for n, statements in enumerate(self.segments)
            if any((m := VERSION.match(s)) and m.group(1) == revision for s in statements)
        ]
        assert len(found) == 1, f"no single commit applied {revision}: {self.segments}"
        return found[0]


class Histories:
    """SQLite databases holding the same history at any revision, and what a start that nobody kills
    makes of each (made once per worker, when a test first needs them)."""

    def __init__(self, folder: Path, starter: Starter) -> None:
        self.folder = folder
        self.starter = starter
        self.databases: dict[str, Path] = {}
        self.upgrades: dict[str | None, Upgraded] = {}

    def at(self, revision: str | None) -> Path | None:
        """Return a database at `revision` holding the history (None: no database, the quick start's)."""
        if revision is None:
            return None
        if not self.databases:
            head = self.folder / f"{HEAD}.sqlite"
            app = app_on(sqlite_url(head), self.folder, migrate=True)
            with app.app_context():
                make_history()
                db.session.remove()
                db.engine.dispose()  # its last connection closed: the write-ahead log is folded into the file
            self.databases[HEAD] = head
        # Taken down one migration at a time from the nearest revision after it that is made already.
        for step in reversed(REVISIONS[REVISIONS.index(revision) : -1]):
            if step in self.databases:
                continue
            path = self.folder / f"{step}.sqlite"
            shutil.copy2(self.databases[REVISIONS[REVISIONS.index(step) + 1]], path)
            migrate_to(sqlite_url(path), self.folder, step, down=True)
            kept, held = counts(sqlite_url(path)), counts(sqlite_url(self.databases[HEAD]))
            assert kept == {table: held[table] for table in kept}, f"the downgrade to {step} lost rows"
            self.databases[step] = path
        path = self.databases[revision]
        assert not path.with_name(path.name + "-wal").exists()
        return path

    def copy(self, revision: str | None, name: str) -> str:
        """Return the URL of a copy of the database at `revision` (of a file not made yet, for None)."""
        path = self.folder / name
        source = self.at(revision)
        if source is not None:
            shutil.copy2(source, path)
        return sqlite_url(path)

    def upgraded(self, revision: str | None) -> Upgraded:
        """Return what the app's start makes of the database at `revision` when nobody kills it."""
        if revision not in self.upgrades:
            url = self.copy(revision, f"upgraded-from-{revision}.sqlite")
            record = self.folder / f"upgraded-from-{revision}.json"
            outcome = self.starter.start(url, record=record)
            assert outcome.succeeded, outcome.log
            assert_whole(url)
            upgraded = Upgraded(json.loads(record.read_text()), facts(url))
            start = self.at(revision)
            if start is not None:
                assert_kept(facts(sqlite_url(start)), upgraded.facts)
            self.upgrades[revision] = upgraded
        return self.upgrades[revision]


@pytest.fixture(scope="session")
def histories(tmp_path_factory: pytest.TempPathFactory, starter: Starter) -> Histories:
    """The databases and uninterrupted upgrades of this worker's tests."""
    return Histories(tmp_path_factory.mktemp("histories"), starter)


@dataclass(frozen=True)
class Restart:
    """What a start killed at one point left, and what the next start made of it."""

    #: Where it was killed, in words.
    where: str
    #: The revision the killed start left the database at (its heads).
    left_at: tuple[str, ...]
    #: Every row of the database once the next start has run, as `facts` gives them.
    facts: dict[str, list[str]]


def kill_and_start_again(
    starter: Starter, url: str, upgraded: Upgraded, segment: int, point: int | str, folder: Path
) -> Restart:
    """Kill the app's start on the database at `url` at a point of a segment, then start it again; return
    the revision the kill left and the rows after the second start (which must succeed, leaving the
    database whole: no `_alembic_tmp_` table, integrity and foreign keys checked)."""
    statements = upgraded.segments[segment]
    where = f"at the commit after {statements[-1]!r}" if point == "commit" else f"after {statements[int(point)]!r}"
    killed = starter.start(url, kill=[segment, point])
    assert killed.killed, f"the start was not killed {where}: {killed}"
    heads = left_at(url, folder)
    again = starter.start(url)
    assert again.succeeded, f"the start after one killed {where} failed:\n{again.log[-3000:]}"
    assert_whole(url)
    return Restart(where, heads, facts(url))


def killed_at_every_point(
    starter: Starter, upgraded: Upgraded, segment: int, folder: Path, database: Callable[[str], str]
) -> list[Restart]:
    """Kill a start inside `segment` at each of its kill points, on a fresh copy each time (`database` makes
    one, by a name); return what each kill and the start after it made."""
    points = kill_points(upgraded.segments[segment])
    return [
        kill_and_start_again(starter, database(str(point)), upgraded, segment, point, folder / str(point))
        for point in points
    ]


def heads(revision: str | None) -> tuple[str, ...]:
    """Return the heads of a database at `revision` (none for no revision)."""
    return () if revision is None else (revision,)


@pytest.mark.parametrize(("revision", "since"), upgrades())
def test_a_first_start_killed_inside_a_migration_starts_again_and_loses_nothing(
    revision: str, since: str | None, starter: Starter, histories: Histories, tmp_path: Path
) -> None:
    upgraded = histories.upgraded(since)
    name = f"{revision}-from-{since}-killed-at"
    restarts = killed_at_every_point(
        starter,
        upgraded,
        upgraded.segment_of(revision),
        tmp_path,
        lambda point: histories.copy(since, f"{name}-{point}.sqlite"),
    )
    assert len(restarts) >= 3  # after its first statement, after its last, at its commit
    for restart in restarts:
        assert restart.left_at == heads(before(revision)), (
            f"the start killed {restart.where} left the database at {restart.left_at}, not at the last "
            f"migration it finished, {before(revision)}"
        )
        assert restart.facts == upgraded.facts, f"the rows differ from an unkilled upgrade, once killed {restart.where}"


def figures_segment(upgraded: Upgraded) -> int:
    """Return the segment in which a start derived what the migrations left underived (after the last of them)."""
    last = upgraded.segment_of(HEAD)
    derived = [n for n in range(last + 1, len(upgraded.segments)) if upgraded.segments[n]]
    assert derived, "the start derived nothing after the migrations"
    return derived[0]


def test_a_first_start_killed_while_it_derives_the_figures_starts_again_and_loses_nothing(
    starter: Starter, histories: Histories, tmp_path: Path
) -> None:
    # An upgrade from the release leaves the game nights to be derived, as every figure, by the start.
    upgraded = histories.upgraded(RELEASE)
    restarts = killed_at_every_point(
        starter,
        upgraded,
        figures_segment(upgraded),
        tmp_path,
        lambda point: histories.copy(RELEASE, f"figures-killed-at-{point}.sqlite"),
    )
    assert len(restarts) >= 3
    for restart in restarts:
        assert restart.left_at == heads(HEAD), f"killed {restart.where}, the migrations were not all kept"
        assert restart.facts == upgraded.facts, f"the rows differ from an unkilled start, once killed {restart.where}"


on_postgresql = pytest.mark.skipif(not POSTGRES_URL, reason="SCOREKEEPER_TEST_POSTGRES_URL is not set")


class Schemas:
    """PostgreSQL schemas of the test server, each a database of its own (as tests/conftest.py makes them)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.admin = sa.create_engine(_postgres_url(POSTGRES_URL), poolclass=NullPool)
        self.made: list[str] = []

    def new(self) -> tuple[str, str]:
        """Make an empty schema; return its name and the URL of a database on it."""
        schema = f"test_{uuid.uuid4().hex[:12]}"
        with self.admin.begin() as connection:
            connection.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
        self.made.append(schema)
        separator = "&" if "?" in POSTGRES_URL else "?"
        return schema, f"{_postgres_url(POSTGRES_URL)}{separator}options=-csearch_path%3D{schema}"

    def copy(self, template: str) -> str:
        """Return the URL of a new schema at the release holding the rows of `template` (a schema at the release)."""
        schema, url = self.new()
        migrate_to(url, self.folder, RELEASE)
        tables = sa.MetaData()
        with self.admin.begin() as connection:
            tables.reflect(connection, schema=template)
            for table in tables.sorted_tables:
                if table.name == "alembic_version":
                    continue
                columns = ", ".join(f'"{column.name}"' for column in table.columns)
                connection.exec_driver_sql(
                    f'INSERT INTO "{schema}"."{table.name}" ({columns}) '
                    f'SELECT {columns} FROM "{template}"."{table.name}"'
                )
                connection.exec_driver_sql(
                    f"""SELECT setval(pg_get_serial_sequence('"{schema}"."{table.name}"', 'id'), """
                    f'coalesce(max(id), 0) + 1, false) FROM "{schema}"."{table.name}"'
                )
        return url

    def drop(self) -> None:
        """Drop every schema made here."""
        with self.admin.begin() as connection:
            for schema in self.made:
                connection.exec_driver_sql(f'DROP SCHEMA "{schema}" CASCADE')
        self.admin.dispose()


@dataclass(frozen=True)
class PostgresRelease:
    """A PostgreSQL schema holding the history at the release, and what a start that nobody kills makes of it."""

    schemas: Schemas
    template: str
    upgraded: Upgraded


@pytest.fixture(scope="session")
def postgres_release(tmp_path_factory: pytest.TempPathFactory, starter: Starter) -> Iterator[PostgresRelease]:
    """The history at the release on the test PostgreSQL server, made at the head and taken down to the release."""
    folder = tmp_path_factory.mktemp("postgres")
    schemas = Schemas(folder)
    try:
        template, url = schemas.new()
        app = app_on(url, folder, migrate=True)
        with app.app_context():
            make_history()
            db.session.remove()
            db.engine.dispose()
        migrate_to(url, folder, RELEASE, down=True)
        copy = schemas.copy(template)
        record = folder / "upgraded.json"
        start = facts(copy)
        outcome = starter.start(copy, record=record)
        assert outcome.succeeded, outcome.log
        assert_whole(copy)
        upgraded = Upgraded(json.loads(record.read_text()), facts(copy))
        assert_kept(start, upgraded.facts)
        yield PostgresRelease(schemas, template, upgraded)
    finally:
        schemas.drop()


@on_postgresql
@pytest.mark.parametrize("revision", sorted({REVISIONS[REVISIONS.index(RELEASE) + 1], HEAD}))
def test_on_postgresql_a_first_start_killed_inside_a_migration_starts_again_and_loses_nothing(
    revision: str, starter: Starter, postgres_release: PostgresRelease, tmp_path: Path
) -> None:
    upgraded = postgres_release.upgraded
    restarts = killed_at_every_point(
        starter,
        upgraded,
        upgraded.segment_of(revision),
        tmp_path,
        lambda _point: postgres_release.schemas.copy(postgres_release.template),
    )
    assert len(restarts) >= 3
    for restart in restarts:
        assert restart.left_at == heads(before(revision)), (
            f"the start killed {restart.where} left the database at {restart.left_at}, not at {before(revision)}"
        )
        assert restart.facts == upgraded.facts, f"the rows differ from an unkilled upgrade, once killed {restart.where}"


@on_postgresql
def test_on_postgresql_a_first_start_killed_while_it_derives_the_figures_starts_again_and_loses_nothing(
    starter: Starter, postgres_release: PostgresRelease, tmp_path: Path
) -> None:
    upgraded = postgres_release.upgraded
    restarts = killed_at_every_point(
        starter,
        upgraded,
        figures_segment(upgraded),
        tmp_path,
        lambda _point: postgres_release.schemas.copy(postgres_release.template),
    )
    assert len(restarts) >= 3
    for restart in restarts:
        assert restart.left_at == heads(HEAD), f"killed {restart.where}, the migrations were not all kept"
        assert restart.facts == upgraded.facts, f"the rows differ from an unkilled start, once killed {restart.where}"
