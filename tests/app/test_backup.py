"""Backups of a live SQLite database, restoring one, and an import killed halfway."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from flask import Flask

from scorekeeper import create_app, services
from scorekeeper.extensions import db
from scorekeeper.models import Match, User
from scorekeeper.registry import check_match

from ..conftest import signed_in
from .test_cli import play_an_evening, run


def sqlite_only(app: Flask) -> None:
    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        pytest.skip("the online backup is SQLite's; PostgreSQL is backed up with pg_dump")


def consistent(path: Path) -> tuple[int, int]:
    """Check a backup file: intact, and every match's cached result derived from its own deals."""
    connection = sqlite3.connect(path)
    assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    rows = connection.execute("SELECT id, game, options, result FROM matches").fetchall()
    deals = 0
    for match_id, game, options, result in rows:
        players = [
            name
            for (name,) in connection.execute(
                "SELECT players.name FROM seats JOIN players ON players.id = seats.player_id "
                "WHERE seats.match_id = ? ORDER BY seats.seat",
                (match_id,),
            )
        ]
        stored = [
            json.loads(data)
            for (data,) in connection.execute("SELECT data FROM deals WHERE match_id = ? ORDER BY number", (match_id,))
        ]
        deals += len(stored)
        document = {"game": game, "players": players, "options": json.loads(options), "deals": stored}
        assert check_match(document).to_dict() == json.loads(result)
    connection.close()
    return len(rows), deals


def test_a_backup_taken_while_deals_are_written_is_consistent(app: Flask, tmp_path: Path) -> None:
    sqlite_only(app)
    with app.app_context():
        user = services.create_user("ana", "a long secret")
        match_ids = [
            services.start_match(user, "pocha", ["Ana", "Luis"], {"schedule": [1] * 200}, 0).id for _ in range(3)
        ]
    stop, writing = threading.Event(), threading.Event()

    def keep_writing() -> None:
        with app.app_context():
            number = 0
            while not stop.is_set() and number < 200:
                number += 1
                for match_id in match_ids:
                    match = db.session.get(Match, match_id)
                    services.add_deal(
                        match, {"dealer": (number + 1) % 2, "cards": 1, "trump": None, "bids": [1, 1], "tricks": [1, 0]}
                    )
                db.session.remove()
                writing.set()

    writer = threading.Thread(target=keep_writing)
    writer.start()
    # The backup starts once deals are being written (on a busy machine the thread may start late).
    assert writing.wait(30)
    time.sleep(0.1)
    try:
        result = run(app, "backup", str(tmp_path / "live.sqlite"))
    finally:
        stop.set()
        writer.join(30)
    assert result.exit_code == 0, result.output
    matches, deals = consistent(tmp_path / "live.sqlite")
    assert matches == 3 and deals > 0


def test_a_backup_is_restored_by_putting_the_file_back(app: Flask, tmp_path: Path) -> None:
    sqlite_only(app)
    play_an_evening(signed_in(app, "ana"))
    before = json.loads(run(app, "export").output)
    assert run(app, "backup", str(tmp_path / "backup.sqlite")).exit_code == 0
    signed_in(app, "bea")  # life goes on after the backup...
    database = Path(app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///"))
    with app.app_context():
        db.engine.dispose()
    # ...until the database is lost: restoring is copying the backup over it, the app stopped
    for leftover in (database, database.with_name(database.name + "-wal"), database.with_name(database.name + "-shm")):
        leftover.unlink(missing_ok=True)
    database.write_bytes((tmp_path / "backup.sqlite").read_bytes())
    restored = create_app(
        {
            "SECRET_KEY": "x",
            "INSTANCE_PATH": str(tmp_path / "restored"),
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}",
        }
    )
    after = json.loads(run(restored, "export").output)
    assert [a["username"] for a in after["accounts"]] == ["ana"]
    assert {k: v for k, v in after.items() if k != "exported_at"} == {
        k: v for k, v in before.items() if k != "exported_at"
    }
    with restored.app_context():
        db.engine.dispose()


