"""Pocha's worked example (docs/rules.md): three players, a schedule of three deals; and deals made at random."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Final

from ...rules import SUITS
from ...rules.examples import Example, Refusal

Deal = dict[str, Any]

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


def valid_bids(rules: Mapping[str, Any], number: int, rnd: random.Random) -> Deal:
    """A Pocha deal that could have been played: the scheduled cards, tricks that add up, a bid the hook allows."""
    seats, cards = rules["seats"], rules["schedule"][number - 1]
    dealer = rnd.randrange(seats)
    tricks = [0] * seats
    for _ in range(cards):
        tricks[rnd.randrange(seats)] += 1
    bids = [rnd.choice([rnd.randint(0, cards), tricks[seat]]) for seat in range(seats)]
    if rules["hook"] and sum(bids) == cards:
        bids[dealer] += 1 if bids[dealer] < cards else -1
    return {"dealer": dealer, "cards": cards, "trump": rnd.choice([None, *SUITS]), "bids": bids, "tricks": tricks}


def any_bids(rules: Mapping[str, Any], number: int, rnd: random.Random) -> Deal:
    """A Pocha deal as a form could send it, right or wrong."""
    deal = valid_bids(rules, number, rnd)
    cards: int = deal["cards"]
    if rnd.random() < 0.2:
        most: int = rules["most_cards"]
        deal["cards"] = cards = rnd.choice([0, 1, cards + 1, most, most + 1])

    def count() -> int | None:
        return rnd.choice([None, -1, cards + 1, rnd.randint(0, max(cards, 0))])

    for field in ("bids", "tricks"):
        for seat in range(rules["seats"]):
            if rnd.random() < 0.15:
                deal[field][seat] = count()
    if rnd.random() < 0.3 and rules["hook"] and isinstance(cards, int):  # the dealer's forbidden bid
        others = sum(bid for seat, bid in enumerate(deal["bids"]) if seat != deal["dealer"] and isinstance(bid, int))
        deal["bids"][deal["dealer"]] = cards - others
    return deal


#: A deal of this folder's kind of deal form that could have been played, and one a form could send, right
#: or wrong, for the deal `number` of a match under the engine's browser rules `rules` (the parity tests').
VALID_DEAL: Final = valid_bids
ANY_DEAL: Final = any_bids
