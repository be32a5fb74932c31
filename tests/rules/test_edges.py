"""Edges of the rules that a changed comparison or bound in the engine would get wrong; each
expected value is worked out by hand from docs/rules.md, not with the engine's own functions."""

from __future__ import annotations

import pytest

from scorekeeper.games.pocha.rules import forbidden_bid
from scorekeeper.games.tute.rules import TuteDeal, TuteDeclaration, TuteOptions, juegos_earned
from scorekeeper.games.tute.rules.match import TuteGame
from scorekeeper.registry import check_bids, check_match, check_options, get_game, score_match
from scorekeeper.rules import Code, RuleViolation, deck, other_side_points
from scorekeeper.rules.common import ErrorLog

from .helpers import codes, match, tute_deal, violations


def test_in_points_mode_the_higher_total_wins_even_when_the_last_deal_went_the_other_way() -> None:
    # deal 1: Ana 100 + 10 (last trick) = 110, Luis 20; deal 2: Ana 40, Luis 80 + 10 = 90.
    # Totals 150 and 110: Ana reached the target of 150 and leads, though Luis won deal 2.
    result = score_match(
        match("tute2", [tute_deal((100, 20), 0), tute_deal((40, 80), 1, dealer=1)], {"mode": "points", "target": 150})
    )
    assert result["totals"] == [150, 110]
    assert result["finished"] and result["winners"] == [0]


def test_in_points_mode_a_tie_on_total_goes_to_the_last_deal_s_winner() -> None:
    # 110–20, then 20–110: 130 each, and Luis won the deal that ended it
    result = score_match(
        match("tute2", [tute_deal((100, 20), 0), tute_deal((20, 100), 1, dealer=1)], {"mode": "points", "target": 120})
    )
    assert result["totals"] == [130, 130] and result["winners"] == [1]


def test_the_juegos_target_goes_up_to_99() -> None:
    assert not score_match(match("tute2", [], {"target": 99}))["finished"]
    assert codes(match("tute2", [], {"target": 100})) == ["options_invalid"]


@pytest.mark.parametrize(("game", "seat"), [("tute2", 2), ("tute2", 3), ("tute2", -1), ("tute4", 4)])
def test_a_tute_declared_by_a_seat_that_is_not_at_the_table_is_refused(game: str, seat: int) -> None:
    document = match(game, [tute_deal(None, None, tute=(seat, "reyes"))])
    assert [(e["field"], e["code"]) for e in violations(document)] == [("tute.seat", "seat_invalid")]


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
        ("cantes.1.suit", "cante_suit_twice"),
        ("cantes.2.suit", "cante_suit_twice"),
    ]
    names = match("tute2", [], players=["Ana", "ana"])
    names["players"] = ["Ana", "ana", "ANA", "Luis"]
    names["game"] = "pocha"
    assert [e["field"] for e in violations(names)] == ["players.1", "players.2"]


def test_the_dealer_may_not_bid_the_cards_in_hand_when_the_others_bid_nothing() -> None:
    assert forbidden_bid(3, [0, 0]) == 3
    assert forbidden_bid(3, [2, 2]) is None  # already over: any bid is allowed
    assert forbidden_bid(3, [1, 1]) == 1


def _pocha_deal(
    dealer: int, cards: int, bids: list[int], tricks: list[int], trump: str | None = None
) -> dict[str, object]:
    return {"dealer": dealer, "cards": cards, "trump": trump, "bids": bids, "tricks": tricks}


def test_bids_before_play_are_checked_against_the_cards_of_that_deal_not_a_neighbour_s() -> None:
    # classic for 4: 1 1 1 1 2 3 4 …; deal 6 has 3 cards, deal 5 has 2 and deal 7 has 4
    deals = [
        _pocha_deal(n % 4, cards, [0, 0, 0, 0], [0] * ((n + 1) % 4) + [cards] + [0] * (3 - (n + 1) % 4))
        for n, cards in enumerate([1, 1, 1, 1, 2])
    ]
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
    podrida = score_match(
        match(
            "pocha", [deal], {"schedule": [3], "exact_base": 10, "per_trick": 3, "miss_per_trick": 3}, ["Ana", "Luis"]
        )
    )
    assert podrida["totals"] == [16, -3]


