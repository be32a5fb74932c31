"""Tute subastado (`subastado`): docs/rules.md's worked examples, a deal everyone passed, contracts failed
under both house rules, `made: total`, the match's end (the target, a set number of deals, a tie at
the top going on), the tute, four players, and every refusal that applies with its code."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.games.subastado.rules import SubastadoOptions, contract_outcome
from scorekeeper.registry import GAMES, check_options, score_match
from scorekeeper.rules import MatchResult

from .helpers import codes, violations

SUBASTADO = GAMES["subastado"]
THREE = ["Ana", "Luis", "Carmen"]
FOUR = ["Ana", "Luis", "Carmen", "Pedro"]


def contract(
    declarer: int = 1,
    bid: Any = 80,
    points: Any = 62,
    last_trick: Any = True,
    *,
    dealer: int = 0,
    trump: Any = "copas",
    sung: tuple[str, ...] = (),
) -> dict[str, Any]:
    """Build a raw deal in which `declarer` won the auction with `bid`."""
    deal: dict[str, Any] = {
        "dealer": dealer,
        "declarer": declarer,
        "bid": bid,
        "trump": trump,
        "points": points,
        "last_trick": last_trick,
    }
    if sung:
        deal["cantes"] = [{"seat": declarer, "suit": suit} for suit in sung]
    return deal


def doc(*deals: dict[str, Any], names: list[str] | None = None, **options: Any) -> dict[str, Any]:
    document: dict[str, Any] = {"game": "subastado", "players": names or THREE, "deals": list(deals)}
    if options:
        document["options"] = options
    return document


def played(*deals: dict[str, Any], **options: Any) -> dict[str, Any]:
    return score_match(doc(*deals, **options))


def as_result(result: dict[str, Any]) -> MatchResult:
    return MatchResult.from_dict(result)


# ---------------------------------------------------------------- docs/rules.md's worked examples

FIRST = contract(1, 80, 62, True, trump="copas", sung=("copas",))
SECOND = contract(0, 100, 70, False, trump="oros", sung=("espadas",))


def test_a_contract_made_scores_the_bid_for_the_declarer() -> None:
    # 62 + 10 + 40 = 112 >= 80
    assert played(FIRST)["deals"][0] == {"number": 1, "scores": [0, 80, 0], "winner": 1}


def test_a_contract_failed_costs_the_declarer_the_bid() -> None:
    # 70 + 0 + 20 = 90 < 100
    assert played(SECOND)["deals"][0] == {"number": 1, "scores": [-100, 0, 0], "winner": None}


def test_a_contract_failed_under_failed_others_gives_every_other_player_the_bid() -> None:
    assert played(SECOND, failed="others")["deals"][0] == {"number": 1, "scores": [0, 100, 100], "winner": None}


def test_made_total_scores_the_declarers_whole_total() -> None:
    assert played(FIRST, made="total")["deals"][0]["scores"] == [0, 112, 0]


def test_a_total_equal_to_the_bid_makes_the_contract() -> None:
    assert played(contract(2, 90, 80, True))["deals"][0] == {"number": 1, "scores": [0, 0, 90], "winner": 2}


def test_the_last_trick_bonus_is_a_house_rule() -> None:
    # 62 + 40 = 102 falls short of 110 without the bonus, 112 makes it with 10
    assert played(contract(1, 110, 62, True, sung=("copas",)), last_trick_bonus=0)["deals"][0]["scores"] == [0, -110, 0]
    assert played(contract(1, 110, 62, True, sung=("copas",)), last_trick_bonus=10)["deals"][0]["scores"] == [0, 110, 0]


# ---------------------------------------------------------------- everyone passed, the dealer, the totals


def test_a_deal_everyone_passed_scores_nothing_and_the_dealer_still_moves() -> None:
    result = played(FIRST, {"dealer": 1, "passed": True})
    assert result["deals"][1] == {"number": 2, "scores": [0, 0, 0], "winner": None}
    assert result["totals"] == [0, 80, 0]
    assert result["next_dealer"] == 2


def test_totals_add_up_and_may_go_below_zero() -> None:
    result = played(SECOND, contract(0, 60, 0, False, dealer=1), FIRST)
    assert result["totals"] == [-160, 80, 0]
    assert result["juegos"] is None and not result["finished"]


def test_three_players_each_a_side_in_turn() -> None:
    assert (SUBASTADO.min_players, SUBASTADO.max_players) == (3, 4)
    assert SUBASTADO.sides(3) == ((0,), (1,), (2,))
    assert played(contract(dealer=2))["next_dealer"] == 0


# ---------------------------------------------------------------- the end of the match


def test_the_match_is_over_after_a_deal_in_which_a_total_reaches_the_target() -> None:
    result = played(contract(1, 100, 120, True), contract(1, 100, 120, True, dealer=1), target=200)
    assert result["finished"] and result["winners"] == [1] and result["next_dealer"] is None
    assert codes(doc(*[contract(1, 100, 120, True)] * 3, target=200)) == ["match_finished"]


def test_a_tie_at_the_top_goes_on_deal_by_deal_until_one_total_is_higher() -> None:
    # failed: others gives Luis and Carmen 100 each: both reach the target together
    tied = played(contract(0, 100, 0, False), target=100, failed="others")
    assert tied["totals"] == [0, 100, 100] and not tied["finished"]
    assert tied["next_dealer"] == 1
    passed = played(contract(0, 100, 0, False), {"dealer": 1, "passed": True}, target=100, failed="others")
    assert not passed["finished"]
    over = played(
        contract(0, 100, 0, False),
        {"dealer": 1, "passed": True},
        contract(2, 60, 60, True, dealer=2),
        target=100,
        failed="others",
    )
    assert over["finished"] and over["winners"] == [2] and over["totals"] == [0, 100, 160]


def test_the_deals_house_rule_ends_the_match_after_that_many_deals() -> None:
    result = played(contract(1, 60, 60, True), {"dealer": 1, "passed": True}, deals=2)
    assert result["finished"] and result["winners"] == [1]
    assert not played(contract(1, 60, 60, True), deals=2)["finished"]
    # the target plays no part then
    assert not played(contract(1, 230, 120, True, sung=("copas", "oros", "espadas", "bastos")), deals=2)["finished"]


def test_the_deals_house_rule_goes_on_past_its_count_while_the_top_is_shared() -> None:
    tied = played({"dealer": 0, "passed": True}, deals=1)
    assert not tied["finished"]
    result = played({"dealer": 0, "passed": True}, contract(2, 60, 60, True, dealer=1), deals=1)
    assert result["finished"] and result["winners"] == [2]


# ---------------------------------------------------------------- the tute


def test_a_tute_under_tute_match_wins_the_match_at_once() -> None:
    result = played(FIRST, {"dealer": 1, "tute": {"seat": 2, "kind": "reyes"}}, tute="match")
    assert result["deals"][1] == {"number": 2, "scores": [0, 0, 0], "winner": None}
    assert result["finished"] and result["winners"] == [2]
    tute = score_match(doc(FIRST, {"dealer": 1, "tute": {"seat": 2, "kind": "reyes"}}, tute="match"))
    assert SUBASTADO.ranks(as_result(tute)) == [3, 2, 1]  # Carmen first, behind on points


def test_a_tute_may_be_declared_from_any_seat_the_first_and_the_last_too() -> None:
    for seat in (0, 2):
        result = played({"dealer": 1, "tute": {"seat": seat, "kind": "caballos"}}, tute="match")
        assert result["finished"] and result["winners"] == [seat]
    four = score_match(doc({"dealer": 0, "tute": {"seat": 3, "kind": "reyes"}}, names=FOUR, players=4, tute="match"))
    assert four["winners"] == [3]


def test_a_tute_where_it_is_not_played_is_refused() -> None:
    assert codes(doc({"dealer": 0, "tute": {"seat": 2, "kind": "reyes"}})) == ["tute_disabled"]


def test_a_tute_deal_records_nothing_else() -> None:
    deal = {"dealer": 0, "tute": {"seat": 2, "kind": "caballos"}, "bid": 60}
    assert codes(doc(deal, tute="match")) == ["malformed"]
    assert codes(doc({"dealer": 0, "tute": {"seat": 5, "kind": "reyes"}}, tute="match")) == ["seat_invalid"]


# ---------------------------------------------------------------- four players


def test_four_players_need_the_players_house_rule() -> None:
    result = played(contract(3, 60, 60, True, dealer=2), names=FOUR, players=4)
    assert result["deals"][0]["scores"] == [0, 0, 0, 60] and result["next_dealer"] == 3
    assert played(contract(3, 60, 0, False), names=FOUR, players=4, failed="others")["totals"] == [60, 60, 60, 0]
    assert codes(doc(contract(), names=FOUR)) == ["players_count"]
    assert codes(doc(contract(), players=4)) == ["players_count"]
    assert codes({"game": "subastado", "players": ["Ana", "Luis"]}) == ["players_count"]


def test_the_house_rules_and_their_defaults() -> None:
    assert SUBASTADO.default_options() == {
        "players": 3,
        "min_bid": 60,
        "bid_step": 5,
        "last_trick_bonus": 10,
        "made": "bid",
        "failed": "lose",
        "target": 500,
        "deals": None,
        "tute": "off",
    }
    assert check_options("subastado", {"deals": None}, 3)["deals"] is None
    assert SUBASTADO.changed_options(check_options("subastado", {"deals": 10, "players": 4}, 4)) == {
        "players": 4,
        "deals": 10,
    }
    assert codes({"game": "subastado", "players": THREE, "options": {"min_bid": 229, "bid_step": 50}}) == [
        "options_invalid"
    ]
    for bad in ({"min_bid": 231}, {"bid_step": 0}, {"target": 100001}, {"deals": 0}, {"made": "both"}):
        assert codes({"game": "subastado", "players": THREE, "options": bad}) == ["options_invalid"]


# ---------------------------------------------------------------- refusals


def test_rules_md_s_rejected_bids() -> None:
    assert codes(doc(contract(bid=62))) == ["bid_step"]
    assert codes(doc(contract(bid=55))) == ["bid_range"]
    assert codes(doc(contract(bid=235))) == ["bid_range"]
    assert played(contract(bid=61), bid_step=1)["deals"][0]["scores"] == [0, 61, 0]
    assert played(contract(bid=50), min_bid=40, bid_step=10)["deals"][0]["scores"] == [0, 50, 0]


def test_a_cante_by_anyone_but_the_declarer_is_seat_invalid() -> None:
    deal = contract(1)
    deal["cantes"] = [{"seat": 2, "suit": "oros"}]
    errors = violations(doc(deal))
    assert [(e["field"], e["code"]) for e in errors] == [("cantes.0.seat", "seat_invalid")]
    assert errors[0]["message"] == "Carmen cannot have sung: only Luis, who won the auction, sings."


def test_a_suit_sung_twice_and_a_cante_of_no_seat() -> None:
    deal = contract(1)
    deal["cantes"] = [{"seat": 1, "suit": "oros"}, {"seat": 1, "suit": "oros"}]
    assert codes(doc(deal)) == ["cante_suit_twice"]
    deal["cantes"] = [{"seat": 7, "suit": "oros"}]
    assert codes(doc(deal)) == ["seat_invalid"]


def test_the_declarer_is_needed_and_must_be_a_seat() -> None:
    assert codes(doc(contract(declarer=None))) == ["declarer_invalid"]  # type: ignore[arg-type]
    assert codes(doc(contract(declarer=3))) == ["declarer_invalid"]
    assert codes(doc(contract(declarer="Luis"))) == ["malformed"]  # type: ignore[arg-type]


def test_a_deal_everyone_passed_records_nothing_but_its_dealer() -> None:
    errors = violations(doc({"dealer": 0, "passed": True, "declarer": 1, "bid": 80, "points": 60}))
    assert [(e["field"], e["code"]) for e in errors] == [
        ("declarer", "declarer_invalid"),
        ("bid", "declarer_invalid"),
        ("points", "declarer_invalid"),
    ]
    assert codes(doc({"dealer": 0, "passed": "yes"})) == ["malformed"]
    assert played({"dealer": 0, "passed": None, **{k: v for k, v in FIRST.items() if k != "dealer"}})["totals"] == [
        0,
        80,
        0,
    ]


@pytest.mark.parametrize(
    ("change", "wanted"),
    [
        ({"trump": None}, ["trump_invalid"]),
        ({"trump": "diamonds"}, ["trump_invalid"]),
        ({"points": 119}, ["points_impossible"]),
        ({"points": 1}, ["points_impossible"]),
        ({"points": 121}, ["points_impossible"]),
        ({"points": None}, ["malformed"]),
        ({"bid": "80"}, ["malformed"]),
        ({"last_trick": None}, ["last_trick_invalid"]),
        ({"last_trick": 1}, ["malformed"]),
        ({"dealer": 3}, ["dealer_invalid"]),
        ({"cantes": "copas"}, ["malformed"]),
        ({"extra": 1}, ["malformed"]),
    ],
)
def test_each_field_of_a_contract_is_checked(change: dict[str, Any], wanted: list[str]) -> None:
    assert codes(doc({**FIRST, **change})) == wanted


def test_the_declarers_tallies_are_kept_for_the_declarer_alone() -> None:
    assert SUBASTADO.seat_tallies(FIRST, 1, 1) == {"cantes_20": 0, "cantes_40": 1, "tutes": 0, "last_tricks": 1}
    assert SUBASTADO.seat_tallies(SECOND, 0, 0) == {"cantes_20": 1, "cantes_40": 0, "tutes": 0, "last_tricks": 0}
    three_twenties = contract(2, 100, 50, True, trump="oros", sung=("copas", "espadas", "bastos"))
    assert SUBASTADO.seat_tallies(three_twenties, 2, 2) == {
        "cantes_20": 3,
        "cantes_40": 0,
        "tutes": 0,
        "last_tricks": 1,
    }
    assert SUBASTADO.seat_tallies(FIRST, 0, 0) == {"cantes_20": 0, "cantes_40": 0, "tutes": 0, "last_tricks": 0}
    tute = {"dealer": 0, "tute": {"seat": 2, "kind": "reyes"}}
    assert SUBASTADO.seat_tallies(tute, 2, 2)["tutes"] == 1
    assert SUBASTADO.seat_tallies({"dealer": 0, "passed": True}, 0, 0)["last_tricks"] == 0
    assert SUBASTADO.ranked_by_points(SUBASTADO.default_options())


def test_ranks_follow_the_final_totals() -> None:
    result = score_match(doc(SECOND, contract(1, 100, 120, True, dealer=1), target=100))
    assert result["finished"] and result["totals"] == [-100, 100, 0]
    assert SUBASTADO.ranks(as_result(result)) == [3, 1, 2]


def test_a_match_still_being_played_is_placed_by_its_totals_so_far() -> None:
    result = score_match(doc(SECOND, contract(1, 100, 120, True, dealer=1), {"dealer": 2, "passed": True}))
    assert not result["finished"] and result["totals"] == [-100, 100, 0]
    assert SUBASTADO.ranks(as_result(result)) == [3, 1, 2]
    level = score_match(doc({"dealer": 0, "passed": True}))
    assert SUBASTADO.ranks(as_result(level)) == [1, 1, 1]


def test_the_house_rules_read_from_checked_values_are_those_given() -> None:
    values = check_options(
        "subastado",
        {
            "players": 4,
            "min_bid": 70,
            "bid_step": 10,
            "last_trick_bonus": 0,
            "made": "total",
            "failed": "others",
            "target": 300,
            "deals": 12,
            "tute": "match",
        },
        4,
    )
    assert SubastadoOptions.from_values(values) == SubastadoOptions(
        players=4,
        min_bid=70,
        bid_step=10,
        last_trick_bonus=0,
        made="total",
        failed="others",
        target=300,
        deals=12,
        tute="match",
    )
    assert SubastadoOptions.from_values(SUBASTADO.default_options()) == SubastadoOptions()


def test_a_contract_s_outcome_is_the_declarer_s_total_against_the_bid() -> None:
    made = {"dealer": 0, "declarer": 1, "bid": 80, "trump": "copas", "points": 62, "last_trick": True}
    rules, without_bonus = check_options("subastado", {}), check_options("subastado", {"last_trick_bonus": 0})
    assert contract_outcome({**made, "cantes": [{"seat": 1, "suit": "copas"}]}, rules) == (112, True)
    assert contract_outcome({**made, "bid": 115, "cantes": []}, rules) == (72, False)
    assert contract_outcome({**made, "bid": 70}, without_bonus) == (62, False)
