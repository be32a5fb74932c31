"""What the host sees of a start: the version, the database opened, and the starts refused.

Every start logs one line naming the database it opened, its schema revision and the instance
folder, so that a host sees at once when the app opened another database than the one meant.
The app refuses to start (`StartRefused`) rather than:

- create a new, empty SQLite database in the instance folder it picks by default while a
  database of an earlier setup lies where that setup kept it: a server upgraded from a
  checkout, or whose settings lost SCOREKEEPER_INSTANCE_PATH, would otherwise come up empty,
  offering its first visitor the first account;
- serve a database its schema is behind when it is not to migrate it itself (AUTO_MIGRATE
  false): its pages would answer with server errors. The `flask` commands other than `run`
  still open such a database, since `db upgrade` and `backup` are how the host brings it up to
  date and keeps a copy first;
- open a database a newer version has upgraded, which no command of this one can use.

Each refusal is one line saying what to do, not a traceback, whoever loads the app: the `flask`
commands (`run` included) print a click.ClickException's message alone, gunicorn's master (with
--preload) a RuntimeError's, and its workers an AppImportError's (`as_the_server_shows_it`).
"""

from __future__ import annotations

import logging
import sys
import tomllib
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import cast

import click
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask import Flask, current_app
from flask.cli import ScriptInfo
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import SQLAlchemyError

from ..config import DATABASE_FILE
from .paths import checkout_root

#: The instance folder of a server set up as deploy/ does (SCOREKEEPER_INSTANCE_PATH in scorekeeper.env).
DEPLOYED_INSTANCE = Path("/var/lib/scorekeeper")
#: The first bytes of every SQLite database file.
SQLITE_HEADER = b"SQLite format 3\x00"
UPGRADE_COMMAND = "flask --app scorekeeper db upgrade"


class StartRefused(click.ClickException, RuntimeError):
    """The app will not start as configured; the message, one line, says why and what the host can do."""


def as_the_server_shows_it(refusal: StartRefused) -> StartRefused:
    """Return `refusal` as the server loading the app shows it: its message alone.

    A gunicorn worker that fails to load the app logs the traceback of any error but an AppImportError,
    whose message alone it prints (and then gunicorn stops, as for any worker that fails to boot).
    """
    errors = sys.modules.get("gunicorn.errors")
    if errors is None:
        return refusal
    shown = type("StartRefused", (StartRefused, errors.AppImportError), {})
    return cast(StartRefused, shown(refusal.message))


def package_version() -> str:
    """Return the version of the running code: its checkout's pyproject.toml, else the installed package's."""
    root = checkout_root()
    if root is not None:
        # A checkout's code is the version its pyproject.toml names, even when the editable
        # install that put it on the path was made at an older one.
        with open(root / "pyproject.toml", "rb") as handle:
            return str(tomllib.load(handle)["project"]["version"])
    return metadata.version("scorekeeper")


def made_for_a_command() -> bool:
    """Tell whether the app is being made for a `flask` command other than `flask run` (which serves pages)."""
    context = click.get_current_context(silent=True)
    return context is not None and context.find_object(ScriptInfo) is not None and context.info_name != "run"


def earlier_instance_folders() -> list[Path]:
    """Return the folders where earlier setups kept their instance folder, to look in when none is named.

    The current folder's instance/ (the checkout that gunicorn and the flask commands were run
    from, as the README of the releases before 0.2.0 had it); the checkout a virtual environment
    sits in (its .venv); an installed wheel's default, <prefix>/var/scorekeeper-instance, for
    a checkout now run from that environment; and the folder of a server set up by deploy/.
    """
    folders = [Path.cwd() / "instance"]
    if sys.prefix != sys.base_prefix:
        folders.append(Path(sys.prefix).parent / "instance")
    folders += [Path(sys.prefix) / "var" / "scorekeeper-instance", DEPLOYED_INSTANCE]
    return folders


def refuse_a_new_database_beside_an_earlier_one(app: Flask) -> None:
    """Refuse to start a new SQLite database in the default instance folder when an earlier setup's is found.

    Called only when the configuration named neither the database nor the instance folder,
    before anything is written in that folder. ALLOW_NEW_DATABASE lets the start go on.
    """
    default = Path(app.instance_path) / DATABASE_FILE
    if _holds_data(default) or app.config["ALLOW_NEW_DATABASE"]:
        return
    earlier: list[Path] = []
    for folder in earlier_instance_folders():
        path = folder / DATABASE_FILE
        if _holds_data(path) and path.resolve() != default.resolve() and path.resolve() not in earlier:
            earlier.append(path.resolve())
    if earlier:
        found = " and ".join(str(path) for path in earlier)
        raise StartRefused(
            f"Scorekeeper found no database in its default instance folder and would start a new, empty one at "
            f"{default}, but an earlier setup's database is at {found}. To keep using it, name its folder in the "
            f"settings of the server and of the flask commands alike: `SCOREKEEPER_INSTANCE_PATH={earlier[0].parent}`. "
            f"To start the new, empty database anyway, set `SCOREKEEPER_ALLOW_NEW_DATABASE=true`."
        )


def _holds_data(path: Path) -> bool:
    """Tell whether `path` is a SQLite database file with something in it (SQLite writes nothing until it must)."""
    try:
        with open(path, "rb") as handle:
            return handle.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:  # none there, or not readable by this user: nothing to point the host at
        return False


