"""Derived rows kept up to date change by change: ratings are redone only from the change on,
summaries only for the players it concerns, and both always end up as a full rebuild leaves them."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select, update

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.figures import aggregate
from scorekeeper.models import Deal, IdempotencyKey, Match, PlayerPair, PlayerRating, PlayerResult, PlayerSummary

from .sql import statements_sent

PLAYERS = ["Ana", "Luis", "Carmen", "Pedro"]


def ratings_now() -> list[tuple[int, int, float, float]]:
    """Return every rating row as (match, player, mu, sigma)."""
    rows = db.session.execute(
        select(PlayerRating.match_id, PlayerRating.player_id, PlayerRating.mu, PlayerRating.sigma).order_by(
            PlayerRating.match_id, PlayerRating.player_id
        )
    )
    return [tuple(row) for row in rows]  # type: ignore[misc]


def summaries_now() -> list[dict[str, Any]]:
    """Return every summary row as a dict of its figures, in a fixed order."""
    rows = db.session.scalars(select(PlayerSummary).order_by(PlayerSummary.player_id, PlayerSummary.game))
    return [
        {
            column: getattr(row, column)
            for column in (
                "player_id",
                "game",
                *aggregate.COUNTS,
                "best_total",
                "best_match_id",
                "worst_total",
                "worst_match_id",
                "current_streak",
                "longest_streak",
                "recent",
            )
        }
        for row in rows
    ]


def pairs_now() -> list[tuple[int, ...]]:
    """Return every pair record as a tuple of its figures."""
    rows = db.session.scalars(select(PlayerPair).order_by(PlayerPair.first_id, PlayerPair.second_id))
    return [(r.first_id, r.second_id, r.shared, r.first_wins, r.second_wins, r.together, r.together_won) for r in rows]


def deal(rng: random.Random, dealer: int, sides: int = 2) -> dict[str, Any]:
    """Return a played-out Tute deal that any side may win (of two sides, or three in Tute for three)."""
    points = rng.choice([20, 40, 80, 100])
    split = (
        [points, 120 - points] if sides == 2 else rng.choice([[points, 100 - points, 20], [0, points, 120 - points]])
    )
    return {"dealer": dealer, "trump": "oros", "points": split, "last_trick": rng.randrange(sides)}


def finish(rng: random.Random, user: Any) -> Match:
    """Play a one-juego Tute match, for two, for three or in pairs."""
    game = rng.choice(["tute2", "tute3", "tute4"])
    seats = {"tute2": 2, "tute3": 3, "tute4": 4}[game]
    match = services.start_match(user, game, rng.sample(PLAYERS, seats), {"target": 1}, 0)
    return services.add_deal(match, deal(rng, 0, 3 if game == "tute3" else 2), 1)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_change_leaves_the_ratings_and_summaries_a_full_rebuild_would(app: Flask, seed: int) -> None:
    rng = random.Random(seed)
    with app.app_context():
        user = services.create_user("ana", "correct horse")
        for _ in range(6):
            finish(rng, user)
        for step in range(12):
            matches = list(db.session.scalars(select(Match).where(Match.status != "abandoned").order_by(Match.id)))
            match = rng.choice(matches)
            action = rng.choice(
                ["finish", "start", "edit", "undo", "abandon", "delete"] if len(matches) > 3 else ["finish"]
            )
            if action == "finish" or (action == "edit" and not match.deals):
                finish(rng, user)
            elif action == "start":
                services.start_match(user, "tute2", rng.sample(PLAYERS, 2), {"target": 2}, 0)
            elif action == "abandon" and match.status == "playing":
                services.abandon_match(match)
            elif action == "edit":
                services.replace_deal(match, 1, deal(rng, 0, 3 if match.game == "tute3" else 2))
            elif action == "undo":
                services.undo(match)
            elif action == "delete":
                services.delete_match(match)
            kept, summed, paired = ratings_now(), summaries_now(), pairs_now()
            services.recompute_all()
            redone = ratings_now()
            assert summaries_now() == summed, f"after step {step}: {action} of match {match.id}"
            assert pairs_now() == paired, f"after step {step}: {action} of match {match.id}"
            where = f"after step {step}: {action} of match {match.id}"
            assert [row[:2] for row in redone] == [row[:2] for row in kept], where
            assert [v for row in redone for v in row[2:]] == pytest.approx([v for row in kept for v in row[2:]]), where


def test_finishing_the_latest_match_rates_only_that_match(app: Flask) -> None:
    rng = random.Random(4)
    with app.app_context():
        user = services.create_user("ana", "correct horse")
        for _ in range(30):
            finish(rng, user)
        match = services.start_match(user, "tute2", ["Ana", "Luis"], {"target": 1}, 0)
        before = set(db.session.scalars(select(PlayerRating.id)))
        services.add_deal(match, deal(rng, 0), 1)
        assert match.status == "finished"
        after = set(db.session.scalars(select(PlayerRating.id)))
        # The earlier rows stay as they were (a full re-rating would write them all anew).
        assert before < after
        assert db.session.scalars(select(PlayerRating.match_id).where(PlayerRating.id.in_(after - before))).all() == [
            match.id,
            match.id,
        ]


def updates_in(statements: list[str]) -> list[str]:
    """Return the UPDATEs of these statements up to their WHERE, those sent within a WITH included."""
    return [
        found
        for statement in statements
        for found in re.findall(r"UPDATE \w+ SET .*? WHERE", " ".join(statement.split()))
    ]


def test_a_deal_sets_the_status_and_dates_only_when_it_finishes_the_match(app: Flask) -> None:
    # SQLite rewrites the index entries of every column an UPDATE sets, changed or not: a deal of a
    # match still being played leaves the match's status and end, and its results' dates, alone.
    won = {"trump": "oros", "points": [100, 20], "last_trick": 0}
    with app.app_context():
        user = services.create_user("ana", "correct horse")
        match = services.start_match(user, "tute2", ["Ana", "Luis"], {"target": 2}, 0)
        playing = statements_sent(app, lambda: services.add_deal(match, {**won, "dealer": 0}, 1))
        assert match.status == "playing"
        finishing = statements_sent(app, lambda: services.add_deal(match, {**won, "dealer": 1}, 2))
        assert match.status == "finished"
        results = db.session.execute(
            select(PlayerResult.status, PlayerResult.played_at, PlayerResult.deals).where(
                PlayerResult.match_id == match.id
            )
        ).all()
    updates = updates_in(playing)
    assert any(s.startswith("UPDATE matches SET") and "status=" not in s and "ended_at=" not in s for s in updates)
    assert any(s.startswith("UPDATE player_results SET") and "played_at=" not in s and "deals=" in s for s in updates)
    updates = updates_in(finishing)
    assert any(s.startswith("UPDATE matches SET") and "status=" in s and "ended_at=" in s for s in updates)
    assert any(s.startswith("UPDATE player_results SET") and "played_at=" in s for s in updates)
    assert results == [("finished", match.ended_at, 2)] * 2


WON = {"trump": "oros", "points": [100, 20], "last_trick": 0}


def test_a_deal_of_a_match_being_played_is_stored_in_one_statement_where_the_database_can(app: Flask) -> None:
    # Over the network every statement is a round trip: on PostgreSQL the match, the deal, the
    # results, the kept years and the request's key are written by one WITH statement, and the
    # match's deals are read by the one that locks the account. SQLite has no data-modifying WITH,
    # and sends the writes one by one, once it holds its write lock (the account's lock there).
    with app.app_context():
        user = services.create_user("ana", "correct horse")
        match = services.start_match(user, "tute2", ["Ana", "Luis"], {"target": 3}, 0)
        sent = statements_sent(app, lambda: services.add_deal(match, {**WON, "dealer": 0}, 1, "phone-key-1"))
        dialect = db.engine.dialect.name
        deals = db.session.execute(select(Deal.match_id, Deal.number)).all()
        keys = db.session.execute(select(IdempotencyKey.key, IdempotencyKey.match_id)).all()
        results = db.session.execute(
            select(PlayerResult.seat, PlayerResult.deals, PlayerResult.total, PlayerResult.tallies).order_by(
                PlayerResult.seat
            )
        ).all()
        stored_version, match_id, version = db.session.scalar(select(Match.version)), match.id, match.version
    writes = [" ".join(statement.split()[:3]) for statement in sent if not statement.startswith("SELECT")]
    if dialect == "postgresql":
        assert len(writes) == 1 and writes[0].startswith("WITH")
        stored = next(statement for statement in sent if statement.startswith("WITH"))
        assert "UPDATE year_reviews" in " ".join(stored.split())
    else:
        assert writes == [
            "BEGIN IMMEDIATE",
            "UPDATE matches SET",
            "INSERT INTO deals",
            "INSERT INTO idempotency_keys",
            "UPDATE year_reviews SET",
            "UPDATE player_results SET",
        ]
    if dialect == "postgresql":  # the deals, not read yet, are read by the statement that locks the account
        locks = [" ".join(statement.split()) for statement in sent if "FOR NO KEY UPDATE" in statement]
        assert len(locks) == 1 and locks[0].startswith("SELECT deals.data FROM deals")
    assert deals == [(match_id, 1)] and keys == [("phone-key-1", match_id)]
    cantes = {"cantes_20": 0, "cantes_40": 0, "tutes": 0}
    assert [tuple(row) for row in results] == [
        (0, 1, 110, {**cantes, "last_tricks": 1}),
        (1, 1, 20, {**cantes, "last_tricks": 0}),
    ]
    assert stored_version == version


def test_a_deal_of_a_match_changed_meanwhile_stores_nothing(app: Flask) -> None:
    # The match's version check fails: on PostgreSQL the deal, results and key of the same
    # statement were written all the same, and must go back with the rest of the change.
    with app.app_context():
        user = services.create_user("ana", "correct horse")
        match = services.start_match(user, "tute2", ["Ana", "Luis"], {"target": 3}, 0)
        assert match.version  # read: what this phone saw
        with db.engine.begin() as other:  # another phone's change, which this one has not seen
            other.execute(update(Match.__table__).values(version=Match.__table__.c.version + 1))
        with pytest.raises(services.Conflict):
            services.add_deal(match, {**WON, "dealer": 0}, 1, "phone-key-1")
        assert db.session.scalar(select(Deal.id)) is None
        assert db.session.scalar(select(IdempotencyKey.id)) is None
        assert db.session.execute(select(PlayerResult.deals, PlayerResult.total)).all() == [(0, 0), (0, 0)]
