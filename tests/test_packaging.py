"""Packaging: the app finds its own folders in a checkout and in an installed wheel, and the wheel carries them."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from itertools import count
from pathlib import Path

import pytest

import scorekeeper
from scorekeeper import create_app
from scorekeeper.web.hosting import StartRefused
from scorekeeper.web.paths import APP_FOLDERS, app_folder, checkout_root

ROOT = Path(__file__).resolve().parents[1]
_names = count()


def _fake_package(parent: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """Make an importable package under `parent`, with every app folder inside it; return its name."""
    name = f"fake_scorekeeper_{next(_names)}"
    package = parent / name
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    for folder in APP_FOLDERS:
        (package / folder).mkdir()
    monkeypatch.syspath_prepend(str(parent))
    return name


def test_a_checkout_uses_the_folders_at_its_top() -> None:
    assert checkout_root() == ROOT
    for name in APP_FOLDERS:
        assert app_folder(name) == ROOT / name


def test_the_app_from_a_checkout_serves_the_top_folders_and_keeps_instance_at_the_top(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, migrated_sqlite: Path
) -> None:
    monkeypatch.delenv("SCOREKEEPER_INSTANCE_PATH", raising=False)
    shutil.copy2(migrated_sqlite, tmp_path / "db.sqlite")  # up to date: the app starts without migrating
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "AUTO_MIGRATE": False,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'db.sqlite'}",
        }
    )
    assert app.template_folder == str(ROOT / "templates")
    assert app.static_folder == str(ROOT / "static")
    assert app.instance_path == str(ROOT / "instance")
    assert app.extensions["migrate"].directory == str(ROOT / "migrations")


def test_an_installed_package_uses_the_folders_inside_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site_packages = tmp_path / "lib" / "site-packages"
    (site_packages / "migrations").mkdir(parents=True)  # another project's stray folder must not be taken
    name = _fake_package(site_packages, monkeypatch)
    assert checkout_root(name) is None
    for folder in APP_FOLDERS:
        assert app_folder(folder, name) == site_packages / name / folder


def test_a_checkout_of_another_layout_is_recognised_by_its_pyproject(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = _fake_package(tmp_path, monkeypatch)
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'fake'\n")
    for folder in APP_FOLDERS:
        (tmp_path / folder).mkdir()
    assert checkout_root(name) == tmp_path
    assert app_folder("templates", name) == tmp_path / "templates"


def test_a_missing_folder_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    name = _fake_package(tmp_path / "site-packages", monkeypatch)
    (tmp_path / "site-packages" / name / "migrations").rmdir()
    with pytest.raises(RuntimeError, match="migrations/ folder is missing"):
        app_folder("migrations", name)


def test_the_wheel_carries_templates_static_files_catalogues_and_migrations(tmp_path: Path) -> None:
    # hatchling (the build backend, in the test extra) builds it in a second or two, without the network.
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--wheel-dir",
            str(tmp_path),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
    )
    [wheel] = tmp_path.glob("scorekeeper-*.whl")
    with open(ROOT / "pyproject.toml", "rb") as handle:
        version = tomllib.load(handle)["project"]["version"]
    assert wheel.name == f"scorekeeper-{version}-py3-none-any.whl"
    # The README's commands and deploy/ install the wheel by its name: this release's.
    named = {
        name
        for path in (ROOT / "README.md", *(ROOT / "deploy").iterdir())
        for name in re.findall(r"scorekeeper-\d[\w.]*-py3-none-any\.whl", path.read_text())
    }
    assert named == {wheel.name}, named
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    expected = {
        "scorekeeper/__init__.py",
        "scorekeeper/web/paths.py",
        "scorekeeper/py.typed",
        "scorekeeper/rules/__init__.py",
        "scorekeeper/migrations/env.py",
        "scorekeeper/migrations/alembic.ini",
        "scorekeeper/migrations/script.py.mako",
    }
    for source in ROOT.glob("templates/**/*.html"):
        expected.add(f"scorekeeper/{source.relative_to(ROOT).as_posix()}")
    for source in ROOT.glob("scorekeeper/games/*/templates/*.html"):  # each game's, in its folder
        expected.add(source.relative_to(ROOT).as_posix())
    for source in ROOT.glob("scorekeeper/games/*/static/*.js"):  # each game's browser code, in its folder
        expected.add(source.relative_to(ROOT).as_posix())
    for source in ROOT.glob("static/**/*"):
        if source.is_file():
            expected.add(f"scorekeeper/{source.relative_to(ROOT).as_posix()}")
    for source in ROOT.glob("translations/*/LC_MESSAGES/messages.mo"):
        expected.add(f"scorekeeper/{source.relative_to(ROOT).as_posix()}")
    for source in ROOT.glob("migrations/versions/*.py"):
        expected.add(f"scorekeeper/{source.relative_to(ROOT).as_posix()}")
    assert len([n for n in expected if n.endswith(".mo")]) >= 3
    assert len([n for n in expected if "/versions/" in n]) >= 7
    assert expected <= names, sorted(expected - names)
    # Only what runs: no tests, benchmark, instance files, caches or translation sources.
    assert all(name.startswith(("scorekeeper/", "scorekeeper-")) for name in names), sorted(names)
    assert not [n for n in names if "__pycache__" in n or n.endswith((".po", ".pot", ".pyc"))]


def test_a_postgresql_database_without_its_driver_is_refused_with_the_extra_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    found = scorekeeper.find_spec
    monkeypatch.setattr(scorekeeper, "find_spec", lambda name: None if name == "psycopg" else found(name))
    for url in ("postgresql:///scorekeeper", "postgres://ana@db/scores", "postgresql+psycopg:///scorekeeper"):
        with pytest.raises(StartRefused, match=re.escape("pip install 'scorekeeper[postgres]'")):
            create_app(
                {"TESTING": True, "SECRET_KEY": "test", "INSTANCE_PATH": str(tmp_path), "SQLALCHEMY_DATABASE_URI": url}
            )


def test_psycopg_is_an_extra_that_the_tests_bring() -> None:
    with open(ROOT / "pyproject.toml", "rb") as handle:
        project = tomllib.load(handle)["project"]
    assert not [name for name in project["dependencies"] if name.startswith("psycopg")]
    assert [name for name in project["optional-dependencies"]["postgres"] if name.startswith("psycopg[binary]")]
    assert "scorekeeper[postgres]" in project["optional-dependencies"]["test"]