@dataclass(frozen=True)
class Database:
    """The configured database as the start found it, before opening it."""

    #: Its URL with the password hidden, or a SQLite file's absolute path.
    shown: str
    #: Whether it is a SQLite file that does not exist yet (or is still empty).
    new_file: bool

    @classmethod
    def before_opening(cls, url: str) -> Database:
        """Describe the database of `url`; call it before the app first connects (which creates a SQLite file)."""
        path = _sqlite_file(url)
        return cls(describe(url), new_file=path is not None and not _holds_data(path))


def describe(url: str | URL) -> str:
    """Name a database for the host: a SQLite file by its absolute path, another by its URL without the password."""
    path = _sqlite_file(url)
    return f"SQLite file {path}" if path is not None else make_url(url).render_as_string(hide_password=True)


def _sqlite_file(url: str | URL) -> Path | None:
    """Return the absolute path of the SQLite file of `url`, or None for another database (or one in memory)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database).resolve()


@dataclass(frozen=True)
class SchemaState:
    """The database's schema revision, and the one this version's migrations end at."""

    revision: str | None
    head: str
    #: Whether this version's migrations know the revision (no: a newer version upgraded it).
    known: bool


@contextmanager
def opening(shown: str) -> Iterator[None]:
    """Refuse to start, naming the database (`shown`), if it cannot be reached inside this block."""
    try:
        yield
    except SQLAlchemyError as error:
        # The driver's own words, on one line (without SQLAlchemy's statement and link to its docs).
        said = " ".join(str(getattr(error, "orig", None) or error).split())
        raise StartRefused(f"Scorekeeper could not open its database, {shown}: {said}") from error


def read_schema(shown: str) -> SchemaState:
    """Read the schema revision of the app's database (inside an app context), or refuse to start if it cannot."""
    from ..extensions import db

    script = ScriptDirectory.from_config(current_app.extensions["migrate"].migrate.get_config())
    head = script.get_current_head()
    assert head is not None, "the migrations have a single head (tests/app/test_factory.py)"
    with opening(shown), db.engine.connect() as connection:
        revision = MigrationContext.configure(connection).get_current_revision()
    known = revision is None or revision in {step.revision for step in script.walk_revisions()}
    return SchemaState(revision, head, known)


def schema_problem(shown: str, schema: SchemaState) -> str | None:
    """Say why this version cannot use the database at `schema` until the host acts, or None if it can."""
    if schema.revision == schema.head:
        return None
    version = package_version()
    if not schema.known:
        return (
            f"The database, {shown}, is at schema revision {schema.revision}, which Scorekeeper "
            f"{version} (revision {schema.head}) does not know: a newer version has upgraded it. Install that "
            f"version again, or restore a backup made before the upgrade."
        )
    step = "Back it up, then run" if schema.revision else "Run"
    return (
        f"The database, {shown}, is at schema revision {schema.revision or 'none (it has no tables yet)'}; "
        f"Scorekeeper {version} needs revision {schema.head}. {step} `{UPGRADE_COMMAND}` with the same "
        f"settings (or let the app apply the migrations as it starts: SCOREKEEPER_AUTO_MIGRATE=true)."
    )


def log_for_the_host(app: Flask) -> None:
    """Let the app's INFO lines through, the start's line among them.

    gunicorn leaves Python's logging at its default, WARNING; the start's line is for the host to read
    in gunicorn's output (journald), as is every line the app logs at INFO.
    """
    if app.logger.level == logging.NOTSET:
        app.logger.setLevel(logging.INFO)


def waiting_for_another(app: Flask, database: Database) -> None:
    """Say that this start waits while another process (another host, a worker, a command) migrates the database."""
    app.logger.info(
        f"Another process is migrating the database, {database.shown}, or deriving its figures: "
        f"this start waits for it to finish."
    )


def keep_until_the_command_ends(lock: ExitStack) -> None:
    """Let `lock` go when the `flask` command the app is made for ends (call it only for one: `made_for_a_command`)."""
    click.get_current_context().find_root().call_on_close(lock.close)


def announce(app: Flask, database: Database, before: SchemaState, migrated: bool, reach: str | None) -> bool:
    """Log the start's line (version, database, schema revision, instance folder, and where the table's phones
    reach the app, `reach`); refuse a database this version cannot serve. Return whether the schema is this
    version's.

    `before` is the schema as the start found it, `migrated` whether the start applied the migrations.
    A database that is behind is still opened for a `flask` command; one a newer version upgraded, by none.
    """
    now = SchemaState(before.head, before.head, True) if migrated else before
    problem = schema_problem(database.shown, now)
    if problem is not None and (not now.known or not made_for_a_command()):
        raise StartRefused(problem)
    revision = now.revision or "none (no tables yet)"
    if migrated and before.revision != now.revision:
        revision += f" (upgraded just now from {before.revision})" if before.revision else " (tables created just now)"
    line = (
        f"Scorekeeper {package_version()} (code in {Path(__file__).parent.parent}); database: {database.shown}"
        f"{', created just now' if database.new_file else ''}; schema revision {revision}; "
        f"instance folder {app.instance_path}{f'; {reach}' if reach else ''}"
    )
    # A command on a database that is behind says so itself, unless it is one that can use it (`db upgrade`, `backup`).
    app.logger.info(line)
    return problem is None
