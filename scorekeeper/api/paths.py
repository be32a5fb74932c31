"""The operations of the JSON API by path, for the OpenAPI document: what each takes and answers, and
examples that the rules accept."""

from __future__ import annotations

from typing import Any

from ..games.kit.json_schema import ref
from ..reads.queries import PAGE_SIZE
from ..services import MAX_IDEMPOTENCY_KEY
from .examples import DEALS, LINKS, NEW_MATCHES
from .parts import ETAG, answer, operation, parameter, response
from .season_paths import season_paths


def _conflict(when: str) -> dict[str, Any]:
    return answer(f"{when} Nothing was stored.", ref("Message"))


def _pages_of(what: str, item: str) -> dict[str, Any]:
    """Return the answers of a list read a page at a time: a page of `what` (each an `item`), its total and links."""
    return {
        "200": answer(
            f"One page of {what}.",
            {"type": "array", "items": ref(item)},
            headers={
                "X-Total-Count": {
                    "required": True,
                    "description": f"How many {what} the account has.",
                    "schema": {"type": "integer", "minimum": 0},
                },
                "Link": {
                    "description": 'The next and previous pages (`rel="next"`, `rel="prev"`), when there are some.',
                    "schema": {"type": "string", "minLength": 1},
                },
            },
        ),
        "400": answer("`page` or `per_page` is not a whole number from 1.", ref("Message")),
    }


def _match(status: str, description: str, *links: str, with_etag: bool = False) -> dict[str, Any]:
    answered = answer(description, ref("Match"), headers=ETAG if with_etag else None)
    if links:
        answered["links"] = {name: LINKS[name] for name in links}
    return {status: answered}


