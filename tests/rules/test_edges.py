"""Edges of the rules that a changed comparison or bound in the engine would get wrong; each
expected value is worked out by hand from RULES.md, not with the engine's own functions."""

from __future__ import annotations

import pytest

from scorekeeper.rules import RuleViolation, check_bids, forbidden_bid, score_match

from .helpers import codes, match, tute_deal, violations


def test_in_points_mode_the_higher_total_wins_even_when_the_last_deal_went_the_other_way() -> None:
    # deal 1: Ana 100 + 10 (last trick) = 110, Luis 20; deal 2: Ana 40, Luis 80 + 10 = 90.
    # Totals 150 and 110: Ana reached the target of 150 and leads, though Luis won deal 2.
    result = score_match(match("tute2", [tute_deal((100, 20), 0), tute_deal((40, 80), 1, dealer=1)],
                               {"mode": "points", "target": 150}))
    assert result["totals"] == [150, 110]
    assert result["finished"] and result["winners"] == [0]


def test_in_points_mode_a_tie_on_total_goes_to_the_last_deal_s_winner() -> None:
    # 110–20, then 20–110: 130 each, and Luis won the deal that ended it
    result = score_match(match("tute2", [tute_deal((100, 20), 0), tute_deal((20, 100), 1, dealer=1)],
                               {"mode": "points", "target": 120}))
    assert result["totals"] == [130, 130] and result["winners"] == [1]


def test_the_juegos_target_goes_up_to_99() -> None:
    assert not score_match(match("tute2", [], {"target": 99}))["finished"]
    assert codes(match("tute2", [], {"target": 100})) == ["options_invalid"]


@pytest.mark.parametrize("seat", [2, 3, -1])
def test_a_tute_declared_by_a_seat_that_is_not_at_the_table_is_refused(seat: int) -> None:
    document = match("tute2", [tute_deal(None, None, tute=(seat, "reyes"))])
    with pytest.raises(RuleViolation):
        score_match(document)


def test_a_tute_or_a_cante_with_a_key_too_many_is_malformed() -> None:
    tute = tute_deal(None, None, tute=(0, "reyes"))
    tute["tute"]["when"] = "early"
    assert "malformed" in codes(match("tute2", [tute]))
    cante = tute_deal((70, 50), 0, cantes=[(0, "copas")])
    cante["cantes"][0]["points"] = 20
    assert "malformed" in codes(match("tute2", [cante]))


def test_every_repeated_problem_is_listed_not_only_the_first() -> None:
    unknown = tute_deal((70, 50), 0)
    unknown["cantes"] = [{"seat": 0, "suit": "hearts"}, {"seat": 1, "suit": "spades"}]
    assert [e["field"] for e in violations(match("tute2", [unknown]))] == ["cantes.0.suit", "cantes.1.suit"]
    thrice = tute_deal((70, 50), 0, cantes=[(0, "copas"), (1, "copas"), (0, "copas")])
    assert [(e["field"], e["code"]) for e in violations(match("tute2", [thrice]))] == [
        ("cantes.1.suit", "cante_suit_twice"), ("cantes.2.suit", "cante_suit_twice")]
    names = match("tute2", [], players=["Ana", "ana"])
    names["players"] = ["Ana", "ana", "ANA", "Luis"]
    names["game"] = "pocha"
    assert [e["field"] for e in violations(names)] == ["players.1", "players.2"]


def test_the_dealer_may_not_bid_the_cards_in_hand_when_the_others_bid_nothing() -> None:
    assert forbidden_bid(3, [0, 0]) == 3
    assert forbidden_bid(3, [2, 2]) is None  # already over: any bid is allowed
    assert forbidden_bid(3, [1, 1]) == 1


def _pocha_deal(dealer: int, cards: int, bids: list[int], tricks: list[int], trump: str | None = None) -> dict[str, object]:
    return {"dealer": dealer, "cards": cards, "trump": trump, "bids": bids, "tricks": tricks}


def test_bids_before_play_are_checked_against_the_cards_of_that_deal_not_a_neighbour_s() -> None:
    # classic for 4: 1 1 1 1 2 3 4 …; deal 6 has 3 cards, deal 5 has 2 and deal 7 has 4
    deals = [_pocha_deal(n % 4, cards, [0, 0, 0, 0], [0] * ((n + 1) % 4) + [cards] + [0] * (3 - (n + 1) % 4))
             for n, cards in enumerate([1, 1, 1, 1, 2])]
    document = match("pocha", deals)
    assert check_bids(document, {"dealer": 1, "cards": 3, "trump": None, "bids": [3, 0, 0, 1]}).cards == 3
    for wrong in (2, 4):
        with pytest.raises(RuleViolation):
            check_bids(document, {"dealer": 1, "cards": wrong, "trump": None, "bids": [0, 0, 0, 1]})


def test_oros_double_exact_base_and_per_trick_as_the_match_applies_them() -> None:
    # 2 players, one deal of 3 cards in oros: Ana bids 2 makes 2, Luis bids 0 makes 1
    deal = _pocha_deal(1, 3, [2, 0], [2, 1], "oros")
    plain = score_match(match("pocha", [deal], {"schedule": [3]}, ["Ana", "Luis"]))
    assert plain["totals"] == [10 + 5 * 2, -5]
    doubled = score_match(match("pocha", [deal], {"schedule": [3], "oros_double": True}, ["Ana", "Luis"]))
    assert doubled["totals"] == [40, -10]
    podrida = score_match(match("pocha", [deal], {"schedule": [3], "exact_base": 10, "per_trick": 3,
                                                  "miss_per_trick": 3}, ["Ana", "Luis"]))
    assert podrida["totals"] == [16, -3]


def test_three_players_deal_twelve_cards_at_most_with_the_twos_out_and_thirteen_with_them_in() -> None:
    players = ["Ana", "Luis", "Carmen"]
    assert not score_match(match("pocha", [], {"schedule": [12]}, players))["finished"]
    assert codes(match("pocha", [], {"schedule": [13]}, players)) == ["schedule_invalid"]
    assert not score_match(match("pocha", [], {"schedule": [13], "remove_twos": False}, players))["finished"]
