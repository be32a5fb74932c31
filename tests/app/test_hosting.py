"""Hosting: the version, the start's log line, and the starts refused (an earlier setup's database left
behind, a schema behind the code without AUTO_MIGRATE), /setup on a server, and the commands on an
outdated database. See scorekeeper/hosting.py."""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
import subprocess
import sys
import time
import tomllib
from contextlib import closing
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.script import ScriptDirectory
from click.testing import CliRunner, Result
from flask import Flask
from flask.cli import cli as flask_cli

import scorekeeper
from scorekeeper import create_app, services
from scorekeeper.extensions import db

from ..conftest import CHEAP_PASSWORD_HASH, PASSWORD, csrf_token
from .servers import free_port

ROOT = Path(__file__).resolve().parents[2]
HEAD = ScriptDirectory(str(ROOT / "migrations")).get_current_head()
#: The schema revision of the release before 0.2.0, which hosts upgrade from.
PREVIOUS_RELEASE_REVISION = "0007"
UPGRADE = "flask --app scorekeeper db upgrade"


def settings(**named: str) -> dict[str, str]:
    """Return this process's environment without SCOREKEEPER_* settings, plus `named` ones as SCOREKEEPER_NAME."""
    kept = {name: value for name, value in os.environ.items() if not name.startswith("SCOREKEEPER_")}
    return {
        **kept,
        "SCOREKEEPER_PASSWORD_HASH_METHOD": CHEAP_PASSWORD_HASH,
        **{f"SCOREKEEPER_{name}": value for name, value in named.items()},
    }


def host_command(env: dict[str, str], *arguments: str) -> subprocess.CompletedProcess[str]:
    """Run `flask --app scorekeeper ARGUMENTS` as a host does, in a process of its own.

    (`db` commands configure logging from alembic.ini, which would silence this process's loggers.)
    """
    return subprocess.run(
        [sys.executable, "-m", "flask", "--app", "scorekeeper", *arguments],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def command(env: dict[str, str], *arguments: str, stdin: str | None = None) -> Result:
    """Run `flask --app scorekeeper ARGUMENTS` in this process, through Flask's own command line.

    The connections of the app it makes are closed afterwards, as the end of a process of its own would.
    """
    made: list[Flask] = []

    def factory() -> Flask:
        made.append(create_app())
        return made[-1]

    isolated = {name: None for name in os.environ if name.startswith("SCOREKEEPER_")}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(scorekeeper, "create_app", factory)  # the factory Flask's command line finds
        result = CliRunner().invoke(
            flask_cli,
            ["--app", "scorekeeper", *arguments],
            input=stdin,
            env={**isolated, **env, "FLASK_RUN_FROM_CLI": None},
        )
    for app in made:
        closed(app)
    return result


def at_revision(database_url: str, revision: str, instance: Path) -> str:
    """Empty the test's database and bring it to `revision` with the host's command; return its URL."""
    if database_url.startswith("sqlite"):
        Path(database_url.removeprefix("sqlite:///")).unlink(missing_ok=True)
    else:  # a copy of a migrated database: its tables, and Alembic's record of them, go
        engine = sa.create_engine(database_url, poolclass=sa.NullPool)
        with engine.begin() as connection:
            connection.execute(sa.text("DROP SCHEMA public CASCADE; CREATE SCHEMA public"))
        engine.dispose()
    done = host_command(
        settings(DATABASE_URL=database_url, INSTANCE_PATH=str(instance), AUTO_MIGRATE="false"),
        "db",
        "upgrade",
        revision,
    )
    assert done.returncode == 0, done.stderr
    return database_url


def closed(app: Flask) -> None:
    """Close the connections `app` keeps (as the `app` fixture does after each test)."""
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def test_the_version_is_pyproject_s_and_the_version_command_prints_it(app: Flask) -> None:
    with open(ROOT / "pyproject.toml", "rb") as handle:
        version = tomllib.load(handle)["project"]["version"]
    assert scorekeeper.__version__ == version
    printed = app.test_cli_runner().invoke(args=["version"])
    assert printed.exit_code == 0 and f"Scorekeeper {version}, schema revision {HEAD}" in printed.output


def test_every_start_logs_its_database_revision_and_instance_folder(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="scorekeeper")
    config = {"SECRET_KEY": "x", "INSTANCE_PATH": str(tmp_path)}
    for _ in range(2):
        create_app(config)
    first, second = [record for record in caplog.records if "schema revision" in record.getMessage()]
    database = f"database: SQLite file {tmp_path / 'scorekeeper.sqlite'}"
    assert first.levelno == second.levelno == logging.INFO
    assert f"Scorekeeper {scorekeeper.__version__}" in first.getMessage()
    assert f"{database}, created just now; schema revision {HEAD} (tables created just now)" in first.getMessage()
    assert f"{database}; schema revision {HEAD}; instance folder {tmp_path}" in second.getMessage()


def test_a_database_url_is_named_without_its_password() -> None:
    from scorekeeper.web.hosting import describe

    shown = describe("postgresql+psycopg://ana:secret@db.example/scores")
    assert shown == "postgresql+psycopg://ana:***@db.example/scores"


def test_gunicorn_shows_the_start_line_in_its_output_as_it_stands(tmp_path: Path) -> None:
    env = settings(INSTANCE_PATH=str(tmp_path), SECRET_KEY="x")
    with subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "--preload",
            "-w",
            "1",
            "-b",
            f"127.0.0.1:{free_port()}",
            "scorekeeper:create_app()",
        ],
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    ) as server:
        assert server.stderr is not None
        lines = [server.stderr.readline()]
        deadline = time.monotonic() + 60
        while lines[-1] and "Booting worker" not in lines[-1] and time.monotonic() < deadline:
            lines.append(server.stderr.readline())
        server.terminate()
    started = [line for line in lines if "schema revision" in line]
    assert started and f"SQLite file {tmp_path / 'scorekeeper.sqlite'}, created just now" in started[0], lines


