"""The rules engine of Scorekeeper: Tute, Tute subastado and Pocha, checked and scored.

Pure Python with no I/O. The public door is `score_match`, which takes a match document
(see docs/api.md) and returns the JSON-shaped result, or raises `RuleViolation` whose
`errors` list every problem with a stable code. The typed values and helpers behind it
are exported for the rest of the package::

    >>> from scorekeeper.rules import score_match
    >>> score_match({"game": "tute2", "players": ["Ana", "Luis"], "deals": [
    ...     {"dealer": 0, "trump": "copas", "points": [78, 42], "last_trick": 0}]})["totals"]
    [88, 42]
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
from .match import GAMES, check_bids, check_match, check_options, get_game, score_match
from .options import OptionSpec
from .pocha import (
    POCHA_PRESETS,
    PochaDeal,
    PochaOptions,
    bidding_order,
    forbidden_bid,
    max_cards,
    pocha_schedule,
    score_bid,
)
from .subastado import contract_outcome, score_subastado_deal
from .subastado_deal import MAX_BID, Contract, SubastadoDeal, SubastadoOptions, declarer_total
from .tute import juegos_earned, score_tute_deal
from .tute_deal import Cante, TuteDeal, TuteDeclaration, TuteOptions, cante_value, first_dealer_for_leader

__all__ = [
    "CARD_POINTS",
    "DECK_POINTS",
    "GAMES",
    "MAX_BID",
    "POCHA_PRESETS",
    "RANKS_BY_STRENGTH",
    "SUITS",
    "Cante",
    "Card",
    "Code",
    "Contract",
    "DealResult",
    "Game",
    "MatchGoal",
    "MatchResult",
    "OptionSpec",
    "PochaDeal",
    "PochaOptions",
    "RuleError",
    "RuleViolation",
    "SubastadoDeal",
    "SubastadoOptions",
    "Suit",
    "TuteDeal",
    "TuteDeclaration",
    "TuteOptions",
    "bidding_order",
    "cante_value",
    "check_bids",
    "check_match",
    "check_options",
    "contract_outcome",
    "deck",
    "declarer_total",
    "first_dealer_for_leader",
    "forbidden_bid",
    "get_game",
    "juegos_earned",
    "max_cards",
    "next_seat",
    "other_side_points",
    "pocha_schedule",
    "possible_card_points",
    "score_bid",
    "score_match",
    "score_subastado_deal",
    "score_tute_deal",
]
