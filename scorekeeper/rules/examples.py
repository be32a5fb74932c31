"""A game's worked example, as its folder gives it (`examples.py`): a whole match a table could play,
a deal that could stand first instead, and a deal refused after the first, with the field and the code
of its refusal. Every game passes the same contract tests with its own (tests/app/test_every_game.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Refusal:
    """A deal refused when it follows the example's first deal, at `field` with `code`."""

    deal: Mapping[str, Any]
    field: str
    code: str


@dataclass(frozen=True)
class Example:
    """A whole match of a game, played to its end: its players, the house rules it changes, its deals
    (as a match document holds them), another first deal, and a refused second deal."""

    players: Sequence[str]
    deals: Sequence[Mapping[str, Any]]
    other_first_deal: Mapping[str, Any]
    refused: Refusal
    options: Mapping[str, Any] = field(default_factory=dict)

    def document(self, game: str, deals: int | None = None) -> dict[str, Any]:
        """Return the match document of the example's first `deals` deals (all of them by default)."""
        return {
            "game": game,
            "players": list(self.players),
            "options": dict(self.options),
            "deals": [dict(deal) for deal in self.deals[:deals]],
        }
