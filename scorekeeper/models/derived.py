"""Derived tables: each player's result per match, ratings, summaries per game, pair records, and the
years at the table as last read.

None of them is a fact: the services write them in the same transaction as the deals they
follow from, and `flask --app scorekeeper recompute` rebuilds them from the deals.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from .base import GAME_NAME_LENGTH, Model, UTCDateTime


class DealCounts:
    """What is counted deal by deal, as the game declares it (`Game.figures`: Tute's cantes, tutes and
    last tricks, Pocha's bids against tricks...), by figure name: for one match in a player's result,
    summed over finished matches in their summary. A game's figures need no column of their own."""

    tallies: Mapped[dict[str, int]] = mapped_column(JSON, default=dict)


class PlayerResult(DealCounts, Model):
    """Derived: what one player did in one match, for the statistics pages.

    Written with the match's facts in the same transaction, and rebuilt from them by
    `flask --app scorekeeper recompute`; never edited on its own.
    """

    __tablename__ = "player_results"
    __table_args__ = (
        UniqueConstraint("match_id", "seat"),
        Index("ix_player_results_user_id_game", "user_id", "game"),
        Index("ix_player_results_player_id_game", "player_id", "game"),
        # A player's matches newest first, for head-to-head's pages.
        Index("ix_player_results_player_id_played_at", "player_id", "played_at", "match_id"),
        # A player's finished matches of a game in the order they ended, for a season's running sums.
        Index("ix_player_results_running", "player_id", "game", "status", "played_at", "match_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(GAME_NAME_LENGTH))
    seat: Mapped[int] = mapped_column()
    side: Mapped[int] = mapped_column()
    status: Mapped[str] = mapped_column(String(10))
    #: Finished, and this player's side among the winners (ties for first each count).
    won: Mapped[bool] = mapped_column(default=False)
    #: Won, and another side won too: a tie for first.
    shared: Mapped[bool] = mapped_column(default=False)
    played_at: Mapped[datetime] = mapped_column(UTCDateTime)
    deals: Mapped[int] = mapped_column(default=0)
    total: Mapped[int] = mapped_column(default=0)
    juegos: Mapped[int | None] = mapped_column()
    #: On a finished result: the player's finished matches of this game up to this one (in the
    #: order they ended, then by match), and how many of them they won, won shared, and the sum
    #: of their totals. Any season's figures are then the difference of two rows, found in two
    #: steps down `ix_player_results_running`, however long the history. 0 on the others.
    run_finished: Mapped[int] = mapped_column(default=0)
    run_won: Mapped[int] = mapped_column(default=0)
    run_shared: Mapped[int] = mapped_column(default=0)
    run_points: Mapped[int] = mapped_column(default=0)
    #: On a result won on the running totals: the most points the player's side trailed the side
    #: ahead by after any deal (`MatchResult.comeback`), the deficit turned into a win. 0 on the others.
    comeback: Mapped[int] = mapped_column(default=0, server_default="0")


class PlayerRating(Model):
    """Derived: a player's skill rating in a game after one finished match (openskill, Plackett–Luce)."""

    __tablename__ = "player_ratings"
    __table_args__ = (
        UniqueConstraint("match_id", "player_id"),
        # A player's ratings in a game in order, read from the index alone (the latest: one step).
        Index(
            "ix_player_ratings_player_id_game_rated_at_ordinal", "player_id", "game", "rated_at", "match_id", "ordinal"
        ),
        # An account's ratings in a game from a match on, to be redone.
        Index("ix_player_ratings_user_id_game_rated_at", "user_id", "game", "rated_at", "match_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(GAME_NAME_LENGTH))
    rated_at: Mapped[datetime] = mapped_column(UTCDateTime)
    mu: Mapped[float] = mapped_column()
    sigma: Mapped[float] = mapped_column()
    #: The conservative estimate shown to players (mu - 3 sigma).
    ordinal: Mapped[float] = mapped_column()


class PlayerSummary(DealCounts, Model):
    """Derived: one player's figures in one game over every match they sat in, for the player page
    and the all-time leaderboard (which then read one row, not the whole history).

    Moved by one match whenever a match of theirs starts, is abandoned or finishes as their
    latest; aggregated again from `player_results` when one finishes before a later one of theirs,
    is reopened, corrected after it finished, or deleted; never edited on its own.
    """

    __tablename__ = "player_summaries"
    __table_args__ = (
        UniqueConstraint("player_id", "game"),
        Index("ix_player_summaries_user_id_game", "user_id", "game"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(GAME_NAME_LENGTH))
    played: Mapped[int] = mapped_column(default=0)
    won: Mapped[int] = mapped_column(default=0)
    abandoned: Mapped[int] = mapped_column(default=0)
    unfinished: Mapped[int] = mapped_column(default=0)
    finished: Mapped[int] = mapped_column(default=0)
    #: The sums below count finished matches only.
    deals: Mapped[int] = mapped_column(default=0)
    points: Mapped[int] = mapped_column(default=0)
    juegos: Mapped[int] = mapped_column(default=0)
    best_total: Mapped[int | None] = mapped_column()
    best_match_id: Mapped[int | None] = mapped_column()
    worst_total: Mapped[int | None] = mapped_column()
    worst_match_id: Mapped[int | None] = mapped_column()
    current_streak: Mapped[int] = mapped_column(default=0)
    longest_streak: Mapped[int] = mapped_column(default=0)
    #: The last finished matches, newest first: W for a win, L otherwise.
    recent: Mapped[str] = mapped_column(String(10), default="")


class PlayerPair(Model):
    """Derived: what two players' shared matches add up to, for head-to-head (each pair once, lower id first).

    Kept together with the players' summaries (its figures are plain sums, so a match that was
    not over moves it by itself); never edited on its own.
    """

    __tablename__ = "player_pairs"
    __table_args__ = (UniqueConstraint("first_id", "second_id"), Index("ix_player_pairs_user_id", "user_id"))

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    first_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    second_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    #: Matches both sat in, whatever their status.
    shared: Mapped[int] = mapped_column(default=0)
    #: Finished matches on opposite sides, and those of them that each one won.
    met: Mapped[int] = mapped_column(default=0)
    first_wins: Mapped[int] = mapped_column(default=0)
    second_wins: Mapped[int] = mapped_column(default=0)
    #: Finished matches as partners (Tute for four), and how many of them they won.
    together: Mapped[int] = mapped_column(default=0)
    together_won: Mapped[int] = mapped_column(default=0)


class YearReview(Model):
    """Derived: what reads a year's results whole, in one time zone, as it was last worked out: the
    year at the table (`figures.years`) of an account or of one of its players, and the standings of
    a season that is over (`figures.seasons`), each a `figure` of the year it ends in.

    A cache, and the only derived table kept lazily: a page that finds no `review` works it out
    and stores it (`services.kept`); any change of a match from a day of the year on, of a
    player, of the nights or a rebuild makes the year's rows stale again (`review` None, `stale`
    one more), so a review worked out meanwhile is not stored. A year that is over is worked
    out once; `flask --app scorekeeper recompute` forgets them all.
    """

    __tablename__ = "year_reviews"
    __table_args__ = (UniqueConstraint("user_id", "year", "zone", "player_id", "figure"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    year: Mapped[int] = mapped_column()
    #: The time zone whose days the year is read in (an IANA name).
    zone: Mapped[str] = mapped_column(String(64))
    #: The player whose year it is; 0 for the whole table's.
    player_id: Mapped[int] = mapped_column(default=0)
    #: What is kept: "year" for the year at the table; a season's standings in a game are named by
    #: the game, the season's days and its league points (`figures.seasons.standings_figure`).
    figure: Mapped[str] = mapped_column(String(64), default="year", server_default="year")
    #: Grows each time the year is made stale: a review is stored only if it did not grow meanwhile.
    stale: Mapped[int] = mapped_column(default=0)
    review: Mapped[dict[str, Any] | None] = mapped_column(JSON)