def test_three_players_deal_twelve_cards_at_most_with_the_twos_out_and_thirteen_with_them_in() -> None:
    players = ["Ana", "Luis", "Carmen"]
    assert not score_match(match("pocha", [], {"schedule": [12]}, players))["finished"]
    assert codes(match("pocha", [], {"schedule": [13]}, players)) == ["schedule_invalid"]
    assert not score_match(match("pocha", [], {"schedule": [13], "remove_twos": False}, players))["finished"]


def test_an_exact_base_other_than_ten_is_what_an_exact_bid_earns() -> None:
    # 2 players, 3 cards: Ana bids 2 and makes 2, Luis bids 0 and makes 1 (missed by one)
    deal = _pocha_deal(1, 3, [2, 0], [2, 1], "copas")
    for base, per_trick, miss, expected in ((0, 5, 5, [10, -5]), (20, 5, 5, [30, -5]), (10, 0, 7, [10, -7])):
        options = {"schedule": [3], "exact_base": base, "per_trick": per_trick, "miss_per_trick": miss}
        assert score_match(match("pocha", [deal], options, ["Ana", "Luis"]))["totals"] == expected


def test_a_schedule_of_exactly_200_deals_is_accepted() -> None:
    result = score_match(match("pocha", [], {"schedule": [1] * 200}))
    assert (result["finished"], result["next_cards"]) == (False, 1)
    assert codes(match("pocha", [], {"schedule": [1] * 201})) == ["options_invalid"]


def test_every_wrong_pocha_deal_is_listed_and_no_deal_after_a_wrong_one_is_scored() -> None:
    good = _pocha_deal(0, 1, [1, 0, 0, 1], [1, 0, 0, 0])
    wrong_tricks = _pocha_deal(1, 1, [1, 0, 0, 1], [1, 1, 0, 0])
    wrong_cards = _pocha_deal(2, 2, [0, 0, 0, 0], [1, 1, 0, 0])
    errors = violations(match("pocha", [good, wrong_tricks, good, wrong_cards, good], {"schedule": [1] * 5}))
    assert [(e["deal"], e["code"]) for e in errors] == [(2, "tricks_total"), (4, "cards_schedule")]


def test_deals_after_a_wrong_tute_deal_are_checked_but_do_not_end_the_match() -> None:
    # Deals 2 to 4 would give Ana her three juegos, so deal 5 would come after the end; but with
    # deal 1 wrong the standing is unknown, and only deal 1 is refused.
    deals = [tute_deal((70, 60), 0)] + [tute_deal((70, 50), 0)] * 4
    assert [(e["deal"], e["code"]) for e in violations(match("tute2", deals))] == [(1, "points_total")]


def test_a_cante_by_a_seat_not_at_the_table_does_not_count_as_singing_its_suit() -> None:
    deal = tute_deal((70, 50), 0, cantes=[(2, "oros"), (0, "oros")])
    assert [(e["field"], e["code"]) for e in violations(match("tute2", [deal]))] == [("cantes.0.seat", "seat_invalid")]


def test_a_deal_with_a_field_named_by_a_number_is_malformed_not_a_crash() -> None:
    deal: dict[object, object] = {**tute_deal(), 7: "x", "zeta": 1}
    assert [(e["field"], e["code"]) for e in violations(match("tute2", [deal]))] == [
        ("7", "malformed"),
        ("zeta", "malformed"),
    ]


def test_bids_out_of_range_are_not_also_taken_for_the_dealer_completing_them() -> None:
    # the bids 1, 2, −1, −1 add up to the 1 card in hand, but two of them are impossible anyway
    deal = _pocha_deal(3, 1, [1, 2, -1, -1], [2, 0, 0, 0])
    assert [(e["field"], e["code"]) for e in violations(match("pocha", [deal]))] == [
        ("bids.1", "bid_range"),
        ("bids.2", "bid_range"),
        ("bids.3", "bid_range"),
        ("tricks.0", "tricks_range"),
    ]


def test_three_players_may_not_be_dealt_thirteen_cards_when_the_twos_are_out() -> None:
    players = ["Ana", "Luis", "Carmen"]
    deal = _pocha_deal(0, 13, [0, 0, 0], [13, 0, 0])
    [error] = violations(match("pocha", [deal], {"schedule": [12]}, players))
    assert (error["code"], error["message"]) == (
        "cards_range",
        "With 3 players each can be dealt 1 to 12 cards, not 13.",
    )


