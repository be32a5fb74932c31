"""The running sums of each player's finished results in a game, which the seasons' tables read
(`PlayerResult.run_*`): added on top for a match that has just finished as its players' latest,
worked out again from their results otherwise.

The write side, called by `upkeep` only.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from sqlalchemy import bindparam, case, func, select, update

from ..db.sql import fixed_limit
from ..extensions import db
from ..models import FINISHED, Player, PlayerResult
from .rows import RUNNING

_results = PlayerResult.__table__

#: Each player's running sums in a game at their latest finished result outside a match, in one query.
_LATEST_RUN_ID = (
    select(_results.c.id)
    .where(
        _results.c.player_id == Player.id,
        _results.c.game == bindparam("game"),
        _results.c.status == FINISHED,
        _results.c.match_id != bindparam("match_id"),
    )
    .order_by(_results.c.played_at.desc(), _results.c.match_id.desc())
    .limit(fixed_limit(1))
    .correlate(Player)
    .scalar_subquery()
)
_LATEST_RUNS = select(_results.c.player_id, *[_results.c[name] for name in RUNNING]).where(
    _results.c.id.in_(select(_LATEST_RUN_ID).where(Player.id.in_(bindparam("players", expanding=True))))
)
_SET_MATCH_RUNNING = (
    update(_results)
    .where(_results.c.match_id == bindparam("at_match"), _results.c.seat == bindparam("at_seat"))
    .values({name: bindparam(name) for name in RUNNING})
)
_SET_RUNNING = (
    update(_results)
    .where(_results.c.id == bindparam("at_id"))
    .values({name: bindparam(name) for name in RUNNING})
    .execution_options(synchronize_session=False)
)


def add_running_sums(game: str, rows: Sequence[Mapping[str, Any]]) -> None:
    """Give a match that has just finished, the latest finished match of each of its players in
    `game`, its results' running sums: each player's latest ones before it, plus this match."""
    first = rows[0]
    before = {
        player_id: sums
        for player_id, *sums in db.session.execute(
            _LATEST_RUNS,
            {"game": game, "match_id": first["match_id"], "players": [row["player_id"] for row in rows]},
        )
    }
    moves = []
    for row in rows:
        finished, won, shared, points = before.get(row["player_id"], (0, 0, 0, 0))
        moves.append(
            {
                "at_match": row["match_id"],
                "at_seat": row["seat"],
                "run_finished": finished + 1,
                "run_won": won + int(row["won"]),
                "run_shared": shared + int(row["shared"]),
                "run_points": points + row["total"],
            }
        )
    db.session.execute(_SET_MATCH_RUNNING, moves)


def run_up(user_id: int, game: str, player_ids: Collection[int]) -> None:
    """Work out again the running sums of these players' results in `game` (on a finished result, the
    sums of their finished ones up to it in the order they ended, then by match; 0 on the others),
    and write those that moved: one query, and one statement when any did."""
    if not player_ids:
        return
    finished = PlayerResult.status == FINISHED

    def summed(value: Any) -> Any:
        window = func.sum(case((finished, value), else_=0)).over(
            partition_by=PlayerResult.player_id,
            order_by=(PlayerResult.played_at, PlayerResult.match_id),
            rows=(None, 0),
        )
        return case((finished, window), else_=0)

    query = select(
        PlayerResult.id,
        *[getattr(PlayerResult, name) for name in RUNNING],
        summed(1),
        summed(case((PlayerResult.won, 1), else_=0)),
        summed(case((PlayerResult.shared, 1), else_=0)),
        summed(PlayerResult.total),
    ).where(PlayerResult.user_id == user_id, PlayerResult.game == game, PlayerResult.player_id.in_(player_ids))
    moved = []
    for result_id, *kept_and_summed in db.session.execute(query):
        kept, sums = kept_and_summed[: len(RUNNING)], [int(value) for value in kept_and_summed[len(RUNNING) :]]
        if kept != sums:
            moved.append({"at_id": result_id, **dict(zip(RUNNING, sums))})
    if moved:
        db.session.execute(_SET_RUNNING, moved)
