"""The only code that changes data. Each public function is one transaction.

Every change to a match goes through the rules engine first: the whole match document,
with the change applied, is checked and scored, and only then are the facts stored,
with the engine's result cached beside them.
"""

from __future__ import annotations

import re
import secrets
import unicodedata
import uuid
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any, TypeVar

from flask_babel import gettext as _
from sqlalchemy import and_, bindparam, delete, insert, or_, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload
from sqlalchemy.orm.exc import StaleDataError
from werkzeug.security import check_password_hash, generate_password_hash

from .documents import api_view, match_document
from .keys import hash_token, sign_in_lifetime
from .extensions import db
from . import statistics, stats
from .models import (
    ABANDONED, FINISHED, MAX_ID, PLAYING, ApiToken, Deal, IdempotencyKey, Match, Player, PlayerRating, PlayerResult,
    PlayerPair, PlayerSummary, Seat, SignIn, User, name_key, utcnow,
)
from .rules import Code, MatchResult, RuleError, RuleViolation, check_bids, check_match, check_options, get_game
from .rules import next_seat

USERNAME_PATTERN = re.compile(r"^[\w.@+-]{3,40}$")
MIN_PASSWORD_LENGTH = 8
MAX_NAME_LENGTH = 40
TOKEN_PREFIX = "sk_"

T = TypeVar("T")


