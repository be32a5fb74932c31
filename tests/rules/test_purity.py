"""The rules engine stays pure: no web framework, no database, no I/O; small modules; runnable examples.

The engine is its base (`scorekeeper.rules`), the registry that reads the games, and each registered
game's `rules` in its folder.
"""

import ast
import doctest
from importlib import import_module
from pathlib import Path

import scorekeeper.registry
import scorekeeper.rules
from scorekeeper.registry import FOLDERS

RULES_DIR = Path(scorekeeper.rules.__file__).parent
FORBIDDEN_MODULES = {
    "flask",
    "flask_sqlalchemy",
    "flask_wtf",
    "flask_login",
    "flask_migrate",
    "flask_babel",
    "sqlalchemy",
    "wtforms",
    "werkzeug",
    "jinja2",
    "alembic",
    "io",
    "os",
    "sys",
    "pathlib",
    "shutil",
    "socket",
    "sqlite3",
    "subprocess",
    "tempfile",
    "urllib",
    "http",
    "requests",
    "json",
    "logging",
    "pickle",
    "glob",
    "asyncio",
    "time",
}
FORBIDDEN_CALLS = {"open", "print", "input", "exec", "eval", "__import__"}


def imported_modules(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def called_names(tree: ast.AST) -> set[str]:
    return {node.func.id for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}


def rules_sources() -> list[Path]:
    sources = sorted(RULES_DIR.glob("*.py")) + [Path(scorekeeper.registry.__file__)]
    for folder in FOLDERS:
        engine = Path(str(import_module(f"{folder}.rules").__file__))
        found = sorted(engine.parent.glob("*.py")) if engine.name == "__init__.py" else [engine]
        assert found, f"no rules modules in {folder}"
        sources += found
    return sources


def test_rules_modules_import_no_framework_database_or_io_module() -> None:
    offenders = {}
    for path in rules_sources():
        found = imported_modules(ast.parse(path.read_text())) & FORBIDDEN_MODULES
        if found:
            offenders[str(path)] = found
    assert offenders == {}


def test_rules_modules_call_no_io_builtin() -> None:
    offenders = {}
    for path in rules_sources():
        found = called_names(ast.parse(path.read_text())) & FORBIDDEN_CALLS
        if found:
            offenders[str(path)] = found
    assert offenders == {}


def test_the_purity_check_would_catch_an_import() -> None:
    assert imported_modules(ast.parse("import os.path\nfrom flask import Flask\nfrom . import tute")) == {"os", "flask"}


def test_no_rules_module_is_over_400_lines() -> None:
    assert {str(p): n for p in rules_sources() if (n := len(p.read_text().splitlines())) > 400} == {}


def test_every_public_function_and_class_has_a_docstring() -> None:
    missing = []
    for path in rules_sources():
        tree = ast.parse(path.read_text())
        assert ast.get_docstring(tree), str(path)
        for node in tree.body:
            public = isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_")
            if public and not ast.get_docstring(node):
                missing.append(f"{path}:{node.name}")
    assert missing == []


def test_the_package_example_runs() -> None:
    outcome = doctest.testmod(scorekeeper.registry)
    assert outcome.attempted > 0 and outcome.failed == 0


def test_every_message_the_engine_says_is_in_the_catalogue_and_every_one_is_said() -> None:
    from scorekeeper.registry import GAMES
    from scorekeeper.rules.messages import COMMON, MESSAGES

    said: set[str] = set()
    ids: set[str] = set()
    for path in rules_sources():
        if path.name in ("messages.py", "sentences.py"):  # where sentences are defined, not said
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("add", "problem")
                and len(node.args) >= 3
                and isinstance(node.args[2], ast.Constant)
            ):
                said.add(node.args[2].value)
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                ids.add(node.value)
    assert said - set(MESSAGES) == set()
    # The catalogue of the registered games (a test may have defined another game's sentences too).
    catalogue = set(COMMON).union(*(game.messages for game in GAMES.values()))
    assert catalogue <= set(MESSAGES)
    # match_abandoned is said by the app, which knows when a table stopped a match
    assert catalogue - ids == {"match_abandoned"}
