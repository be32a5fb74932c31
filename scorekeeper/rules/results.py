"""What scoring a match gives: each deal's result, the match's standing, and what ends a match."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

#: The keys every deal's result has; a game's own (`Game.deal_result_keys`) come after them.
DEAL_KEYS: Final = ("number", "scores", "winner", "juegos")
#: The keys every match's result has; a game's own (`Game.result_keys`) come after them.
MATCH_KEYS: Final = ("game", "sides", "deals", "totals", "juegos", "finished", "winners", "next_dealer", "next_cards")


@dataclass(frozen=True)
class DealResult:
    """The score of one deal: per side, the side that won it (None where a deal has no winner), the
    juegos it earned each side where the match counts them (None where it does not), and the keys
    of the game's own (`extra`, JSON-shaped, as the game's `deal_result_keys` declare them)."""

    number: int
    scores: tuple[int, ...]
    winner: int | None
    juegos: tuple[int, ...] | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON-shaped form of a deal's result (docs/api.md); `juegos` only where the match counts them."""
        shaped: dict[str, Any] = {"number": self.number, "scores": list(self.scores), "winner": self.winner}
        if self.juegos is not None:
            shaped["juegos"] = list(self.juegos)
        return {**shaped, **self.extra}

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
            {key: value for key, value in data.items() if key not in DEAL_KEYS},
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
    """The standing of a match after all its deals, as docs/api.md's result describes it, with the
    keys of the game's own (`extra`, as its `result_keys` declare them)."""

    game: str
    sides: tuple[tuple[int, ...], ...]
    deals: tuple[DealResult, ...]
    totals: tuple[int, ...]
    juegos: tuple[int, ...] | None
    finished: bool
    winners: tuple[int, ...]
    next_dealer: int | None
    next_cards: int | None
    extra: Mapping[str, Any] = field(default_factory=dict)

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
            **self.extra,
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
            extra={key: value for key, value in data.items() if key not in MATCH_KEYS},
        )
