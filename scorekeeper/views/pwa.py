"""What makes Scorekeeper an installable app: the web manifest, the service worker, the offline page."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from flask import Blueprint, Response, abort, current_app, g, jsonify, render_template, request, session, url_for
from flask_babel import gettext

from ..games.web import SCRIPT_PARTS, game_scripts
from ..web.assets import VERSIONED_MAX_AGE, static_url

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
            "description": gettext("Keeps score at the table for the Spanish deck's card games."),
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
def _shell_version(static_folder: str, games: tuple[str, ...]) -> str:
    """Return a fingerprint of the shell files (with the digests of the games' scripts), so that a new
    release replaces the cached ones."""
    digest = hashlib.sha256()
    for name in SHELL_FILES:
        digest.update((Path(static_folder) / name).read_bytes())
    digest.update((Path(static_folder) / "sw.js").read_bytes())
    digest.update(" ".join(games).encode())
    return digest.hexdigest()[:12]


def game_script_url(part: str) -> str:
    """Return the address of every game's browser script `part` ("rules" or "form"), naming its content."""
    return url_for("pwa.game_script", digest=game_scripts(part)[1], part=part)


@bp.get("/static/games/<digest>/<part>.js")
def game_script(digest: str, part: str) -> Response:
    """Serve every game folder's browser script `part` as one file: kept a year by the browser when the
    address names its current content; asked for by a page from before a change, the current one,
    checked again every time."""
    if part not in SCRIPT_PARTS:
        abort(404)
    text, current = game_scripts(part)
    response = Response(text, mimetype="text/javascript")
    g.same_for_everyone = True  # no Vary: Cookie (web.assets)
    if digest == current:
        response.cache_control.public = True
        response.cache_control.max_age = VERSIONED_MAX_AGE
        response.cache_control.immutable = True
    else:
        response.cache_control.no_cache = True
    response.add_etag()
    response.make_conditional(request)
    return response


@bp.get("/sw.js")
def service_worker() -> Response:
    """Serve the service worker from the root, so that it may look after every page."""
    static = current_app.static_folder or ""
    body = (Path(static) / "sw.js").read_text()
    # The addresses the pages ask for (named by content), so that installing does not fetch each file twice.
    games = [game_script_url(part) for part in SCRIPT_PARTS]
    shell = [static_url(name) for name in SHELL_FILES] + games + [url_for("pwa.offline")]
    version = _shell_version(static, tuple(games))
    body = body.replace("__VERSION__", version).replace('"__SHELL__"', repr(shell).replace("'", '"'))
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
