"""The only code that changes data, by concern. Each public function is one transaction.

- `accounts`: accounts, each browser's sign-in, passwords, the page language, API tokens;
- `players`: players, and finding or adding those who sit down to a match;
- `matches`: a match's life, every change to it checked and scored whole by the rules engine first;
- `seasons`: the seasons an account names;
- `years`: the years at the table as kept, worked out again when a change made them stale;
- `season_places`: a player's places in the latest seasons, those over kept as the years are;
- `kept`: how figures that read a year whole are kept until a change makes them stale;
- `entry_links`: the secret links through which the other phones at the table enter deals;
- `idempotency`: requests sent again with the key of a change already made;
- `bulk`: rebuilding everything from the facts;
- `imports`: importing accounts from an export file;
- `base`: the transaction every public function runs in.

`own_match_to_change` is not a transaction of its own: it begins the one of the change that follows in
the same request, by reading the owner's match under the account's lock (`figures.locks`).

Each change keeps the derived tables up to date inside its own transaction, through `figures.upkeep`.
"""

from __future__ import annotations

from ..accounts.keys import hash_token
from ..errors import Conflict, InvalidInput, MatchOver, NotFound, PreconditionFailed, ServiceError
from ..figures.locks import own_match_to_change
from ..season_rules import SeasonRules
from .accounts import (
    MIN_PASSWORD_LENGTH,
    TOKEN_PREFIX,
    authenticate,
    change_password,
    create_api_token,
    create_user,
    end_every_sign_in,
    end_sign_in,
    note_token_use,
    revoke_api_token,
    set_language,
    set_night_gap,
    set_time_zone,
    start_sign_in,
    user_named,
)
from .bulk import fill_missing_figures, recompute_all
from .deals import add_deal, complete_deal, delete_last_deal, replace_deal, save_bids, undo
from .entry_links import open_entry_link, stop_entry_link
from .idempotency import MAX_IDEMPOTENCY_KEY, Sent, once, sent_before, usable_key
from .imports import import_accounts
from .matches import (
    abandon_match,
    create_match_from_document,
    delete_match,
    rematch,
    set_note,
    share_match,
    start_match,
    stop_sharing,
)
from .players import add_player, rename_player, set_player_archived
from .season_places import player_places
from .seasons import change_season, delete_season, name_season
from .years import year_review

__all__ = [
    "MAX_IDEMPOTENCY_KEY",
    "MIN_PASSWORD_LENGTH",
    "TOKEN_PREFIX",
    "Conflict",
    "InvalidInput",
    "MatchOver",
    "NotFound",
    "PreconditionFailed",
    "SeasonRules",
    "Sent",
    "ServiceError",
    "abandon_match",
    "add_deal",
    "add_player",
    "authenticate",
    "change_password",
    "change_season",
    "complete_deal",
    "create_api_token",
    "create_match_from_document",
    "create_user",
    "delete_last_deal",
    "delete_match",
    "delete_season",
    "end_every_sign_in",
    "end_sign_in",
    "fill_missing_figures",
    "hash_token",
    "import_accounts",
    "name_season",
    "note_token_use",
    "once",
    "open_entry_link",
    "own_match_to_change",
    "player_places",
    "recompute_all",
    "rematch",
    "rename_player",
    "replace_deal",
    "revoke_api_token",
    "save_bids",
    "sent_before",
    "set_language",
    "set_night_gap",
    "set_note",
    "set_player_archived",
    "set_time_zone",
    "share_match",
    "start_match",
    "start_sign_in",
    "stop_entry_link",
    "stop_sharing",
    "undo",
    "usable_key",
    "user_named",
    "year_review",
]
