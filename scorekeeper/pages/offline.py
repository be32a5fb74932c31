"""What a deal form carries so that a phone without a connection can go on entering deals:
the table, the house rules, the standings so far and, for Pocha, the cards of every deal.

The browser uses it to prepare each following deal (dealer, bidding order, cards in hand)
and to show the totals the kept deals give, as provisional: the server scores them again,
with the rules engine, when they are sent.
"""

from __future__ import annotations

from typing import Any

from .boards import Scoreboard
from ..rules import PochaOptions, pocha_schedule


def offline_plan(board: Scoreboard) -> dict[str, Any]:
    """Return the plan of the match's next deals for a phone that may lose its connection."""
    match = board.match
    plan: dict[str, Any] = {
        "game": match.game, "names": board.seat_names, "sides": [list(side) for side in board.sides],
        "side_names": board.side_names, "totals": list(board.totals),
        "juegos": None if board.juegos is None else list(board.juegos),
        "options": {key: value for key, value in board.options.items() if key != "schedule"},
        "next_number": board.next_number, "bids_first": board.game.bids_first,
    }
    if board.game.bids_first:
        plan["schedule"] = list(pocha_schedule(len(board.seat_names), PochaOptions.from_values(board.options)))
    return plan
