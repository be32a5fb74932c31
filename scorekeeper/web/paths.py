"""Where the app finds its own files (templates, static, translations, migrations) and its instance folder.

The project keeps these folders at its top, beside the package. A built wheel carries
them inside the package instead (pyproject.toml maps them there), so the app looks in
the checkout when it runs from one and in the installed package otherwise.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

#: The folders of the app's own files, each at the top of a checkout and inside an installed package.
APP_FOLDERS = ("templates", "static", "translations", "migrations")


def checkout_root(package: str = "scorekeeper") -> Path | None:
    """Return the top folder of the checkout that `package` is imported from, or None when it is installed."""
    top = _package_folder(package).parent
    # A checkout's top folder holds pyproject.toml; site-packages does not, though it may
    # hold another project's stray folder of the same name (a `migrations/`, say).
    return top if (top / "pyproject.toml").is_file() else None


def app_folder(name: str, package: str = "scorekeeper") -> Path:
    """Return the folder of the app's own files called `name` (one of APP_FOLDERS).

    In a checkout (the editable install, the tests) it is the folder at the top of the
    project, so that an edit shows at once; in an installed wheel, the copy inside the package.
    """
    root = checkout_root(package)
    folder = root / name if root is not None else _package_folder(package) / name
    if not folder.is_dir():
        raise RuntimeError(
            f"Scorekeeper's {name}/ folder is missing: expected it at {folder}. "
            "Install the package from a wheel built from the whole project."
        )
    return folder


def _package_folder(package: str) -> Path:
    """Return the folder `package` is imported from, as a real path."""
    folder = files(package)
    # Flask, Babel and Alembic open these folders by path, which a zipped package has none of.
    if not isinstance(folder, Path):
        raise RuntimeError(f"{package} must be installed as files on disk, not imported from an archive.")
    return folder.resolve()
