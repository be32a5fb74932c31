"""The secrets handed to browsers and scripts (sign-in keys, share and entry links, API tokens): how they
are made, stored and checked.

Only a hash of each is kept, so that a copy of the database opens no account and no link; reads
and writes both use what is here.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from datetime import timedelta
from typing import NamedTuple

from flask import current_app

#: What `secrets.token_urlsafe` makes, at the lengths used here.
_KEY_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,64}")


def hash_token(token: str) -> str:
    """Return the stored form of a sign-in key or an API token."""
    return hashlib.sha256(token.encode()).hexdigest()


def looks_like_key(text: object) -> bool:
    """Tell whether `text` could be a sign-in key or a share link's secret at all.

    Anything else is refused before anything is looked up.
    """
    return isinstance(text, str) and _KEY_PATTERN.fullmatch(text) is not None


#: What `new_preview_key` makes.
_PREVIEW_PATTERN = re.compile(r"[0-9a-f]{32}")


def new_preview_key() -> str:
    """Make the key of a live view's link preview: 128 random bits, drawn apart from the link's secret
    (it travels in the link's query, and so in logs: it must tell nothing of the secret)."""
    return secrets.token_hex(16)


def looks_like_preview_key(text: object) -> bool:
    """Tell whether `text` could be a link preview's key at all."""
    return isinstance(text, str) and _PREVIEW_PATTERN.fullmatch(text) is not None


def sign_in_lifetime() -> timedelta:
    """Return how long a sign-in lasts: as long as the remember-me cookie that carries it."""
    lifetime = current_app.config.get("REMEMBER_COOKIE_DURATION", timedelta(days=365))
    return lifetime if isinstance(lifetime, timedelta) else timedelta(seconds=int(lifetime))


#: The kinds of link a match gives out: the read-only live view, and the table's entry link.
SHARE_LINK = "share"
ENTRY_LINK = "entry"


class LinkKey(NamedTuple):
    """A new link's secret, as the phones get it, and what the database keeps of it."""

    secret: str
    key_hash: str
    salt: str


def new_link_key(kind: str) -> LinkKey:
    """Make the secret of a new share or entry link (`kind` says which) from a new random salt."""
    salt = secrets.token_hex(16)
    secret = link_secret(kind, salt)
    return LinkKey(secret, hash_token(secret), salt)


def link_secret(kind: str, salt: str) -> str:
    """Return the secret of the link of `kind` made with `salt`: 256 bits that only the app's secret key makes.

    The database keeps the link's hash and its salt, and neither opens it; with the app's secret
    key, the owner's scoreboard draws the link again on any of the owner's phones, so that no
    phone has to keep it (a session cookie is signed, not encrypted). A new secret key leaves the
    links working but no longer drawn: `shown_link` then finds the hash differs.
    """
    key = str(current_app.config["SECRET_KEY"]).encode()
    digest = hmac.new(key, f"scorekeeper {kind} link {salt}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def shown_link(kind: str, key_hash: str | None, salt: str | None) -> str | None:
    """Return the secret of a lasting link drawn again from its salt, or None when it cannot be
    (no link, a link made before salts were kept, or a secret key changed since)."""
    if key_hash is None or salt is None:
        return None
    secret = link_secret(kind, salt)
    return secret if hmac.compare_digest(hash_token(secret), key_hash) else None
