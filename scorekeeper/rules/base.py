"""What every game shares: the interface a game implements, and the one loop that plays a match's deals."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any

from .common import SUITS, Code, ErrorLog, next_seat
from .options import OptionSpec, read_options
from .results import DealResult, MatchGoal, MatchResult
from .standing import DealOutcome, Dealt, MatchState

__all__ = ["DealOutcome", "DealResult", "Dealt", "Game", "MatchGoal", "MatchResult", "MatchState"]


class Game(ABC):
    """A game the scorekeeper knows: its seats, sides, house rules, and how it scores deals."""

    #: The name used in match documents.
    name: str
    #: The name players know it by.
    title: str
    min_players: int
    max_players: int
    #: Whether each deal's bids are entered before play, and its tricks after it.
    bids_first: bool = False
    #: The shape of the deal form, which the browser follows: "card_points" (Tute), "auction" (the
    #: subastado) or "bids" (Pocha).
    form_kind: str
    #: The codes of the engine's messages that the deal form checks in the browser before sending.
    browser_checked: tuple[str, ...] = ()
    #: The sentences of its own refusals, by id (`rules.messages.define` adds them to the catalogue),
    #: and the codes of its own that they carry, beside the shared `Code`s.
    messages: Mapping[str, str] = {}
    codes: tuple[str, ...] = ()
    #: The words for values the messages' parameters may hold (a tute's kind), as the catalogue marks them.
    param_words: Mapping[str, str] = {}
    #: The names of what the game counts for each player deal by deal (`seat_tallies`), kept as their
    #: figures; the player page's words for them are the game's own (its `player_figures.html`).
    figures: tuple[str, ...] = ()
    #: Whether the lowest total leads and wins (the standings read from the lowest up), not the highest.
    lowest_wins: bool = False
    #: The JSON Schemas of the result's keys of the game's own (`result_extra`), by key, and of each
    #: deal's (`DealOutcome.extra`): the API's document describes them.
    result_keys: Mapping[str, Mapping[str, Any]] = {}
    deal_result_keys: Mapping[str, Mapping[str, Any]] = {}

    @property
    @abstractmethod
    def option_specs(self) -> tuple[OptionSpec, ...]:
        """Return the house rules of this game, with defaults and one-line descriptions."""

    @abstractmethod
    def sides(self, players: int) -> tuple[tuple[int, ...], ...]:
        """Return the seats of each side for a match of `players` players."""

    @abstractmethod
    def seat_tallies(self, deal: Mapping[str, Any], seat: int, side: int) -> dict[str, int]:
        """Return what a checked deal counts for the player at `seat` (of `side`) towards each of the
        game's `figures` (cantes, tutes, last tricks, bids made...), a count of 0 or more by name."""

    def ranks(self, result: MatchResult) -> list[int]:
        """Return each side's place in a finished match (1 first; sides that tie share a place): the
        winners first, then the others by their juegos (where the match counts them) or their totals,
        the better first as `lowest_wins` says (a tute can win from behind)."""
        standing = result.juegos if result.juegos is not None else result.totals
        lowest_first = self.lowest_wins and result.juegos is None
        others = sorted(
            {standing[side] for side in range(len(result.sides)) if side not in result.winners},
            reverse=not lowest_first,
        )
        offset = 1 if result.winners else 0
        return [
            1 if side in result.winners else offset + others.index(standing[side]) + 1
            for side in range(len(result.sides))
        ]

    def best(self, totals: Sequence[int]) -> int:
        """Return the best of `totals`: the highest, or the lowest where the lowest total wins."""
        return min(totals) if self.lowest_wins else max(totals)

    def deficits(self, result: MatchResult) -> tuple[int, ...]:
        """Return, for each side, the most points it trailed the side ahead by after any deal (0 if never behind)."""
        worst = [0] * len(result.sides)
        for totals in result.running_totals():
            ahead = self.best(totals)
            for side, total in enumerate(totals):
                worst[side] = max(worst[side], abs(ahead - total))
        return tuple(worst)

    def comeback(self, result: MatchResult, side: int) -> int:
        """Return the most points `side` trailed by after any deal (`deficits`) if it won the match on
        its running totals: counted in points (not juegos) and ending with the best total; else 0.

        A match to juegos is won on juegos, and a tute can end one behind on points: its card points
        say nothing of how far the winner came back.
        """
        won_on_totals = (
            result.finished
            and side in result.winners
            and result.juegos is None
            and result.totals[side] == self.best(result.totals)
        )
        return self.deficits(result)[side] if won_on_totals else 0

    def ranked_by_points(self, options: Mapping[str, object]) -> bool:
        """Tell whether a match under checked `options` is won on points rather than on juegos."""
        return True

    @abstractmethod
    def goal(self, options: Mapping[str, object], players: int) -> MatchGoal:
        """Return what ends a match of `players` under checked `options`: its target or its number of deals."""

    def play(
        self, players: tuple[str, ...], options: Mapping[str, object], deals: Sequence[object], log: ErrorLog
    ) -> MatchResult | None:
        """Check and score `deals` under checked `options`; log every problem, return None if any.

        The one match loop of every game: each deal is read (`read_deal`) and scored (`score_deal`)
        in turn, counted into the standing, and the match is over when the deal says so or the game's
        `match_over` does; a deal after the end is refused (`refuse_after_end`). Once a deal is wrong
        the standing is unknown, but the rest are still read, so that every problem is told at once.
        """
        start = log.count()
        state = MatchState.begin(len(players), self.sides(len(players)))
        # Read once for the whole match: every POST checks it all again, deal by deal.
        rules = self.house_rules(options, len(players))
        for number, raw in enumerate(deals, start=1):
            if state.finished:
                self.refuse_after_end(number, state, log)
                continue
            deal = self.read_deal(raw, number, players, rules, state, log)
            if deal is None or log.count() != start:
                continue
            outcome = self.score_deal(deal, rules, state)
            state.add(number, deal.dealer, outcome)
            winners = outcome.ends_match if outcome.ends_match is not None else self.match_over(state, rules, deal)
            if winners is not None:
                state.finish(winners)
        if log.count() != start:
            return None
        return MatchResult(
            game=self.name,
            sides=state.sides,
            deals=tuple(state.deals),
            totals=tuple(state.totals),
            juegos=None if self.ranked_by_points(options) else tuple(state.juegos),
            finished=state.finished,
            winners=state.winners,
            next_dealer=state.next_dealer(),
            next_cards=None if state.finished else self.next_cards(state, rules),
            extra=self.result_extra(state, rules),
        )

    def house_rules(self, options: Mapping[str, object], players: int) -> Any:
        """Return the checked house rules of a match of `players` as the game's hooks below take them
        (its own typed rules, and what follows from them, such as a schedule); the options themselves
        by default."""
        return options

    @abstractmethod
    def read_deal(
        self, raw: object, number: int, players: tuple[str, ...], rules: Any, state: MatchState, log: ErrorLog
    ) -> Dealt | None:
        """Check raw deal `number` of a match standing at `state` under `rules` (`house_rules`); log its
        problems, return it or None."""

    @abstractmethod
    def score_deal(self, deal: Any, rules: Any, state: MatchState) -> DealOutcome:
        """Score a deal `read_deal` checked, in a match standing at `state` before it."""

    def match_over(self, state: MatchState, rules: Any, deal: Any) -> tuple[int, ...] | None:
        """Return the winning sides if the match is over after `deal` (counted into `state`), else None."""
        return None

    def refuse_after_end(self, number: int, state: MatchState, log: ErrorLog) -> None:
        """Log deal `number`, which comes after the deal that ended the match."""
        log.add(Code.MATCH_FINISHED, "deal", "tute_match_over", deal=number, last=len(state.deals))

    def next_cards(self, state: MatchState, rules: Any) -> int | None:
        """Return how many cards each player holds in the next deal, where the game sets it deal by deal."""
        return None

    def result_extra(self, state: MatchState, rules: Any) -> dict[str, Any]:
        """Return the result's keys of the game's own (as `result_keys` declares them)."""
        return dict(state.extra)

    def bidding_order(self, dealer: int, players: int) -> tuple[int, ...]:
        """Return the seats in the order they speak before play: the seat after the dealer first, the dealer last."""
        return tuple((dealer + step) % players for step in range(1, players + 1))

    def check_bids(
        self,
        players: tuple[str, ...],
        options: Mapping[str, object],
        deals: Sequence[object],
        bids: object,
        log: ErrorLog,
    ) -> object | None:
        """Check the part of the next deal entered before play, in a game whose `bids_first`; log problems,
        return it or None. A game that enters each deal at once refuses it."""
        log.add(Code.MALFORMED, "game", "bids_not_pocha")
        return None

    def browser_rules(self, options: Mapping[str, object], players: int) -> dict[str, Any]:
        """Return every number and rule a browser needs to check, score and follow this match's deals.

        `options` are checked (`check_options`). JSON-shaped, so that a page can carry it: the
        browser's code holds no rule of its own, only this data, the same the engine plays by.
        """
        return {
            "kind": self.form_kind,
            "seats": players,
            "suits": list(SUITS),
            "sides": [list(side) for side in self.sides(players)],
            "next_dealer": [next_seat(seat, players) for seat in range(players)],
            **self.browser_details(options, players),
        }

    @abstractmethod
    def browser_details(self, options: Mapping[str, object], players: int) -> dict[str, Any]:
        """Return this game's own part of `browser_rules`."""

    def check_options(self, raw: object, players: int | None, log: ErrorLog) -> dict[str, object] | None:
        """Check raw house rules for a match of `players` (None if unknown); return them complete."""
        return read_options(self.option_specs, raw, log)

    def default_for(self, name: str, values: Mapping[str, object]) -> object:
        """Return the default of house rule `name`, given the other checked `values`."""
        return next(spec.default for spec in self.option_specs if spec.name == name)

    def changed_options(self, values: Mapping[str, object]) -> dict[str, object]:
        """Return the checked house rules that differ from their defaults, JSON-shaped (lists, not tuples)."""
        changed: dict[str, object] = {}
        for spec in self.option_specs:
            value = values[spec.name]
            if value != self.default_for(spec.name, values):
                changed[spec.name] = list(value) if isinstance(value, tuple) else value
        return changed

    def default_options(self) -> dict[str, object]:
        """Return every house rule at its default (the defaults docs/rules.md names)."""
        log = ErrorLog()
        values = self.check_options({}, self.min_players, log)
        assert values is not None
        return values
