"""Pocha: schedules, the deck, bids, the last-bidder rule, scores and the end of the match."""

from typing import Any

import pytest

from scorekeeper.games.pocha.rules import (
    POCHA_PRESETS,
    PochaOptions,
    bidding_order,
    forbidden_bid,
    max_cards,
    pocha_schedule,
    score_bid,
)
from scorekeeper.registry import check_bids, score_match
from scorekeeper.rules import RuleViolation

from .helpers import codes, match


def test_classic_schedule_for_four_players_has_28_deals() -> None:
    assert pocha_schedule(4) == (1, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1, 1, 1)


def test_ladder_schedule_for_four_players_has_22_deals() -> None:
    schedule = pocha_schedule(4, PochaOptions(schedule="ladder"))
    assert schedule == (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)


def test_explicit_schedule_is_used_as_given() -> None:
    assert pocha_schedule(4, PochaOptions(schedule=(5, 5, 5))) == (5, 5, 5)


def test_most_cards_depend_on_players_deck_and_twos() -> None:
    assert max_cards(4) == 10
    assert max_cards(3) == 12 and max_cards(3, remove_twos=False) == 13
    assert max_cards(6) == 6 and max_cards(6, remove_twos=False) == 6
    assert max_cards(5, deck=48) == 9
    # a 48-card deck deals out evenly to 3 or 6 players: the 2s stay in
    assert max_cards(3, deck=48) == 16 and max_cards(6, deck=48) == 8
    assert max_cards(8) == 5 and max_cards(2) == 20


def test_three_players_reach_12_cards_when_the_twos_are_out() -> None:
    assert max(pocha_schedule(3)) == 12
    assert max(pocha_schedule(3, PochaOptions(remove_twos=False))) == 13


def test_bidding_starts_after_the_dealer_and_the_dealer_bids_last() -> None:
    assert bidding_order(1, 4) == (2, 3, 0, 1)
    assert bidding_order(3, 4) == (0, 1, 2, 3)


def test_forbidden_bid_is_what_would_make_the_bids_add_up() -> None:
    assert forbidden_bid(5, [2, 0, 1]) == 2
    assert forbidden_bid(3, [1, 1, 1]) == 0
    assert forbidden_bid(3, [2, 2, 0]) is None  # bids already over the cards: everything is allowed


def test_hook_off_lets_the_dealer_make_the_bids_add_up() -> None:
    deal = {"dealer": 0, "cards": 1, "trump": None, "bids": [1, 0, 0, 0], "tricks": [1, 0, 0, 0]}
    assert codes(match("pocha", [{**deal, "bids": [0, 1, 0, 0]}])) == ["bid_hook"]
    assert score_match(match("pocha", [{**deal, "bids": [0, 1, 0, 0]}], {"hook": False}))["deals"][0]["scores"] == [
        -5,
        -5,
        10,
        10,
    ]


def test_score_of_a_bid() -> None:
    rules = PochaOptions()
    assert score_bid(3, 3, rules) == 25
    assert score_bid(2, 4, rules) == -10
    assert score_bid(0, 0, rules) == 10


def test_oros_double_doubles_only_deals_with_oros_as_trump() -> None:
    rules = PochaOptions(oros_double=True)
    assert score_bid(3, 3, rules, "oros") == 50
    assert score_bid(2, 4, rules, "oros") == -20
    assert score_bid(3, 3, rules, "copas") == 25
    assert score_bid(3, 3, rules, None) == 25


def test_podrida_preset_is_10_3_3() -> None:
    assert POCHA_PRESETS["podrida"] == {"exact_base": 10, "per_trick": 3, "miss_per_trick": 3}


def play_out(players: int, schedule: tuple[int, ...], first_dealer: int = 0) -> list[dict[str, Any]]:
    """Make a valid deal for every entry of a schedule: seat after the dealer takes every trick."""
    deals = []
    dealer = first_dealer
    for cards in schedule:
        winner = (dealer + 1) % players
        bids = [0] * players
        bids[winner] = cards
        if sum(bids) == cards:  # the dealer may not complete the bids: let the dealer over-bid by one
            bids[dealer] = 1
        tricks = [0] * players
        tricks[winner] = cards
        deals.append({"dealer": dealer, "cards": cards, "trump": "copas", "bids": bids, "tricks": tricks})
        dealer = (dealer + 1) % players
    return deals