class ServiceError(Exception):
    """A change that cannot be made; `message` is a sentence for the user, `field` where it belongs."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class InvalidInput(ServiceError):
    """The input is not acceptable (a name taken, a password too short…)."""


class NotFound(ServiceError):
    """The thing does not exist in this account."""


class Conflict(ServiceError):
    """The match changed meanwhile (another phone entered the deal), or the change no longer applies."""


@contextmanager
def _transaction() -> Iterator[None]:
    """Commit what the block did, or roll all of it back; turn lost races into `Conflict`."""
    try:
        yield
        db.session.commit()
    except (IntegrityError, StaleDataError) as error:
        db.session.rollback()
        raise Conflict(_("Someone else changed this at the same moment. Reload the page and try again.")) from error
    except BaseException:
        db.session.rollback()
        raise


def _atomic(function: Callable[..., T]) -> Callable[..., T]:
    def wrapper(*args: Any, **kwargs: Any) -> T:
        with _transaction():
            return function(*args, **kwargs)

    wrapper.__name__ = function.__name__
    wrapper.__doc__ = function.__doc__
    return wrapper


# ---------------------------------------------------------------- accounts and tokens


def clean_name(name: str, field: str = "name") -> str:
    """Return a player or token name with its spaces tidied and its Unicode composed;
    refuse an empty or overlong one, or one with invisible control characters."""
    tidy = unicodedata.normalize("NFC", " ".join(str(name).split()))
    if not tidy:
        raise InvalidInput(_("Type a name."), field)
    if len(tidy) > MAX_NAME_LENGTH:
        raise InvalidInput(_("A name has at most %(count)s characters.", count=MAX_NAME_LENGTH), field)
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs") for ch in tidy):  # Cs: half a UTF-16 pair, from JSON
        raise InvalidInput(_("A name cannot hold invisible or control characters."), field)
    return tidy


@_atomic
def create_user(username: str, password: str) -> User:
    """Create an account with a hashed password."""
    username = str(username).strip()
    if not USERNAME_PATTERN.match(username):
        raise InvalidInput(_("A username has 3 to 40 letters, digits or . _ - @ +, without spaces."), "username")
    if len(password) < MIN_PASSWORD_LENGTH:
        raise InvalidInput(_("A password has at least %(count)s characters.", count=MIN_PASSWORD_LENGTH), "password")
    if db.session.scalar(select(User.id).where(User.username_key == username.casefold())) is not None:
        raise InvalidInput(_("That username is taken."), "username")
    user = User(username=username, username_key=username.casefold(), password_hash=generate_password_hash(password))
    db.session.add(user)
    return user


#: Checked when there is no such account, so that a wrong username takes as long as a wrong password.
_DUMMY_HASH = generate_password_hash("no account has this password")


def plain_text(value: object, longest: int) -> str | None:
    """Return `value` if it is text without control characters (NUL included) or lone surrogates, of at most `longest`."""
    if not isinstance(value, str) or len(value) > longest:
        return None
    return None if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in value) else value


def authenticate(username: str, password: str) -> User | None:
    """Return the account with this username and password, or None (taking as long either way)."""
    name = plain_text(str(username).strip().casefold(), 160)
    user = db.session.scalar(select(User).where(User.username_key == name)) if name else None
    if user is None:
        check_password_hash(_DUMMY_HASH, password)
        return None
    return user if check_password_hash(user.password_hash, password) else None


def _new_sign_in(user: User) -> str:
    """Record a new signed-in browser of `user` (inside a transaction) and return its key."""
    key = secrets.token_urlsafe(32)
    db.session.execute(delete(SignIn.__table__).where(SignIn.user_id == user.id,
                                                      SignIn.created_at < utcnow() - sign_in_lifetime()))
    db.session.add(SignIn(user_id=user.id, key_hash=hash_token(key)))
    user.sign_in_key = key
    return key


@_atomic
def start_sign_in(user: User) -> str:
    """Sign a browser in to `user`: return the key its session and remember-me cookie will carry."""
    return _new_sign_in(user)


@_atomic
def end_sign_in(key: str | None) -> None:
    """Sign one browser out: its session and remember-me cookie open nothing from now on."""
    if key:
        db.session.execute(delete(SignIn.__table__).where(SignIn.key_hash == hash_token(key)))


@_atomic
def end_every_sign_in(user: User) -> int:
    """Sign every browser of the account out, this one included; return how many there were."""
    ended = db.session.execute(delete(SignIn.__table__).where(SignIn.user_id == user.id))
    user.sign_in_key = None
    return int(getattr(ended, "rowcount", 0) or 0)


@_atomic
def change_password(user: User, current: str, new: str) -> str:
    """Change the account's password after checking the current one; sign every browser out,
    and return a new sign-in key for the browser that made the change."""
    if not check_password_hash(user.password_hash, current):
        raise InvalidInput(_("That is not the account's current password."), "current")
    if len(new) < MIN_PASSWORD_LENGTH:
        raise InvalidInput(_("A password has at least %(count)s characters.", count=MIN_PASSWORD_LENGTH), "password")
    user.password_hash = generate_password_hash(new)
    db.session.execute(delete(SignIn.__table__).where(SignIn.user_id == user.id))
    return _new_sign_in(user)


@_atomic
def set_language(user: User, language: str | None) -> None:
    """Remember the account's language (None: follow the browser)."""
    user.language = language


@_atomic
def create_api_token(user: User, name: str) -> str:
    """Create an API token for `user` and return it; only its hash is kept, so it is shown once."""
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    db.session.add(ApiToken(user_id=user.id, name=clean_name(name or "API token"), token_hash=hash_token(token)))
    return token


@_atomic
def user_for_token(token: str) -> User | None:
    """Return the account an API token belongs to (noting when it was used), or None."""
    row = db.session.scalar(select(ApiToken).where(ApiToken.token_hash == hash_token(token)))
    if row is None:
        return None
    row.last_used_at = utcnow()
    return row.user


@_atomic
def revoke_api_token(user: User, token_id: int) -> None:
    """Delete one of the account's API tokens."""
    row = db.session.get(ApiToken, token_id) if 0 < token_id <= MAX_ID else None
    if row is None or row.user_id != user.id:
        raise NotFound(_("There is no such token."))
    db.session.delete(row)


# ---------------------------------------------------------------- players


def _player_named(user: User, name: str) -> Player | None:
    return db.session.scalar(select(Player).where(Player.user_id == user.id, Player.name_key == name_key(name)))


def _player_of(user: User, player_id: int) -> Player:
    player = db.session.get(Player, player_id) if 0 < player_id <= MAX_ID else None
    if player is None or player.user_id != user.id:
        raise NotFound(_("There is no such player."))
    return player


