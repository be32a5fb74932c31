"""Lowball's worked example: three players, a limit of 60; Eva goes out, then Ana, and Luis wins."""

from typing import Final

from scorekeeper.rules.examples import Example, Refusal

#: By game: a whole match, another first deal, and a second deal refused.
EXAMPLES: Final = {
    "lowball": Example(
        players=("Ana", "Luis", "Eva"),
        options={"limit": 60},
        deals=(
            {"dealer": 0, "points": [20, 5, 40]},
            {"dealer": 1, "points": [30, 10, 25]},
            {"dealer": 0, "points": [15, 20, None]},
        ),
        other_first_deal={"dealer": 0, "points": [10, 10, 10]},
        refused=Refusal({"dealer": 1, "points": [51, 0, 0]}, "points.0", "malformed"),
    ),
}
