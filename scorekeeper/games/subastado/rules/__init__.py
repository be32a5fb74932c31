"""Tute subastado's rules: the auction, the declarer's contract, and what it scores."""

from typing import Final

from .deal import MAX_BID, MAX_DEALS, Contract, SubastadoDeal, SubastadoOptions, declarer_total
from .match import SUBASTADO, SubastadoGame, contract_outcome, score_subastado_deal

#: The games of this folder.
GAMES: Final = (SUBASTADO,)

__all__ = [
    "GAMES",
    "MAX_BID",
    "MAX_DEALS",
    "SUBASTADO",
    "Contract",
    "SubastadoDeal",
    "SubastadoGame",
    "SubastadoOptions",
    "contract_outcome",
    "declarer_total",
    "score_subastado_deal",
]
