"""A match between two deals, as the one match loop (`Game.play`) keeps it, and what a game's scoring
of one deal hands that loop."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from .results import DealResult


class Dealt(Protocol):
    """A checked deal, whatever its game: the loop reads only who dealt it."""

    @property
    def dealer(self) -> int:
        """The seat that dealt."""


@dataclass(frozen=True)
class DealOutcome:
    """What one checked deal scores: per side its `scores`, the side that won it (None where it has
    no winner), the `juegos` it earned each side where the match counts them, the winners when the
    deal ends the match at once (a tute), the seats it puts out of the match or back in, and the
    deal's keys of the game's own."""

    scores: tuple[int, ...]
    winner: int | None
    juegos: tuple[int, ...] | None = None
    ends_match: tuple[int, ...] | None = None
    went_out: frozenset[int] = frozenset()
    came_back: frozenset[int] = frozenset()
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class MatchState:
    """What the loop knows after the deals so far: the sides' totals and juegos, who is out, whether
    the match is over and who won it, who dealt last, and the result's keys of the game's own."""

    players: int
    sides: tuple[tuple[int, ...], ...]
    deals: list[DealResult] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    juegos: list[int] = field(default_factory=list)
    out: set[int] = field(default_factory=set)
    finished: bool = False
    winners: tuple[int, ...] = ()
    last_dealer: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def begin(cls, players: int, sides: tuple[tuple[int, ...], ...]) -> MatchState:
        """Return the state of a match of `players` in `sides` before its first deal."""
        return cls(players, sides, totals=[0] * len(sides), juegos=[0] * len(sides))

    def add(self, number: int, dealer: int, outcome: DealOutcome) -> DealResult:
        """Count deal `number`, dealt by `dealer`, into the standing; return its result."""
        result = DealResult(number, outcome.scores, outcome.winner, outcome.juegos, outcome.extra)
        self.deals.append(result)
        self.totals = [total + score for total, score in zip(self.totals, outcome.scores)]
        if outcome.juegos is not None:
            self.juegos = [count + earned for count, earned in zip(self.juegos, outcome.juegos)]
        if outcome.went_out or outcome.came_back:
            self.out = (self.out | outcome.went_out) - outcome.came_back
        self.last_dealer = dealer
        return result

    def finish(self, winners: tuple[int, ...]) -> None:
        """End the match, won by the sides `winners`."""
        self.finished, self.winners = True, winners

    def seats_in(self) -> tuple[int, ...]:
        """Return the seats still in the match, in order."""
        return tuple(seat for seat in range(self.players) if seat not in self.out)

    def next_dealer(self) -> int | None:
        """Return who deals next: the next seat still in after the last dealer; None before the first deal,
        once the match is over, or when nobody is left in."""
        if self.finished or self.last_dealer is None:
            return None
        return next(
            (
                seat
                for step in range(1, self.players + 1)
                if (seat := (self.last_dealer + step) % self.players) not in self.out
            ),
            None,
        )
