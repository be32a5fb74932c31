"""One folder per game: every registered game has its engine and its web side with every template part
in its folder, and nothing outside the game folders tells games apart by their names."""

import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from scorekeeper.api import schemas
from scorekeeper.games.web import template_folders, web_game, web_games
from scorekeeper.registry import CODES, FOLDER_OF, FOLDERS, GAMES, register, score_match
from scorekeeper.rules import Game
from scorekeeper.rules.messages import MESSAGES, define

ROOT = Path(__file__).resolve().parent.parent
#: The parts of a game's pages that each game's templates give (<folder>/templates/<part>.html).
PARTS = ("deal_fields", "deal_extras", "next_step", "player_figures", "player_charts")
#: Where a game may be named: its folder (code and templates).
ALLOWED = (ROOT / "scorekeeper" / "games",)


def test_every_game_of_the_engine_has_its_web_side_from_its_folder_in_the_same_order() -> None:
    assert [side.name for side in web_games()] == list(GAMES)
    for name, game in GAMES.items():
        assert web_game(name).engine is game
        assert FOLDER_OF[name].rpartition(".")[2] == web_game(name).folder


def test_a_folder_that_declares_a_game_already_registered_is_refused_and_changes_nothing() -> None:
    before = (list(FOLDERS), dict(GAMES), dict(FOLDER_OF))
    with pytest.raises(ValueError, match="two folders declare the game 'tute2'"):
        register("tests.twin_folder")
    assert (list(FOLDERS), dict(GAMES), dict(FOLDER_OF)) == before
    register(FOLDER_OF["tute2"])  # a folder registered again is read again, and changes nothing
    assert (list(FOLDERS), dict(GAMES), dict(FOLDER_OF)) == before


@pytest.mark.parametrize("name", list(GAMES))
def test_every_game_gives_every_part_of_its_pages_from_its_folder(name: str) -> None:
    folder = template_folders()[web_game(name).folder]
    for part in PARTS:
        prefix, _, file = web_game(name).template(part).rpartition("/")
        assert prefix == f"games/{web_game(name).folder}"
        assert (folder / file).is_file(), (name, part)


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


def test_nothing_outside_the_game_folders_compares_a_games_name() -> None:
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


def test_a_game_s_own_codes_sentences_and_result_keys_reach_the_api_s_document(lowball: Game) -> None:
    assert CODES[-1] == "points_of_a_player_out" and CODES.count("malformed") == 1
    assert MESSAGES["lowball_out"] == "{name} is out of the match and counts no points."
    schema = schemas.result()
    assert schema["properties"]["out"]["description"] == "The seats out. Only in lowball."
    assert schema["properties"]["deals"]["items"]["properties"]["went_out"]["type"] == "array"
    shaped = score_match(
        {"game": "lowball", "players": ["Ana", "Luis"], "deals": [{"dealer": 0, "points": [50, 45]}] * 3}
    )
    Draft202012Validator(schema).validate(shaped)  # the game's keys, declared, pass the closed schema


def test_a_sentence_id_given_another_sentence_is_refused(lowball: Game) -> None:
    with pytest.raises(ValueError, match="'lowball_out' is already defined otherwise"):
        define({"lowball_out": "Someone else's sentence."})
    assert define({"lowball_out": MESSAGES["lowball_out"]}) == {"lowball_out": MESSAGES["lowball_out"]}
