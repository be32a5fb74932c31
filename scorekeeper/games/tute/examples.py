"""Tute's worked examples (docs/rules.md): a whole match of each of its games, and deals made at random."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Final

from ...rules import SUITS
from ...rules.examples import Example, Refusal

Deal = dict[str, Any]

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


def split_points(total: int, sides: int, rnd: random.Random) -> list[int]:
    """Card points for each side adding up to `total`, none of them 1 or 119 (ties likely)."""
    while True:
        points = [rnd.choice([0, 2, 30, 40, 60, 118, 120, rnd.randint(0, total)]) for _ in range(sides - 1)]
        points.append(total - sum(points))
        if all(0 <= p <= 120 and p not in (1, 119) for p in points):
            rnd.shuffle(points)
            return points


def valid_card_points(rules: Mapping[str, Any], number: int, rnd: random.Random) -> Deal:
    """A Tute deal that could have been played."""
    sides = len(rules["sides"])
    deal: Deal = {"dealer": rnd.randrange(rules["seats"]), "trump": rnd.choice(SUITS)}
    suits = rnd.sample(SUITS, rnd.randint(0, 3))
    if rules["tute_allowed"] and rnd.random() < 0.15:
        seat, kind = rnd.randrange(rules["seats"]), rnd.choice(["reyes", "caballos"])
        deal["tute"] = {"seat": seat, "kind": kind}
        deal["cantes"] = [{"seat": seat, "suit": suit} for suit in suits]
        if rnd.random() < 0.5:
            most = 120 - rules["held_by_tute"][kind]
            deal["points"] = split_points(rnd.choice([0, 2, 40, most]), sides, rnd)
        return deal
    deal.update(
        points=split_points(120, sides, rnd),
        last_trick=rnd.randrange(sides),
        cantes=[{"seat": rnd.randrange(rules["seats"]), "suit": suit} for suit in suits],
    )
    return deal


def any_card_points(rules: Mapping[str, Any], number: int, rnd: random.Random) -> Deal:
    """A Tute deal as a form could send it, right or wrong."""
    deal = valid_card_points(rules, number, rnd)

    def points() -> int | None:
        return rnd.choice([None, -1, 0, 1, 2, 60, 65, 104, 108, 110, 119, 120, 121, rnd.randint(0, 120)])

    if rnd.random() < 0.2:
        deal["trump"] = None
    if rnd.random() < 0.5:
        deal["points"] = rnd.choice(
            [None, [points() for _ in rules["sides"]], [None for _ in rules["sides"]], [points(), points()]]
        )
    if rnd.random() < 0.3:
        deal["tute"] = {"seat": rnd.randrange(rules["seats"]), "kind": rnd.choice(["reyes", "caballos", None])}
    if rnd.random() < 0.3:
        deal["last_trick"] = rnd.choice([None, 0, 1, 2, 3])
    if rnd.random() < 0.3:
        deal["cantes"] = [
            {"seat": rnd.randrange(rules["seats"]), "suit": rnd.choice(SUITS)} for _ in range(rnd.randint(0, 4))
        ]
    return {key: value for key, value in deal.items() if value is not None or rnd.random() < 0.5}


#: A deal of this folder's kind of deal form that could have been played, and one a form could send, right
#: or wrong, for the deal `number` of a match under the engine's browser rules `rules` (the parity tests').
VALID_DEAL: Final = valid_card_points
ANY_DEAL: Final = any_card_points