@_atomic
def add_player(user: User, name: str) -> Player:
    """Add a player to the account; names are unique within it, whatever their case."""
    name = clean_name(name)
    if _player_named(user, name) is not None:
        raise InvalidInput(_("There is already a player called %(name)s.", name=name), "name")
    player = Player(user_id=user.id, name=name, name_key=name_key(name))
    db.session.add(player)
    return player


@_atomic
def rename_player(user: User, player_id: int, name: str) -> Player:
    """Rename a player; their matches follow."""
    player = _player_of(user, player_id)
    name = clean_name(name)
    other = _player_named(user, name)
    if other is not None and other.id != player.id:
        raise InvalidInput(_("There is already a player called %(name)s.", name=name), "name")
    player.name, player.name_key = name, name_key(name)
    return player


@_atomic
def set_player_archived(user: User, player_id: int, archived: bool) -> Player:
    """Archive a player (hidden from new matches, kept in history) or bring them back."""
    player = _player_of(user, player_id)
    player.archived = archived
    return player


def _players_for(user: User, names: Sequence[str], unarchive: bool = True) -> list[Player]:
    """Return the account's players with these names, creating the new ones (inside a transaction).

    A player who sits down again is no longer archived, unless `unarchive` is off (imports).
    """
    keys = [name_key(name) for name in names]

    def by_key() -> dict[str, Player]:
        found = select(Player).where(Player.user_id == user.id, Player.name_key.in_(keys))
        return {player.name_key: player for player in db.session.scalars(found)}

    known = by_key()
    missing = [name for name, key in zip(names, keys) if key not in known]
    if missing:
        # Two phones starting a match with the same new player at once must both get it: the
        # second insert waits for the first and then adds nothing, instead of failing.
        dialect = db.session.get_bind().dialect.name
        insert_new = (postgresql_insert if dialect == "postgresql" else sqlite_insert)(Player.__table__)
        db.session.execute(insert_new.on_conflict_do_nothing(index_elements=["user_id", "name_key"]), [
            {"user_id": user.id, "name": clean_name(name), "name_key": name_key(name), "archived": False,
             "created_at": utcnow()} for name in missing])
        known = by_key()
    players = []
    for key in keys:
        player = known.get(key)
        if player is None:  # only if the row that stopped the insert was rolled back meanwhile
            raise Conflict(_("Someone else changed this at the same moment. Reload the page and try again."))
        if player.archived and unarchive:
            player.archived = False
        players.append(player)
    db.session.flush()
    return players


# ---------------------------------------------------------------- matches


def _store_result(match: Match, result: MatchResult, rerate: bool = True) -> None:
    """Cache the engine's result on the match, move its status with it, and refresh the figures
    (an import rates its games and sums up its players once, at the end, so it passes `rerate=False`)."""
    now = utcnow()
    status_before = match.status
    was_finished = status_before == FINISHED
    ended_before = match.ended_at if was_finished else None
    match.result = result.to_dict()
    match.updated_at = now
    if match.status != ABANDONED:
        match.status = FINISHED if result.finished else PLAYING
        if not (was_finished and result.finished):
            match.ended_at = now if result.finished else None
    changed = rerate and (was_finished or match.status == FINISHED)
    # The summaries count matches by status and sum finished ones only: a deal of a match
    # still being played leaves them as they are.
    summarize = rerate and (match.status != status_before or match.status == FINISHED)
    _refresh_figures(match, result, rerate_since=(ended_before or match.ended_at) if changed else None,
                     summarize=summarize, rows_exist=status_before is not None)


#: Where ratings are to be redone from: a finished match's end and id; None for all of them.
RatingKey = tuple[datetime, int]


def _insert(model: type[db.Model], rows: Sequence[Mapping[str, Any]]) -> None:  # type: ignore[name-defined]
    """Insert rows in one statement, as plain table rows: nothing in the change reads them back as
    objects (and so neither do these statements, nor the deletes beside them, touch the session's)."""
    if rows:
        db.session.execute(insert(model.__table__), list(rows))


