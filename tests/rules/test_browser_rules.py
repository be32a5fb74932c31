"""The rules as data for the browser: every number its code uses comes from the engine, per match."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scorekeeper.registry import GAMES, check_options, get_game

CANTES = {
    suit: {trump: 40 if suit == trump else 20 for trump in ("oros", "copas", "espadas", "bastos")}
    for suit in ("oros", "copas", "espadas", "bastos")
}
CLASSIC_4 = [1, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1, 1, 1]


def rules_of(game: str, seats: int, **options: Any) -> dict[str, Any]:
    return get_game(game).browser_rules(check_options(game, options, seats), seats)


def pocha_table(most: int, exact: int, per: int, miss: int) -> list[list[int]]:
    """Write docs/rules.md's Pocha score out again, by hand, for every bid and tricks pair."""
    return [
        [exact + per * tricks if bid == tricks else -miss * abs(bid - tricks) for tricks in range(most + 1)]
        for bid in range(most + 1)
    ]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_s_rules_are_json_shaped_and_name_the_form_s_kind(name: str) -> None:
    game = GAMES[name]
    for players in range(game.min_players, game.max_players + 1):
        # a game whose house rules say how many sit at the table (Tute subastado's `players`) is told so
        seated = {"players": players} if any(spec.name == "players" for spec in game.option_specs) else {}
        data = rules_of(name, players, **seated)
        assert json.loads(json.dumps(data)) == data
        assert (
            data["kind"]
            == {
                "tute2": "card_points",
                "tute3": "card_points",
                "tute4": "card_points",
                "subastado": "auction",
                "pocha": "bids",
            }[name]
        )
        assert data["seats"] == players and data["suits"] == ["oros", "copas", "espadas", "bastos"]
        assert data["next_dealer"] == [(seat + 1) % players for seat in range(players)]


def test_tute2_at_the_defaults_of_rules_md() -> None:
    assert rules_of("tute2", 2) == {
        "kind": "card_points",
        "seats": 2,
        "suits": ["oros", "copas", "espadas", "bastos"],
        "sides": [[0], [1]],
        "next_dealer": [1, 0],
        "deck_points": 120,
        "card_points": {"as": 11, "3": 10, "rey": 4, "caballo": 3, "sota": 2},
        "impossible_points": [1, 119],
        "last_trick_bonus": 10,
        "cantes": CANTES,
        "held_by_tute": {"reyes": 16, "caballos": 12},
        "tute_allowed": True,
        "tute_ends_match": False,
        "juegos": {"under": 1, "over": 1, "over_from": 101, "tute": 1},
        "target": 3,
        "dealer_for_leader": [1, 0],
        "play_order": [[1, 0], [0, 1]],
    }


def test_tute4_pairs_sit_opposite_and_the_holder_of_the_2_of_oros_follows_the_dealer() -> None:
    data = rules_of("tute4", 4)
    assert data["sides"] == [[0, 2], [1, 3]]
    assert data["next_dealer"] == [1, 2, 3, 0]
    assert data["dealer_for_leader"] == [3, 0, 1, 2]


def test_tute_house_rules_reach_the_browser() -> None:
    data = rules_of("tute2", 2, last_trick_bonus=25, double_over_100=True, target=5)
    assert data["last_trick_bonus"] == 25 and data["target"] == 5
    assert data["juegos"] == {"under": 1, "over": 2, "over_from": 101, "tute": 2}
    assert data["tute_ends_match"] is False


def test_a_tute_that_wins_the_match_earns_no_juegos_and_ends_it() -> None:
    data = rules_of("tute2", 2, tute="match")
    assert data["juegos"] == {"under": 1, "over": 1, "over_from": 101, "tute": 0}
    assert data["tute_allowed"] is True and data["tute_ends_match"] is True


def test_points_mode_counts_no_juegos_and_a_tute_ends_the_match() -> None:
    data = rules_of("tute4", 4, mode="points")
    assert data["juegos"] is None and data["target"] == 101
    assert data["tute_ends_match"] is True
    off = rules_of("tute2", 2, tute="off")
    assert off["tute_allowed"] is False and off["tute_ends_match"] is False


