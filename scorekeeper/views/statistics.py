"""Across sessions: leaderboards, head-to-head, and the figures as CSV."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, date, datetime, timedelta

from flask import Blueprint, Response, render_template, request
from flask_babel import gettext
from flask_login import current_user

from .. import services
from ..figures import pairs, reads
from ..forms import whole_number
from ..pages import boards, lists
from ..reads import matches as shown_matches
from ..reads import queries
from ..reads.documents import match_document
from ..registry import GAMES

bp = Blueprint("statistics", __name__, url_prefix="/stats")


def _day(text: str | None) -> datetime | None:
    try:
        return datetime.strptime(text or "", "%Y-%m-%d").replace(tzinfo=UTC)
    except ValueError:
        return None


def _day_after(day: datetime | None) -> datetime | None:
    """Return when the day after `day` starts: the end of a range that includes `day` (None: no end)."""
    if day is None or day.date() == date.max:  # 9999-12-31 has no day after it
        return None
    return day + timedelta(days=1)


def _board(game: str) -> tuple[list[reads.Standing], dict[str, object]]:
    if game not in GAMES:
        raise services.NotFound(gettext("There is no such game."))
    period = request.args.get("period", "all")
    period = period if period in reads.PERIODS else "all"
    start, end = _day(request.args.get("from")), _day(request.args.get("to"))
    since, until = reads.period_bounds(period, start, _day_after(end), datetime.now(UTC))
    minimum = whole_number(request.args.get("min")) or 1
    sort = request.args.get("sort", "win_rate")
    sort = sort if sort in reads.LEADERBOARD_COLUMNS else "win_rate"
    descending = request.args.get("dir", "desc" if sort != "name" else "asc") != "asc"
    standings = reads.leaderboard(current_user, game, since, until, minimum, sort, descending)
    chosen = {
        "game": game,
        "period": period,
        "from": request.args.get("from", ""),
        "to": request.args.get("to", ""),
        "min": minimum,
        "sort": sort,
        "dir": "desc" if descending else "asc",
    }
    return standings, chosen


@bp.get("/<game>")
def leaderboard(game: str) -> str:
    """Show a game's leaderboard, filtered by period and a minimum of matches, sorted by any column."""
    standings, chosen = _board(game)
    return render_template(
        "statistics/leaderboard.html",
        standings=standings,
        chosen=chosen,
        games=GAMES.values(),
        columns=reads.LEADERBOARD_COLUMNS,
        standing_rows=lists.standing_rows,
    )


#: What makes a spreadsheet read a cell as a formula (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(cell: object) -> object:
    """Return a text cell that a spreadsheet would run as a formula with a ' in front, so it shows as typed.

    Numbers stay numbers (a negative Pocha score is no formula); names and summaries are text.
    """
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS):
        return "'" + cell
    return cell


def csv_answer(rows: list[list[object]], filename: str) -> Response:
    """Answer with rows as a CSV file to download, each text cell kept from running as a formula."""
    buffer = io.StringIO()
    csv.writer(buffer).writerows([[spreadsheet_safe(cell) for cell in row] for row in rows])
    return Response(
        buffer.getvalue(), mimetype="text/csv", headers={"Content-Disposition": f'attachment; filename="{filename}"'}
    )


@bp.get("/<game>.csv")
def leaderboard_csv(game: str) -> Response:
    """The leaderboard as shown, as CSV."""
    standings, _ = _board(game)
    rows: list[list[object]] = [["player", "matches", "won", "win_rate", "average_deal", "rating"]]
    rows += [
        [
            s.name,
            s.matches,
            s.won,
            round(s.win_rate, 4),
            "" if s.average_deal is None else round(s.average_deal, 2),
            "" if s.rating is None else round(s.rating, 2),
        ]
        for s in standings
    ]
    return csv_answer(rows, f"leaderboard-{game}.csv")


@bp.get("/head-to-head")
def head_to_head() -> str:
    """Show every match two players shared and each one's wins; in Tute for four, their record as partners."""
    first_id, second_id = whole_number(request.args.get("a")), whole_number(request.args.get("b"))
    first = queries.player_for(current_user, first_id) if first_id else None
    second = queries.player_for(current_user, second_id) if second_id else None
    rivalry = shared = None
    if first and second and first != second:
        rivalry = pairs.rivalry(current_user, first, second)
        shared = pairs.head_to_head(first, second, rivalry.shared, whole_number(request.args.get("page")) or 1)
    return render_template(
        "statistics/head_to_head.html",
        first=first,
        second=second,
        rivalry=rivalry,
        shared=shared,
        players=queries.player_choices(current_user),
        shared_cards=lists.shared_cards,
    )


@bp.get("/matches/<int:match_id>.csv")
def match_csv(match_id: int) -> Response:
    """A match's deal table as CSV: each deal's scores and the running totals."""
    board = boards.scoreboard(shown_matches.match_to_show_for(current_user, match_id))
    header: list[object] = ["deal", "dealer", "summary"]
    header += [f"{name} score" for name in board.side_names] + [f"{name} total" for name in board.side_names]
    rows = [header] + [[row.number, row.dealer, row.summary, *row.scores, *row.running] for row in board.rows]
    return csv_answer(rows, f"match-{match_id}.csv")


@bp.get("/export.json")
def account_json() -> Response:
    """The whole account's matches as match documents, with their status, dates and notes."""
    matches = queries.matches(current_user, with_deals=True)
    body = [
        {
            "id": m.id,
            "status": m.status,
            "created_at": m.created_at.isoformat(),
            "note": m.note,
            "match": match_document(m),
        }
        for m in reversed(matches)
    ]
    response = Response(json.dumps({"matches": body}, ensure_ascii=False, indent=1), mimetype="application/json")
    response.headers["Content-Disposition"] = 'attachment; filename="scorekeeper-matches.json"'
    return response
