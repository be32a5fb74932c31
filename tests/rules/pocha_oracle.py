"""Pocha scored a second time, straight from docs/rules.md, to check the engine against.

Deliberately plain and imports nothing from the engine: a wrong schedule, score or
winner in `scorekeeper.rules` cannot also be wrong here by sharing its code.
"""

from __future__ import annotations

from typing import Any

DEFAULTS: dict[str, Any] = {
    "deck": 40,
    "remove_twos": True,
    "schedule": "classic",
    "hook": True,
    "exact_base": 10,
    "per_trick": 5,
    "miss_per_trick": 5,
    "oros_double": False,
}


def most_cards(players: int, deck: int = 40, remove_twos: bool = True) -> int:
    """M of docs/rules.md: the cards in the deck shared out, after the 2s come out for 3 or 6 players.

    The 2s come out "so that every card can be dealt": 40 cards do not share out among 3 or 6
    players and 36 do, while 48 cards already share out among them, so a 48-card deck keeps its 2s.
    """
    cards = deck
    if remove_twos and players in (3, 6) and deck % players != 0:
        cards -= 4
    return cards // players


def schedule(players: int, options: dict[str, Any]) -> list[int]:
    """The cards per player of every deal, as docs/rules.md's option `schedule` spells them out."""
    rules = {**DEFAULTS, **options}
    chosen = rules["schedule"]
    if isinstance(chosen, list):
        return list(chosen)
    most = most_cards(players, rules["deck"], rules["remove_twos"])
    climb = list(range(2, most))  # 2, 3 … M−1
    if chosen == "ladder":
        return [1] + climb + [most] * players + climb[::-1] + [1]
    assert chosen == "classic"
    return [1] * players + climb + [most] * players + climb[::-1] + [1] * players


def score(bid: int, tricks: int, trump: str | None, options: dict[str, Any]) -> int:
    """One player's score for a deal: exact earns base + per trick, a miss loses per trick of difference."""
    rules = {**DEFAULTS, **options}
    if bid == tricks:
        points = rules["exact_base"] + rules["per_trick"] * tricks
    else:
        points = -rules["miss_per_trick"] * abs(bid - tricks)
    if rules["oros_double"] and trump == "oros":
        points = 2 * points
    return points


def bids_allowed(bids: list[int], cards: int, hook: bool) -> bool:
    """Whether the bids can stand: each 0..cards, and with the hook on they may not add up to the cards."""
    if any(bid < 0 or bid > cards for bid in bids):
        return False
    return not (hook and sum(bids) == cards)


def result(document: dict[str, Any]) -> dict[str, Any]:
    """The result `score_match` should give for a valid Pocha match document."""
    players = len(document["players"])
    options = document.get("options") or {}
    planned = schedule(players, options)
    deals = []
    totals = [0] * players
    for number, deal in enumerate(document["deals"], start=1):
        scores = [
            score(deal["bids"][seat], deal["tricks"][seat], deal.get("trump"), options) for seat in range(players)
        ]
        deals.append({"number": number, "scores": scores, "winner": None})
        totals = [totals[seat] + scores[seat] for seat in range(players)]
    finished = len(deals) == len(planned)
    winners = [seat for seat in range(players) if totals[seat] == max(totals)] if finished else []
    if finished or not deals:
        next_dealer = None
    else:
        next_dealer = (document["deals"][-1]["dealer"] + 1) % players
    return {
        "game": "pocha",
        "sides": [[seat] for seat in range(players)],
        "deals": deals,
        "totals": totals,
        "juegos": None,
        "finished": finished,
        "winners": winners,
        "next_dealer": next_dealer,
        "next_cards": None if finished else planned[len(deals)],
    }