def test_pocha_for_four_at_the_defaults_of_rules_md() -> None:
    data = rules_of("pocha", 4)
    assert data["schedule"] == CLASSIC_4 and data["most_cards"] == 10 and data["hook"] is True
    assert data["sides"] == [[0], [1], [2], [3]]
    assert data["bidding_order"] == [[1, 2, 3, 0], [2, 3, 0, 1], [3, 0, 1, 2], [0, 1, 2, 3]]
    assert data["scores"] == pocha_table(10, 10, 5, 5)
    assert data["scores"][3][3] == 25 and data["scores"][2][4] == -10
    assert data["trump_factor"] == {"none": 1, "oros": 1, "copas": 1, "espadas": 1, "bastos": 1}


def test_pocha_house_rules_reach_the_browser() -> None:
    data = rules_of(
        "pocha", 3, exact_base=10, per_trick=3, miss_per_trick=3, oros_double=True, hook=False, schedule=[5, 5], deck=48
    )
    assert data["schedule"] == [5, 5] and data["most_cards"] == 16 and data["hook"] is False
    assert data["scores"] == pocha_table(16, 10, 3, 3)
    assert data["scores"][3][3] == 19 and data["scores"][2][3] == -3
    assert data["trump_factor"] == {"none": 1, "oros": 2, "copas": 1, "espadas": 1, "bastos": 1}
    assert data["bidding_order"] == [[1, 2, 0], [2, 0, 1], [0, 1, 2]]


def test_pocha_for_three_keeps_the_2s_when_remove_twos_is_off() -> None:
    # 40 cards share out as 13 each with one left over; without the four 2s, 36 as 12 each
    assert rules_of("pocha", 3)["most_cards"] == 12
    assert rules_of("pocha", 3, remove_twos=False)["most_cards"] == 13


def test_pocha_s_table_reaches_the_most_cards_the_deck_deals() -> None:
    data = rules_of("pocha", 3, schedule="ladder")
    assert data["most_cards"] == 12 and len(data["scores"]) == 13 and {len(row) for row in data["scores"]} == {13}
    assert data["schedule"][:3] == [1, 2, 3] and data["schedule"][-1] == 1


def test_subastado_at_the_defaults_of_rules_md() -> None:
    assert rules_of("subastado", 3) == {
        "kind": "auction",
        "seats": 3,
        "suits": ["oros", "copas", "espadas", "bastos"],
        "sides": [[0], [1], [2]],
        "next_dealer": [1, 2, 0],
        "deck_points": 120,
        "card_points": {"as": 11, "3": 10, "rey": 4, "caballo": 3, "sota": 2},
        "impossible_points": [1, 119],
        "cards_in_hand": 12,
        "last_trick_bonus": 10,
        "cantes": CANTES,
        "min_bid": 60,
        "max_bid": 230,
        "bid_step": 5,
        "bids": list(range(60, 231, 5)),
        "made": "bid",
        "failed": "lose",
        "target": 500,
        "deals": None,
        "tute_allowed": False,
        "held_by_tute": {"reyes": 16, "caballos": 12},
    }


def test_subastado_house_rules_reach_the_browser() -> None:
    four = rules_of(
        "subastado",
        4,
        players=4,
        min_bid=62,
        bid_step=10,
        last_trick_bonus=0,
        made="total",
        failed="others",
        target=300,
        tute="match",
        deals=8,
    )
    assert four["seats"] == 4 and four["sides"] == [[0], [1], [2], [3]] and four["cards_in_hand"] == 10
    assert (four["min_bid"], four["bid_step"], four["max_bid"]) == (62, 10, 230)
    assert four["bids"] == list(range(70, 231, 10))
    assert (four["made"], four["failed"], four["target"], four["deals"]) == ("total", "others", 300, 8)
    assert four["last_trick_bonus"] == 0 and four["tute_allowed"]


def test_the_subastado_s_bids_stop_at_230_in_any_step() -> None:
    assert rules_of("subastado", 3, min_bid=200, bid_step=7)["bids"] == [203, 210, 217, 224]
    assert rules_of("subastado", 3, min_bid=228, bid_step=1)["bids"] == [228, 229, 230]
