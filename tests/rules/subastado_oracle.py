"""Tute subastado scored a second time, straight from docs/rules.md, to check the engine against.

Deliberately plain and imports nothing from the engine: a wrong contract, score, match end or
tie in `scorekeeper.rules` cannot also be wrong here by sharing its code.
"""

from __future__ import annotations

from typing import Any

DEFAULTS: dict[str, Any] = {
    "players": 3,
    "min_bid": 60,
    "bid_step": 5,
    "last_trick_bonus": 10,
    "made": "bid",
    "failed": "lose",
    "target": 500,
    "deals": None,
    "tute": "off",
}


def rules_of(options: dict[str, Any]) -> dict[str, Any]:
    """The house rules with docs/rules.md's defaults filled in."""
    return {**DEFAULTS, **options}


def deal_scores(deal: dict[str, Any], rules: dict[str, Any], players: int) -> tuple[list[int], int | None]:
    """Each player's score in the deal, and its winner (the declarer, when the contract is made)."""
    scores = [0] * players
    if deal.get("passed") or deal.get("tute"):
        return scores, None
    declarer, bid = deal["declarer"], deal["bid"]
    total = deal["points"]
    if deal["last_trick"]:
        total += rules["last_trick_bonus"]
    for cante in deal.get("cantes") or []:
        total += 40 if cante["suit"] == deal["trump"] else 20
    if total >= bid:
        scores[declarer] = total if rules["made"] == "total" else bid
        return scores, declarer
    if rules["failed"] == "lose":
        scores[declarer] = -bid
    else:
        for seat in range(players):
            if seat != declarer:
                scores[seat] = bid
    return scores, None


def result(document: dict[str, Any]) -> dict[str, Any]:
    """Score a valid subastado match document as docs/rules.md says."""
    rules = rules_of(document.get("options") or {})
    players = len(document["players"])
    totals = [0] * players
    deals: list[dict[str, Any]] = []
    finished, winners, next_dealer = False, [], None
    for number, deal in enumerate(document["deals"], start=1):
        scores, winner = deal_scores(deal, rules, players)
        totals = [a + b for a, b in zip(totals, scores)]
        deals.append({"number": number, "scores": scores, "winner": winner})
        next_dealer = (deal["dealer"] + 1) % players
        if deal.get("tute"):
            finished, winners = True, [deal["tute"]["seat"]]
            break
        if rules["deals"] is not None:
            over = number >= rules["deals"]
        else:
            over = max(totals) >= rules["target"]
        best = max(totals)
        if over and totals.count(best) == 1:
            finished, winners = True, [totals.index(best)]
            break
    return {
        "game": "subastado",
        "sides": [[seat] for seat in range(players)],
        "deals": deals,
        "totals": totals,
        "juegos": None,
        "finished": finished,
        "winners": winners,
        "next_dealer": None if finished else next_dealer,
        "next_cards": None,
    }
