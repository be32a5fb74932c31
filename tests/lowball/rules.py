"""Lowball's engine: each deal, the points counted against every player still in (0 to 50; a player
out has none, `null`); the lowest of the deal wins it, alone; over the `limit` a player is out, and
the last one left in wins (if one deal puts out everyone left, those who were in before it win)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from scorekeeper.rules import Code, Game, MatchGoal, OptionSpec
from scorekeeper.rules.base import DealOutcome, MatchState
from scorekeeper.rules.common import DealReader, ErrorLog, is_int
from scorekeeper.rules.messages import N_, define
from scorekeeper.rules.options import as_int

MOST_POINTS: Final = 50


class LowballCode(StrEnum):
    """The codes of Lowball's own refusals."""

    POINTS_OF_A_PLAYER_OUT = "points_of_a_player_out"


MESSAGES: Final = define(
    {
        "lowball_points": N_("{name} counts a whole number of points from 0 to {most}."),
        "lowball_out": N_("{name} is out of the match and counts no points."),
        "lowball_points_list": N_("Give the points of each of the {count} players."),
    }
)


@dataclass(frozen=True)
class LowballDeal:
    """A checked deal: who dealt, and each seat's points (None for a seat out of the match)."""

    dealer: int
    points: tuple[int | None, ...]


class Lowball(Game):
    """Lowball: the lowest total leads; players over the limit are out."""

    name = "lowball"
    title = "Lowball"
    min_players = 2
    max_players = 6
    form_kind = "lowball"
    lowest_wins = True
    messages = MESSAGES
    codes = tuple(LowballCode)
    result_keys: Mapping[str, Mapping[str, Any]] = {
        "out": {"type": "array", "items": {"type": "integer", "minimum": 0}, "description": "The seats out."}
    }
    deal_result_keys: Mapping[str, Mapping[str, Any]] = {
        "went_out": {"type": "array", "items": {"type": "integer", "minimum": 0}, "description": "Out in this deal."}
    }

    @property
    def option_specs(self) -> tuple[OptionSpec, ...]:
        return (OptionSpec("limit", "int", 100, "Over this total a player is out.", minimum=10, maximum=500),)

    def sides(self, players: int) -> tuple[tuple[int, ...], ...]:
        return tuple((seat,) for seat in range(players))

    def seat_tallies(self, deal: Mapping[str, Any], seat: int, side: int) -> dict[str, int]:
        return {}

    def goal(self, options: Mapping[str, object], players: int) -> MatchGoal:
        return MatchGoal("points", target=as_int(options, "limit"))

    def browser_details(self, options: Mapping[str, object], players: int) -> dict[str, Any]:
        return {"limit": as_int(options, "limit"), "most_points": MOST_POINTS}

    def read_deal(
        self,
        raw: object,
        number: int,
        players: tuple[str, ...],
        rules: Mapping[str, object],
        state: MatchState,
        log: ErrorLog,
    ) -> LowballDeal | None:
        if not isinstance(raw, Mapping):
            log.add(Code.MALFORMED, "deal", "deal_not_object", deal=number, number=number)
            return None
        reader = DealReader(raw, number, log, frozenset({"dealer", "points"}))
        dealer = reader.dealer(len(players))
        given = raw.get("points")
        if not isinstance(given, list) or len(given) != len(players):
            reader.problem(Code.MALFORMED, "points", "lowball_points_list", count=len(players))
            return None
        for seat, value in enumerate(given):
            if seat in state.out and value is not None:
                reader.problem(LowballCode.POINTS_OF_A_PLAYER_OUT, f"points.{seat}", "lowball_out", name=players[seat])
            elif seat not in state.out and not (is_int(value) and 0 <= value <= MOST_POINTS):
                reader.problem(Code.MALFORMED, f"points.{seat}", "lowball_points", name=players[seat], most=MOST_POINTS)
        if dealer is None or not reader.ok:
            return None
        return LowballDeal(dealer, tuple(None if seat in state.out else given[seat] for seat in range(len(players))))

    def score_deal(self, deal: LowballDeal, rules: Mapping[str, object], state: MatchState) -> DealOutcome:
        scores = tuple(points or 0 for points in deal.points)
        counted = [points for points in deal.points if points is not None]
        lowest = min(counted)
        winners = [seat for seat, points in enumerate(deal.points) if points == lowest]
        limit = as_int(rules, "limit")
        went_out = frozenset(seat for seat in state.seats_in() if state.totals[seat] + scores[seat] > limit)
        return DealOutcome(
            scores,
            winners[0] if len(winners) == 1 else None,
            went_out=went_out,
            extra={"went_out": sorted(went_out)},
        )

    def match_over(self, state: MatchState, rules: Mapping[str, object], deal: LowballDeal) -> tuple[int, ...] | None:
        left = state.seats_in()
        if len(left) > 1:
            return None
        if left:
            return left
        went_out = state.deals[-1].extra["went_out"]
        return tuple(went_out)  # everyone left went out together: they were all in before it

    def result_extra(self, state: MatchState, rules: Mapping[str, object]) -> dict[str, Any]:
        return {"out": sorted(state.out)}


LOWBALL: Final = Lowball()
#: The games of this folder.
GAMES: Final = (LOWBALL,)
