"""The subastado's worked example (docs/rules.md): a match to 150 with a deal everyone passed."""

from typing import Final

from ...rules.examples import Example, Refusal

#: By game: a whole match, another first deal, and a second deal refused.
EXAMPLES: Final = {
    "subastado": Example(
        players=("Ana", "Luis", "Carmen"),
        options={"target": 150},
        deals=(
            {
                "dealer": 0,
                "declarer": 1,
                "bid": 80,
                "trump": "copas",
                "points": 62,
                "last_trick": True,
                "cantes": [{"seat": 1, "suit": "copas"}],
            },
            {"dealer": 1, "passed": True},
            {"dealer": 2, "declarer": 0, "bid": 70, "trump": "oros", "points": 75, "last_trick": False, "cantes": []},
            {"dealer": 0, "declarer": 1, "bid": 90, "trump": "bastos", "points": 95, "last_trick": True, "cantes": []},
        ),
        other_first_deal={
            "dealer": 0,
            "declarer": 2,
            "bid": 60,
            "trump": "oros",
            "points": 40,
            "last_trick": False,
            "cantes": [],
        },
        refused=Refusal(
            {"dealer": 1, "declarer": 0, "bid": 62, "trump": "oros", "points": 70, "last_trick": False, "cantes": []},
            "bid",
            "bid_step",
        ),
    ),
}