#: The columns of a player's result that a change to the match's deals or status can move.
_RESULT_FIGURES = ("side", "status", "won", "played_at", "deals", "total", "juegos", "cantes_20", "cantes_40", "tutes",
                   "last_tricks", "exact_bids", "over_bids", "under_bids")
_UPDATE_RESULT = (update(PlayerResult.__table__)
                  .where(PlayerResult.match_id == bindparam("at_match"), PlayerResult.seat == bindparam("at_seat"))
                  .values({name: bindparam(name) for name in _RESULT_FIGURES}))


def _refresh_figures(match: Match, result: MatchResult, rerate_since: datetime | None = None,
                     summarize: bool = False, rows_exist: bool = False) -> None:
    """Rewrite the match's derived rows (inside the change's transaction).

    With `rerate_since` (when the match ended, or ended before this change), the ratings of
    its game are redone from there on: only this match when it is the latest to end. With
    `summarize`, its players' summaries in its game are rebuilt. `rows_exist` says that the
    match has its rows already (its seats never change), so they are updated in place.
    """
    db.session.flush()
    if rerate_since is not None or summarize:
        _lock_figures(match.user_id)
    rows = stats.result_rows(match, result)
    if rows_exist:
        db.session.execute(_UPDATE_RESULT, [{**{name: row[name] for name in _RESULT_FIGURES},
                                             "at_match": row["match_id"], "at_seat": row["seat"]} for row in rows])
    else:
        db.session.execute(delete(PlayerResult.__table__).where(PlayerResult.match_id == match.id))
        _insert(PlayerResult, rows)
    if rerate_since is not None:
        _rerate(match.user_id, match.game, (rerate_since, match.id))
    if summarize:
        players = [seat.player_id for seat in match.seats]
        _summarize(match.user_id, match.game, players)
        _pair_up(match.user_id, players)


def _lock_figures(user_id: int) -> None:
    """Make the account's changes that rebuild ratings, summaries and pair records wait for each other.

    Each of those is built from the account's other matches: two matches of the same players
    finishing at the same moment must not each rebuild them from a reading without the other
    (on PostgreSQL, under READ COMMITTED, the second would also re-insert rows the first just
    inserted). Locking the account's row serialises them, and every statement after the lock
    sees what the first one committed. FOR NO KEY UPDATE, because every insert of a derived
    row holds a KEY SHARE lock on it (its foreign key), which plain FOR UPDATE would wait for.
    SQLite writes one transaction at a time already, and SQLAlchemy leaves the clause out there.
    """
    db.session.execute(select(User.id).where(User.id == user_id).with_for_update(key_share=True))


def _summarize(user_id: int, game: str, player_ids: Collection[int] | None = None) -> None:
    """Rebuild the summaries of these players (None: all the account's) in `game` from their results."""
    db.session.flush()
    stale = delete(PlayerSummary.__table__).where(PlayerSummary.user_id == user_id, PlayerSummary.game == game)
    if player_ids is None:
        player_ids = list(db.session.scalars(select(PlayerResult.player_id).distinct().where(
            PlayerResult.user_id == user_id, PlayerResult.game == game)))
    else:
        stale = stale.where(PlayerSummary.player_id.in_(player_ids))
    db.session.execute(stale)
    _insert(PlayerSummary, statistics.summary_rows(user_id, game, player_ids))


def _pair_up(user_id: int, player_ids: Collection[int] | None = None) -> None:
    """Rebuild the records of the pairs among these players (None: all the account's) from their results."""
    db.session.flush()
    stale = delete(PlayerPair.__table__).where(PlayerPair.user_id == user_id)
    if player_ids is not None:
        stale = stale.where(PlayerPair.first_id.in_(player_ids), PlayerPair.second_id.in_(player_ids))
    db.session.execute(stale)
    _insert(PlayerPair, statistics.pair_rows(user_id, player_ids))


