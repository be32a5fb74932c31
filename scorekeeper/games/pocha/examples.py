"""Pocha's worked example (docs/rules.md): three players, a schedule of three deals."""

from typing import Final

from ...rules.examples import Example, Refusal

#: By game: a whole match, another first deal, and a second deal refused.
EXAMPLES: Final = {
    "pocha": Example(
        players=("Ana", "Luis", "Carmen"),
        options={"schedule": [1, 2, 1]},
        deals=(
            {"dealer": 0, "cards": 1, "trump": "oros", "bids": [1, 0, 1], "tricks": [1, 0, 0]},
            {"dealer": 1, "cards": 2, "trump": None, "bids": [0, 1, 0], "tricks": [1, 1, 0]},
            {"dealer": 2, "cards": 1, "trump": "copas", "bids": [0, 0, 0], "tricks": [0, 1, 0]},
        ),
        other_first_deal={"dealer": 0, "cards": 1, "trump": "bastos", "bids": [0, 1, 1], "tricks": [0, 1, 0]},
        refused=Refusal(
            {"dealer": 1, "cards": 2, "trump": "oros", "bids": [1, 0, 0], "tricks": [1, 0, 0]}, "tricks", "tricks_total"
        ),
    ),
}