def test_a_whole_classic_match_for_four_ends_after_28_deals_with_the_best_total_winning() -> None:
    deals = play_out(4, pocha_schedule(4))
    before_end = score_match(match("pocha", deals[:-1]))
    assert before_end["finished"] is False
    assert before_end["next_cards"] == 1 and before_end["next_dealer"] == 3
    result = score_match(match("pocha", deals))
    assert result["finished"] is True
    assert len(result["deals"]) == 28
    assert result["next_cards"] is None and result["next_dealer"] is None
    best = max(result["totals"])
    assert result["winners"] == [seat for seat, total in enumerate(result["totals"]) if total == best]
    assert codes(match("pocha", deals + deals[:1])) == ["match_finished"]


def test_next_cards_before_any_deal_is_the_first_scheduled_count() -> None:
    assert score_match(match("pocha", [], {"schedule": "ladder"}))["next_cards"] == 1
    assert score_match(match("pocha", [], {"schedule": [7, 3]}))["next_cards"] == 7


def test_players_tied_on_the_best_total_all_win() -> None:
    deal = {"dealer": 2, "cards": 2, "trump": None, "bids": [1, 1, 1], "tricks": [1, 1, 0]}
    result = score_match(match("pocha", [deal], {"schedule": [2]}, players=["Ana", "Luis", "Carmen"]))
    assert result["totals"] == [15, 15, -5]
    assert result["winners"] == [0, 1]


def test_trump_none_is_allowed_in_pocha() -> None:
    deal = {"dealer": 0, "cards": 1, "bids": [1, 1], "tricks": [1, 0]}
    assert score_match(match("pocha", [deal], {"schedule": [1]}, players=["Ana", "Luis"]))["totals"] == [15, -5]


def test_eight_players_play_with_at_most_five_cards() -> None:
    players = [f"P{i}" for i in range(8)]
    assert max(pocha_schedule(8)) == 5
    assert codes(match("pocha", [], {"schedule": [6]}, players=players)) == ["schedule_invalid"]
    assert codes(match("pocha", [], players=players + ["P8"])) == ["players_count"]


def test_bids_are_checked_before_play_without_tricks() -> None:
    doc = match("pocha", [])
    deal = check_bids(doc, {"dealer": 0, "cards": 1, "trump": "oros", "bids": [1, 1, 0, 0]})
    assert deal.bids == (1, 1, 0, 0) and deal.tricks == ()


def test_bids_before_play_refuse_the_dealer_s_forbidden_bid_and_wrong_cards() -> None:
    with pytest.raises(RuleViolation) as caught:
        check_bids(match("pocha", []), {"dealer": 3, "cards": 2, "trump": None, "bids": [0, 0, 0, 1]})
    assert caught.value.codes == ["cards_schedule"]
    with pytest.raises(RuleViolation) as caught:
        check_bids(match("pocha", []), {"dealer": 3, "cards": 1, "trump": None, "bids": [0, 0, 0, 1]})
    assert [(e["code"], e["field"], e["deal"]) for e in caught.value.errors] == [("bid_hook", "bids.3", 1)]
    with pytest.raises(RuleViolation) as caught:
        check_bids(match("pocha", []), {"dealer": 3, "cards": 1, "bids": [0, 0, 0, 0], "tricks": [1, 0, 0, 0]})
    assert caught.value.codes == ["malformed"]


def test_bids_after_the_last_scheduled_deal_are_refused() -> None:
    deals = play_out(4, (1,))
    with pytest.raises(RuleViolation) as caught:
        check_bids(match("pocha", deals, {"schedule": [1]}), {"dealer": 1, "cards": 1, "bids": [0, 0, 0, 0]})
    assert caught.value.codes == ["match_finished"]
    with pytest.raises(RuleViolation) as caught:
        check_bids(match("tute2", []), {"dealer": 1, "cards": 1, "bids": [0, 0]})
    assert caught.value.codes == ["malformed"]
