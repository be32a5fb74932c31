"""One interface per game: every game of the engine has its web side with every template part, and
nothing outside the engine and the registry tells games apart by their names."""

import re
from pathlib import Path

import pytest

from scorekeeper.games import WEB_GAMES, web_game
from scorekeeper.rules import GAMES

ROOT = Path(__file__).resolve().parent.parent
#: The parts of a game's pages that each game's templates give (templates/games/<folder>/<part>.html).
PARTS = ("deal_fields", "deal_extras", "next_step", "player_figures", "player_charts")
#: Where a game may be named: its rules and its web side (code and templates).
ALLOWED = (ROOT / "scorekeeper" / "rules", ROOT / "scorekeeper" / "games", ROOT / "templates" / "games")


def test_every_game_of_the_engine_has_its_web_side_in_the_same_order() -> None:
    assert list(WEB_GAMES) == list(GAMES)
    for name, game in GAMES.items():
        assert web_game(name).engine is game


@pytest.mark.parametrize("name", list(GAMES))
def test_every_game_gives_every_part_of_its_pages(name: str) -> None:
    for part in PARTS:
        assert (ROOT / "templates" / web_game(name).template(part)).is_file(), (name, part)


def _comparisons(text: str, names: list[str]) -> list[str]:
    """Return the places in `text` that compare something with a game's name or test its prefix."""
    quoted = "|".join(re.escape(name) for name in names)
    patterns = [
        rf"(==|!=|===|!==)\s*[\"']({quoted})[\"']",  # game == "pocha"
        rf"[\"']({quoted})[\"']\s*(==|!=|===|!==)",  # "pocha" == game
        rf"\bin\s*[\(\[{{]\s*[\"']({quoted})[\"']",  # game in ("tute2", ...)
        r"startswith\(\s*[\"']tute",  # name.startswith("tute")
    ]
    return [match.group(0) for pattern in patterns for match in re.finditer(pattern, text)]


def test_the_comparison_finder_sees_each_shape_it_looks_for() -> None:
    names = list(GAMES)
    for text in (
        'if match.game == "pocha":',
        "{% if game.name != 'tute4' %}",
        'plan.game === "pocha"',
        "if name.startswith('tute'):",
        'if game in ("tute2", "tute4"):',
    ):
        assert _comparisons(text, names), text
    assert not _comparisons('{"game": "tute2", "players": ["Ana", "Luis"]}', names)


def test_nothing_outside_the_engine_and_the_registry_compares_a_games_name() -> None:
    names = list(GAMES)
    found = []
    for folder, suffixes in (("scorekeeper", (".py",)), ("templates", (".html",)), ("static", (".js",))):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in suffixes or any(path.is_relative_to(allowed) for allowed in ALLOWED):
                continue
            found += [f"{path.relative_to(ROOT)}: {hit}" for hit in _comparisons(path.read_text(), names)]
    assert found == []


def test_every_games_name_fits_the_tables_that_name_a_game() -> None:
    from scorekeeper.models import GAME_NAME_LENGTH, Match, PlayerRating, PlayerResult, PlayerSummary

    for model in (Match, PlayerResult, PlayerRating, PlayerSummary):
        assert model.__table__.c.game.type.length == GAME_NAME_LENGTH
    assert all(len(name) <= GAME_NAME_LENGTH for name in GAMES)
