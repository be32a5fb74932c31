"""The project reads whole from a clone: nothing in it points at a document the clone does not have."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Every folder and top-level file of the project that a reader of the clone opens (not the virtual
#: environment, the instance folder with its databases, nor the compiled catalogues).
READ = ["scorekeeper", "static", "templates", "tests", "docs", "bench", "deploy", "migrations", "requirements", ".ci"]
TOP_FILES = ["README.md", "CHANGELOG.md", "pyproject.toml", "babel.cfg"]
#: The names of documents kept outside the repository, written in two parts so that this file is not one to find.
OUTSIDE = ["DESIGN" + ".md", "RULES" + ".md", "../" + "shared"]


def project_text_files() -> list[Path]:
    """Return the project's text files, the translations' sources included."""
    files = [ROOT / name for name in TOP_FILES]
    for folder in [*READ, "translations"]:
        files += [path for path in (ROOT / folder).rglob("*") if path.is_file() and path.suffix != ".mo"]
    return [path for path in files if b"\0" not in path.read_bytes()[:1024]]


def test_no_file_cites_a_document_outside_the_repository() -> None:
    citing = {
        path.relative_to(ROOT).as_posix(): name
        for path in project_text_files()
        for name in OUTSIDE
        if name in path.read_text(encoding="utf-8", errors="replace")
    }
    assert citing == {}
