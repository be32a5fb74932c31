"""The rows of one match's figures and the ratings, built in Python from a match's facts and the
engine's result (no SQL): what `upkeep` stores.

Nothing here scores: the engine's result says who won and what each side totalled; this
module only counts what the stored deals say (each game's figures, `Game.figures`) and
keeps the ratings, with the maintained `openskill` package (Plackett–Luce).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from openskill.models import PlackettLuce, PlackettLuceRating

from ..models import ABANDONED, FINISHED, Match
from ..registry import get_game
from ..rules import MatchResult


def result_rows(
    match: Match, result: MatchResult, deals: Sequence[Mapping[str, Any]] | None = None
) -> list[dict[str, Any]]:
    """Return one row of figures per seat of `match` (the columns of PlayerResult); with `deals`,
    for those deals' facts rather than the ones the match holds."""
    facts = [deal.data for deal in match.deals] if deals is None else deals
    return seat_rows(
        match.user_id,
        match.id,
        match.game,
        match.status,
        match.ended_at or match.created_at,
        [(seat.seat, seat.player_id) for seat in match.seats],
        facts,
        result,
    )


def seat_rows(
    user_id: int,
    match_id: int,
    game: str,
    status: str,
    played_at: datetime,
    seats: Sequence[tuple[int, int]],
    deals: Sequence[Mapping[str, Any]],
    result: MatchResult,
) -> list[dict[str, Any]]:
    """Return one row of figures per (seat, player) of a match told by its facts (the columns of PlayerResult)."""
    engine = get_game(game)
    side_of = {seat: index for index, side in enumerate(result.sides) for seat in side}
    finished = result.finished and status != ABANDONED
    winners = set(result.winners) if finished else set()
    rows = []
    for seat, player_id in seats:
        side = side_of[seat]
        row: dict[str, Any] = {
            "user_id": user_id,
            "match_id": match_id,
            "player_id": player_id,
            "game": game,
            "seat": seat,
            "side": side,
            "status": status,
            "won": side in winners,
            "shared": side in winners and len(winners) > 1,
            "played_at": played_at,
            "comeback": engine.comeback(result, side) if side in winners else 0,
            "deals": len(result.deals),
            "total": result.totals[side],
            "juegos": None if result.juegos is None else result.juegos[side],
        }
        tallies = dict.fromkeys(engine.figures, 0)
        for deal in deals:
            for figure, count in engine.seat_tallies(deal, seat, side).items():
                tallies[figure] += count
        row["tallies"] = tallies
        rows.append(row)
    return rows


#: The running sums a finished result keeps (see `PlayerResult`).
RUNNING = ("run_finished", "run_won", "run_shared", "run_points")


def count_running(rows: Sequence[dict[str, Any]]) -> None:
    """Give result rows their running sums, counted among these rows alone: each player's finished
    results of a game in the order they ended (then by match), 0 on the others. Right when the rows'
    players have no other finished result in those games (an import into a new account)."""
    sums: dict[tuple[int, str], list[int]] = {}
    for row in sorted(rows, key=lambda row: (row["played_at"], row["match_id"])):
        if row["status"] != FINISHED:
            row.update(dict.fromkeys(RUNNING, 0))
            continue
        kept = sums.setdefault((row["player_id"], row["game"]), [0, 0, 0, 0])
        for index, count in enumerate((1, int(row["won"]), int(row["shared"]), row["total"])):
            kept[index] += count
        row.update(zip(RUNNING, kept))


def rating_rows(matches: Iterable[Match], start: Mapping[int, tuple[float, float]]) -> list[dict[str, Any]]:
    """Rate finished matches in the order given (from their cached results), each player starting
    from their (mu, sigma) in `start` or new; return one row per player per match."""
    model = PlackettLuce()
    current: dict[int, PlackettLuceRating] = {
        player: model.rating(mu=mu, sigma=sigma, name=str(player)) for player, (mu, sigma) in start.items()
    }
    rows = []
    for match in matches:
        result = match.result or {}
        if match.status != FINISHED or not result.get("finished"):
            continue
        sides = result["sides"]
        teams = [
            [
                current.setdefault(seat_player(match, seat), model.rating(name=str(seat_player(match, seat))))
                for seat in side
            ]
            for side in sides
        ]
        ranks: list[float] = [float(place) for place in get_game(match.game).ranks(MatchResult.from_dict(result))]
        rated = model.rate(teams, ranks=ranks)
        for side, team in zip(sides, rated):
            for seat, rating in zip(side, team):
                player = seat_player(match, seat)
                current[player] = rating
                rows.append(
                    {
                        "user_id": match.user_id,
                        "player_id": player,
                        "match_id": match.id,
                        "game": match.game,
                        "rated_at": match.ended_at or match.updated_at,
                        "mu": rating.mu,
                        "sigma": rating.sigma,
                        "ordinal": rating.ordinal(),
                    }
                )
    return rows


def seat_player(match: Match, seat: int) -> int:
    """Return the player sitting at `seat`."""
    return next(s.player_id for s in match.seats if s.seat == seat)
