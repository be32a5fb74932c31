"""The folder tree keeps its layers: reads never reach a writer, only the services keep the derived
tables, errors depend on nothing, and no module grows past a screenful of screens."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import scorekeeper

PACKAGE_DIR = Path(scorekeeper.__file__).parent
#: The code that changes data: the services, the account's lock they take, and the upkeep of the
#: derived tables they call (with the changes of one match it adds to them, and the statements it
#: stores a deal with).
WRITERS = ("scorekeeper.services", "scorekeeper.figures.locks", "scorekeeper.figures.upkeep",
           "scorekeeper.figures.increments", "scorekeeper.figures.statements")
#: The reads and what lays them out for a page or a document.
READERS = ("scorekeeper.reads.queries", "scorekeeper.figures.reads", "scorekeeper.figures.aggregate",
           "scorekeeper.figures.nights", "scorekeeper.figures.rows", "scorekeeper.pages", "scorekeeper.reads.documents", "scorekeeper.reads.transfer",
           "scorekeeper.web.etags", "scorekeeper.reads.paging")
LONGEST_MODULE = 400


def module_name(path: Path) -> str:
    """Return the dotted name of a source file of the package."""
    parts = path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_package(name: str) -> bool:
    """Tell whether a dotted name is a package of scorekeeper (a folder with an __init__)."""
    return (PACKAGE_DIR.parent.joinpath(*name.split(".")) / "__init__.py").exists()


def is_module(name: str) -> bool:
    """Tell whether a dotted name is a module or package of scorekeeper."""
    path = PACKAGE_DIR.parent.joinpath(*name.split("."))
    return path.with_suffix(".py").exists() or is_package(name)


@cache
def modules() -> dict[str, Path]:
    """Return every module of the package by dotted name."""
    return {module_name(path): path for path in sorted(PACKAGE_DIR.rglob("*.py"))}


@cache
def imports_of(name: str) -> frozenset[str]:
    """Return the package's own modules that module `name` imports, at any level of its code."""
    path = modules()[name]
    here = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith("scorekeeper"))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = here.split(".")[: len(here.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            if not base.startswith("scorekeeper"):
                continue
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names if is_module(f"{base}.{alias.name}"))
    # Importing a.b.c runs the __init__ of a.b first. The package's own __init__ (the app
    # factory, which wires every layer together) is left out: it is not a layer.
    for target in list(found):
        parts = target.split(".")
        found.update(".".join(parts[:end]) for end in range(2, len(parts)) if is_package(".".join(parts[:end])))
    return frozenset(found - {name, "scorekeeper"})


def reached_from(name: str) -> set[str]:
    """Return every module of the package that importing `name` runs."""
    seen: set[str] = set()
    todo = [name]
    while todo:
        for target in imports_of(todo.pop()):
            if target not in seen and target in modules():
                seen.add(target)
                todo.append(target)
    return seen


def under(name: str, prefixes: tuple[str, ...]) -> bool:
    """Tell whether `name` is one of `prefixes` or inside one of them."""
    return any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)


def test_the_import_walk_sees_relative_and_package_imports() -> None:
    assert "scorekeeper.figures.upkeep" in imports_of("scorekeeper.services.matches")
    assert "scorekeeper.figures" in imports_of("scorekeeper.services.matches")
    assert "scorekeeper.services" in reached_from("scorekeeper.views.api")


def test_reads_never_import_a_writer() -> None:
    readers = [name for name in modules() if under(name, READERS)]
    assert len(readers) >= 10
    offenders = {name: sorted(target for target in reached_from(name) if under(target, WRITERS)) for name in readers}
    assert {name: found for name, found in offenders.items() if found} == {}


def test_only_the_services_keep_the_derived_tables() -> None:
    callers = {name for name in modules() if "scorekeeper.figures.upkeep" in imports_of(name)}
    assert callers and all(under(name, ("scorekeeper.services",)) for name in callers), callers
    steps = {name for name in modules() if "scorekeeper.figures.increments" in imports_of(name)}
    assert steps == {"scorekeeper.figures.upkeep", "scorekeeper.figures.statements"}, steps
    senders = {name for name in modules() if "scorekeeper.figures.statements" in imports_of(name)}
    assert senders == {"scorekeeper.figures.upkeep"}, senders
    lockers = {name for name in modules() if "scorekeeper.figures.locks" in imports_of(name)}
    assert lockers and all(under(name, ("scorekeeper.services", "scorekeeper.figures.upkeep")) for name in lockers)


def test_the_errors_and_the_rules_engine_depend_on_nothing_else_of_the_package() -> None:
    assert reached_from("scorekeeper.errors") == set()
    for name in modules():
        if under(name, ("scorekeeper.rules",)):
            assert all(under(target, ("scorekeeper.rules",)) for target in reached_from(name)), name


def test_no_module_outgrows_one_concern() -> None:
    lengths = {name: len(path.read_text(encoding="utf-8").splitlines()) for name, path in modules().items()}
    assert {name: length for name, length in lengths.items() if length > LONGEST_MODULE} == {}
