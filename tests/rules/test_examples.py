"""Every worked example of docs/rules.md, one test each."""

from scorekeeper.games.pocha.rules import forbidden_bid
from scorekeeper.registry import score_match

from .helpers import codes, match, tute_deal

EXAMPLE_CANTES = [(0, "oros"), (1, "copas")]


def test_tute2_cantes_example_scores_108_to_82_and_earns_one_juego() -> None:
    result = score_match(match("tute2", [tute_deal((78, 42), 0, trump="copas", cantes=EXAMPLE_CANTES)]))
    assert result["deals"] == [{"number": 1, "scores": [108, 82], "winner": 0, "juegos": [1, 0]}]
    assert result["juegos"] == [1, 0]


def test_double_over_100_makes_the_same_deal_earn_two_juegos() -> None:
    doc = match("tute2", [tute_deal((78, 42), 0, trump="copas", cantes=EXAMPLE_CANTES)], {"double_over_100": True})
    assert score_match(doc)["juegos"] == [2, 0]


def test_tied_deal_goes_to_the_side_that_took_the_last_trick() -> None:
    result = score_match(match("tute2", [tute_deal((55, 65), 0)]))
    assert result["deals"][0] == {"number": 1, "scores": [65, 65], "winner": 0, "juegos": [1, 0]}


def test_points_mode_ends_when_a_total_passes_101_and_the_higher_total_wins() -> None:
    deals = [tute_deal((70, 50), 0), tute_deal((40, 80), 1, dealer=1)]
    result = score_match(match("tute2", deals, {"mode": "points"}))
    assert [d["scores"] for d in result["deals"]] == [[80, 50], [40, 90]]
    assert result["totals"] == [120, 140]
    assert result["finished"] is True
    assert result["winners"] == [1]


def test_tute4_cantes_count_for_the_singer_s_team() -> None:
    deal = tute_deal((64, 56), 0, trump="bastos", cantes=[(2, "espadas"), (3, "bastos")])
    result = score_match(match("tute4", [deal]))
    assert result["sides"] == [[0, 2], [1, 3]]
    assert result["deals"][0] == {"number": 1, "scores": [94, 96], "winner": 1, "juegos": [0, 1]}


def test_tute3_cante_example_scores_50_80_40_and_the_singer_wins() -> None:
    deal = tute_deal((50, 40, 30), 2, trump="oros", cantes=[(1, "oros")])
    result = score_match(match("tute3", [deal]))
    assert result["sides"] == [[0], [1], [2]]
    assert result["deals"][0] == {"number": 1, "scores": [50, 80, 40], "winner": 1, "juegos": [0, 1, 0]}
    assert result["juegos"] == [0, 1, 0]


def test_tute3_tie_without_the_last_trick_goes_to_the_tied_player_first_after_the_dealer() -> None:
    result = score_match(match("tute3", [tute_deal((60, 60, 0), 2, dealer=0)]))
    assert result["deals"][0] == {"number": 1, "scores": [60, 60, 10], "winner": 1, "juegos": [0, 1, 0]}


def test_pocha_example_forbids_the_dealer_bid_of_2_and_scores_the_deal() -> None:
    assert forbidden_bid(5, [2, 0, 1]) == 2
    assert codes(
        match(
            "pocha",
            [{"dealer": 3, "cards": 5, "trump": None, "bids": [2, 0, 1, 2], "tricks": [2, 1, 1, 1]}],
            {"schedule": [5]},
        )
    ) == ["bid_hook"]
    result = score_match(
        match(
            "pocha",
            [{"dealer": 3, "cards": 5, "trump": None, "bids": [2, 0, 1, 1], "tricks": [2, 1, 1, 1]}],
            {"schedule": [5]},
        )
    )
    assert result["deals"][0]["scores"] == [20, -5, 15, 15]


def test_podrida_preset_scores_19_for_an_exact_3_and_minus_3_for_a_miss_by_one() -> None:
    podrida = {"exact_base": 10, "per_trick": 3, "miss_per_trick": 3, "schedule": [5], "hook": False}
    deal = {"dealer": 0, "cards": 5, "trump": "copas", "bids": [3, 2], "tricks": [3, 2]}
    exact = score_match(match("pocha", [deal], podrida, players=["Ana", "Luis"]))
    assert exact["deals"][0]["scores"] == [19, 16]
    missed = {"dealer": 0, "cards": 5, "trump": "copas", "bids": [2, 2], "tricks": [3, 2]}
    assert score_match(match("pocha", [missed], podrida, players=["Ana", "Luis"]))["deals"][0]["scores"] == [-3, 16]


def test_rejects_points_that_do_not_add_up_to_120() -> None:
    assert codes(match("tute2", [tute_deal((70, 60), 0)])) == ["points_total"]


def test_rejects_119_and_1_as_impossible() -> None:
    assert codes(match("tute2", [tute_deal((119, 1), 0)])) == ["points_impossible", "points_impossible"]


def test_rejects_both_sides_singing_oros() -> None:
    assert codes(match("tute2", [tute_deal(cantes=[(0, "oros"), (1, "oros")])])) == ["cante_suit_twice"]
