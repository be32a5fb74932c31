"""The JSON API under /api/v1/, for scripts and other clients, with bearer tokens.

Answers: 201/200 with `{"id", "status", "match", "result"}`; 422 `{"errors": [...]}` with
the rules engine's codes; 401 without a valid token; 404 for what is not the account's;
409 when the deal number is not the match's next one (or a deal other than the last is
deleted); 400 for a body that is not JSON or a page that is not a whole number; 405, with
`Allow`, for a method an address does not take. A token-authenticated request carries no
cookie, so CSRF does not apply here. The whole API is described by the OpenAPI document
at /api/v1/openapi.json (see `scorekeeper.api.document`), the one address that needs no token.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import tzinfo
from typing import Any

import pytz
from flask import Blueprint, Response, g, jsonify, request
from werkzeug import wrappers
from werkzeug.exceptions import HTTPException

from .. import formats, services
from ..api.document import openapi_document
from ..extensions import csrf
from ..figures import nights as night_reads
from ..figures import seasons
from ..models import MAX_ID, User
from ..pages import nights as night_pages
from ..pages import seasons as season_pages
from ..pages.addresses import public_url
from ..pages.qr import qr_svg
from ..reads import queries
from ..reads import table as table_reads
from ..reads.documents import api_view, replayed_view
from ..registry import GAMES
from ..rules import RuleViolation
from ..season_rules import MAX_YEAR, MIN_YEAR, MOST_COUNTED, SeasonSpan, calendar_year
from ..web.etags import tag_version, version_tag

bp = Blueprint("api", __name__, url_prefix="/api/v1")
csrf.exempt(bp)

Reply = tuple[Response, int]

#: The API's endpoints that answer without a token: the description of the API itself.
OPEN_ENDPOINTS = frozenset({"api.openapi"})


class ApiError(Exception):
    """An answer other than success, with its HTTP status and message (and, for 422, its code and field)."""

    def __init__(self, status: int, message: str, code: str | None = None, field: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code
        self.field = field


@bp.before_request
def _authenticate() -> Reply | None:
    if request.endpoint in OPEN_ENDPOINTS:
        return None
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    found = queries.api_token(token.strip()) if scheme.lower() == "bearer" else None
    if found is None:
        response = jsonify({"message": "A valid API token is needed: Authorization: Bearer <token>."})
        response.headers["WWW-Authenticate"] = 'Bearer realm="scorekeeper"'
        return response, 401
    if request.method not in ("GET", "HEAD", "OPTIONS"):
        services.note_token_use(found)
    g.api_user = found.user
    return None


@bp.errorhandler(ApiError)
def _api_error(error: ApiError) -> Reply:
    if error.code is not None:
        problem = {"deal": None, "field": error.field, "code": error.code, "message": error.message}
        return jsonify({"errors": [problem]}), error.status
    return jsonify({"message": error.message}), error.status


@bp.errorhandler(services.NotFound)
def _not_found(error: services.NotFound) -> Reply:
    return jsonify({"message": error.message}), 404


@bp.errorhandler(services.Conflict)
def _conflict(error: services.Conflict) -> Reply:
    return jsonify({"message": error.message}), 409


@bp.errorhandler(services.PreconditionFailed)
def _precondition_failed(error: services.PreconditionFailed) -> Reply:
    return jsonify({"message": error.message}), 412  # RFC 9110, 13.1.1: an If-Match that does not match


@bp.errorhandler(services.InvalidInput)
def _invalid(error: services.InvalidInput) -> Reply:
    return jsonify(
        {"errors": [{"deal": None, "field": error.field, "code": "malformed", "message": error.message}]}
    ), 422


@bp.errorhandler(RuleViolation)
def _violation(error: RuleViolation) -> Reply:
    return jsonify({"errors": error.errors}), 422


@bp.errorhandler(HTTPException)
def _http_error(error: HTTPException) -> Reply:
    return jsonify({"message": error.description}), error.code or 500


def _user() -> User:
    user: User = g.api_user
    return user


def _json_body() -> Any:
    try:
        body = request.get_json(silent=True)
    except RecursionError:  # nested deeper than the JSON parser goes
        body = None
    if body is None:
        raise ApiError(400, "The body must be JSON (Content-Type: application/json).")
    return body


def _deal_body() -> tuple[dict[str, Any], int | None]:
    """Return the posted deal without its `number`, and that number."""
    body = _json_body()
    if not isinstance(body, Mapping):
        raise ApiError(422, "A deal is a JSON object of its fields.", code="malformed", field="deal")
    deal = dict(body)
    number = deal.pop("number", None)
    if number is not None and (not isinstance(number, int) or isinstance(number, bool) or number < 1):
        raise ApiError(
            422,
            "`number` is the deal number the client means to enter, a whole number from 1.",
            code="malformed",
            field="number",
        )
    return deal, number


def _counted_from_one(name: str, default: int) -> int:
    """Return query parameter `name`, a whole number from 1 (`default` when absent); refuse any other with 400.

    Numbers past the last id are read as that id: they name an empty page, or as many matches as a page holds.
    """
    text = request.args.get(name)
    if text is None:
        return default
    significant = text.lstrip("0")
    if not (text.isascii() and text.isdigit()) or not significant:
        raise ApiError(400, f"`{name}` is a whole number from 1.")
    most: int = MAX_ID
    return most if len(significant) > len(str(most)) else min(int(significant), most)


def _one(match_id: int) -> Any:
    return table_reads.match_for(_user(), match_id)


@bp.get("/openapi.json")
def openapi() -> Reply:
    """Describe the API in an OpenAPI 3.1 document; it needs no token."""
    return jsonify(openapi_document()), 200


@bp.get("/matches")
def list_matches() -> Reply:
    """List the account's matches, newest first, a page at a time (`page`, `per_page` up to 100).

    The total is in `X-Total-Count`, and the other pages are linked in `Link` (rel next, prev).
    """
    size = min(_counted_from_one("per_page", queries.PAGE_SIZE), queries.MAX_PAGE_SIZE)
    found = queries.match_page(_user(), _counted_from_one("page", 1), per_page=size, with_deals=True)
    response = jsonify([api_view(m) for m in found.items])
    return _paged(response, found, "api.list_matches"), 200


@bp.post("/matches")
def create_match() -> Reply:
    """Create a match from a match document; with deals, the whole match is imported."""
    body = _json_body()
    first_dealer = note = None
    if isinstance(body, Mapping) and ("first_dealer" in body or "note" in body):
        body = dict(body)
        first_dealer, note = body.pop("first_dealer", None), body.pop("note", None)
    match = services.create_match_from_document(_user(), body, first_dealer, note)
    return jsonify(api_view(match)), 201


@bp.patch("/matches/<int:match_id>")
def change_match(match_id: int) -> Reply:
    """Change what the owner may change of a match at any time: its note (`{"note": "..."}`; null clears it)."""
    match = _one(match_id)
    expected = _expected_version()
    body = _json_body()
    if not isinstance(body, Mapping) or set(body) != {"note"}:
        raise ApiError(
            422,
            'Send {"note": text or null}: the note is all a match changes this way.',
            code="malformed",
            field="note",
        )
    return _answer(services.set_note(match, body["note"], expected), 200)


@bp.get("/nights")
def list_nights() -> Reply:
    """List the account's game nights, newest first, paged as the matches are (`page`, `per_page` up to 100)."""
    size = min(_counted_from_one("per_page", queries.PAGE_SIZE), queries.MAX_PAGE_SIZE)
    found = night_reads.nights_on_page(_user(), _counted_from_one("page", 1), per_page=size)
    response = jsonify([night_pages.night_api_view(night) for night in night_pages.nights(found.items)])
    return _paged(response, found, "api.list_nights"), 200


