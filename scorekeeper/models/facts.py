"""Tables that store facts: accounts, their sign-ins and API tokens, players, matches, seats, deals, entry links
and the seasons an account names.

Scores are never stored as facts: a match keeps its raw deals, and `Match.result` is a
cache of what the rules engine derives from them, written in the same transaction and
rebuilt by `flask --app scorekeeper recompute`.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from flask_login import UserMixin
from sqlalchemy import JSON, Date, ForeignKey, Index, Integer, String, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .base import (
    DEFAULT_NIGHT_GAP_HOURS,
    GAME_NAME_LENGTH,
    NAME_KEY_LENGTH,
    NOTE_ROOM,
    PLAYING,
    Model,
    UTCDateTime,
    utcnow,
)

#: The tables whose ids a session, a link, a token or an address holds: SQLite must never hand one
#: out again once its row is deleted (without AUTOINCREMENT it reuses the highest id), or a phone
#: that held a deleted match's id would reach the next match made. PostgreSQL's sequences never do.
NEVER_REUSED = {"sqlite_autoincrement": True}


class User(UserMixin, Model):
    """An account: one group of friends, or one person, with its own players and matches."""

    __tablename__ = "users"
    __table_args__ = NEVER_REUSED
    # `sign_in_key` below is not a column: it says which browser's sign-in this request came with.
    __allow_unmapped__ = True

    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(40))
    username_key: Mapped[str] = mapped_column(String(NAME_KEY_LENGTH), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    #: The language chosen for the pages (a code of LANGUAGES), or None to follow the browser.
    language: Mapped[str | None] = mapped_column(String(8))
    #: The time zone the pages show times in (an IANA name), or None to follow the browser.
    time_zone: Mapped[str | None] = mapped_column(String(64))
    #: Game nights: a match started less than this many hours after the night's last deal joins it.
    night_gap_hours: Mapped[int] = mapped_column(
        default=DEFAULT_NIGHT_GAP_HOURS, server_default=str(DEFAULT_NIGHT_GAP_HOURS)
    )
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    #: The key of the sign-in (a row of `sign_ins`) this request was made with, when it was.
    sign_in_key: str | None = None

    def get_id(self) -> str:
        """Return what Flask-Login keeps in the session and the remember-me cookie: this browser's sign-in key.

        Not the account's id, so that signing out (which deletes the sign-in) makes a copy
        of either cookie open nothing, as Flask-Login's "alternative tokens" describe.
        """
        if self.sign_in_key is None:
            raise RuntimeError("sign in through services.start_sign_in, which gives the browser its key")
        return self.sign_in_key


class SignIn(Model):
    """A browser signed in to an account; its session and remember-me cookie carry the key, kept here hashed.

    Signing out deletes the row; changing the password or signing out everywhere deletes all
    of the account's rows. A row lives as long as the remember-me cookie, then is forgotten.
    """

    __tablename__ = "sign_ins"
    __table_args__ = NEVER_REUSED

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    user: Mapped[User] = relationship()


class ApiToken(Model):
    """A bearer token for the JSON API; only a hash of it is kept."""

    __tablename__ = "api_tokens"
    __table_args__ = NEVER_REUSED

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(60))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    last_used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    user: Mapped[User] = relationship()


class Player(Model):
    """Someone who plays at the account's table; names are unique within the account."""

    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("user_id", "name_key"), NEVER_REUSED)

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    name_key: Mapped[str] = mapped_column(String(NAME_KEY_LENGTH))
    archived: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Match(Model):
    """One match: its game, house rules, seats and deals as the table entered them."""

    __tablename__ = "matches"
    __table_args__ = (
        Index("ix_matches_user_id_created_at", "user_id", "created_at"),
        # The home page's matches in progress and latest finished ones.
        Index("ix_matches_user_id_status_created_at", "user_id", "status", "created_at"),
        # The finished matches of a game in the order they ended, for the ratings.
        Index("ix_matches_user_id_game_status_ended_at", "user_id", "game", "status", "ended_at"),
        # A night's matches; then the nights themselves (the matches that begin one),
        # newest first, counted and paged on this index alone however long each night.
        Index("ix_matches_user_id_night_id", "user_id", "night_id"),
        # A link's preview finds its match by its key. An index, not a constraint: SQLite adds a
        # column and an index in place, where a constraint rebuilds the table (and drops its
        # AUTOINCREMENT with it).
        Index("ix_matches_share_preview", "share_preview", unique=True),
        Index(
            "ix_matches_user_id_nights",
            "user_id",
            "created_at",
            "id",
            "night_id",
            sqlite_where=text("night_id = id"),
            postgresql_where=text("night_id = id"),
        ),
        NEVER_REUSED,
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    uid: Mapped[str] = mapped_column(String(32), unique=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    game: Mapped[str] = mapped_column(String(GAME_NAME_LENGTH))
    #: House rules that differ from the game's defaults, as a match document names them.
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    #: The seat that deals first (chosen at the table; in tute4 set by who holds the 2 of oros).
    first_dealer: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(10), default=PLAYING)
    #: Pocha: the next deal's bids, entered before play and waiting for the tricks.
    pending: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    #: Grows with every change, so that a page showing an older state can be told apart.
    version: Mapped[int] = mapped_column(default=0)
    #: The rules engine's result for the deals: a cache of derived figures, never a fact.
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    #: While the match is shared: a hash of its live view's secret (the link itself is never kept),
    #: and the random salt from which the owner's phones draw it again (`keys.link_secret`); no salt
    #: for a link made before links were drawn again, which still opens but cannot be shown.
    share_key_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    share_salt: Mapped[str | None] = mapped_column(String(32))
    #: The key of the live view's link preview (a chat app's, in the link's query): random, and
    #: apart from the link's secret, so that it opens the match's card and nothing else.
    share_preview: Mapped[str | None] = mapped_column(String(32))
    #: A short note of the owner's (where, the stake, who brought dinner), or None.
    note: Mapped[str | None] = mapped_column(String(NOTE_ROOM))
    #: The note case-folded, for the history's search (written with the note, as a player's name_key).
    note_key: Mapped[str | None] = mapped_column(String(3 * NOTE_ROOM))
    #: The match this one is the rematch of (ids are never handed out twice, so it names no other
    #: match once that one is deleted): a second *Rematch* goes to this one instead of making another.
    rematch_of: Mapped[int | None] = mapped_column(index=True)
    #: Derived: the id of the first match of this match's game night (see `figures.nights`);
    #: kept by the services and rebuilt by `recompute`, never a fact.
    night_id: Mapped[int | None] = mapped_column()
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    seats: Mapped[list[Seat]] = relationship(
        back_populates="match", order_by="Seat.seat", cascade="all, delete-orphan", lazy="selectin"
    )
    deals: Mapped[list[Deal]] = relationship(
        back_populates="match", order_by="Deal.number", cascade="all, delete-orphan"
    )

    # SQLAlchemy's optimistic lock: an update of a match that changed meanwhile fails
    # (StaleDataError) instead of silently overwriting the other phone's change.
    __mapper_args__ = {"version_id_col": version}

    @property
    def player_names(self) -> list[str]:
        """Return the players' names in seat order."""
        return [seat.player.name for seat in self.seats]


class Seat(Model):
    """Which player sits in which seat of a match; seat order is the order of play."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("match_id", "seat"), UniqueConstraint("match_id", "player_id"))

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column()
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="RESTRICT"), index=True)

    match: Mapped[Match] = relationship(back_populates="seats")
    player: Mapped[Player] = relationship(lazy="joined")


class Deal(Model):
    """One deal of a match, kept exactly as entered (a deal of the match document). The nights read
    a match's last deal and deal count from the index of its deals by time alone."""

    __tablename__ = "deals"
    __table_args__ = (
        UniqueConstraint("match_id", "number"),
        Index("ix_deals_match_id_created_at", "match_id", "created_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column()
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    #: The entry link of the phone that entered the deal; None when the owner entered it.
    entry_link_id: Mapped[int | None] = mapped_column(ForeignKey("entry_links.id", ondelete="SET NULL"))

    match: Mapped[Match] = relationship(back_populates="deals")


class EntryLink(Model):
    """A secret link that lets the phones at the table enter a match's deals; only a hash of it is kept.

    A phone that opens it may, for that one match, see the scoreboard and enter, correct and undo
    deals while the match is played, and read the final scoreboard once it is over, and nothing
    else. Stopping it (or making a new one, or reopening the finished match by an undo) sets
    `stopped_at`; the row stays, so that the deals entered through it still say so.
    """

    __tablename__ = "entry_links"
    __table_args__ = NEVER_REUSED

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    #: The random salt from which the owner's phones draw the link again (`keys.link_secret`);
    #: None for a link made before links were drawn again.
    salt: Mapped[str | None] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    stopped_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class IdempotencyKey(Model):
    """A request already answered: a retried request with the same key gets the same answer.

    A phone that lost its connection sends a deal again with the key it chose the first time;
    the key is stored in the same transaction as the deal, so the deal is never stored twice.
    """

    __tablename__ = "idempotency_keys"
    __table_args__ = (
        UniqueConstraint("user_id", "key"),
        # Old keys are forgotten account by account.
        Index("ix_idempotency_keys_user_id_created_at", "user_id", "created_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    key: Mapped[str] = mapped_column(String(100))
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    #: The API's answer to the first request (the pages keep none: they answer with the scoreboard).
    body: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Season(Model):
    """A season an account names (a league of its own, such as "Liga de otoño" from 1 September to
    30 November): its days, and how its league table counts a match.

    Calendar years are seasons too, with the default points and every match counted; they are
    not stored. A season's table is read from the players' results (`figures.seasons`).
    """

    __tablename__ = "seasons"
    __table_args__ = (
        Index("ix_seasons_user_id_starts_on", "user_id", "starts_on"),
        # One season of a name in an account, names told apart as the players' are. An index, not a
        # constraint: SQLite adds an index in place, where a constraint rebuilds the table.
        Index("ix_seasons_user_id_name_key", "user_id", "name_key", unique=True),
        NEVER_REUSED,
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(60))
    #: The name as names are told apart (`name_key`: case, spaces and composition ignored).
    name_key: Mapped[str] = mapped_column(String(NAME_KEY_LENGTH))
    #: The season's first and last day (both included), in the time zone of whoever looks.
    starts_on: Mapped[date] = mapped_column(Date)
    ends_on: Mapped[date] = mapped_column(Date)
    #: The league points of a match won alone, of a win shared by a tie for first, and of any other.
    win_points: Mapped[int] = mapped_column(default=3)
    shared_points: Mapped[int] = mapped_column(default=1)
    other_points: Mapped[int] = mapped_column(default=0)
    #: Count only each player's best this many matches (None: all of them).
    best_of: Mapped[int | None] = mapped_column()
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
