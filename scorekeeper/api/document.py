"""The OpenAPI 3.1 document of the JSON API, served at /api/v1/openapi.json.

It is built here in Python rather than kept as a JSON file: its enums and limits (games,
suits, house rules and their ranges, rejection codes, statuses, page sizes, the longest
idempotency key) are read from the code that enforces them, so that the document cannot
drift from the API; `tests/app/test_openapi.py` checks it against the app's routes and
real answers, and `.ci/api-fuzz` lets Schemathesis check it against a running server.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ..config import Defaults
from ..games.kit.json_schema import ref
from ..reads.queries import MAX_PAGE_SIZE, PAGE_SIZE
from ..services import MAX_IDEMPOTENCY_KEY
from .parts import answer
from .paths import paths
from .schemas import components

OPENAPI_VERSION = "3.1.0"
#: Where the API lives; the document's paths are relative to it.
API_ROOT = "/api/v1"

_CONTROL = "\\u0000-\\u001f\\u007f-\\u009f"


def _responses() -> dict[str, Any]:
    """Return the answers several operations share."""
    limit = Defaults.MAX_CONTENT_LENGTH // (1024 * 1024)
    return {
        "NotJson": answer("The body is not JSON (say `Content-Type: application/json`).", ref("Message")),
        "Unauthorized": answer(
            "No valid API token was sent.",
            ref("Message"),
            headers={
                "WWW-Authenticate": {
                    "required": True,
                    "schema": {"type": "string", "const": 'Bearer realm="scorekeeper"'},
                    "description": "How to authenticate.",
                }
            },
        ),
        "NotFound": answer(
            "There is no such match (or deal) in this account; another account's match is not found either.",
            ref("Message"),
        ),
        "TooLarge": answer(f"The body is larger than {limit} MiB.", ref("Message")),
        "RuleViolation": answer(
            "The rules were broken (or a field is of the wrong type or shape): every problem is "
            "listed with its code, and nothing was stored.",
            ref("RuleErrors"),
        ),
    }


def _parameters() -> dict[str, Any]:
    """Return the parameters several operations share."""
    whole = {"type": "integer", "minimum": 1}
    return {
        "match_id": {
            "name": "match_id",
            "in": "path",
            "required": True,
            "schema": whole,
            "description": "The match's id.",
        },
        "number": {
            "name": "number",
            "in": "path",
            "required": True,
            "schema": whole,
            "description": "The deal's number, counted from 1.",
        },
        "page": {
            "name": "page",
            "in": "query",
            "required": False,
            "schema": {**whole, "default": 1},
            "description": "The page, counted from 1; past the last page the list is empty.",
        },
        "per_page": {
            "name": "per_page",
            "in": "query",
            "required": False,
            "schema": {**whole, "default": PAGE_SIZE},
            "description": f"Matches to a page; at most {MAX_PAGE_SIZE} are answered (a larger number "
            f"is taken as {MAX_PAGE_SIZE}).",
        },
        "Idempotency-Key": {
            "name": "Idempotency-Key",
            "in": "header",
            "required": False,
            # Spaces around a header's value never reach the server, so a key of spaces alone arrives empty.
            "schema": {
                "type": "string",
                "minLength": 1,
                "maxLength": MAX_IDEMPOTENCY_KEY,
                "pattern": f"^[^{_CONTROL}]*[^{_CONTROL}\\s][^{_CONTROL}]*$",
            },
            "description": "Any text the client makes up for this deal; a retry with the same key on the same "
            "match gets the first answer again and stores nothing.",
        },
        "If-Match": {
            "name": "If-Match",
            "in": "header",
            "required": False,
            "schema": {"type": "string"},
            "description": "The `ETag` of the match as read (or `*` for any version).",
        },
        "If-None-Match": {
            "name": "If-None-Match",
            "in": "header",
            "required": False,
            "schema": {"type": "string"},
            "description": "The `ETag` of the match as last read: if it still names the match, 304 without a body.",
        },
    }


@cache
def openapi_document() -> dict[str, Any]:
    """Return the OpenAPI document of the API (built once: it depends on the code alone)."""
    return {
        "openapi": OPENAPI_VERSION,
        "info": {
            "title": "Scorekeeper API",
            "version": "1",
            "summary": "Keep score of matches of the Spanish deck's card games.",
            "description": (
                "The JSON API of Scorekeeper. Every operation but this document needs an API token, made on the "
                "account page or with `flask --app scorekeeper token create NAME`, sent as "
                "`Authorization: Bearer <token>`. Bodies and answers are JSON. A rule violation answers 422 with "
                "every problem and its code (the project's docs/rules.md lists them); a method a path does not take "
                "answers 405 with `Allow` and a `message`; an address that is not the API's answers 404."
            ),
        },
        "servers": [{"url": API_ROOT}],
        "security": [{"bearer": []}],
        "tags": [
            {"name": "matches", "description": "Matches, their deals and their results."},
            {"name": "nights", "description": "Game nights: the matches played in one sitting."},
            {"name": "seasons", "description": "Seasons and their league tables."},
            {"name": "meta", "description": "About the API itself."},
        ],
        "paths": paths(),
        "components": {
            "schemas": components(),
            "responses": _responses(),
            "parameters": _parameters(),
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer", "description": "An API token of the account."}
            },
        },
    }
