"""Tute matches: juegos and points modes, the tute declaration, targets, ties and who deals next."""

from scorekeeper.games.tute.rules import TuteOptions, cante_value, first_dealer_for_leader
from scorekeeper.registry import score_match
from scorekeeper.rules import DECK_POINTS, deck, other_side_points, possible_card_points

from .helpers import codes, match, tute_deal, violations


def test_a_deck_holds_120_card_points_whatever_its_size() -> None:
    assert sum(card.points for card in deck(40)) == DECK_POINTS
    assert sum(card.points for card in deck(48)) == DECK_POINTS
    assert len(deck(40)) == 40 and len(deck(48)) == 48


def test_card_points_per_rank() -> None:
    points = {card.rank: card.points for card in deck(48) if card.suit == "oros"}
    assert points == {
        "as": 11,
        "3": 10,
        "rey": 4,
        "caballo": 3,
        "sota": 2,
        "9": 0,
        "8": 0,
        "7": 0,
        "6": 0,
        "5": 0,
        "4": 0,
        "2": 0,
    }


def test_the_48_card_deck_scores_like_the_40_card_deck() -> None:
    deals = [tute_deal((78, 42), 0, trump="copas")]
    assert score_match(match("tute2", deals, {"deck": 48}))["totals"] == score_match(match("tute2", deals))["totals"]


def test_cante_is_worth_40_in_trump_and_20_elsewhere() -> None:
    assert cante_value("bastos", "bastos") == 40
    assert cante_value("oros", "bastos") == 20


def test_the_other_side_has_120_minus_one_side_s_points() -> None:
    assert other_side_points(78) == 42
    assert other_side_points(0) == 120
    assert possible_card_points(0) and possible_card_points(120)
    assert not possible_card_points(1) and not possible_card_points(119) and not possible_card_points(121)


def test_last_trick_bonus_is_configurable() -> None:
    result = score_match(match("tute2", [tute_deal((60, 60), 1)], {"last_trick_bonus": 0}))
    assert result["deals"][0] == {"number": 1, "scores": [60, 60], "winner": 1, "juegos": [0, 1]}


def test_most_a_deal_can_hold_is_230() -> None:
    cantes = [(0, "oros"), (0, "copas"), (0, "espadas"), (0, "bastos")]
    result = score_match(match("tute2", [tute_deal((120, 0), 0, cantes=cantes)]))
    assert result["deals"][0]["scores"] == [230, 0]


def test_juegos_match_is_won_by_the_first_side_to_reach_the_target() -> None:
    deals = [
        tute_deal((80, 40), 0, dealer=0),
        tute_deal((30, 90), 1, dealer=1),
        tute_deal((90, 30), 0, dealer=0),
        tute_deal((90, 30), 0, dealer=1),
    ]
    result = score_match(match("tute2", deals))
    assert result["juegos"] == [3, 1]
    assert result["finished"] is True and result["winners"] == [0]
    assert result["next_dealer"] is None


def test_juegos_target_one_ends_after_one_deal() -> None:
    result = score_match(match("tute2", [tute_deal((30, 90), 1)], {"target": 1}))
    assert result["finished"] is True and result["winners"] == [1]


def test_double_over_100_needs_101_not_100() -> None:
    at_100 = score_match(match("tute2", [tute_deal((90, 30), 0)], {"double_over_100": True}))
    at_101 = score_match(match("tute2", [tute_deal((91, 29), 0)], {"double_over_100": True}))
    assert at_100["deals"][0]["scores"][0] == 100 and at_100["juegos"] == [1, 0]
    assert at_101["deals"][0]["scores"][0] == 101 and at_101["juegos"] == [2, 0]


def test_tute_wins_the_deal_with_optional_partial_points_and_no_last_trick() -> None:
    declared = {"dealer": 0, "trump": "oros", "tute": {"seat": 1, "kind": "caballos"}}
    result = score_match(match("tute2", [declared]))
    assert result["deals"][0] == {"number": 1, "scores": [0, 0], "winner": 1, "juegos": [0, 1]}
    assert result["juegos"] == [0, 1]
    partial = score_match(match("tute2", [tute_deal((30, 42), None, tute=(0, "reyes"))]))
    assert partial["deals"][0] == {"number": 1, "scores": [30, 42], "winner": 0, "juegos": [1, 0]}


def test_after_a_tute_the_points_leave_out_the_four_cards_the_declarer_holds() -> None:
    for points, kind in (((60, 44), "reyes"), ((60, 48), "caballos"), ((0, 0), "reyes")):
        assert score_match(match("tute2", [tute_deal(points, None, tute=(0, kind))]))["deals"][0]["winner"] == 0
    assert codes(match("tute2", [tute_deal((60, 45), None, tute=(0, "reyes"))])) == ["points_total"]
    assert codes(match("tute2", [tute_deal((60, 49), None, tute=(1, "caballos"))])) == ["points_total"]
    [error] = violations(match("tute2", [tute_deal((60, 60), None, tute=(0, "reyes"))]))
    assert error["message"] == (
        "After a tute of Reyes the card points add up to at most 104: "
        "the declarer still holds the four. These add up to 120."
    )


def test_tute_earns_two_juegos_when_double_over_100_is_on() -> None:
    result = score_match(match("tute2", [tute_deal(None, None, tute=(0, "reyes"))], {"double_over_100": True}))
    assert result["juegos"] == [2, 0]


