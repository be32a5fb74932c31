"""Tute for three scored a second time, straight from docs/rules.md, to check the engine against.

Deliberately plain and imports nothing from the engine: a wrong deal score, tie, juego or
match end in `scorekeeper.rules` cannot also be wrong here by sharing its code.
"""

from __future__ import annotations

from typing import Any

DEFAULTS: dict[str, Any] = {
    "deck": 40,
    "last_trick_bonus": 10,
    "mode": "juegos",
    "target": None,
    "double_over_100": False,
    "tute": "deal",
}
PLAYERS = 3


def rules_of(options: dict[str, Any]) -> dict[str, Any]:
    """The house rules with docs/rules.md's defaults filled in (the target follows the mode)."""
    rules = {**DEFAULTS, **options}
    if rules["target"] is None:
        rules["target"] = 3 if rules["mode"] == "juegos" else 101
    return rules


def first_after(dealer: int, among: list[int]) -> int:
    """Of the players `among`, the one who plays first in a deal dealt by `dealer` (el mano first)."""
    seat = dealer
    while True:
        seat = (seat + 1) % PLAYERS
        if seat in among:
            return seat


def deal_scores(deal: dict[str, Any], rules: dict[str, Any]) -> tuple[list[int], int]:
    """Each player's deal score and the deal's winner."""
    scores = list(deal.get("points") or [0, 0, 0])
    last = deal.get("last_trick")
    if last is not None:
        scores[last] += rules["last_trick_bonus"]
    for cante in deal.get("cantes") or []:
        scores[cante["seat"]] += 40 if cante["suit"] == deal["trump"] else 20
    if deal.get("tute"):
        return scores, deal["tute"]["seat"]
    top = [seat for seat in range(PLAYERS) if scores[seat] == max(scores)]
    if len(top) == 1:
        return scores, top[0]
    if last in top:
        return scores, last
    return scores, first_after(deal["dealer"], top)


def result(document: dict[str, Any]) -> dict[str, Any]:
    """Score a valid tute3 match document as docs/rules.md says."""
    rules = rules_of(document.get("options") or {})
    totals, juegos = [0, 0, 0], [0, 0, 0]
    deals: list[dict[str, Any]] = []
    finished, winners = False, []
    for number, deal in enumerate(document["deals"], start=1):
        assert not finished, "a deal after the end"
        scores, winner = deal_scores(deal, rules)
        deals.append({"number": number, "scores": scores, "winner": winner})
        totals = [t + s for t, s in zip(totals, scores)]
        declared = bool(deal.get("tute"))
        if rules["mode"] == "juegos":  # what the deal earned each player, written down as it is played
            deals[-1]["juegos"] = [0, 0, 0]
        if declared and (rules["tute"] == "match" or rules["mode"] == "points"):
            finished, winners = True, [winner]
        elif rules["mode"] == "juegos":
            big = 2 if rules["double_over_100"] else 1
            earned = big if declared or scores[winner] >= 101 else 1
            juegos[winner] += earned
            deals[-1]["juegos"][winner] = earned
            if juegos[winner] >= rules["target"]:
                finished, winners = True, [winner]
        elif max(totals) >= rules["target"]:
            top = [seat for seat in range(PLAYERS) if totals[seat] == max(totals)]
            if len(top) == 1:
                best = top[0]
            elif winner in top:
                best = winner
            else:
                best = first_after(deal["dealer"], top)
            finished, winners = True, [best]
    last_dealer = document["deals"][-1]["dealer"] if document["deals"] else None
    return {
        "game": "tute3",
        "sides": [[0], [1], [2]],
        "deals": deals,
        "totals": totals,
        "juegos": juegos if rules["mode"] == "juegos" else None,
        "finished": finished,
        "winners": winners,
        "next_dealer": None if finished or last_dealer is None else (last_dealer + 1) % PLAYERS,
        "next_cards": None,
    }