@pytest.fixture
def quick_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Make the app's default instance folder (no setting names one) tmp_path/checkout/instance; return tmp_path.

    The app runs from a checkout there, the current folder is tmp_path/elsewhere, the virtual
    environment is tmp_path/venv, and deploy/'s server folder is tmp_path/deployed.
    """
    for name in ("INSTANCE_PATH", "DATABASE_URL", "ALLOW_NEW_DATABASE", "SECRET_KEY"):
        monkeypatch.delenv(f"SCOREKEEPER_{name}", raising=False)
    monkeypatch.setenv("SCOREKEEPER_PASSWORD_HASH_METHOD", CHEAP_PASSWORD_HASH)
    monkeypatch.setattr(scorekeeper, "checkout_root", lambda: tmp_path / "checkout")
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "venv"))
    monkeypatch.setattr("scorekeeper.web.hosting.DEPLOYED_INSTANCE", tmp_path / "deployed")
    return tmp_path


#: Where an earlier setup kept its instance folder, relative to the `quick_start` fixture's folder.
EARLIER_FOLDERS = {
    "the current folder's instance/ (a checkout run as the README before 0.2.0 said)": "elsewhere/instance",
    "the instance/ of the checkout the virtual environment sits in": "instance",
    "an installed wheel's default": "venv/var/scorekeeper-instance",
    "deploy/'s server folder": "deployed",
}


@pytest.mark.parametrize("earlier", EARLIER_FOLDERS.values(), ids=EARLIER_FOLDERS.keys())
def test_no_new_database_is_made_by_default_while_an_earlier_setup_s_lies_elsewhere(
    quick_start: Path, migrated_sqlite: Path, earlier: str
) -> None:
    old = quick_start / earlier / "scorekeeper.sqlite"
    old.parent.mkdir(parents=True)
    shutil.copy2(migrated_sqlite, old)
    default = quick_start / "checkout" / "instance"
    with pytest.raises(RuntimeError) as refusal:
        create_app()
    message = str(refusal.value)
    assert f"would start a new, empty one at {default / 'scorekeeper.sqlite'}" in message
    assert f"an earlier setup's database is at {old}." in message
    assert f"`SCOREKEEPER_INSTANCE_PATH={old.parent}`" in message
    assert "`SCOREKEEPER_ALLOW_NEW_DATABASE=true`" in message and "\n" not in message
    assert not default.exists()  # neither a database nor a secret key was written there


def test_the_host_points_the_app_at_the_earlier_database_or_asks_for_a_new_one(
    quick_start: Path, migrated_sqlite: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = quick_start / "elsewhere" / "instance" / "scorekeeper.sqlite"
    old.parent.mkdir()
    shutil.copy2(migrated_sqlite, old)
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(old.parent))
    assert create_app().config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{old}"
    monkeypatch.delenv("SCOREKEEPER_INSTANCE_PATH")
    monkeypatch.setenv("SCOREKEEPER_ALLOW_NEW_DATABASE", "true")
    new = quick_start / "checkout" / "instance" / "scorekeeper.sqlite"
    assert create_app().config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{new}"
    monkeypatch.delenv("SCOREKEEPER_ALLOW_NEW_DATABASE")
    create_app()  # the default database exists now: it is the one to open, whatever lies elsewhere


def test_the_quick_start_makes_its_database_and_lets_its_first_visitor_make_the_first_account(
    quick_start: Path,
) -> None:
    app = create_app()
    assert (quick_start / "checkout" / "instance" / "scorekeeper.sqlite").exists()
    client = app.test_client()
    assert client.get("/").location == "/setup"
    page = client.post(
        "/setup", data={"username": "ana", "password": PASSWORD, "confirm": PASSWORD, "csrf_token": csrf_token(client)}
    )
    assert page.status_code == 302 and page.location == "/"
    closed(app)


@pytest.mark.parametrize("named", ["DATABASE_URL", "INSTANCE_PATH"])
def test_a_server_whose_settings_name_its_database_leaves_the_first_account_to_its_host(
    database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, named: str
) -> None:
    for name in ("INSTANCE_PATH", "DATABASE_URL", "SETUP_OPEN"):
        monkeypatch.delenv(f"SCOREKEEPER_{name}", raising=False)
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "x")  # no secret key file in the checkout's instance/
    monkeypatch.setenv(f"SCOREKEEPER_{named}", database_url if named == "DATABASE_URL" else str(tmp_path / "var"))
    app = create_app()
    client = app.test_client()
    assert client.get("/").location == "/setup"
    page = client.get("/setup").get_data(as_text=True)
    assert "flask --app scorekeeper user create NAME" in page and 'name="password"' not in page
    response = client.post(
        "/setup", data={"username": "eve", "password": PASSWORD, "confirm": PASSWORD, "csrf_token": csrf_token(client)}
    )
    assert response.status_code == 403
    with app.app_context():
        assert services.user_named("eve") is None
    closed(app)
    monkeypatch.setenv("SCOREKEEPER_SETUP_OPEN", "true")  # the host's choice to open it
    opened = create_app()
    assert 'name="password"' in opened.test_client().get("/setup").get_data(as_text=True)
    closed(opened)


def test_without_auto_migrate_an_outdated_database_stops_the_start_naming_the_fix(
    database_url: str, tmp_path: Path
) -> None:
    url = at_revision(database_url, PREVIOUS_RELEASE_REVISION, tmp_path / "instance")
    with pytest.raises(RuntimeError) as refusal:
        create_app(
            {
                "SECRET_KEY": "x",
                "SQLALCHEMY_DATABASE_URI": url,
                "AUTO_MIGRATE": False,
                "INSTANCE_PATH": str(tmp_path / "instance"),
            }
        )
    message = str(refusal.value)
    shown = f"SQLite file {url.removeprefix('sqlite:///')}" if url.startswith("sqlite") else url.split("?")[0]
    assert f"The database, {shown}" in message
    assert (
        f"schema revision {PREVIOUS_RELEASE_REVISION}; Scorekeeper {scorekeeper.__version__} needs "
        f"revision {HEAD}" in message
    )
    assert f"`{UPGRADE}`" in message


def test_the_commands_still_open_an_outdated_database_to_back_it_up_and_upgrade_it(
    database_url: str, tmp_path: Path
) -> None:
    url = at_revision(database_url, PREVIOUS_RELEASE_REVISION, tmp_path / "instance")
    env = settings(DATABASE_URL=url, INSTANCE_PATH=str(tmp_path / "instance"), AUTO_MIGRATE="false")
    if url.startswith("sqlite"):
        copy = tmp_path / "before-the-upgrade.sqlite"
        backed_up = command(env, "backup", str(copy))
        assert backed_up.exit_code == 0, backed_up.output
        with closing(sqlite3.connect(copy)) as backup:
            revisions = backup.execute("SELECT version_num FROM alembic_version").fetchall()
        assert revisions == [(PREVIOUS_RELEASE_REVISION,)]
    for arguments in (["export"], ["user", "create", "ana", "--password-stdin"], ["recompute"]):
        refused = command(env, *arguments, stdin=f"{PASSWORD}\n")
        assert refused.exit_code == 1 and isinstance(refused.exception, SystemExit), refused.output  # said, not crashed
        assert f"schema revision {PREVIOUS_RELEASE_REVISION};" in refused.output and UPGRADE in refused.output
    upgraded = host_command(env, "db", "upgrade")
    assert upgraded.returncode == 0, upgraded.stderr
    made = command(env, "user", "create", "ana", "--password-stdin", stdin=f"{PASSWORD}\n")
    assert made.exit_code == 0, made.output
    assert command(env, "export").exit_code == 0


@pytest.fixture(scope="session")
def previous_release_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Return a SQLite file at the previous release's schema revision, made once per worker process."""
    folder = tmp_path_factory.mktemp("previous-release")
    at_revision(f"sqlite:///{folder / 'old.sqlite'}", PREVIOUS_RELEASE_REVISION, folder / "instance")
    return folder / "old.sqlite"


