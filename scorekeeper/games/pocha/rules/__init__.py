"""Pocha's rules: the schedule of deals, bids before play, tricks after it, and their scores."""

from typing import Final

from .deal import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    POCHA_PRESETS,
    PochaDeal,
    PochaOptions,
    bidding_order,
    forbidden_bid,
    max_cards,
    pocha_schedule,
    score_bid,
)
from .match import POCHA, PochaGame

#: The games of this folder.
GAMES: Final = (POCHA,)

__all__ = [
    "GAMES",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "POCHA",
    "POCHA_PRESETS",
    "PochaDeal",
    "PochaGame",
    "PochaOptions",
    "bidding_order",
    "forbidden_bid",
    "max_cards",
    "pocha_schedule",
    "score_bid",
]
