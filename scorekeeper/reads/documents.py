"""A match as the outside world sees it: its match document, and the API's view of it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..models import Match
from ..registry import check_match
from .matches import ShownMatch


def match_document(match: Match | ShownMatch, deals: Sequence[Mapping[str, Any]] | None = None) -> dict[str, Any]:
    """Return the match as a match document (docs/api.md), optionally with other deals."""
    return {
        "game": match.game,
        "players": match.player_names,
        "options": dict(match.options),
        "deals": [dict(d.data) for d in match.deals] if deals is None else [dict(d) for d in deals],
    }


def api_view(match: Match) -> dict[str, Any]:
    """Return a match as the API shows it: id, status, its note, its document and the engine's result.

    The note sits beside the document, not in it: the document is what the rules engine checks.
    """
    result = match.result if match.result is not None else check_match(match_document(match)).to_dict()
    return {
        "id": match.id,
        "status": match.status,
        "note": match.note,
        "match": match_document(match),
        "result": result,
    }


def replayed_view(first_answer: Mapping[str, Any], match: Match) -> dict[str, Any]:
    """Return the API's first answer to a request sent again, in the shape the API answers in today.

    The answer was kept when the request was first made, perhaps by an earlier version that
    answered with fewer fields (before 0.2, no `note`): those come from the match as it is now,
    the rest as it was first answered.
    """
    today = api_view(match)
    return {name: first_answer.get(name, value) for name, value in today.items()}
