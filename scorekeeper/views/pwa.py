"""What makes Scorekeeper an installable app: the web manifest, the service worker, the offline page."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from flask import Blueprint, Response, current_app, jsonify, render_template, session, url_for
from flask_babel import gettext

from ..web.assets import static_url

bp = Blueprint("pwa", __name__)

#: Files the service worker keeps, so that pages open and look right without a connection.
SHELL_FILES = (
    "app.css",
    "app.js",
    "offline.js",
    "rules.js",
    "theme.js",
    "icons/icon.svg",
    "icons/icon-192.png",
    "icons/icon-512.png",
)


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """Describe the app to the phone that installs it."""
    response = jsonify(
        {
            "name": "Scorekeeper",
            "short_name": "Scorekeeper",
            "description": gettext("Keeps score at the table for Tute and Pocha."),
            "start_url": url_for("main.home"),
            "scope": "/",
            "display": "standalone",
            "background_color": "#121212",
            "theme_color": "#9b1c1c",
            "icons": [
                {"src": url_for("static", filename="icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
                {"src": url_for("static", filename="icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
                {"src": url_for("static", filename="icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
            ],
        }
    )
    response.mimetype = "application/manifest+json"
    return response


@cache
def _shell_version(static_folder: str) -> str:
    """Return a fingerprint of the shell files, so that a new release replaces the cached ones."""
    digest = hashlib.sha256()
    for name in SHELL_FILES:
        digest.update((Path(static_folder) / name).read_bytes())
    digest.update((Path(static_folder) / "sw.js").read_bytes())
    return digest.hexdigest()[:12]


@bp.get("/sw.js")
def service_worker() -> Response:
    """Serve the service worker from the root, so that it may look after every page."""
    static = current_app.static_folder or ""
    body = (Path(static) / "sw.js").read_text()
    # The addresses the pages ask for (named by content), so that installing does not fetch each file twice.
    shell = [static_url(name) for name in SHELL_FILES] + [url_for("pwa.offline")]
    body = body.replace("__VERSION__", _shell_version(static)).replace('"__SHELL__"', repr(shell).replace("'", '"'))
    response = Response(body, mimetype="text/javascript")
    response.headers["Service-Worker-Allowed"] = "/"
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/offline")
def offline() -> str:
    """Say that the connection is gone (the service worker shows this page when it is)."""
    page = render_template("offline.html")
    # The service worker fetches this page as it installs, while the page that installs it may be
    # changing the session (a phone joining a table through its entry link). Sent back, the
    # session this request began with would undo that change; the offline page needs none of it.
    session.modified = False
    return page
