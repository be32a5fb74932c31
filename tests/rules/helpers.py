"""Small builders for match documents used across the rules tests."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.registry import score_match
from scorekeeper.rules import RuleViolation

TUTE2_PLAYERS = ["Ana", "Luis"]
TUTE3_PLAYERS = ["Ana", "Luis", "Carmen"]
TUTE4_PLAYERS = ["Ana", "Luis", "Carmen", "Pedro"]
POCHA4_PLAYERS = ["Ana", "Luis", "Carmen", "Pedro"]


def tute_deal(
    points: tuple[Any, ...] | None = (70, 50),
    last_trick: int | None = 0,
    *,
    dealer: int = 0,
    trump: str = "oros",
    cantes: list[tuple[int, str]] | None = None,
    tute: tuple[int, str] | None = None,
) -> dict[str, Any]:
    """Build a raw Tute deal."""
    deal: dict[str, Any] = {"dealer": dealer, "trump": trump, "last_trick": last_trick}
    if points is not None:
        deal["points"] = list(points)
    if cantes:
        deal["cantes"] = [{"seat": seat, "suit": suit} for seat, suit in cantes]
    if tute is not None:
        deal["tute"] = {"seat": tute[0], "kind": tute[1]}
    return deal


def match(
    game: str, deals: list[Any], options: dict[str, Any] | None = None, players: list[str] | None = None
) -> dict[str, Any]:
    """Build a match document with sensible players for the game."""
    if players is None:
        players = {"tute2": TUTE2_PLAYERS, "tute3": TUTE3_PLAYERS, "tute4": TUTE4_PLAYERS}.get(game, POCHA4_PLAYERS)
    doc: dict[str, Any] = {"game": game, "players": players, "deals": deals}
    if options is not None:
        doc["options"] = options
    return doc


def violations(document: Any) -> list[dict[str, object]]:
    """Score a document that must be rejected and return its errors."""
    with pytest.raises(RuleViolation) as caught:
        score_match(document)
    return caught.value.errors


def codes(document: Any) -> list[object]:
    """Return the codes of the errors a rejected document yields."""
    return [error["code"] for error in violations(document)]
