"""What every game shares: the result of scoring a match, and the interface a game implements."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .common import SUITS, Code, ErrorLog, next_seat
from .options import OptionSpec, read_options


@dataclass(frozen=True)
class DealResult:
    """The score of one deal: per side, the side that won it (None in Pocha), and the juegos it earned
    each side where the match counts them (None where it does not)."""

    number: int
    scores: tuple[int, ...]
    winner: int | None
    juegos: tuple[int, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON-shaped form of a deal's result (docs/api.md); `juegos` only where the match counts them."""
        shaped: dict[str, Any] = {"number": self.number, "scores": list(self.scores), "winner": self.winner}
        if self.juegos is not None:
            shaped["juegos"] = list(self.juegos)
        return shaped

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DealResult:
        """Rebuild a deal's result from what `to_dict` gave (a result cached before deals kept their
        juegos has none: `MatchResult.juegos_per_deal` says so)."""
        juegos = data.get("juegos")
        return cls(
            int(data["number"]),
            tuple(int(s) for s in data["scores"]),
            None if data["winner"] is None else int(data["winner"]),
            None if juegos is None else tuple(int(count) for count in juegos),
        )


@dataclass(frozen=True)
class MatchGoal:
    """What ends a match under its house rules: a `target` of juegos or of points (`unit`, what the
    standings count), or a set number of `deals`; None where the rules set neither."""

    unit: str
    target: int | None = None
    deals: int | None = None


@dataclass(frozen=True)
class MatchResult:
    """The standing of a match after all its deals, as docs/api.md's result describes it."""

    game: str
    sides: tuple[tuple[int, ...], ...]
    deals: tuple[DealResult, ...]
    totals: tuple[int, ...]
    juegos: tuple[int, ...] | None
    finished: bool
    winners: tuple[int, ...]
    next_dealer: int | None
    next_cards: int | None

    def running_totals(self) -> list[tuple[int, ...]]:
        """Return each side's total after each deal, deal by deal."""
        running: list[tuple[int, ...]] = []
        current = tuple(0 for _ in self.sides)
        for deal in self.deals:
            current = tuple(a + b for a, b in zip(current, deal.scores))
            running.append(current)
        return running

    @property
    def juegos_per_deal(self) -> bool:
        """Tell whether each deal says the juegos it earned (every deal of a match that counts them,
        unless the result was kept before deals said it)."""
        return self.juegos is not None and all(deal.juegos is not None for deal in self.deals)

    def running_juegos(self) -> list[tuple[int, ...]]:
        """Return each side's juegos after each deal, deal by deal (empty where the match counts none)."""
        if not self.juegos_per_deal:
            return []
        running: list[tuple[int, ...]] = []
        current = tuple(0 for _ in self.sides)
        for deal in self.deals:
            assert deal.juegos is not None  # juegos_per_deal
            current = tuple(a + b for a, b in zip(current, deal.juegos))
            running.append(current)
        return running

    def deficits(self) -> tuple[int, ...]:
        """Return, for each side, the most points it trailed the side ahead by after any deal (0 if never behind)."""
        worst = [0] * len(self.sides)
        for totals in self.running_totals():
            ahead = max(totals)
            for side, total in enumerate(totals):
                worst[side] = max(worst[side], ahead - total)
        return tuple(worst)

    def comeback(self, side: int) -> int:
        """Return the most points `side` trailed by after any deal (`deficits`) if it won the match on
        its running totals: counted in points (not juegos) and ending with the best total; else 0.

        A match to juegos is won on juegos, and a tute can end one behind on points: its card points
        say nothing of how far the winner came back.
        """
        won_on_totals = (
            self.finished and side in self.winners and self.juegos is None and self.totals[side] == max(self.totals)
        )
        return self.deficits()[side] if won_on_totals else 0

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON-shaped result that `score_match` hands out."""
        return {
            "game": self.game,
            "sides": [list(side) for side in self.sides],
            "deals": [deal.to_dict() for deal in self.deals],
            "totals": list(self.totals),
            "juegos": None if self.juegos is None else list(self.juegos),
            "finished": self.finished,
            "winners": list(self.winners),
            "next_dealer": self.next_dealer,
            "next_cards": self.next_cards,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MatchResult:
        """Rebuild the result from what `to_dict` gave (a result cached beside a match's deals),
        so that showing a match does not score it again."""
        return cls(
            game=str(data["game"]),
            sides=tuple(tuple(int(seat) for seat in side) for side in data["sides"]),
            deals=tuple(DealResult.from_dict(deal) for deal in data["deals"]),
            totals=tuple(int(total) for total in data["totals"]),
            juegos=None if data["juegos"] is None else tuple(int(count) for count in data["juegos"]),
            finished=bool(data["finished"]),
            winners=tuple(int(side) for side in data["winners"]),
            next_dealer=None if data["next_dealer"] is None else int(data["next_dealer"]),
            next_cards=None if data["next_cards"] is None else int(data["next_cards"]),
        )


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
    #: The words for values the messages' parameters may hold (a tute's kind), as the catalogue marks them.
    param_words: Mapping[str, str] = {}

    @property
    @abstractmethod
    def option_specs(self) -> tuple[OptionSpec, ...]:
        """Return the house rules of this game, with defaults and one-line descriptions."""

    @abstractmethod
    def sides(self, players: int) -> tuple[tuple[int, ...], ...]:
        """Return the seats of each side for a match of `players` players."""

    @abstractmethod
    def seat_tallies(self, deal: Mapping[str, Any], seat: int, side: int) -> dict[str, int]:
        """Return what a checked deal counts for the player at `seat` (of `side`): the figures kept per
        player (cantes, tutes, last tricks, bids made...), each a count of 0 or more."""

    @abstractmethod
    def ranks(self, result: MatchResult) -> list[int]:
        """Return each side's place in a finished match (1 first; sides that tie share a place)."""

    def ranked_by_points(self, options: Mapping[str, object]) -> bool:
        """Tell whether a match under checked `options` is won on points rather than on juegos."""
        return True

    @abstractmethod
    def goal(self, options: Mapping[str, object], players: int) -> MatchGoal:
        """Return what ends a match of `players` under checked `options`: its target or its number of deals."""

    @abstractmethod
    def play(
        self, players: tuple[str, ...], options: Mapping[str, object], deals: Sequence[object], log: ErrorLog
    ) -> MatchResult | None:
        """Check and score `deals` under checked `options`; log every problem, return None if any."""

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
