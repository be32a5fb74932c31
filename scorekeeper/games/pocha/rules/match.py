"""Pocha for 2 to 8 players: a match of scheduled deals, each bid before play and scored after it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ....rules.base import DealOutcome, Game, MatchGoal, MatchState
from ....rules.common import SUITS, Code, ErrorLog
from ....rules.messages import N_
from ....rules.options import OptionSpec, as_bool, as_int
from .deal import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    POCHA_OPTION_SPECS,
    PochaDeal,
    PochaOptions,
    bidding_order,
    max_cards,
    pocha_schedule,
    read_pocha_deal,
    score_bid,
    trump_factor,
)
from .sentences import POCHA_MESSAGES


@dataclass(frozen=True)
class PochaTable:
    """The house rules of a Pocha match, and the schedule they deal at its table."""

    options: PochaOptions
    schedule: tuple[int, ...]


class PochaGame(Game):
    """Pocha: each player bids the tricks they will take, and scores for hitting the bid exactly."""

    name = "pocha"
    title = N_("Pocha")
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    bids_first = True
    form_kind = "bids"
    figures = ("exact_bids", "over_bids", "under_bids")
    messages = POCHA_MESSAGES
    browser_checked = (
        "bid_hook",
        "bid_range",
        "tricks_total",
        "tricks_range",
        "cards_range",
        "cards_schedule",
        "bids_not_list",
        "tricks_not_list",
    )

    @property
    def option_specs(self) -> tuple[OptionSpec, ...]:
        return POCHA_OPTION_SPECS

    def sides(self, players: int) -> tuple[tuple[int, ...], ...]:
        return tuple((seat,) for seat in range(players))

    def seat_tallies(self, deal: Mapping[str, Any], seat: int, side: int) -> dict[str, int]:
        bid, tricks = deal["bids"][seat], deal["tricks"][seat]
        return {"exact_bids": int(bid == tricks), "over_bids": int(bid > tricks), "under_bids": int(bid < tricks)}

    def goal(self, options: Mapping[str, object], players: int) -> MatchGoal:
        """Return the number of deals the schedule sets: the match ends with its last."""
        return MatchGoal("points", deals=len(pocha_schedule(players, PochaOptions.from_values(options))))

    def browser_details(self, options: Mapping[str, object], players: int) -> dict[str, Any]:
        """Return the schedule, the hook, the bidding order and the score of every bid and tricks pair."""
        rules = PochaOptions.from_values(options)
        most = max_cards(players, rules.deck, rules.remove_twos)
        counts = range(most + 1)
        return {
            "schedule": list(pocha_schedule(players, rules)),
            "most_cards": most,
            "hook": rules.hook,
            "bidding_order": [list(bidding_order(dealer, players)) for dealer in range(players)],
            # scores[bid][tricks], before the trump's factor ("none": a deal without trump)
            "scores": [[score_bid(bid, tricks, rules) for tricks in counts] for bid in counts],
            "trump_factor": {trump or "none": trump_factor(trump, rules) for trump in (None, *SUITS)},
        }

    def check_options(self, raw: object, players: int | None, log: ErrorLog) -> dict[str, object] | None:
        values = super().check_options(raw, players, log)
        if values is None or players is None:
            return values
        schedule = values["schedule"]
        if isinstance(schedule, tuple):
            most = max_cards(players, as_int(values, "deck"), as_bool(values, "remove_twos"))
            if any(not 1 <= cards <= most for cards in schedule):
                log.add(Code.SCHEDULE_INVALID, "options.schedule", "schedule_range", players=players, most=most)
                return None
        return values

    def house_rules(self, options: Mapping[str, object], players: int) -> PochaTable:
        rules = PochaOptions.from_values(options)
        return PochaTable(rules, pocha_schedule(players, rules))

    def read_deal(
        self, raw: object, number: int, players: tuple[str, ...], rules: PochaTable, state: MatchState, log: ErrorLog
    ) -> PochaDeal | None:
        """Check the deal against the cards its place in the schedule deals; refuse a deal past the schedule."""
        if number > len(rules.schedule):
            log.add(Code.MATCH_FINISHED, "deal", "schedule_complete", deal=number, deals=len(rules.schedule))
            return None
        return read_pocha_deal(raw, number, rules.schedule[number - 1], players, rules.options, log)

    def score_deal(self, deal: PochaDeal, rules: PochaTable, state: MatchState) -> DealOutcome:
        """Score each player's bid against their tricks; a Pocha deal has no winner."""
        scores = tuple(score_bid(b, t, rules.options, deal.trump) for b, t in zip(deal.bids, deal.tricks))
        return DealOutcome(scores, None)

    def match_over(self, state: MatchState, rules: PochaTable, deal: PochaDeal) -> tuple[int, ...] | None:
        """End the match with the schedule's last deal, won by every player with the highest total."""
        if len(state.deals) < len(rules.schedule):
            return None
        best = max(state.totals)
        return tuple(seat for seat, total in enumerate(state.totals) if total == best)

    def refuse_after_end(self, number: int, state: MatchState, log: ErrorLog) -> None:
        log.add(Code.MATCH_FINISHED, "deal", "schedule_complete", deal=number, deals=len(state.deals))

    def next_cards(self, state: MatchState, rules: PochaTable) -> int | None:
        """Return the cards the schedule deals next."""
        return rules.schedule[len(state.deals)]

    def check_bids(
        self,
        players: tuple[str, ...],
        options: Mapping[str, object],
        deals: Sequence[object],
        bids: object,
        log: ErrorLog,
    ) -> PochaDeal | None:
        """Check the bidding of the next deal (before play) after `deals`; log problems, return it or None."""
        result = self.play(players, options, deals, log)
        if result is None:
            return None
        number = len(result.deals) + 1
        if result.finished:
            log.add(Code.MATCH_FINISHED, "deal", "schedule_complete", deal=number, deals=len(result.deals))
            return None
        rules = PochaOptions.from_values(options)
        scheduled = pocha_schedule(len(players), rules)[number - 1]
        return read_pocha_deal(bids, number, scheduled, players, rules, log, with_tricks=False)


POCHA: Final = PochaGame()