def paths() -> dict[str, Any]:
    """Return every operation of the API, by path."""
    match_id, number = parameter("match_id"), parameter("number")
    concurrent = "Someone else changed the match at the same moment: read it again and retry."
    stale = _conflict(
        "The match changed since the version named by `If-Match` (or `If-Match` names no version "
        "of it): nothing was changed."
    )
    if_match = parameter("If-Match")
    return {
        "/openapi.json": {
            "get": {
                "operationId": "getOpenApiDocument",
                "summary": "This document",
                "tags": ["meta"],
                "security": [],
                "description": "The OpenAPI document of the API; no token is needed.",
                "responses": {
                    "200": answer(
                        "The OpenAPI 3.1 document.", {"type": "object", "required": ["openapi", "info", "paths"]}
                    )
                },
            }
        },
        "/matches": {
            "get": operation(
                "listMatches",
                "List the account's matches",
                f"Newest first, {PAGE_SIZE} to a page unless `per_page` says otherwise.",
                _pages_of("matches", "Match"),
                parameters=[parameter("page"), parameter("per_page")],
            ),
            "post": operation(
                "createMatch",
                "Start a match, or import a whole one",
                "Checks the match document with the rules engine; with `deals`, the whole match is checked and "
                "stored at once (finished if its deals end it). Players are the account's, by name: a new name adds "
                "a player.",
                {
                    **_match("201", "The match, as stored.", "ReadMatch", "AddDeal"),
                    "409": _conflict("A player of the same name was added at the same moment."),
                    "422": response("RuleViolation"),
                },
                body=ref("NewMatch"),
                body_description="A match document, optionally with `first_dealer` and `note`.",
                examples=NEW_MATCHES,
            ),
        },
        "/matches/{match_id}": {
            "get": operation(
                "getMatch",
                "Read a match",
                "The match document and the rules engine's result.",
                {
                    **_match("200", "The match; its `ETag` names the version read.", "AddDeal", with_etag=True),
                    "304": {
                        "description": "Not modified: the match is still as the `ETag` in `If-None-Match` names it.",
                        "headers": ETAG,
                    },
                    "404": response("NotFound"),
                },
                parameters=[match_id, parameter("If-None-Match")],
            ),
            "patch": operation(
                "changeMatch",
                "Change a match's note",
                "Writes, changes or clears (`null` or empty) the owner's note on the match, whatever its status. "
                "With `If-Match`, only if the match is still at the version read.",
                {
                    **_match(
                        "200", "The match with its note; its `ETag` names its new version.", "ReadMatch", with_etag=True
                    ),
                    "404": response("NotFound"),
                    "409": _conflict(concurrent),
                    "412": stale,
                    "422": response("RuleViolation"),
                },
                parameters=[match_id, if_match],
                body=ref("MatchChange"),
                body_description="The note.",
                examples={
                    "note": {
                        "summary": "Where the match was played",
                        "value": {"note": "At Carmen's; the loser pays the coffee"},
                    }
                },
            ),
        },
        **season_paths(),
        "/nights": {
            "get": {
                **operation(
                    "listNights",
                    "List the account's game nights",
                    f"Newest first, {PAGE_SIZE} to a page unless `per_page` says otherwise, as the matches are.",
                    _pages_of("nights", "Night"),
                    parameters=[parameter("page"), parameter("per_page")],
                ),
                "tags": ["nights"],
            }
        },
        "/matches/{match_id}/deals": {
            "post": operation(
                "addDeal",
                "Add the next deal",
                "The whole match is checked again with the deal added. With `number`, the deal is stored only if it "
                "is the match's next one, so that two phones entering the same deal store it once. With an "
                "`Idempotency-Key`, a retry of the same request gets the first answer again (in today's shape, even "
                "when an earlier version kept it), whatever has happened to the match since. With `If-Match`, the "
                "deal is added only if the match is still at the version read.",
                {
                    **_match(
                        "201",
                        "The match with the deal added (or, for a retried Idempotency-Key, the first answer).",
                        "ReadMatch",
                        "CorrectFirstDeal",
                        "DeleteThisDeal",
                    ),
                    "400": answer(
                        "The body is not JSON, or the Idempotency-Key is not 1 to "
                        f"{MAX_IDEMPOTENCY_KEY} printable characters.",
                        ref("Message"),
                    ),
                    "404": response("NotFound"),
                    "409": _conflict(
                        "`number` is not the match's next deal number, the Idempotency-Key was used for "
                        f"another match, or the match changed at the same moment. {concurrent}"
                    ),
                    "412": stale,
                    "422": response("RuleViolation"),
                },
                parameters=[match_id, parameter("Idempotency-Key"), if_match],
                body=ref("Deal"),
                body_description="One deal of the match's game, optionally with `number`.",
                examples=DEALS,
            )
        },
        "/matches/{match_id}/deals/{number}": {
            "put": operation(
                "replaceDeal",
                "Correct a deal",
                "Replaces deal `number`; the whole match is checked again, later deals included. With `If-Match`, "
                "the correction is made only if the match is still at the version read.",
                {
                    **_match(
                        "200", "The match as corrected; its `ETag` names its new version.", "ReadMatch", with_etag=True
                    ),
                    "404": response("NotFound"),
                    "409": _conflict(concurrent),
                    "412": stale,
                    "422": response("RuleViolation"),
                },
                parameters=[match_id, number, if_match],
                body=ref("Deal"),
                body_description="The deal as it should have been; a `number` in it is not read (the path names "
                "the deal).",
                examples=DEALS,
            ),
            "delete": operation(
                "deleteDeal",
                "Delete the last deal",
                "Only the last deal can be deleted; a finished match is open again (and its entry link stops). "
                "With `If-Match`, only if the match is still at the version read.",
                {
                    **_match(
                        "200",
                        "The match without the deal; its `ETag` names its new version.",
                        "ReadMatch",
                        "AddDeal",
                        with_etag=True,
                    ),
                    "404": response("NotFound"),
                    "409": _conflict(f"This is not the last deal. {concurrent}"),
                    "412": stale,
                    "422": answer(
                        "The match was abandoned: it takes no more changes (`match_finished`).", ref("RuleErrors")
                    ),
                },
                parameters=[match_id, number, if_match],
            ),
        },
        "/matches/{match_id}/share": {
            "post": operation(
                "shareMatch",
                "Make the live link",
                "A secret address that shows the match's scoreboard, read-only, to anyone who has it, without "
                "signing in. Only a hash of it is kept. A new link replaces the match's older one, which stops "
                "working.",
                {
                    "201": answer(
                        "The live link.",
                        {
                            "type": "object",
                            "required": ["url"],
                            "additionalProperties": False,
                            "properties": {
                                "url": {
                                    "type": "string",
                                    "format": "uri",
                                    "description": "The live view's address; its secret is in the "
                                    "fragment, which browsers never send to a server.",
                                }
                            },
                        },
                    ),
                    "404": response("NotFound"),
                    "409": _conflict(concurrent),
                    "412": stale,
                },
                parameters=[match_id, if_match],
            ),
            "delete": operation(
                "stopSharing",
                "Stop the live link",
                "The match's live link answers 404 from now on (it is not an error if there was none).",
                {
                    "204": {"description": "The link is stopped."},
                    "404": response("NotFound"),
                    "409": _conflict(concurrent),
                    "412": stale,
                },
                parameters=[match_id, if_match],
            ),
        },
        "/matches/{match_id}/entry-link": {
            "post": operation(
                "openEntryLink",
                "Make the entry link",
                "A secret address through which the other phones at the table enter, correct and undo this "
                "match's deals, without signing in and without reaching anything else of the account, until the "
                "match ends (then they read its final scoreboard) or the link is stopped. Only a hash of it is "
                "kept; the owner's scoreboard shows it again. A new link replaces the match's older one, which "
                "stops at once.",
                {
                    "201": answer(
                        "The entry link and its QR code.",
                        {
                            "type": "object",
                            "required": ["url", "qr_svg"],
                            "additionalProperties": False,
                            "properties": {
                                "url": {
                                    "type": "string",
                                    "format": "uri",
                                    "description": "The entry link; its secret is in the fragment, which browsers "
                                    "never send to a server.",
                                },
                                "qr_svg": {"type": "string", "description": "The link as a QR code, an SVG document."},
                            },
                        },
                    ),
                    "404": response("NotFound"),
                    "409": _conflict(
                        f"The match is over (finished or abandoned): nobody enters its deals any more. Or: {concurrent}"
                    ),
                    "412": stale,
                },
                parameters=[match_id, if_match],
            ),
            "delete": operation(
                "stopEntryLink",
                "Stop the entry link",
                "The phones that joined through the match's entry link are shut out at once, and the link "
                "answers 404 (it is not an error if there was none).",
                {
                    "204": {"description": "The link is stopped."},
                    "404": response("NotFound"),
                    "409": _conflict(concurrent),
                    "412": stale,
                },
                parameters=[match_id, if_match],
            ),
        },
    }
