"""Tute's rules: for two, for three, and for four in pairs; card points, the last trick, cantes, a tute."""

from typing import Final

from .deal import (
    CANTE_ELSEWHERE,
    CANTE_IN_TRUMP,
    HELD_BY_TUTE,
    MAX_JUEGOS_TARGET,
    TUTE_KINDS,
    Cante,
    TuteDeal,
    TuteDeclaration,
    TuteOptions,
    cante_value,
    first_dealer_for_leader,
)
from .match import TUTE2, TUTE3, TUTE4, TuteGame, juegos_earned, score_tute_deal

#: The games of this folder, in the order the app offers them.
GAMES: Final = (TUTE2, TUTE3, TUTE4)

__all__ = [
    "CANTE_ELSEWHERE",
    "CANTE_IN_TRUMP",
    "GAMES",
    "HELD_BY_TUTE",
    "MAX_JUEGOS_TARGET",
    "TUTE2",
    "TUTE3",
    "TUTE4",
    "TUTE_KINDS",
    "Cante",
    "TuteDeal",
    "TuteDeclaration",
    "TuteGame",
    "TuteOptions",
    "cante_value",
    "first_dealer_for_leader",
    "juegos_earned",
    "score_tute_deal",
]