def test_running_totals_add_up_each_deal_to_the_ones_before() -> None:
    # docs/rules.md's points example: 80/50, then 40/90, so 80/50 and 120/140
    result = check_match(match("tute2", [tute_deal((70, 50), 0), tute_deal((40, 80), 1, dealer=1)], {"mode": "points"}))
    assert result.running_totals() == [(80, 50), (120, 140)]
    pocha = check_match(
        match(
            "pocha",
            [_pocha_deal(0, 1, [1, 0, 0, 1], [1, 0, 0, 0]), _pocha_deal(1, 1, [0, 0, 0, 0], [0, 1, 0, 0])],
            {"schedule": [1, 1]},
        )
    )
    # deal 1: 15, 10, 10, −5; deal 2: 10, −5, 10, 10
    assert pocha.running_totals() == [(15, 10, 10, -5), (25, 5, 20, 5)]
    assert check_match(match("tute4", [])).running_totals() == []


def test_a_deficit_is_the_most_a_side_trailed_the_side_ahead_after_any_deal() -> None:
    # 80/50 then 120/140: the second side trailed by 30 after the first deal, the first by 20 after the second
    result = check_match(match("tute2", [tute_deal((70, 50), 0), tute_deal((40, 80), 1, dealer=1)], {"mode": "points"}))
    assert get_game("tute2").deficits(result) == (20, 30)
    # 15, 10, 10, −5 then 25, 5, 20, 5: the fourth trailed by 20 twice, the second by 20 after deal 2
    pocha = check_match(
        match(
            "pocha",
            [_pocha_deal(0, 1, [1, 0, 0, 1], [1, 0, 0, 0]), _pocha_deal(1, 1, [0, 0, 0, 0], [0, 1, 0, 0])],
            {"schedule": [1, 1]},
        )
    )
    assert get_game("pocha").deficits(pocha) == (0, 20, 5, 20)
    assert get_game("tute4").deficits(check_match(match("tute4", []))) == (0, 0)


def test_a_comeback_counts_a_deficit_only_for_a_win_on_the_running_totals() -> None:
    deals = [tute_deal((20, 100), 1), tute_deal((100, 20), 0, dealer=1), tute_deal((100, 20), 0)]
    # In points to 201: 20 against 110 (90 behind), 130 against 130, then 240 against 150.
    points = check_match(match("tute2", deals, {"mode": "points", "target": 201}))
    assert points.finished and points.winners == (0,)
    tute = get_game("tute2")
    assert tute.deficits(points) == (90, 90) and tute.comeback(points, 0) == 90 and tute.comeback(points, 1) == 0
    # To juegos the same deals are won on juegos: card points say nothing of a comeback.
    juegos = check_match(match("tute2", deals, {"target": 2}))
    assert juegos.finished and juegos.winners == (0,)
    assert tute.deficits(juegos)[0] == 90 and tute.comeback(juegos, 0) == 0


@pytest.mark.parametrize("game", ["tute2", "tute4", "pocha"])
def test_the_result_names_its_game(game: str) -> None:
    assert score_match(match(game, []))["game"] == game
    assert check_match(match(game, [])).game == game


def test_in_points_mode_a_tie_on_total_goes_to_side_0_when_it_won_the_last_deal() -> None:
    # 20–110, then 110–20: 130 each, and Ana won the deal that ended it
    result = score_match(
        match("tute2", [tute_deal((20, 100), 1), tute_deal((100, 20), 0, dealer=1)], {"mode": "points", "target": 120})
    )
    assert result["totals"] == [130, 130] and result["winners"] == [0]


def test_a_tute_under_tute_match_earns_no_juegos_and_under_tute_deal_one_or_two() -> None:
    declared = TuteDeal(dealer=0, trump="oros", points=(0, 0), last_trick=None, tute=TuteDeclaration(0, "reyes"))
    assert juegos_earned(declared, 0, TuteOptions(tute="match")) == 0
    assert juegos_earned(declared, 0, TuteOptions(tute="match", double_over_100=True)) == 0
    assert juegos_earned(declared, 0, TuteOptions()) == 1
    assert juegos_earned(declared, 0, TuteOptions(double_over_100=True)) == 2


