"""Tute for three (`tute3`): three players each for themselves, the tie rules of a deal and of a match
on points, the tute, who deals next, the standing and every refusal that applies."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.registry import GAMES, score_match

from .helpers import codes, match, tute_deal, violations

TUTE3 = GAMES["tute3"]


def played(*deals: dict[str, Any], **options: Any) -> dict[str, Any]:
    return score_match(match("tute3", list(deals), options or None))


def test_three_players_each_a_side_deal_in_turn() -> None:
    assert TUTE3.min_players == TUTE3.max_players == 3
    assert TUTE3.sides(3) == ((0,), (1,), (2,))
    result = played(tute_deal((40, 40, 40), 0, dealer=2))
    assert result["next_dealer"] == 0
    assert played(tute_deal((40, 40, 40), 0, dealer=0))["next_dealer"] == 1


def test_the_house_rules_are_tute2_s() -> None:
    assert TUTE3.default_options() == GAMES["tute2"].default_options()


def test_the_highest_deal_score_wins() -> None:
    result = played(tute_deal((20, 30, 70), 0))
    assert result["deals"][0] == {"number": 1, "scores": [30, 30, 70], "winner": 2, "juegos": [0, 0, 1]}


def test_a_tie_at_the_top_goes_to_the_tied_player_who_took_the_last_trick() -> None:
    # Luis and Carmen tie on 60; Carmen took the last trick
    result = played(tute_deal((10, 60, 50), 2, dealer=0))
    assert result["deals"][0] == {"number": 1, "scores": [10, 60, 60], "winner": 2, "juegos": [0, 0, 1]}


@pytest.mark.parametrize(("dealer", "winner"), [(0, 1), (1, 0), (2, 0)])
def test_a_tie_the_last_trick_does_not_settle_goes_to_the_first_tied_after_the_dealer(dealer: int, winner: int) -> None:
    # Ana and Luis tie on 60; Carmen took the last trick and scored 10
    result = played(tute_deal((60, 60, 0), 2, dealer=dealer))
    assert result["deals"][0] == {
        "number": 1,
        "scores": [60, 60, 10],
        "winner": winner,
        "juegos": [int(side == winner) for side in range(3)],
    }


def test_a_three_way_tie_goes_to_the_one_who_took_the_last_trick() -> None:
    result = played(tute_deal((40, 40, 40), 1, dealer=2), last_trick_bonus=0)
    assert result["deals"][0] == {"number": 1, "scores": [40, 40, 40], "winner": 1, "juegos": [0, 1, 0]}


def test_cantes_count_for_the_player_who_sang_each_suit_once() -> None:
    cantes = [(0, "bastos"), (1, "oros"), (2, "copas")]
    result = played(tute_deal((40, 40, 40), 0, trump="bastos", cantes=cantes))
    assert result["deals"][0]["scores"] == [90, 60, 60]
    assert codes(match("tute3", [tute_deal((40, 40, 40), 0, cantes=[(0, "oros"), (2, "oros")])])) == [
        "cante_suit_twice"
    ]


def test_a_tute_wins_the_deal_for_the_declarer_and_keeps_only_their_cantes() -> None:
    result = played(tute_deal(None, None, tute=(2, "reyes"), cantes=[(2, "oros")]))
    assert result["deals"][0] == {"number": 1, "scores": [0, 0, 40], "winner": 2, "juegos": [0, 0, 1]}
    assert result["juegos"] == [0, 0, 1]
    assert codes(match("tute3", [tute_deal(None, None, tute=(2, "reyes"), cantes=[(1, "oros")])])) == ["seat_invalid"]


def test_points_after_a_tute_add_up_to_at_most_104_or_108() -> None:
    assert played(tute_deal((50, 54, 0), None, tute=(2, "reyes")))["deals"][0]["winner"] == 2
    assert codes(match("tute3", [tute_deal((50, 55, 0), None, tute=(2, "reyes"))])) == ["points_total"]
    assert played(tute_deal((50, 58, 0), None, tute=(0, "caballos")))["deals"][0]["winner"] == 0


def test_tute_options_as_for_two() -> None:
    declared = tute_deal(None, None, tute=(1, "caballos"))
    assert played(declared, double_over_100=True)["juegos"] == [0, 2, 0]
    ended = played(declared, tute="match")
    assert ended["finished"] and ended["winners"] == [1] and ended["juegos"] == [0, 0, 0]
    assert played(declared, mode="points")["winners"] == [1]
    assert "tute_disabled" in codes(match("tute3", [declared], {"tute": "off"}))


def test_the_first_to_three_juegos_wins_the_match() -> None:
    deals = [tute_deal((20, 30, 70), 2, dealer=n % 3) for n in range(2)]
    deals += [tute_deal((80, 40, 0), 0, dealer=2), tute_deal((20, 30, 70), 2, dealer=0)]
    result = played(*deals)
    assert result["juegos"] == [1, 0, 3] and result["finished"] and result["winners"] == [2]
    assert TUTE3.ranks(result_of(result)) == [2, 3, 1]
    assert result["next_dealer"] is None


def test_in_juegos_mode_the_others_are_placed_by_their_juegos_not_their_points() -> None:
    # Ana wins one deal; Luis none, though his points add up to more than hers
    deals = [tute_deal((50, 40, 30), 0, dealer=0)]
    deals += [tute_deal((0, 50, 70), 2, dealer=dealer) for dealer in (1, 2, 0)]
    result = played(*deals)
    assert result["totals"] == [60, 190, 270] and result["juegos"] == [1, 0, 3] and result["winners"] == [2]
    assert TUTE3.ranks(result_of(result)) == [2, 3, 1]


def test_a_match_still_being_played_is_placed_by_its_standing_so_far() -> None:
    result = played(tute_deal((20, 30, 70), 0))
    assert not result["finished"] and result["juegos"] == [0, 0, 1]
    assert TUTE3.ranks(result_of(result)) == [2, 2, 1]
    on_points = played(tute_deal((20, 30, 70), 0), mode="points")
    assert not on_points["finished"] and on_points["totals"] == [30, 30, 70]
    assert TUTE3.ranks(result_of(on_points)) == [2, 2, 1]


def test_in_points_mode_the_highest_total_wins_once_one_reaches_the_target() -> None:
    deals = [tute_deal((60, 40, 20), 0, dealer=0), tute_deal((20, 90, 10), 1, dealer=1)]
    result = played(*deals, mode="points")
    assert result["totals"] == [90, 140, 30] and result["finished"] and result["winners"] == [1]
    assert TUTE3.ranks(result_of(result)) == [2, 1, 3]


def test_a_tie_on_points_at_the_end_goes_to_the_last_deal_s_winner_when_tied() -> None:
    # after deal 1: 70 / 40 / 20; deal 2 (Luis wins it 70 to 40): 110 / 110 / 40
    deals = [tute_deal((60, 40, 20), 0, dealer=0), tute_deal((40, 60, 20), 1, dealer=1)]
    result = played(*deals, mode="points")
    assert result["totals"] == [110, 110, 40] and result["winners"] == [1]
    assert result["deals"][1]["winner"] == 1


@pytest.mark.parametrize(("dealer", "winner"), [(0, 1), (1, 0)])
def test_a_tie_on_points_without_the_last_deal_s_winner_goes_to_the_first_tied_after_its_dealer(
    dealer: int, winner: int
) -> None:
    # after deal 1: 70 / 50 / 0; deal 2, won by Carmen (38 and las cuarenta): 101 / 101 / 78
    deals = [tute_deal((70, 50, 0), 0, dealer=2), tute_deal((31, 51, 38), 2, dealer=dealer, cantes=[(2, "oros")])]
    result = played(*deals, mode="points", last_trick_bonus=0)
    assert result["deals"][1]["winner"] == 2
    assert result["totals"] == [101, 101, 78] and result["finished"] and result["winners"] == [winner]
    assert TUTE3.ranks(result_of(result)) == [1 if winner == 0 else 2, 1 if winner == 1 else 2, 3]


def result_of(data: dict[str, Any]) -> Any:
    from scorekeeper.rules import MatchResult

    return MatchResult.from_dict(data)


def test_the_last_trick_goes_to_one_of_the_three() -> None:
    errors = violations(match("tute3", [tute_deal((40, 40, 40), 3)]))
    assert [(e["field"], e["code"], e["message"]) for e in errors] == [
        ("last_trick", "last_trick_invalid", "The last trick goes to Ana, Luis or to Carmen.")
    ]
    errors = violations(match("tute3", [tute_deal((40, 40, 40), "2")]))
    assert [(e["field"], e["code"], e["message"]) for e in errors] == [
        ("last_trick", "malformed", "The last trick must be given as a player's seat number, from 0 to 2.")
    ]
    assert codes(match("tute3", [tute_deal((40, 40, 40), None)])) == ["last_trick_invalid"]
    assert codes(match("tute3", [tute_deal(None, 0, tute=(0, "reyes"))])) == ["last_trick_invalid"]


def test_card_points_are_three_numbers_that_add_up_to_120() -> None:
    errors = violations(match("tute3", [tute_deal((60, 60), 0)]))
    assert [(e["field"], e["code"], e["message"]) for e in errors] == [
        ("points", "malformed", "Card points must be 3 whole numbers, one for each player.")
    ]
    assert codes(match("tute3", [tute_deal((50, 40, 40), 0)])) == ["points_total"]
    assert codes(match("tute3", [tute_deal((119, 1, 0), 0)])) == ["points_impossible", "points_impossible"]
    assert codes(match("tute3", [tute_deal((121, 0, -1), 0)])) == ["points_impossible", "points_impossible"]


def test_every_other_refusal_of_a_tute3_match() -> None:
    assert codes(match("tute3", [], players=["Ana", "Luis"])) == ["players_count"]
    assert codes(match("tute3", [], players=["Ana", "Luis", "ana"])) == ["players_duplicate"]
    assert codes(match("tute3", [], {"target": 100})) == ["options_invalid"]
    assert codes(match("tute3", [tute_deal((40, 40, 40), 0, dealer=3)])) == ["dealer_invalid"]
    assert codes(match("tute3", [tute_deal((40, 40, 40), 0, cantes=[(3, "oros")])])) == ["seat_invalid"]
    assert codes(match("tute3", [tute_deal(None, None, tute=(3, "reyes"))])) == ["seat_invalid"]
    assert codes(match("tute3", [{**tute_deal((40, 40, 40), 0), "trump": "rojo"}])) == ["trump_invalid"]
    won = [tute_deal((0, 0, 120), 2)] * 3
    assert codes(match("tute3", [*won, tute_deal((40, 40, 40), 0)])) == ["match_finished"]


def test_the_seat_tallies_count_each_player_s_cantes_tutes_and_last_tricks() -> None:
    deal = tute_deal((40, 40, 40), 2, trump="oros", cantes=[(2, "oros"), (1, "copas")])
    assert TUTE3.seat_tallies(deal, 2, 2) == {"cantes_20": 0, "cantes_40": 1, "tutes": 0, "last_tricks": 1}
    assert TUTE3.seat_tallies(deal, 1, 1) == {"cantes_20": 1, "cantes_40": 0, "tutes": 0, "last_tricks": 0}


def test_the_browser_gets_the_order_of_play_after_each_dealer() -> None:
    rules = TUTE3.browser_rules(TUTE3.default_options(), 3)
    assert rules["sides"] == [[0], [1], [2]]
    assert rules["play_order"] == [[1, 2, 0], [2, 0, 1], [0, 1, 2]]
    assert not TUTE3.ranked_by_points(TUTE3.default_options())
    assert TUTE3.ranked_by_points({**TUTE3.default_options(), "mode": "points"})
