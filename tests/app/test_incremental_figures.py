"""A match's change moves its players' summaries, pair records and ratings by that match alone when
it can, and they come out exactly as aggregated again from every result; when it cannot (a match
finishing before another one of its players, a match that was over changing), they are aggregated
again."""

from __future__ import annotations

import random
import uuid
from collections import Counter
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.figures import upkeep
from scorekeeper.models import Match, PlayerSummary, User, utcnow
from scorekeeper.services import matches as service_matches

from .test_upkeep_property import assert_same_tables, derived_tables

PLAYERS = ["Ana", "Luis", "Carmen", "Pedro"]


@pytest.fixture
def paths(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Count which way the upkeep goes: moved by one match (`move_summaries True`, `rate_latest True`), or
    aggregated again (`sum_up`, `pair_up`, `rate_again`, and the moves that said they could not)."""
    counts: Counter[str] = Counter()

    def spy(name: str) -> None:
        function = getattr(upkeep, name)

        def counted(*args: Any, **kwargs: Any) -> Any:
            answer = function(*args, **kwargs)
            counts[name if answer is None else f"{name} {answer}"] += 1
            return answer

        monkeypatch.setattr(upkeep, name, counted)
        if hasattr(service_matches, name):  # a deletion aggregates again from the service itself
            monkeypatch.setattr(service_matches, name, counted)

    for name in ("move_summaries", "move_pairs", "rate_latest", "sum_up", "pair_up", "rate_again"):
        spy(name)
    return counts


def as_a_rebuild_leaves_them(paths: Counter[str]) -> Counter[str]:
    """Require the derived tables to be what a rebuild from the facts makes; return (and forget) the paths taken."""
    taken = Counter(paths)
    kept = derived_tables()
    services.recompute_all()
    assert_same_tables(kept, derived_tables())
    paths.clear()
    return taken


def deal(dealer: int, won_by: int = 0, points: int = 80) -> dict[str, Any]:
    """Return a Tute deal that side `won_by` wins with `points` card points."""
    split = [points, 120 - points] if won_by == 0 else [120 - points, points]
    return {"dealer": dealer, "trump": "oros", "points": split, "last_trick": won_by}


def play(user: User, players: list[str], *deals: dict[str, Any], target: int = 1) -> Match:
    """Start a Tute match (for two or in pairs) and enter its deals."""
    match = services.start_match(user, "tute2" if len(players) == 2 else "tute4", players, {"target": target}, 0)
    for number, entered in enumerate(deals, start=1):
        match = services.add_deal(match, entered, number)
    return match


MOVED = {"move_summaries True": 1, "move_pairs": 1}


def test_matches_finished_in_order_move_the_figures_by_one_match_exactly(app: Flask, paths: Counter[str]) -> None:
    rng = random.Random(5)
    with app.app_context():
        user = services.create_user("ana", "correct horse")
        for step in range(16):
            players = rng.sample(PLAYERS, rng.choice([2, 4]))
            match = services.start_match(user, "tute2" if len(players) == 2 else "tute4", players, {"target": 2}, 0)
            assert as_a_rebuild_leaves_them(paths) == MOVED, f"start {step}"
            if rng.random() < 0.2:
                services.abandon_match(match)
                assert as_a_rebuild_leaves_them(paths) == MOVED, f"abandon {step}"
                continue
            number = 0
            while match.status == "playing":
                number += 1
                match = services.add_deal(match, deal(number % 2, rng.randrange(2), rng.choice([61, 80, 100])), number)
                taken = as_a_rebuild_leaves_them(paths)
                # Only the deal that ends the match touches the summaries, pairs and ratings.
                assert taken == (
                    Counter({**MOVED, "rate_latest True": 1}) if match.status == "finished" else Counter()
                ), f"deal {number} of match {step}"


def test_a_match_finished_before_a_later_match_of_its_players_is_aggregated_again(
    app: Flask, paths: Counter[str]
) -> None:
    with app.app_context():
        user = services.create_user("ana", "correct horse")
        play(user, ["Ana", "Luis"], deal(0))
        tomorrow = utcnow() + timedelta(days=1)
        document = {"game": "tute2", "players": ["Ana", "Carmen"], "options": {"target": 1}, "deals": [deal(0, 1)]}
        services.import_accounts(
            [
                {
                    "username": "ana",
                    "password_hash": "",
                    "created_at": tomorrow,
                    "players": [],
                    "matches": [
                        {
                            "uid": uuid.uuid4().hex,
                            "status": "finished",
                            "first_dealer": 0,
                            "pending": None,
                            "document": document,
                            "created_at": tomorrow,
                            "updated_at": tomorrow,
                            "ended_at": tomorrow,
                            "deal_dates": [(tomorrow, tomorrow)],
                            "note": None,
                        }
                    ],
                }
            ],
            into=user,
        )
        paths.clear()
        play(user, ["Ana", "Luis"], deal(0, 1))  # Ana played one later already: her streak and ratings follow
        taken = as_a_rebuild_leaves_them(paths)
        assert taken["move_summaries False"] == taken["sum_up"] == 1
        assert taken["rate_latest False"] == taken["rate_again"] == 1
        play(user, ["Luis", "Pedro"], deal(0))  # neither played the later match: moved by this one alone
        assert as_a_rebuild_leaves_them(paths) == Counter(
            {"move_summaries True": 2, "move_pairs": 2, "rate_latest True": 1}
        )  # its start and its end


@pytest.mark.parametrize("change", ["undo", "correct", "delete", "correct an older one"])
def test_a_change_to_a_match_that_was_over_aggregates_again(app: Flask, paths: Counter[str], change: str) -> None:
    with app.app_context():
        user = services.create_user("ana", "correct horse")
        first = play(user, ["Ana", "Luis"], deal(0), deal(1, 1), deal(0), target=2)
        last = play(user, ["Ana", "Luis", "Carmen", "Pedro"], deal(0, 1), deal(1, 1), target=2)
        assert first.status == last.status == "finished"
        paths.clear()
        changes: dict[str, Callable[[], Any]] = {
            "undo": lambda: services.undo(last),
            "correct": lambda: services.replace_deal(last, 2, deal(1, 1, 100)),
            "delete": lambda: services.delete_match(last),
            "correct an older one": lambda: services.replace_deal(first, 3, deal(0, 0, 100)),
        }
        changes[change]()
        taken = as_a_rebuild_leaves_them(paths)
        assert taken["sum_up"] == taken["pair_up"] == taken["rate_again"] == 1
        assert not taken["move_summaries True"] and not taken["rate_latest True"]


def test_a_tie_with_the_best_and_worst_match_goes_to_the_earlier_match(app: Flask, paths: Counter[str]) -> None:
    with app.app_context():
        user = services.create_user("ana", "correct horse")
        earlier = services.start_match(user, "tute2", ["Ana", "Luis"], {"target": 1}, 0)
        later = play(user, ["Ana", "Luis"], deal(0, 0, 80))
        services.add_deal(earlier, deal(0, 0, 80), 1)  # the same totals, ended last, started first
        as_a_rebuild_leaves_them(paths)
        summary = db.session.scalar(select(PlayerSummary).where(PlayerSummary.game == "tute2").limit(1))
        assert summary is not None
        assert summary.best_match_id == summary.worst_match_id == earlier.id != later.id
        assert summary.recent in ("WW", "LL") and summary.finished == 2


def test_streaks_and_the_latest_results_follow_each_finished_match(app: Flask, paths: Counter[str]) -> None:
    with app.app_context():
        user = services.create_user("ana", "correct horse")
        wins = [True, True, False, True, True, True, False] + [True] * 6
        for won in wins:
            play(user, ["Ana", "Luis"], deal(0, 0 if won else 1))
            as_a_rebuild_leaves_them(paths)
        ana = db.session.scalar(
            select(PlayerSummary)
            .join(User, User.id == PlayerSummary.user_id)
            .order_by(PlayerSummary.player_id)
            .limit(1)
        )
        assert ana is not None
        assert (ana.current_streak, ana.longest_streak) == (6, 6)
        assert ana.recent == "".join("W" if won else "L" for won in reversed(wins))[:10]
