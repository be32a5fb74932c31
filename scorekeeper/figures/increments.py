"""One match's change added to its players' summaries, pair records and ratings, without aggregating
their careers again.

The write side, called by `upkeep` only. A summary's counts and sums, and a pair's record, are
plain sums over the results: the match's new contribution minus its old one keeps them exact,
whatever the change. A summary's other figures are not sums: the best and worst match take one
more candidate exactly, but the streaks and the latest ten results follow the order matches were
played in, so they take a new finished match exactly only when it is its player's latest. Each
function here says whether it could; when it could not (a correction of a match that was already
over, a match finished before another one of its players), the caller aggregates again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import and_, bindparam, exists, insert, or_, select, update

from ..db.sql import fixed_limit
from ..extensions import db
from ..models import ABANDONED, FINISHED, PLAYING, Match, Player, PlayerPair, PlayerRating, PlayerResult, PlayerSummary
from ..registry import get_game
from .aggregate import COUNTS, RECENT
from .rows import rating_rows

#: A summary's figures that are not plain sums over the results.
_ORDERED = (
    "best_total",
    "best_match_id",
    "worst_total",
    "worst_match_id",
    "current_streak",
    "longest_streak",
    "recent",
)
#: A pair's figures, all plain sums.
_PAIR_COUNTS = ("shared", "met", "first_wins", "second_wins", "together", "together_won")

_summaries = PlayerSummary.__table__
_pairs = PlayerPair.__table__
_results = PlayerResult.__table__
_ratings = PlayerRating.__table__


def at_or_after(moment: Any, ident: Any, at: Any, at_id: Any, *, strictly: bool = False) -> Any:
    """Return the condition (moment, ident) >= (at, at_id) (> when `strictly`), with the bound on `moment`
    alone in front: SQLite plans a bare OR over an index on (..., moment) as a walk of every entry."""
    return and_(moment >= at, or_(moment > at, ident > at_id if strictly else ident >= at_id))


def before(moment: Any, ident: Any, at: Any, at_id: Any) -> Any:
    """Return the condition (moment, ident) < (at, at_id), bounded on `moment` alone first (see `at_or_after`)."""
    return and_(moment <= at, or_(moment < at, ident < at_id))


#: The players' summaries in a game, each with whether the player has a finished result played
#: after (played_at, match_id): then a match finishing at that point is not their latest.
_KEPT_SUMMARIES = select(
    _summaries,
    exists()
    .where(
        _results.c.player_id == _summaries.c.player_id,
        _results.c.game == bindparam("game"),
        _results.c.status == FINISHED,
        at_or_after(
            _results.c.played_at, _results.c.match_id, bindparam("played_at"), bindparam("match_id"), strictly=True
        ),
    )
    .label("later"),
).where(
    _summaries.c.user_id == bindparam("user_id"),
    _summaries.c.game == bindparam("game"),
    _summaries.c.player_id.in_(bindparam("players", expanding=True)),
)

_UPDATE_SUMMARY = (
    update(_summaries)
    .where(_summaries.c.id == bindparam("at_id"))
    .values({name: bindparam(name) for name in (*COUNTS, "tallies", *_ORDERED)})
)

_KEPT_PAIRS = select(_pairs.c.first_id, _pairs.c.second_id).where(
    _pairs.c.user_id == bindparam("user_id"),
    _pairs.c.first_id.in_(bindparam("players", expanding=True)),
    _pairs.c.second_id.in_(bindparam("players", expanding=True)),
)

_MOVE_PAIR = (
    update(_pairs)
    .where(_pairs.c.first_id == bindparam("at_first"), _pairs.c.second_id == bindparam("at_second"))
    .values({name: _pairs.c[name] + bindparam(f"add_{name}") for name in _PAIR_COUNTS})
)

#: Each player's latest rating in a game, with when it was made, in one query.
_LATEST_RATING_ID = (
    select(_ratings.c.id)
    .where(_ratings.c.player_id == Player.id, _ratings.c.game == bindparam("game"))
    .order_by(_ratings.c.rated_at.desc(), _ratings.c.match_id.desc())
    .limit(fixed_limit(1))
    .correlate(Player)
    .scalar_subquery()
)
_LATEST_RATINGS = select(
    _ratings.c.player_id, _ratings.c.mu, _ratings.c.sigma, _ratings.c.rated_at, _ratings.c.match_id
).where(_ratings.c.id.in_(select(_LATEST_RATING_ID).where(Player.id.in_(bindparam("players", expanding=True)))))


def summary_counts(status: str | None, row: Mapping[str, Any] | None = None) -> dict[str, int]:
    """Return what one player's result in a match adds to their summary's counts and sums.

    Without `row`, the result of a match with that status that is not over (its sums count nothing).
    """
    counts = dict.fromkeys(COUNTS, 0)
    if status is None:
        return counts
    counts.update(
        played=1,
        abandoned=int(status == ABANDONED),
        unfinished=int(status == PLAYING),
        finished=int(status == FINISHED),
    )
    if row is not None and status == FINISHED:
        counts.update(
            won=int(row["won"]),
            deals=row["deals"],
            points=row["total"],
            juegos=row["juegos"] or 0,
        )
    return counts


def summary_tallies(status: str | None, row: Mapping[str, Any] | None = None) -> dict[str, int]:
    """Return what one player's result in a match adds to their summary's sums of the game's figures
    (a finished match's counts; nothing for a match that is not over)."""
    return dict(row["tallies"]) if row is not None and status == FINISHED else {}


def pair_counts(first: Mapping[str, Any], second: Mapping[str, Any]) -> dict[str, int]:
    """Return what one match adds to the record of two of its players (`first` the lower id)."""
    apart, finished = first["side"] != second["side"], first["status"] == FINISHED
    return {
        "shared": 1,
        "met": int(apart and finished),
        "first_wins": int(apart and first["won"]),
        "second_wins": int(apart and second["won"]),
        "together": int(not apart and finished),
        "together_won": int(not apart and first["won"]),
    }


def move_summaries(user_id: int, game: str, before: str | None, rows: Sequence[Mapping[str, Any]]) -> bool:
    """Move the players' summaries in `game` by the match's change to `rows` from status `before`; say whether it could.

    `before` is the match's status before the change (None for a new match), never finished.
    """
    assert before != FINISHED
    first = rows[0]
    finished = first["status"] == FINISHED
    kept = {
        row.player_id: row
        for row in db.session.execute(
            _KEPT_SUMMARIES,
            {
                "user_id": user_id,
                "game": game,
                "players": [row["player_id"] for row in rows],
                "played_at": first["played_at"],
                "match_id": first["match_id"],
            },
        )
    }
    if (finished and any(row.later for row in kept.values())) or (before is not None and len(kept) < len(rows)):
        return False
    old = summary_counts(before)
    figures_of = list(get_game(game).figures)
    updates, inserts = [], []
    for row in rows:
        summary = kept.get(row["player_id"])
        figures: dict[str, Any] = (
            {name: getattr(summary, name) for name in (*COUNTS, *_ORDERED)}
            if summary
            else {
                **dict.fromkeys(COUNTS, 0),
                **dict.fromkeys(_ORDERED),
                "current_streak": 0,
                "longest_streak": 0,
                "recent": "",
            }
        )
        for name, count in summary_counts(row["status"], row).items():
            figures[name] += count - old[name]
        # A match that was not over added nothing to the figures' sums (`before` is never finished).
        tallies = dict(summary.tallies) if summary else dict.fromkeys(figures_of, 0)
        for name, count in summary_tallies(row["status"], row).items():
            tallies[name] = tallies.get(name, 0) + count
        figures["tallies"] = tallies
        if finished:
            _add_finished(figures, row)
        if summary is None:
            inserts.append({"user_id": user_id, "player_id": row["player_id"], "game": game, **figures})
        else:
            updates.append({"at_id": summary.id, **figures})
    if updates:
        db.session.execute(_UPDATE_SUMMARY, updates)
    if inserts:
        db.session.execute(insert(_summaries), inserts)
    return True


def _add_finished(figures: dict[str, Any], row: Mapping[str, Any]) -> None:
    """Add a finished match, the player's latest, to a summary's best, worst, streaks and latest results."""
    total, match_id = row["total"], row["match_id"]
    # As the aggregation ranks them: the highest (lowest) total, the earliest match on a tie.
    if figures["best_total"] is None or (-total, match_id) < (-figures["best_total"], figures["best_match_id"]):
        figures.update(best_total=total, best_match_id=match_id)
    if figures["worst_total"] is None or (total, match_id) < (figures["worst_total"], figures["worst_match_id"]):
        figures.update(worst_total=total, worst_match_id=match_id)
    if row["won"]:
        figures["current_streak"] += 1
        figures["longest_streak"] = max(figures["longest_streak"], figures["current_streak"])
    else:
        figures["current_streak"] = 0
    figures["recent"] = ("W" if row["won"] else "L") + figures["recent"][: RECENT - 1]


def move_pairs(user_id: int, before: str | None, rows: Sequence[Mapping[str, Any]]) -> None:
    """Move the records of every pair of the match's players by its change to `rows` from status `before`.

    `before` is the match's status before the change (None for a new match), never finished: what
    the match added then was one shared match and nothing else.
    """
    assert before != FINISHED
    ordered = sorted(rows, key=lambda row: row["player_id"])
    moves = []
    for index, first in enumerate(ordered):
        for second in ordered[index + 1 :]:
            counts = pair_counts(first, second)
            if before is not None:
                counts["shared"] -= 1
            if any(counts.values()):
                moves.append(
                    {
                        "at_first": first["player_id"],
                        "at_second": second["player_id"],
                        **{f"add_{name}": count for name, count in counts.items()},
                    }
                )
    if not moves:
        return
    missing = []
    if before is None:  # a new match: its players may never have shared one
        kept = set(db.session.execute(_KEPT_PAIRS, {"user_id": user_id, "players": [row["player_id"] for row in rows]}))
        missing = [move for move in moves if (move["at_first"], move["at_second"]) not in kept]
        moves = [move for move in moves if (move["at_first"], move["at_second"]) in kept]
    if moves:
        db.session.execute(_MOVE_PAIR, moves)
    if missing:
        db.session.execute(
            insert(_pairs),
            [
                {
                    "user_id": user_id,
                    "first_id": move["at_first"],
                    "second_id": move["at_second"],
                    **{name: move[f"add_{name}"] for name in _PAIR_COUNTS},
                }
                for move in missing
            ],
        )


def latest_ratings(game: str, players: Sequence[int]) -> list[Any]:
    """Return each player's latest rating in `game` as (player_id, mu, sigma, rated_at, match_id), in one query."""
    if not players:
        return []
    return list(db.session.execute(_LATEST_RATINGS, {"game": game, "players": list(players)}))


def rate_latest(match: Match) -> bool:
    """Rate a match that has just finished on top of its players' latest ratings; say whether it could.

    It can when none of its players has a rating from a match that ended after it: the matches
    rated after it then share no player with it, and rating them again would change nothing.
    """
    assert match.ended_at is not None
    key = (match.ended_at, match.id)
    latest = latest_ratings(match.game, [seat.player_id for seat in match.seats])
    if any((rated_at, rated_match) >= key for _player, _mu, _sigma, rated_at, rated_match in latest):
        return False
    start = {player: (mu, sigma) for player, mu, sigma, _at, _match in latest}
    db.session.execute(insert(_ratings), rating_rows([match], start))
    return True