def _account_zone() -> tzinfo:
    """Return the time zone the account's seasons are read in: the one it fixed, else UTC (a script has no browser)."""
    fixed = _user().time_zone
    return pytz.timezone(fixed) if fixed is not None and formats.is_time_zone(fixed) else pytz.UTC


@bp.get("/seasons")
def list_seasons() -> Reply:
    """List the account's seasons: the calendar years from its first finished match to its last, the latest
    first, then the seasons it named, the latest to begin first."""
    user, zone = _user(), _account_zone()
    spans = [calendar_year(year) for year in seasons.years_played(user, zone)] + seasons.named_seasons(user)
    return jsonify([season_pages.season_api_view(span) for span in spans]), 200


def _season_table(season: SeasonSpan, game: str) -> Reply:
    if game not in GAMES:
        raise services.NotFound("There is no such game.")
    best = request.args.get("best")
    best_of = min(_counted_from_one("best", 1), MOST_COUNTED) if best is not None else season.points.best_of
    lines = seasons.season_table(_user(), game, season, _account_zone(), best_of)
    return jsonify(season_pages.table_api_view(season, game, best_of, lines)), 200


@bp.get("/seasons/years/<int:year>/<game>")
def year_table(year: int, game: str) -> Reply:
    """Read a calendar year's league table in a game (`best`: count each player's best that many matches)."""
    if not MIN_YEAR <= year <= MAX_YEAR:
        raise services.NotFound("There is no such season.")
    return _season_table(calendar_year(year), game)