def _rerate(user_id: int, game: str, since: RatingKey | None = None) -> None:
    """Rate the account's finished matches of `game` again, in the order they ended.

    Ratings only depend on the matches that ended before, so with `since` only the matches
    from that (end, id) on are rated again, starting from each player's rating just before.
    """
    db.session.flush()
    ratings = delete(PlayerRating.__table__).where(PlayerRating.user_id == user_id, PlayerRating.game == game)
    finished = (select(Match).where(Match.user_id == user_id, Match.game == game, Match.status == FINISHED)
                .order_by(Match.ended_at, Match.id))
    if since is not None:
        ended, match_id = since
        ratings = ratings.where(or_(PlayerRating.rated_at > ended,
                                    and_(PlayerRating.rated_at == ended, PlayerRating.match_id >= match_id)))
        finished = finished.where(or_(Match.ended_at > ended, and_(Match.ended_at == ended, Match.id >= match_id)))
    db.session.execute(ratings)
    matches = list(db.session.scalars(finished))
    players = {seat.player_id for match in matches for seat in match.seats}
    _insert(PlayerRating, stats.ratings(matches, _ratings_before(game, players) if since is not None else {}))


def _ratings_before(game: str, players: set[int]) -> dict[int, tuple[float, float]]:
    """Return each player's latest (mu, sigma) in `game` among the ratings kept, in one query."""
    if not players:
        return {}
    latest = (select(PlayerRating.id).where(PlayerRating.player_id == Player.id, PlayerRating.game == game)
              .order_by(PlayerRating.rated_at.desc(), PlayerRating.match_id.desc()).limit(1)
              .correlate(Player).scalar_subquery())
    rows = db.session.execute(select(PlayerRating.player_id, PlayerRating.mu, PlayerRating.sigma).where(
        PlayerRating.id.in_(select(latest).where(Player.id.in_(players)))))
    return {player: (mu, sigma) for player, mu, sigma in rows}


def _dealer_error(players: int) -> RuleViolation:
    return RuleViolation([RuleError(None, "first_dealer", Code.DEALER_INVALID, "dealer_out_of_range",
                                    {"players": players})])


def _new_match(user: User, document: Mapping[str, Any], first_dealer: int | None, *,
               uid: str | None = None, unarchive: bool = True, rerate: bool = True) -> tuple[Match, MatchResult]:
    """Check a whole document and build its match, seats and deals (inside a transaction)."""
    result = check_match(document)
    names = list(document["players"])
    options = check_options(document["game"], document.get("options"), len(names))
    deals = list(document.get("deals") or [])
    if first_dealer is None:
        first_dealer = deals[0]["dealer"] if deals else 0
    if not isinstance(first_dealer, int) or isinstance(first_dealer, bool) or not 0 <= first_dealer < len(names):
        raise _dealer_error(len(names))
    match = Match(uid=uid or uuid.uuid4().hex, user_id=user.id, game=document["game"],
                  options=get_game(document["game"]).changed_options(options), first_dealer=first_dealer)
    for seat, player in enumerate(_players_for(user, names, unarchive)):
        match.seats.append(Seat(seat=seat, player_id=player.id, player=player))
    for number, deal in enumerate(deals, start=1):
        match.deals.append(Deal(number=number, data=dict(deal)))
    db.session.add(match)
    _store_result(match, result, rerate)
    return match, result


@_atomic
def start_match(user: User, game: str, player_names: Sequence[str], options: Mapping[str, Any] | None,
                first_dealer: int) -> Match:
    """Start a match: check the game, players and house rules, then seat the players."""
    names = [clean_name(n, f"players.{i}") for i, n in enumerate(player_names)]
    document = {"game": game, "players": names, "options": dict(options or {}), "deals": []}
    match, _result = _new_match(user, document, first_dealer)
    return match


