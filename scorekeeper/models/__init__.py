"""The tables: facts (`facts`), what is derived from them (`derived`), and what they share (`base`)."""

from __future__ import annotations

from .base import (
    ABANDONED,
    DEFAULT_NIGHT_GAP_HOURS,
    FINISHED,
    GAME_NAME_LENGTH,
    MAX_ID,
    MAX_NOTE_LENGTH,
    NAME_KEY_LENGTH,
    NIGHT_GAP_HOURS,
    NOTE_ROOM,
    PLAYING,
    STATUSES,
    Model,
    UTCDateTime,
    name_key,
    utcnow,
)
from .derived import DealCounts, PlayerPair, PlayerRating, PlayerResult, PlayerSummary, YearReview
from .facts import ApiToken, Deal, EntryLink, IdempotencyKey, Match, Player, Season, Seat, SignIn, User

__all__ = [
    "ABANDONED",
    "DEFAULT_NIGHT_GAP_HOURS",
    "FINISHED",
    "GAME_NAME_LENGTH",
    "MAX_ID",
    "MAX_NOTE_LENGTH",
    "NAME_KEY_LENGTH",
    "NIGHT_GAP_HOURS",
    "NOTE_ROOM",
    "PLAYING",
    "STATUSES",
    "ApiToken",
    "Deal",
    "DealCounts",
    "EntryLink",
    "IdempotencyKey",
    "Match",
    "Model",
    "Player",
    "PlayerPair",
    "PlayerRating",
    "PlayerResult",
    "PlayerSummary",
    "Season",
    "Seat",
    "SignIn",
    "UTCDateTime",
    "User",
    "YearReview",
    "name_key",
    "utcnow",
]