def test_tute_under_tute_match_wins_the_match_and_earns_no_juegos() -> None:
    deals = [tute_deal((30, 90), 1), tute_deal(None, None, tute=(0, "reyes"), dealer=1)]
    result = score_match(match("tute2", deals, {"tute": "match"}))
    assert result["juegos"] == [0, 1]
    assert result["finished"] is True and result["winners"] == [0]


def test_tute_in_points_mode_wins_the_match_at_once() -> None:
    deals = [tute_deal((30, 90), 1), tute_deal((10, 20), None, tute=(2, "reyes"), dealer=1)]
    result = score_match(match("tute4", deals, {"mode": "points"}))
    assert result["totals"] == [40, 120]
    assert result["finished"] is True and result["winners"] == [0]


def test_tute4_declaration_belongs_to_the_seat_s_pair() -> None:
    result = score_match(match("tute4", [tute_deal(None, None, tute=(3, "reyes"))]))
    assert result["deals"][0]["winner"] == 1


def test_points_mode_tie_above_target_goes_to_the_winner_of_that_deal() -> None:
    deals = [tute_deal((100, 20), 0), tute_deal((20, 100), 1, dealer=1)]
    result = score_match(match("tute2", deals, {"mode": "points", "last_trick_bonus": 0, "target": 120}))
    assert result["totals"] == [120, 120]
    assert result["finished"] is True and result["winners"] == [1]


def test_points_mode_uses_101_by_default_and_a_chosen_target() -> None:
    deals = [tute_deal((70, 50), 0), tute_deal((70, 50), 0, dealer=1)]
    assert score_match(match("tute2", deals[:1], {"mode": "points"}))["finished"] is False
    assert score_match(match("tute2", deals, {"mode": "points", "target": 200}))["finished"] is False
    assert score_match(match("tute2", deals, {"mode": "points"}))["winners"] == [0]


def test_points_mode_has_no_juegos_and_juegos_mode_counts_them() -> None:
    assert score_match(match("tute2", [tute_deal()], {"mode": "points"}))["juegos"] is None
    assert score_match(match("tute2", [tute_deal()]))["juegos"] == [1, 0]


def test_next_dealer_moves_one_seat_along_the_play_order() -> None:
    assert score_match(match("tute2", []))["next_dealer"] is None
    assert score_match(match("tute4", [tute_deal(dealer=3)]))["next_dealer"] == 0
    assert score_match(match("tute4", [tute_deal(dealer=1)]))["next_dealer"] == 2


def test_the_holder_of_the_2_of_oros_leads_when_the_seat_before_deals() -> None:
    assert first_dealer_for_leader(0) == 3
    assert first_dealer_for_leader(2) == 1


def test_cantes_of_the_declaring_seat_still_count_after_a_tute() -> None:
    deal = tute_deal((10, 20), None, trump="copas", tute=(2, "caballos"), cantes=[(2, "copas"), (2, "oros")])
    result = score_match(match("tute4", [deal]))
    assert result["deals"][0] == {"number": 1, "scores": [70, 20], "winner": 0, "juegos": [1, 0]}
    twice = tute_deal(None, None, tute=(0, "reyes"), cantes=[(0, "copas"), (0, "copas")])
    assert codes(match("tute2", [twice])) == ["cante_suit_twice"]


def test_after_a_tute_nobody_else_can_have_sung() -> None:
    deal = tute_deal(None, None, tute=(0, "reyes"), cantes=[(1, "oros")])
    [error] = violations(match("tute2", [deal]))
    assert (error["code"], error["field"]) == ("seat_invalid", "cantes.0.seat")
    assert error["message"] == "Luis cannot have sung: Ana holds all four Reyes."


def test_a_tute_declared_where_the_table_does_not_play_it_leaves_a_played_out_deal() -> None:
    deal = tute_deal((60, 50), 0, tute=(0, "reyes"))
    assert codes(match("tute2", [deal], {"tute": "off"})) == ["tute_disabled", "points_total"]


def test_seats_and_sides_are_named_for_players_in_messages() -> None:
    [error] = violations(match("tute4", [tute_deal(last_trick=3)]))
    assert error["message"] == "The last trick goes to Ana & Carmen or to Luis & Pedro."
    [error] = violations(match("tute2", [tute_deal(cantes=[(2, "oros")])]))
    assert error["message"] == "There is no seat 3 at this table."


def test_a_huge_number_is_refused_without_spelling_it_out() -> None:
    [error] = violations(match("tute2", [tute_deal((10**5000, 0), 0)]))
    assert error["code"] == "points_impossible" and "that number" in str(error["message"])


def test_tute_options_default_target_follows_the_mode() -> None:
    assert TuteOptions().target == 3
    assert TuteOptions(mode="points").target == 101
    assert TuteOptions(mode="points", target=50).target == 50


def test_tute_kind_must_be_reyes_or_caballos() -> None:
    assert codes(match("tute2", [tute_deal(None, None, tute=(0, "sotas"))])) == ["malformed"]


def test_a_last_trick_of_no_side_names_both_sides_in_its_message() -> None:
    for game, players, sides in (
        ("tute2", ["Ana", "Luis"], ("Ana", "Luis")),
        ("tute4", ["Ana", "Luis", "Carmen", "Pedro"], ("Ana & Carmen", "Luis & Pedro")),
    ):
        [error] = violations(match(game, [tute_deal((70, 50), 2)], players=players))
        assert error["code"] == "last_trick_invalid" and error["field"] == "last_trick"
        assert sides[0] in str(error["message"]) and sides[1] in str(error["message"])
