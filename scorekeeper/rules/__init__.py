"""The rules engine's base: what every game's rules build on, pure Python with no I/O.

A game (`Game`) checks and scores a match's deals into a `MatchResult`, or logs every problem
as a `RuleError` with a stable code, raised together as `RuleViolation`. The Spanish deck, its
card points, the house rules' specs, and the codes and sentences of every refusal are here too.
Each game's own rules live in its folder under `scorekeeper/games/`, and the registry
(`scorekeeper.registry`) is the door for match documents.
"""

from .base import DealResult, Game, MatchGoal, MatchResult
from .common import (
    CARD_POINTS,
    DECK_POINTS,
    RANKS_BY_STRENGTH,
    SUITS,
    Card,
    Code,
    RuleError,
    RuleViolation,
    Suit,
    deck,
    next_seat,
    other_side_points,
    possible_card_points,
)
from .options import OptionSpec

__all__ = [
    "CARD_POINTS",
    "DECK_POINTS",
    "RANKS_BY_STRENGTH",
    "SUITS",
    "Card",
    "Code",
    "DealResult",
    "Game",
    "MatchGoal",
    "MatchResult",
    "OptionSpec",
    "RuleError",
    "RuleViolation",
    "Suit",
    "deck",
    "next_seat",
    "other_side_points",
    "possible_card_points",
]
