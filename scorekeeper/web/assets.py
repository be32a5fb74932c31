"""How the app's files and pages travel: static addresses that name their content, so a browser
keeps each file a year and asks again only when it changes, and compressed answers."""

from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from typing import Any

from flask import Flask, Response, current_app, g, request, session, url_for
from werkzeug.security import safe_join

from ..extensions import compress

#: How long a browser keeps a static file whose address names its content: a new file has a new address.
VERSIONED_MAX_AGE = 365 * 24 * 3600
#: The length of the content digest in a static address (/static/v/<digest>/…).
VERSION_LENGTH = 12
#: The folder of static addresses that name a digest (so no file or folder of static/ may be named so).
VERSIONED = "v"


def static_version(filename: str) -> str | None:
    """Return the digest of a static file's content, or None when there is no such file."""
    path = safe_join(current_app.static_folder or "", filename)
    if path is None:
        return None
    try:
        found = os.stat(path)
    except OSError:
        return None
    # Keyed by size and modification time too, so that a file edited while the app runs gets a new address.
    return _digest(path, found.st_mtime_ns, found.st_size)


@lru_cache(maxsize=256)
def _digest(path: str, _mtime_ns: int, _size: int) -> str | None:
    try:
        with open(path, "rb") as handle:
            return hashlib.sha256(handle.read()).hexdigest()[:VERSION_LENGTH]
    except OSError:  # a folder, or gone since
        return None


def static_url(filename: str) -> str:
    """Return the address of a static file with its content digest, which lets browsers keep it a year.

    The digest is a folder of the address (/static/v/<digest>/app.css), so that the address
    still ends with the file's own name.
    """
    version = static_version(filename)
    return url_for("static", filename=filename if version is None else f"{VERSIONED}/{version}/{filename}")


def _take_version(endpoint: str | None, values: dict[str, Any] | None) -> None:
    """Keep the digest a static address names aside, and hand Flask's static view the file's own name."""
    if endpoint != "static" or values is None:
        return
    marker, _, rest = str(values.get("filename", "")).partition("/")
    version, _, filename = rest.partition("/")
    if marker == VERSIONED and version and filename:
        values["filename"] = filename
        g.static_version = version


def _cache_static(response: Response) -> Response:
    """Let browsers keep a static file for a year when its address names its current content.

    Any other address of it (none, or a digest of an older content, asked for by a page from
    before a release) is answered with the file as it is now, to be checked again every time.
    """
    if g.get("same_for_everyone"):  # a file a view makes (the games' scripts), cached as it says
        session.accessed = False
        return response
    if request.endpoint != "static":
        return response
    # The file is the same whoever asks: no Vary: Cookie (Flask-Login looked at the session),
    # else a new cookie (a sign-in, a flashed message) would have the browser ask for every file again.
    session.accessed = False
    if response.status_code not in (200, 304):
        return response
    filename = (request.view_args or {}).get("filename", "")
    asked = g.get("static_version")
    if asked and asked == static_version(filename):
        response.cache_control.no_cache = None
        response.cache_control.public = True
        response.cache_control.max_age = VERSIONED_MAX_AGE
        response.cache_control.immutable = True
    return response


def _compress(response: Response) -> Response:
    """Compress the answer when the browser takes it (Flask-Compress), except the API's and partial ones.

    The API's ETags name versions of a match, which a client sends back in If-Match; a
    compressed answer would carry a tag of its own (the encoding appended), which names none.
    A range of a file is the range of its bytes as they are, never of a compressed copy.
    """
    if (request.endpoint or "").startswith("api.") or response.status_code == 206:
        return response
    if (
        response.is_streamed
        and response.direct_passthrough
        and response.status_code == 200
        and response.mimetype in compress.compress_mimetypes_set
    ):
        # A static file, read whole (they are small) and compressed whole: Flask-Compress would
        # compress the stream without ever closing the file.
        response.direct_passthrough = False
        response.make_sequence()
    return compress.after_request(response)


def register(app: Flask) -> None:
    """Give the templates `static_url`; cache versioned static files; compress the answers."""
    app.add_template_global(static_url, "static_url")
    app.url_value_preprocessor(_take_version)
    compress.init_app(app)
    app.after_request(_compress)
    app.after_request(_cache_static)
