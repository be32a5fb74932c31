"""Tute's worked examples (docs/rules.md): a whole match of each of its games."""

from typing import Final

from ...rules.examples import Example, Refusal

#: By game: a whole match, another first deal, and a second deal refused.
EXAMPLES: Final = {
    "tute2": Example(
        players=("Ana", "Luis"),
        options={"target": 2},
        deals=(
            {
                "dealer": 0,
                "trump": "oros",
                "points": [70, 50],
                "last_trick": 0,
                "cantes": [{"seat": 0, "suit": "oros"}],
            },
            {"dealer": 1, "trump": "copas", "points": [30, 90], "last_trick": 1, "cantes": []},
            {"dealer": 0, "trump": "bastos", "points": [100, 20], "last_trick": 0, "cantes": []},
        ),
        other_first_deal={"dealer": 0, "trump": "espadas", "points": [40, 80], "last_trick": 1, "cantes": []},
        refused=Refusal(
            {"dealer": 1, "trump": "oros", "points": [70, 40], "last_trick": 0, "cantes": []}, "points", "points_total"
        ),
    ),
    # docs/rules.md's Tute for three: Carmen wins a tie of 60 on the order of play, then the match.
    "tute3": Example(
        players=("Ana", "Luis", "Carmen"),
        deals=(
            {
                "dealer": 0,
                "trump": "oros",
                "points": [50, 40, 30],
                "last_trick": 2,
                "cantes": [{"seat": 1, "suit": "oros"}],
            },
            {"dealer": 1, "trump": "oros", "points": [60, 0, 60], "last_trick": 1, "cantes": []},
            {"dealer": 2, "trump": "oros", "points": [20, 30, 70], "last_trick": 2, "cantes": []},
            {"dealer": 0, "trump": "oros", "points": [0, 40, 80], "last_trick": 2, "cantes": []},
        ),
        other_first_deal={"dealer": 0, "trump": "copas", "points": [20, 100, 0], "last_trick": 1, "cantes": []},
        refused=Refusal(
            {"dealer": 1, "trump": "oros", "points": [50, 40, 40], "last_trick": 0, "cantes": []},
            "points",
            "points_total",
        ),
    ),
    "tute4": Example(
        players=("Ana", "Luis", "Carmen", "Pedro"),
        options={"mode": "points", "target": 200},
        deals=(
            {"dealer": 0, "trump": "espadas", "points": [80, 40], "last_trick": 0, "cantes": []},
            {
                "dealer": 1,
                "trump": "bastos",
                "points": [65, 55],
                "last_trick": 1,
                "cantes": [{"seat": 3, "suit": "oros"}],
            },
            {"dealer": 2, "trump": "copas", "points": [90, 30], "last_trick": 0, "cantes": []},
        ),
        other_first_deal={"dealer": 0, "trump": "oros", "points": [61, 59], "last_trick": 1, "cantes": []},
        refused=Refusal(
            {"dealer": 1, "trump": "oros", "points": [1, 119], "last_trick": 0, "cantes": []},
            "points.0",
            "points_impossible",
        ),
    ),
}