@_atomic
def create_match_from_document(user: User, document: Any, first_dealer: int | None = None) -> Match:
    """Create a match from a match document; with deals, the whole match is imported at once."""
    if isinstance(document, Mapping) and isinstance(document.get("players"), list):
        # Tidy the names first, so that two spellings of one player are refused as a duplicate.
        names = [clean_name(n, f"players.{i}") if isinstance(n, str) and n.strip() else n
                 for i, n in enumerate(document["players"])]
        document = {**document, "players": names}
    match, _result = _new_match(user, document, first_dealer)
    return match


def _check_not_abandoned(match: Match, number: int) -> None:
    if match.status == ABANDONED:
        raise RuleViolation([RuleError(number, "deal", Code.MATCH_FINISHED, "match_abandoned")])


def _expect_next(match: Match, expected_number: int | None) -> int:
    number = len(match.deals) + 1
    if expected_number is not None and expected_number != number:
        if expected_number < number:
            message = _("Deal %(entered)s was just entered, perhaps on another phone. The next deal is %(number)s.",
                        entered=expected_number, number=number)
        else:
            message = _("This match changed meanwhile: the next deal is %(number)s, not %(expected)s.",
                        number=number, expected=expected_number)
        raise Conflict(message, "number")
    return number


MAX_IDEMPOTENCY_KEY = 100


def usable_key(key: str | None) -> str | None:
    """Return an idempotency key that can be stored (printable, at most 100 characters), else None."""
    return plain_text(key, MAX_IDEMPOTENCY_KEY) if key else None


def answered(match: Match, key: str | None) -> IdempotencyKey | None:
    """Return the stored answer to an earlier request for `match` with this idempotency key, if there was one.

    A key belongs to the one match it was first sent for: raise Conflict if the account used it
    for another match, rather than let the request pass for a retry that stored nothing here.
    """
    key = usable_key(key)
    if key is None:
        return None
    earlier = db.session.scalar(select(IdempotencyKey).where(IdempotencyKey.user_id == match.user_id,
                                                             IdempotencyKey.key == key))
    if earlier is not None and earlier.match_id != match.id:
        raise Conflict(_("This entry was sent before for another match, so it was not stored here. "
                         "Reload the page and enter it again."), "idempotency_key")
    return earlier


#: How long a phone may take to send a deal again: its key is kept that long, then forgotten.
IDEMPOTENCY_KEY_LIFETIME = timedelta(days=7)


def _remember(match: Match, key: str | None, answer: bool) -> None:
    """Keep the idempotency key with the change it made (inside the change's transaction), with
    the API's answer when `answer` is set (the pages answer with the scoreboard as it is then);
    forget the account's keys old enough that no phone will send them again."""
    key = usable_key(key)
    if key:
        db.session.flush()
        db.session.execute(delete(IdempotencyKey.__table__).where(
            IdempotencyKey.user_id == match.user_id, IdempotencyKey.created_at < utcnow() - IDEMPOTENCY_KEY_LIFETIME))
        _insert(IdempotencyKey, [{"user_id": match.user_id, "key": key, "match_id": match.id,
                                  "body": api_view(match) if answer else None}])


def _append_deal(match: Match, deal: Mapping[str, Any], expected_number: int | None) -> Match:
    """Check the match with `deal` added and store it (inside a transaction)."""
    number = _expect_next(match, expected_number)
    _check_not_abandoned(match, number)
    deals = [d.data for d in match.deals] + [dict(deal)]
    result = check_match(match_document(match, deals))
    match.deals.append(Deal(number=number, data=dict(deal)))
    match.pending = None
    _store_result(match, result)
    return match


@_atomic
def add_deal(match: Match, deal: Mapping[str, Any], expected_number: int | None = None,
             idempotency_key: str | None = None, keep_answer: bool = False) -> Match:
    """Add the next deal: the whole match is re-checked and scored first.

    With an idempotency key, a retry is recognised (`answered`); `keep_answer` keeps the
    API's answer with it, to be given again.
    """
    _append_deal(match, deal, expected_number)
    _remember(match, idempotency_key, keep_answer)
    return match