@bp.get("/seasons/<int:season_id>/<game>")
def season_table(season_id: int, game: str) -> Reply:
    """Read a named season's league table in a game (`best`: count each player's best that many matches)."""
    season = seasons.named_season_for(_user(), season_id)
    if season is None:
        raise services.NotFound("There is no such season.")
    return _season_table(seasons.named_season(season), game)


def _paged(response: Response, found: Any, endpoint: str) -> Response:
    """Give a page of a list its total (`X-Total-Count`) and links to its neighbours (`Link`, rel next and prev)."""
    pages = [(found.next_num, "next"), (found.prev_num, "prev")]
    links = ", ".join(
        f'<{public_url(endpoint, page=number, per_page=found.per_page)}>; rel="{rel}"'
        for number, rel in pages
        if number is not None
    )
    if links:  # a single page links to no other
        response.headers["Link"] = links
    response.headers["X-Total-Count"] = str(found.total)
    return response


def _answer(match: Any, status: int) -> Reply:
    """Answer with the match, and an ETag for a later If-Match or If-None-Match."""
    response = jsonify(api_view(match))
    response.set_etag(version_tag(match.version, response.get_data()))
    return response, status


@bp.get("/matches/<int:match_id>")
def get_match(match_id: int) -> wrappers.Response:
    """Read a match with the engine's result; an If-None-Match naming what it is now answers 304."""
    response, _status = _answer(_one(match_id), 200)
    return response.make_conditional(request)


@bp.post("/matches/<int:match_id>/deals")
def add_deal(match_id: int) -> Reply:
    """Add the next deal; a retry with the same Idempotency-Key gets the first answer again."""
    match = table_reads.match_for(_user(), match_id, deals=False)  # the service reads them, under its lock
    key = request.headers.get("Idempotency-Key")
    if key is not None and services.usable_key(key) is None:
        raise ApiError(400, f"An Idempotency-Key has 1 to {services.MAX_IDEMPOTENCY_KEY} printable characters.")
    expected = _expected_version()
    sent = services.once(
        match,
        key,
        lambda kept_key: services.add_deal(match, *_deal_body(), kept_key, keep_answer=True, expected_version=expected),
    )
    # A key first sent with the deal form keeps no answer: the match as it is now answers instead.
    first = sent.first_answer
    return jsonify(replayed_view(first, sent.match) if first is not None else api_view(sent.match)), 201


@bp.put("/matches/<int:match_id>/deals/<int:number>")
def replace_deal(match_id: int, number: int) -> Reply:
    """Replace deal `number`; the whole match is checked again.

    With `If-Match: <the ETag read>` an edit of a match that changed since is refused (412).
    """
    match = _one(match_id)
    deal, _ = _deal_body()
    return _answer(services.replace_deal(match, number, deal, _expected_version()), 200)


def _expected_version() -> int | None:
    """Return the version of the match `If-Match` names (None without one, or with `*`); refuse any other (412)."""
    condition = request.if_match
    if not condition or condition.star_tag:
        return None
    tags = list(condition.as_set())  # strong tags; an empty one ("") reads as None
    version = tag_version(tags[0]) if len(tags) == 1 else None
    if version is None:
        raise services.PreconditionFailed("This If-Match does not name a version of this match.")
    return version


@bp.delete("/matches/<int:match_id>/deals/<int:number>")
def delete_deal(match_id: int, number: int) -> Reply:
    """Delete the last deal (only the last one can be deleted)."""
    match = _one(match_id)
    return _answer(services.delete_last_deal(match, number, _expected_version()), 200)


@bp.post("/matches/<int:match_id>/share")
def share_match(match_id: int) -> Reply:
    """Make the match's read-only live link; a new one replaces any older one, which stops working."""
    from .share import live_address

    match = _one(match_id)
    secret = services.share_match(match, _expected_version())
    return jsonify({"url": live_address(secret, match.share_preview).url}), 201


@bp.delete("/matches/<int:match_id>/share")
def stop_sharing(match_id: int) -> Reply:
    """Stop the match's live link: it answers 404 from now on."""
    services.stop_sharing(_one(match_id), _expected_version())
    return Response(status=204), 204


@bp.post("/matches/<int:match_id>/entry-link")
def open_entry_link(match_id: int) -> Reply:
    """Make the match's entry link, with its QR code; a new one replaces any older one, which stops at once."""
    from .table import join_address

    address = join_address(services.open_entry_link(_one(match_id), _expected_version())).url
    return jsonify({"url": address, "qr_svg": str(qr_svg(address, "QR code of the entry link"))}), 201


@bp.delete("/matches/<int:match_id>/entry-link")
def stop_entry_link(match_id: int) -> Reply:
    """Stop the match's entry link: the phones that joined through it are shut out at once."""
    services.stop_entry_link(_one(match_id), _expected_version())
    return Response(status=204), 204
