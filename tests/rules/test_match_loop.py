"""The one match loop, driven by what a game declares: the test game Lowball (tests/lowball/) is won
by the lowest total, puts players out over its limit, and returns result keys of its own."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scorekeeper.registry import check_match, score_match
from scorekeeper.rules import Game, MatchResult

from .helpers import codes, violations


def lowball_match(deals: list[list[int | None]], players: int = 3, limit: int = 100) -> dict[str, Any]:
    """Return a Lowball match of `players` with one deal per list of points, dealt in turn from seat 0."""
    names = ["Ana", "Luis", "Eva", "Pep", "Mar", "Sol"][:players]
    return {
        "game": "lowball",
        "players": names,
        "options": {"limit": limit},
        "deals": [{"dealer": number % players, "points": points} for number, points in enumerate(deals)],
    }


def test_the_lowest_total_leads_and_the_places_read_from_the_lowest_up(lowball: Game) -> None:
    result = check_match(lowball_match([[10, 30, 20], [15, 5, 40]]))
    assert result.totals == (25, 35, 60) and not result.finished
    assert [deal.winner for deal in result.deals] == [0, 1]  # the lowest of each deal
    assert lowball.ranks(result) == [1, 2, 3]
    # After deal 1 Luis was 20 behind Ana, after deal 2 Eva was 35 behind: behind means above the lowest.
    assert lowball.deficits(result) == (0, 20, 35)


def test_a_player_over_the_limit_is_out_skipped_as_dealer_and_counts_no_more_points(lowball: Game) -> None:
    result = check_match(lowball_match([[50, 10, 20], [50, 10, 20], [None, 30, 0]], limit=90))
    assert [deal.extra["went_out"] for deal in result.deals] == [[], [0], []]
    assert result.extra == {"out": [0]} and result.totals == (100, 50, 40)
    assert result.next_dealer == 1  # Eva dealt deal 3; Ana, next, is out
    refused = violations(lowball_match([[50, 10, 20], [50, 10, 20], [5, 30, 0]], limit=90))
    assert [(error["code"], error["field"], error["deal"]) for error in refused] == [
        ("points_of_a_player_out", "points.0", 3)
    ]
    assert refused[0]["message"] == "Ana is out of the match and counts no points."


def test_the_last_player_in_wins_and_a_deal_after_the_end_is_refused(lowball: Game) -> None:
    deals: list[list[int | None]] = [[50, 10, 40], [50, 10, 40], [None, 10, 40]]
    result = check_match(lowball_match(deals, limit=90))
    assert result.finished and result.winners == (1,) and result.next_dealer is None
    assert result.extra == {"out": [0, 2]} and lowball.ranks(result)[1] == 1
    assert codes(lowball_match([*deals, [None, 0, None]], limit=90)) == ["match_finished"]


def test_those_put_out_together_by_the_last_deal_share_the_win(lowball: Game) -> None:
    result = check_match(lowball_match([[45, 45], [50, 50]], players=2, limit=90))
    assert result.finished and result.winners == (0, 1) and result.extra == {"out": [0, 1]}


def test_the_result_keys_of_a_game_s_own_go_out_and_come_back_with_the_rest(lowball: Game) -> None:
    shaped = score_match(lowball_match([[50, 10, 20], [50, 10, 20]], limit=90))
    assert shaped["out"] == [0] and [deal["went_out"] for deal in shaped["deals"]] == [[], [0]]
    cached = json.loads(json.dumps(shaped))  # as the database gives it back
    assert MatchResult.from_dict(cached).to_dict() == shaped


@pytest.mark.parametrize("points", [[51, 0, 0], [-1, 0, 0], [True, 0, 0], ["5", 0, 0]])
def test_points_outside_what_the_game_allows_are_refused_at_their_seat(lowball: Game, points: list[Any]) -> None:
    refused = violations(lowball_match([points]))
    assert [(error["code"], error["field"]) for error in refused] == [("malformed", "points.0")]
