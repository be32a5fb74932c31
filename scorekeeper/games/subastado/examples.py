"""The subastado's worked example (docs/rules.md): a match to 150 with a deal everyone passed; and
deals made at random."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Final

from ...rules import SUITS
from ...rules.examples import Example, Refusal

Deal = dict[str, Any]

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


def valid_auction(rules: Mapping[str, Any], number: int, rnd: random.Random) -> Deal:
    """A Tute subastado deal that could have been played: a contract, a pass, or (where played) a tute."""
    deal: Deal = {"dealer": rnd.randrange(rules["seats"])}
    shape = rnd.random()
    if shape < 0.1:
        return {**deal, "passed": True}
    if rules["tute_allowed"] and shape < 0.15:
        return {**deal, "tute": {"seat": rnd.randrange(rules["seats"]), "kind": rnd.choice(["reyes", "caballos"])}}
    declarer = rnd.randrange(rules["seats"])
    deal.update(
        declarer=declarer,
        bid=rnd.choice(rules["bids"]),
        trump=rnd.choice(SUITS),
        points=rnd.choice([0, 2, 40, 60, 62, 80, 100, 118, 120, rnd.choice(range(121))]),
        last_trick=rnd.random() < 0.5,
        cantes=[{"seat": declarer, "suit": suit} for suit in rnd.sample(SUITS, rnd.randint(0, 4))],
    )
    if deal["points"] in (1, 119):
        deal["points"] = 0
    return deal


def any_auction(rules: Mapping[str, Any], number: int, rnd: random.Random) -> Deal:
    """A Tute subastado deal as a form (or a careless client) could send it, right or wrong."""
    deal = valid_auction(rules, number, rnd)
    if rnd.random() < 0.3:
        deal["declarer"] = rnd.choice([None, -1, 0, 1, rules["seats"]])
    if rnd.random() < 0.3:
        deal["bid"] = rnd.choice([None, 0, 55, 60, 62, 65, 229, 230, 235, rnd.randint(-5, 240)])
    if rnd.random() < 0.2:
        deal["trump"] = None
    if rnd.random() < 0.3:
        deal["points"] = rnd.choice([None, -1, 0, 1, 60, 119, 120, 121])
    if rnd.random() < 0.2:
        deal["last_trick"] = rnd.choice([None, True, False])
    if rnd.random() < 0.3:
        deal["cantes"] = [
            {"seat": rnd.randrange(rules["seats"] + 1), "suit": rnd.choice(SUITS)} for _ in range(rnd.randint(0, 3))
        ]
    if rnd.random() < 0.1:
        deal["passed"] = rnd.choice([True, False, None])
    if rnd.random() < 0.1:
        deal["tute"] = {"seat": rnd.randrange(rules["seats"]), "kind": rnd.choice(["reyes", "caballos", None])}
    return {key: value for key, value in deal.items() if value is not None or rnd.random() < 0.5}


#: A deal of this folder's kind of deal form that could have been played, and one a form could send, right
#: or wrong, for the deal `number` of a match under the engine's browser rules `rules` (the parity tests').
VALID_DEAL: Final = valid_auction
ANY_DEAL: Final = any_auction