def test_backup_refuses_a_folder_and_postgresql(app: Flask, tmp_path: Path) -> None:
    result = run(app, "backup", str(tmp_path))
    assert result.exit_code != 0
    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        assert "pg_dump" in run(app, "backup", str(tmp_path / "x.sqlite")).output


def test_an_import_killed_halfway_leaves_the_database_as_it_was(app: Flask, tmp_path: Path) -> None:
    sqlite_only(app)
    play_an_evening(signed_in(app, "ana"))
    data = json.loads(run(app, "export").output)
    template = data["accounts"][0]["matches"][0]
    data["accounts"][0]["matches"] = [dict(template, uid=f"{n:032x}") for n in range(3000)]
    big = tmp_path / "big.json"
    big.write_text(json.dumps(data))
    with app.app_context():
        before = (
            db.session.scalar(db.select(db.func.count()).select_from(Match)),
            db.session.scalar(db.select(db.func.count()).select_from(User)),
        )
        db.engine.dispose()
    env = {
        **os.environ,
        "SCOREKEEPER_DATABASE_URL": app.config["SQLALCHEMY_DATABASE_URI"],
        "SCOREKEEPER_INSTANCE_PATH": str(tmp_path / "importer"),
        "SCOREKEEPER_SECRET_KEY": "x",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "flask", "--app", "scorekeeper", "import", str(big), "--user", "ana"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.time() + 60
    wal = Path(app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///") + "-wal")
    start_size = wal.stat().st_size if wal.exists() else 0
    while time.time() < deadline and process.poll() is None:
        if wal.exists() and wal.stat().st_size > start_size + 200_000:  # well into writing the matches
            break
        time.sleep(0.02)
    assert process.poll() is None, "the import finished before it could be killed"
    process.send_signal(signal.SIGKILL)
    process.wait(10)
    process.stdout.close()  # type: ignore[union-attr]
    process.stderr.close()  # type: ignore[union-attr]
    with app.app_context():
        after = (
            db.session.scalar(db.select(db.func.count()).select_from(Match)),
            db.session.scalar(db.select(db.func.count()).select_from(User)),
        )
    assert after == before
    connection = sqlite3.connect(Path(app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///")))
    assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    connection.close()


def test_the_database_its_wal_and_shm_files_and_backups_are_owner_only(tmp_path: Path) -> None:
    old_umask = os.umask(0o022)  # what most hosts run with: new files readable by everyone
    try:
        database = tmp_path / "instance" / "scorekeeper.sqlite"
        app = create_app({"SECRET_KEY": "x", "INSTANCE_PATH": str(tmp_path / "instance")})  # the default database
        signed_in(app, "ana")  # writes: the -wal and -shm files exist while the app holds the database open
        with app.app_context():
            with db.engine.connect():
                files = [
                    database,
                    database.with_name(database.name + "-wal"),
                    database.with_name(database.name + "-shm"),
                ]
                assert all(path.exists() for path in files)
                assert {oct(path.stat().st_mode & 0o777) for path in files} == {"0o600"}
            db.engine.dispose()
        result = run(app, "backup", str(tmp_path / "backups" / "copy.sqlite"))
        assert result.exit_code == 0, result.output
        assert oct((tmp_path / "backups" / "copy.sqlite").stat().st_mode & 0o777) == "0o600"
        assert oct((tmp_path / "instance").stat().st_mode & 0o777) == "0o700"
    finally:
        os.umask(old_umask)


def test_a_database_made_readable_by_others_is_made_owner_only_at_start(tmp_path: Path) -> None:
    database = tmp_path / "scorekeeper.sqlite"
    create_app({"SECRET_KEY": "x", "INSTANCE_PATH": str(tmp_path), "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}"})
    database.chmod(0o644)
    create_app({"SECRET_KEY": "x", "INSTANCE_PATH": str(tmp_path), "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}"})
    assert oct(database.stat().st_mode & 0o777) == "0o600"