def refused_start(refusal: str, folder: Path, previous: Path, migrated: Path) -> tuple[dict[str, str], str]:
    """Set up a start the app refuses in `folder`; return its settings and the message it must give whole."""
    folder.mkdir()
    database = folder / "scorekeeper.sqlite"
    named = {"INSTANCE_PATH": str(folder), "SECRET_KEY": "x"}
    version = scorekeeper.__version__
    if refusal == "behind":
        shutil.copy2(previous, database)
        return settings(**named, AUTO_MIGRATE="false"), (
            f"The database, SQLite file {database}, is at schema revision {PREVIOUS_RELEASE_REVISION}; Scorekeeper "
            f"{version} needs revision {HEAD}. Back it up, then run `{UPGRADE}` with the same settings"
        )
    if refusal == "newer":
        shutil.copy2(migrated, database)
        with closing(sqlite3.connect(database)) as connection, connection:
            connection.execute("UPDATE alembic_version SET version_num = 'ffff'")
        return settings(**named), (
            f"The database, SQLite file {database}, is at schema revision ffff, which Scorekeeper {version} (revision "
            f"{HEAD}) does not know: a newer version has upgraded it. Install that version again, or restore a backup"
        )
    if refusal == "unreachable":
        return settings(**named, DATABASE_URL="postgresql://ana:secret@127.0.0.1:1/none"), (
            "Scorekeeper could not open its database, postgresql+psycopg://ana:***@127.0.0.1:1/none: connection failed"
        )
    assert refusal == "not an address"
    return settings(**named, PUBLIC_URL="scores.example.org"), (
        "SCOREKEEPER_PUBLIC_URL must be the site's address, such as https://scores.example.org; it is "
        "'scores.example.org'"
    )


