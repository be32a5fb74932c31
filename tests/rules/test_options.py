"""Every game's house rules: names, defaults, allowed values and descriptions."""

import pytest

from scorekeeper.registry import GAMES, check_options, get_game, score_match
from scorekeeper.rules import MatchGoal, OptionSpec, RuleViolation

from .helpers import codes, match

RULES_MD_DEFAULTS = {
    "tute2": {
        "deck": 40,
        "last_trick_bonus": 10,
        "mode": "juegos",
        "target": 3,
        "double_over_100": False,
        "tute": "deal",
    },
    "pocha": {
        "deck": 40,
        "remove_twos": True,
        "schedule": "classic",
        "hook": True,
        "exact_base": 10,
        "per_trick": 5,
        "miss_per_trick": 5,
        "oros_double": False,
    },
}
RULES_MD_DEFAULTS["tute4"] = RULES_MD_DEFAULTS["tute2"]


@pytest.mark.parametrize("name", ["tute2", "tute4", "pocha"])
def test_defaults_are_those_of_rules_md(name: str) -> None:
    assert get_game(name).default_options() == RULES_MD_DEFAULTS[name]


@pytest.mark.parametrize("name", ["tute2", "tute4", "pocha"])
def test_every_option_has_a_one_line_description_and_allowed_values(name: str) -> None:
    for spec in get_game(name).option_specs:
        assert isinstance(spec, OptionSpec)
        assert spec.description and "\n" not in spec.description and spec.description.endswith(".")
        assert spec.allowed


def test_registry_holds_the_four_games() -> None:
    assert list(GAMES) == ["tute2", "tute3", "tute4", "subastado", "pocha"]
    assert (GAMES["tute2"].min_players, GAMES["tute3"].min_players, GAMES["tute4"].max_players) == (2, 3, 4)
    assert (GAMES["pocha"].min_players, GAMES["pocha"].max_players) == (2, 8)


def test_target_default_follows_the_mode() -> None:
    assert get_game("tute2").default_options()["target"] == 3
    assert score_match(match("tute2", [], {"mode": "points"}))["juegos"] is None
    spec = {s.name: s for s in get_game("tute2").option_specs}["target"]
    assert spec.default is None and "101" in spec.description


@pytest.mark.parametrize(
    ("name", "options", "players", "goal"),
    [
        ("tute2", {}, 2, MatchGoal("juegos", target=3)),
        ("tute3", {"mode": "points"}, 3, MatchGoal("points", target=101)),
        ("tute4", {"mode": "points", "target": 250}, 4, MatchGoal("points", target=250)),
        ("subastado", {}, 3, MatchGoal("points", target=500)),
        ("subastado", {"players": 4, "deals": 12}, 4, MatchGoal("points", deals=12)),
        ("pocha", {}, 4, MatchGoal("points", deals=28)),
        ("pocha", {"schedule": [1, 2, 3]}, 5, MatchGoal("points", deals=3)),
    ],
)
def test_each_game_says_what_ends_a_match_under_its_house_rules(
    name: str, options: dict[str, object], players: int, goal: MatchGoal
) -> None:
    assert get_game(name).goal(check_options(name, options, players), players) == goal


def test_allowed_values_are_described_in_words() -> None:
    specs = {s.name: s for s in get_game("pocha").option_specs}
    assert specs["deck"].allowed == "40 or 48"
    assert specs["exact_base"].allowed == "a whole number from 0 to 100"
    assert specs["hook"].allowed == "true or false"
    assert specs["schedule"].allowed.startswith("classic, ladder, or a list")
    assert "200" in specs["schedule"].allowed


@pytest.mark.parametrize(
    "options",
    [
        {"deck": 36},
        {"last_trick_bonus": -1},
        {"mode": "puntos"},
        {"target": 0},
        {"tute": "on"},
        {"hook": False},
    ],
)
def test_tute_option_values_out_of_range_or_unknown_are_options_invalid(options: dict[str, object]) -> None:
    assert codes(match("tute2", [], options)) == ["options_invalid"]


@pytest.mark.parametrize(
    "options",
    [
        {"deck": "40"},
        {"deck": True},
        {"last_trick_bonus": 10.0},
        {"last_trick_bonus": "10"},
        {"double_over_100": 1},
        {"mode": 1},
        {"target": None},
    ],
)
def test_tute_option_values_of_the_wrong_type_are_malformed(options: dict[str, object]) -> None:
    assert codes(match("tute2", [], options)) == ["malformed"]


@pytest.mark.parametrize(
    "options",
    [
        {"schedule": "short"},
        {"schedule": []},
        {"schedule": [1] * 201},
        {"exact_base": 101},
    ],
)
def test_pocha_option_values_out_of_range_are_options_invalid(options: dict[str, object]) -> None:
    assert codes(match("pocha", [], options)) == ["options_invalid"]


@pytest.mark.parametrize(
    "options",
    [
        {"schedule": [1, "2"]},
        {"schedule": 5},
        {"oros_double": "no"},
        {"remove_twos": None},
    ],
)
def test_pocha_option_values_of_the_wrong_type_are_malformed(options: dict[str, object]) -> None:
    assert codes(match("pocha", [], options)) == ["malformed"]


def test_options_that_are_not_an_object_are_malformed() -> None:
    assert codes(match("pocha", [], ["hook"])) == ["malformed"]  # type: ignore[arg-type]


def test_options_equal_to_defaults_are_accepted() -> None:
    assert score_match(match("tute2", [], RULES_MD_DEFAULTS["tute2"]))["finished"] is False


def test_changed_options_keeps_only_what_differs_from_the_defaults() -> None:
    tute = get_game("tute2")
    assert tute.changed_options(check_options("tute2", {"mode": "points", "target": 101, "deck": 40})) == {
        "mode": "points"
    }
    assert tute.changed_options(check_options("tute2", {"mode": "points", "target": 3})) == {
        "mode": "points",
        "target": 3,
    }
    pocha = get_game("pocha")
    assert pocha.changed_options(check_options("pocha", {"schedule": [5, 5], "hook": True}, 4)) == {"schedule": [5, 5]}


def test_check_options_refuses_what_the_match_would_refuse() -> None:
    with pytest.raises(RuleViolation) as caught:
        check_options("pocha", {"schedule": [11]}, 4)
    assert caught.value.codes == ["schedule_invalid"]
    assert check_options("pocha", {"schedule": [11]})["schedule"] == (11,)  # player count not known yet


def test_a_wrong_house_rule_s_problem_carries_the_rule_so_an_app_can_name_it_in_its_own_words() -> None:
    with pytest.raises(RuleViolation) as caught:
        check_options("subastado", {"made": "both", "bid_step": "5"})
    by_name = {spec.name: spec for spec in get_game("subastado").option_specs}
    assert [(p.field, p.code.value, p.params["option"]) for p in caught.value.problems] == [
        ("options.made", "options_invalid", by_name["made"]),
        ("options.bid_step", "malformed", by_name["bid_step"]),
    ]
