"""The secrets handed to browsers and scripts (sign-in keys, share links, API tokens): how they are stored and checked.

Only a hash of each is kept, so that a copy of the database opens no account; reads and
writes both use what is here.
"""

from __future__ import annotations

import hashlib
import re
from datetime import timedelta

from flask import current_app

#: What `secrets.token_urlsafe` makes, at the lengths used here.
_KEY_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,64}")


def hash_token(token: str) -> str:
    """Return the stored form of a sign-in key or an API token."""
    return hashlib.sha256(token.encode()).hexdigest()


def looks_like_key(text: object) -> bool:
    """Tell whether `text` could be a sign-in key or a share link's secret at all (so that nothing else is looked up)."""
    return isinstance(text, str) and _KEY_PATTERN.fullmatch(text) is not None


def sign_in_lifetime() -> timedelta:
    """Return how long a sign-in lasts: as long as the remember-me cookie that carries it."""
    lifetime = current_app.config.get("REMEMBER_COOKIE_DURATION", timedelta(days=365))
    return lifetime if isinstance(lifetime, timedelta) else timedelta(seconds=int(lifetime))