def test_tute_options_keep_every_checked_house_rule() -> None:
    values = check_options(
        "tute4",
        {"deck": 48, "last_trick_bonus": 0, "mode": "points", "target": 250, "double_over_100": True, "tute": "match"},
    )
    assert TuteOptions.from_values(values) == TuteOptions(
        deck=48, last_trick_bonus=0, mode="points", target=250, double_over_100=True, tute="match"
    )


def test_impossible_card_points_and_deck_sizes_are_refused_with_a_reason() -> None:
    with pytest.raises(ValueError, match=r"^a side cannot capture 121 card points$"):
        other_side_points(121)
    with pytest.raises(ValueError, match=r"^a Spanish deck has 40 or 48 cards, not 36$"):
        deck(36)
    assert len(deck()) == 40


def test_numbers_up_to_nine_digits_are_spelled_out_in_messages_and_longer_ones_are_not() -> None:
    spelled = violations(match("tute2", [tute_deal((999_999_999, -999_999_999), 0)]))
    assert [e["message"] for e in spelled] == [
        "A side cannot capture 999999999 card points: any total from 0 to 120 except 1 and 119.",
        "A side cannot capture -999999999 card points: any total from 0 to 120 except 1 and 119.",
    ]
    unspelled = violations(match("tute2", [tute_deal((10**9, -(10**9)), 0)]))
    assert [e["message"] for e in unspelled] == [
        "A side cannot capture that number card points: any total from 0 to 120 except 1 and 119."
    ] * 2


def test_a_violation_reads_as_every_problem_in_turn() -> None:
    with pytest.raises(RuleViolation) as caught:
        score_match(match("tute2", [tute_deal((60, 50), 0)], players=["Ana", "ana"]))
    assert str(caught.value) == "players.1: ana is already at this table. [players_duplicate]"
    with pytest.raises(RuleViolation) as caught:
        score_match(match("tute2", [tute_deal((60, 50), 0), tute_deal(last_trick=None)]))
    assert str(caught.value) == (
        "deal 1, points: The card points must add up to 120; these add up to 110. "
        "[points_total]; deal 2, last_trick: Say which side took the last trick. "
        "[last_trick_invalid]"
    )


def test_get_game_refuses_an_unknown_game_as_score_match_does() -> None:
    with pytest.raises(RuleViolation) as caught:
        get_game("brisca")
    assert caught.value.errors == [
        {
            "deal": None,
            "field": "game",
            "code": "game_unknown",
            "message": "There is no game 'brisca' here: choose one of tute2, tute3, tute4, subastado, pocha.",
        }
    ]


def test_a_match_without_deals_is_a_match_not_yet_played() -> None:
    result = score_match({"game": "tute2", "players": ["Ana", "Luis"]})
    assert (result["deals"], result["totals"], result["finished"]) == ([], [0, 0], False)


def test_a_match_field_named_by_a_number_is_malformed_not_a_crash() -> None:
    document: dict[object, object] = {**match("tute2", []), 7: "x", "zeta": 1}
    assert [(e["field"], e["code"]) for e in violations(document)] == [("7", "malformed"), ("zeta", "malformed")]


def test_deals_are_not_checked_under_house_rules_that_are_wrong() -> None:
    # a deal of 0 cards is wrong whatever the house rules; here they are wrong themselves
    document = match("pocha", [_pocha_deal(0, 0, [0, 0, 0, 0], [0, 0, 0, 0])], {"hook": "yes"})
    assert [(e["field"], e["code"]) for e in violations(document)] == [("options.hook", "malformed")]


def test_the_wrong_number_of_players_carries_the_bounds_for_other_languages() -> None:
    with pytest.raises(RuleViolation) as caught:
        score_match(match("pocha", [], players=["Ana"]))
    [problem] = caught.value.problems
    assert dict(problem.params) == {"game": "Pocha", "wanted": "2 to 8", "count": 1, "low": 2, "high": 8}


def test_an_unknown_message_is_a_programming_error_named_in_the_exception() -> None:
    with pytest.raises(KeyError, match="no message 'nope'"):
        ErrorLog().add(Code.MALFORMED, "deal", "nope")


def test_a_tute_game_keeps_its_name_title_and_seats() -> None:
    game = TuteGame("tute2", "Tute", 2)
    assert (game.name, game.title, game.min_players, game.max_players) == ("tute2", "Tute", 2, 2)