@_atomic
def save_bids(match: Match, bids: Mapping[str, Any], expected_number: int | None = None,
              idempotency_key: str | None = None) -> Match:
    """Keep the next Pocha deal's bids, entered before play, until its tricks come in."""
    number = _expect_next(match, expected_number)
    _check_not_abandoned(match, number)
    check_bids(match_document(match), dict(bids))
    match.pending = dict(bids)
    match.updated_at = utcnow()
    _remember(match, idempotency_key, answer=False)
    return match


@_atomic
def complete_deal(match: Match, bids_seen: Mapping[str, Any], tricks: Any, expected_number: int | None,
                  idempotency_key: str | None = None) -> Match:
    """Add the tricks to the Pocha deal whose bids are in; refuse if the bids changed meanwhile."""
    number = _expect_next(match, expected_number)
    if match.pending is None:
        raise Conflict(_("The bids of deal %(number)s are not in: they were undone, perhaps on another phone.",
                         number=number))
    if dict(bids_seen) != dict(match.pending):
        raise Conflict(_("The bids of deal %(number)s were changed on another phone. Check them and enter the "
                         "tricks again.", number=number))
    _append_deal(match, {**match.pending, "tricks": tricks}, expected_number)
    _remember(match, idempotency_key, answer=False)
    return match


def _deal_of(match: Match, number: int) -> Deal:
    for deal in match.deals:
        if deal.number == number:
            return deal
    raise NotFound(_("This match has no deal %(number)s.", number=number))


@_atomic
def replace_deal(match: Match, number: int, deal: Mapping[str, Any], expected_version: int | None = None) -> Match:
    """Replace deal `number`; the whole match is re-checked, later deals included."""
    row = _deal_of(match, number)
    _check_not_abandoned(match, number)
    if expected_version is not None and expected_version != match.version:
        raise Conflict(_("This match changed since the page was opened. Reload it and check the deal again."))
    deals = [dict(deal) if d.number == number else d.data for d in match.deals]
    result = check_match(match_document(match, deals))
    row.data = dict(deal)
    row.updated_at = utcnow()
    _store_result(match, result)
    return match


@_atomic
def delete_last_deal(match: Match, number: int) -> Match:
    """Delete deal `number`, which must be the last one; a finished match is open again."""
    if not match.deals or number != match.deals[-1].number:
        _deal_of(match, number)  # NotFound for a deal that does not exist
        raise Conflict(_("Only the last deal (%(number)s) can be deleted.", number=len(match.deals)))
    _check_not_abandoned(match, number)
    match.deals.pop()
    match.pending = None
    _store_result(match, check_match(match_document(match)))
    return match


@_atomic
def undo(match: Match) -> str | None:
    """Undo the latest entry: pending bids if there are some, else the last deal; say which."""
    _check_not_abandoned(match, len(match.deals))
    if match.pending is not None:
        match.pending = None
        match.updated_at = utcnow()
        return "bids"
    if match.deals:
        match.deals.pop()
        _store_result(match, check_match(match_document(match)))
        return "deal"
    return None


@_atomic
def abandon_match(match: Match) -> Match:
    """Stop a match early: it keeps its deals and has no winner."""
    if match.status == FINISHED:
        raise Conflict(_("This match is over already."))
    match.status = ABANDONED
    match.pending = None
    match.ended_at = match.updated_at = utcnow()
    _refresh_figures(match, check_match(match_document(match)), summarize=True, rows_exist=True)
    return match


@_atomic
def delete_match(match: Match) -> None:
    """Delete a match with its deals and figures; the ratings of its game follow."""
    since = (match.ended_at, match.id) if match.status == FINISHED and match.ended_at else None
    user_id, game, players = match.user_id, match.game, [seat.player_id for seat in match.seats]
    _lock_figures(user_id)
    db.session.delete(match)
    if since is not None:
        _rerate(user_id, game, since)
    _summarize(user_id, game, players)
    _pair_up(user_id, players)