#: How the host starts the app: the quick start, deploy/'s unit (gunicorn --preload), the README of the
#: releases before 0.2.0 (gunicorn, each worker starting the app), and a command of the host's. (With
#: several workers that each fail to start the app, gunicorn's master prints a traceback of its own as
#: it stops: the app's refusal is one line in each worker's output.)
RUNNERS = {
    "flask run": ["-m", "flask", "--app", "scorekeeper", "run", "--port", "{port}"],
    "gunicorn --preload": [
        "-m",
        "gunicorn",
        "--preload",
        "-w",
        "2",
        "-b",
        "127.0.0.1:{port}",
        "scorekeeper:create_app()",
    ],
    "gunicorn": ["-m", "gunicorn", "-w", "1", "-b", "127.0.0.1:{port}", "scorekeeper:create_app()"],
    "flask user create": ["-m", "flask", "--app", "scorekeeper", "user", "create", "ana", "--password-stdin"],
    "flask db upgrade": ["-m", "flask", "--app", "scorekeeper", "db", "upgrade"],
}
#: A database behind the code is what `db upgrade` is for: it brings it up to date rather than refuse.
REFUSED = [
    (refusal, runner)
    for refusal in ("behind", "newer", "unreachable", "not an address")
    for runner in RUNNERS
    if (refusal, runner) != ("behind", "flask db upgrade")
]


@pytest.mark.parametrize(("refusal", "runner"), REFUSED, ids=[f"{refusal}, {runner}" for refusal, runner in REFUSED])
def test_a_refused_start_says_why_and_what_to_do_in_one_line_without_a_traceback(
    refusal: str, runner: str, tmp_path: Path, previous_release_sqlite: Path, migrated_sqlite: Path
) -> None:
    env, message = refused_start(refusal, tmp_path / "instance", previous_release_sqlite, migrated_sqlite)
    arguments = [argument.format(port=free_port()) for argument in RUNNERS[runner]]
    try:
        done = subprocess.run(
            [sys.executable, *arguments],
            env={**env, "HOME": str(tmp_path)},  # gunicorn's control socket
            cwd=tmp_path,
            input=f"{PASSWORD}\n",
            capture_output=True,
            text=True,
            timeout=60,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{runner} started on a database it should refuse")
    output = done.stdout + done.stderr
    assert done.returncode != 0, output
    assert "Traceback" not in output, output
    assert any(message in line for line in output.splitlines()), output
