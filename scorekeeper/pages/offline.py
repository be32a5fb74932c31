"""What a deal form carries so that a phone without a connection can go on entering deals:
the table, the house rules, the standings so far and the rules of the game as data.

The browser uses it to check each deal as it is entered, to prepare each following deal
(dealer, bidding order, cards in hand) and to show the totals the kept deals give, as
provisional: the server scores them again, with the rules engine, when they are sent. Every
number and rule it uses is in `rules`, rendered by the engine (`Game.browser_rules`).
"""

from __future__ import annotations

from typing import Any

from .boards import Scoreboard


def offline_plan(board: Scoreboard) -> dict[str, Any]:
    """Return the plan of the match's next deals for a phone that may lose its connection."""
    return {
        "names": board.seat_names,
        "sides": [list(side) for side in board.sides],
        "side_names": board.side_names,
        "totals": list(board.totals),
        "juegos": None if board.juegos is None else list(board.juegos),
        "options": {key: value for key, value in board.options.items() if key != "schedule"},
        "next_number": board.next_number,
        "bids_first": board.game.bids_first,
        "rules": board.game.browser_rules(board.options, len(board.seat_names)),
    }
