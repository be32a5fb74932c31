"""The ETags of a match's answers: its version, which an If-Match names to guard a correction,
and a digest of the answer itself, which an If-None-Match names to skip an unchanged one (a
renamed player changes the answer, not the match's version)."""

from __future__ import annotations

import hashlib
import re

_TAG = re.compile(r"v(\d{1,9})(?:-[0-9a-f]{1,64})?")


def version_tag(version: int, body: bytes) -> str:
    """Return the ETag of an answer about a match at `version`."""
    return f"v{version}-{hashlib.sha256(body).hexdigest()[:16]}"


def tag_version(tag: object) -> int | None:
    """Return the match version an ETag names ("v7" or "v7-…"), or None if it names none."""
    found = _TAG.fullmatch(tag) if isinstance(tag, str) else None
    return int(found.group(1)) if found else None
