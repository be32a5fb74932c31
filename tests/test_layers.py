"""What the import contracts in pyproject.toml ([tool.importlinter], checked by `lint-imports`)
cannot say: importing a module runs its folder's __init__ first, no module grows past a
screenful of screens, and no name means two things."""

from __future__ import annotations

import ast
import tomllib
from collections import defaultdict
from pathlib import Path

import grimp

import scorekeeper

PACKAGE_DIR = Path(scorekeeper.__file__).parent
PYPROJECT = PACKAGE_DIR.parent / "pyproject.toml"
#: The most lines a module may have (as ruff formats it) before it is split by concern.
LONGEST_MODULE = 400


def contract(name_start: str) -> dict[str, object]:
    """Return the import contract of pyproject.toml whose name starts with `name_start`."""
    contracts = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]
    [found] = [entry for entry in contracts if entry["name"].startswith(name_start)]
    return dict(found)


def test_the_folders_the_reads_live_in_reach_no_writer_on_import() -> None:
    # import-linter follows import statements, but `import a.b.c` also runs a/b/__init__.py: a
    # writer imported there would reach every read of the folder without a contract seeing it.
    reads = contract("Reads")
    readers, writers = list(reads["source_modules"]), list(reads["forbidden_modules"])
    graph = grimp.build_graph("scorekeeper")
    folders = {".".join(reader.split(".")[:end]) for reader in readers for end in range(2, reader.count(".") + 1)}
    assert folders >= {"scorekeeper.figures"}
    chains = {
        (folder, writer): graph.find_shortest_chain(folder, target)
        for folder in folders
        for writer in writers
        for target in [writer, *graph.find_descendants(writer)]
    }
    assert {key: chain for key, chain in chains.items() if chain} == {}


def test_no_module_outgrows_one_concern() -> None:
    lengths = {
        path.relative_to(PACKAGE_DIR.parent).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in sorted(PACKAGE_DIR.rglob("*.py"))
    }
    assert {name: length for name, length in lengths.items() if length > LONGEST_MODULE} == {}


#: Names several modules define by convention: a view takes its endpoint's name, which says
#: what the page does (`views.matches.undo` calls `services.undo`), and each concern that
#: plugs into the app has its `register(app)`.
CONVENTIONAL_NAMES = {"register"}


def test_no_public_name_is_defined_twice() -> None:
    defined: dict[str, set[str]] = defaultdict(set)
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        module = path.relative_to(PACKAGE_DIR.parent).as_posix()
        if module.startswith("scorekeeper/views/"):
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef | ast.ClassDef) and not node.name.startswith("_"):
                defined[node.name].add(module)
    twice = {name: sorted(modules) for name, modules in defined.items() if len(modules) > 1}
    assert {name: modules for name, modules in twice.items() if name not in CONVENTIONAL_NAMES} == {}