@_atomic
def rematch(user: User, match: Match, first_dealer: int | None = None) -> Match:
    """Start a new match with the same seats and house rules once this one is over.

    The first deal passes to the seat after this match's first dealer, unless the table
    says otherwise (in tute4 the holder of the 2 of oros decides it again).
    """
    if match.status == PLAYING:
        raise Conflict(_("This match is still being played: finish or abandon it first."))
    document = {"game": match.game, "players": match.player_names, "options": dict(match.options), "deals": []}
    if first_dealer is None:
        first_dealer = next_seat(match.first_dealer, len(match.seats))
    new, _result = _new_match(user, document, first_dealer)
    return new


@_atomic
def share_match(match: Match) -> str:
    """Give the match a new secret live-view link (any older link stops working); return its token."""
    match.share_token = secrets.token_urlsafe(32)
    return match.share_token


@_atomic
def stop_sharing(match: Match) -> None:
    """Revoke the match's live-view link."""
    match.share_token = None


@_atomic
def recompute_all() -> int:
    """Rebuild every match's cached result and status from its deals; return how many were done."""
    count = 0
    games: set[tuple[int, str]] = set()
    for match in db.session.scalars(select(Match).options(selectinload(Match.deals))):
        result = check_match(match_document(match))
        match.result = result.to_dict()
        if match.status != ABANDONED:
            match.status = FINISHED if result.finished else PLAYING
        _refresh_figures(match, result)
        games.add((match.user_id, match.game))
        count += 1
    db.session.execute(delete(PlayerSummary.__table__))
    db.session.execute(delete(PlayerPair.__table__))
    _rebuild_figures(games)
    return count


def _rebuild_figures(games: set[tuple[int, str]]) -> None:
    """Rate again and sum up again every (account, game) given, and the accounts' pair records."""
    accounts = sorted({user_id for user_id, _game in games})
    for user_id in accounts:
        _lock_figures(user_id)
    for user_id, game in sorted(games):
        _rerate(user_id, game)
        _summarize(user_id, game)
    for user_id in accounts:
        _pair_up(user_id)


def user_named(username: str) -> User | None:
    """Return the account with this username, whatever its case, or None."""
    return db.session.scalar(select(User).where(User.username_key == username.strip().casefold()))


@_atomic
def import_accounts(accounts: Sequence[Mapping[str, Any]], into: User | None = None) -> dict[str, int]:
    """Import checked accounts (see `transfer.read_export`) in one transaction; return what was added.

    Accounts are matched by username and created when missing (with their password hash);
    with `into`, everything goes to that account. A match already present (same uid) is skipped.
    """
    report = {"accounts": 0, "players": 0, "matches": 0, "skipped": 0}
    games: set[tuple[int, str]] = set()
    for account in accounts:
        user = into or user_named(account["username"])
        if user is None:
            user = User(username=account["username"], username_key=account["username"].casefold(),
                        password_hash=account["password_hash"], created_at=account["created_at"])
            db.session.add(user)
            db.session.flush()
            report["accounts"] += 1
        for player in account["players"]:
            if _player_named(user, player["name"]) is None:
                db.session.add(Player(user_id=user.id, name=clean_name(player["name"]), name_key=name_key(player["name"]),
                                      archived=player["archived"], created_at=player["created_at"]))
                report["players"] += 1
        db.session.flush()
        for item in account["matches"]:
            if db.session.scalar(select(Match.id).where(Match.uid == item["uid"])) is not None:
                report["skipped"] += 1
                continue
            match, _result = _new_match(user, item["document"], item["first_dealer"], uid=item["uid"],
                                        unarchive=False, rerate=False)
            if item["status"] == ABANDONED:
                match.status = ABANDONED
            match.pending = item["pending"]
            # A finished match always has an end: the ratings follow the order matches ended in.
            ended = item["ended_at"] or (item["updated_at"] if match.status == FINISHED else None)
            match.created_at, match.updated_at, match.ended_at = item["created_at"], item["updated_at"], ended
            for deal, (created, updated) in zip(match.deals, item["deal_dates"]):
                deal.created_at, deal.updated_at = created, updated
            _refresh_figures(match, _result)
            games.add((user.id, match.game))
            report["matches"] += 1
    _rebuild_figures(games)
    return report
