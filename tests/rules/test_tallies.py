"""What each game counts per player in a deal, how it places the sides of a finished match, and
whether it is won on points: the figures and ratings ask the engine for these."""

from scorekeeper.registry import get_game, score_match
from scorekeeper.rules import MatchResult

from .helpers import match, tute_deal


def _result(game: str, deals: list[dict[str, object]], options: dict[str, object] | None = None) -> MatchResult:
    return MatchResult.from_dict(score_match(match(game, deals, options)))


def test_a_tute_deal_counts_each_seats_cantes_by_value_the_tute_and_the_last_trick() -> None:
    tute = get_game("tute4")
    deal = {
        "dealer": 0,
        "trump": "oros",
        "points": [70, 50],
        "last_trick": 1,
        "cantes": [{"seat": 0, "suit": "oros"}, {"seat": 0, "suit": "copas"}, {"seat": 2, "suit": "bastos"}],
    }
    assert tute.seat_tallies(deal, 0, 0) == {"cantes_20": 1, "cantes_40": 1, "tutes": 0, "last_tricks": 0}
    assert tute.seat_tallies(deal, 2, 0) == {"cantes_20": 1, "cantes_40": 0, "tutes": 0, "last_tricks": 0}
    assert tute.seat_tallies(deal, 1, 1) == {"cantes_20": 0, "cantes_40": 0, "tutes": 0, "last_tricks": 1}
    stopped = {"dealer": 0, "trump": "copas", "tute": {"seat": 3, "kind": "reyes"}, "last_trick": None}
    assert tute.seat_tallies(stopped, 3, 1) == {"cantes_20": 0, "cantes_40": 0, "tutes": 1, "last_tricks": 0}
    assert tute.seat_tallies(stopped, 1, 1)["tutes"] == 0


def test_a_pocha_deal_counts_whether_each_bid_was_made_too_high_or_too_low() -> None:
    pocha = get_game("pocha")
    deal = {"dealer": 0, "cards": 3, "trump": None, "bids": [1, 2, 0], "tricks": [1, 0, 2]}
    assert pocha.seat_tallies(deal, 0, 0) == {"exact_bids": 1, "over_bids": 0, "under_bids": 0}
    assert pocha.seat_tallies(deal, 1, 1) == {"exact_bids": 0, "over_bids": 1, "under_bids": 0}
    assert pocha.seat_tallies(deal, 2, 2) == {"exact_bids": 0, "over_bids": 0, "under_bids": 1}


def test_tute_places_the_winner_first_and_the_other_side_second() -> None:
    deals = [tute_deal((78, 42), 0, dealer=n % 2) for n in range(3)]
    result = _result("tute2", deals)
    assert result.finished and result.winners == (0,)
    assert get_game("tute2").ranks(result) == [1, 2]
    losing = _result("tute2", [tute_deal((30, 90), 1, dealer=n % 2) for n in range(3)])
    assert get_game("tute2").ranks(losing) == [2, 1]


def test_pocha_places_the_players_by_total_and_ties_share_a_place() -> None:
    result = MatchResult(
        game="pocha",
        sides=((0,), (1,), (2,), (3,)),
        deals=(),
        totals=(15, 30, 15, -5),
        juegos=None,
        finished=True,
        winners=(1,),
        next_dealer=None,
        next_cards=None,
    )
    assert get_game("pocha").ranks(result) == [2, 1, 2, 3]


def test_pocha_and_tute_in_points_are_won_on_points_and_tute_in_juegos_is_not() -> None:
    assert get_game("pocha").ranked_by_points({})
    assert get_game("tute2").ranked_by_points({"mode": "points"})
    assert not get_game("tute2").ranked_by_points({})
    assert not get_game("tute4").ranked_by_points({"mode": "juegos"})
