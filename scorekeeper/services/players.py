"""Players: adding, renaming and archiving them, and finding (or adding) those who sit down to a match."""

from __future__ import annotations

from collections.abc import Sequence

from flask_babel import gettext as _
from sqlalchemy import bindparam, exists, insert, literal, select

from ..errors import InvalidInput, NotFound
from ..extensions import db
from ..figures.locks import lock_figures
from ..models import MAX_ID, Player, User, name_key, utcnow
from ..text import clean_name
from .base import atomic


def player_named(user: User, name: str) -> Player | None:
    return db.session.scalar(select(Player).where(Player.user_id == user.id, Player.name_key == name_key(name)))


def _player_of(user: User, player_id: int) -> Player:
    player = db.session.get(Player, player_id) if 0 < player_id <= MAX_ID else None
    if player is None or player.user_id != user.id:
        raise NotFound(_("There is no such player."))
    return player


@atomic
def add_player(user: User, name: str) -> Player:
    """Add a player to the account; names are unique within it, whatever their case."""
    name = clean_name(name)
    # Under the account's lock, as `players_for` adds players: a player of the same name added by a
    # match starting at the same moment is found here, rather than refused by the unique index.
    lock_figures(user.id)
    if player_named(user, name) is not None:
        raise InvalidInput(_("There is already a player called %(name)s.", name=name), "name")
    player = Player(user_id=user.id, name=name, name_key=name_key(name))
    db.session.add(player)
    return player


@atomic
def rename_player(user: User, player_id: int, name: str) -> Player:
    """Rename a player; their matches follow."""
    player = _player_of(user, player_id)
    name = clean_name(name)
    lock_figures(user.id)  # as `add_player`: a player of that name added meanwhile is found, not refused
    other = player_named(user, name)
    if other is not None and other.id != player.id:
        raise InvalidInput(_("There is already a player called %(name)s.", name=name), "name")
    player.name, player.name_key = name, name_key(name)
    return player


@atomic
def set_player_archived(user: User, player_id: int, archived: bool) -> Player:
    """Archive a player (hidden from new matches, kept in history) or bring them back."""
    player = _player_of(user, player_id)
    player.archived = archived
    return player


def players_for(user: User, names: Sequence[str], unarchive: bool = True) -> list[Player]:
    """Return the account's players with these names, creating the new ones (inside a transaction).

    A player who sits down again is no longer archived, unless `unarchive` is off (imports).
    """
    keys = [name_key(name) for name in names]
    # Two phones starting a match with the same new player at once must both get it: the second
    # waits until the first has committed, then finds the player it added and adds none. On
    # PostgreSQL the account's lock makes it wait (the changes of a match take the lock before
    # they write anything, so this takes it first); on SQLite, which takes no row locks, the
    # insert itself waits for the database's one writer, and then looks for the player again.
    lock_figures(user.id)

    def by_key() -> dict[str, Player]:
        found = select(Player).where(Player.user_id == user.id, Player.name_key.in_(keys))
        return {player.name_key: player for player in db.session.scalars(found)}

    known = by_key()
    missing: dict[str, str] = {}  # each new player once, named as first written
    for name, key in zip(names, keys):
        if key not in known:
            missing.setdefault(key, name)
    if missing:
        for key, name in missing.items():
            db.session.execute(
                _INSERT_IF_NEW, {"user_id": user.id, "name": clean_name(name), "name_key": key, "created_at": utcnow()}
            )
        known = by_key()
    players = []
    for key in keys:
        player = known[key]
        if player.archived and unarchive:
            player.archived = False
        players.append(player)
    db.session.flush()
    return players


_players = Player.__table__
#: Add a player unless the account has one of that name already, as it stands when the insert runs.
_INSERT_IF_NEW = insert(_players).from_select(
    ["user_id", "name", "name_key", "archived", "created_at"],
    select(
        bindparam("user_id", type_=_players.c.user_id.type),
        bindparam("name", type_=_players.c.name.type),
        bindparam("name_key", type_=_players.c.name_key.type),
        literal(False),
        bindparam("created_at", type_=_players.c.created_at.type),
    ).where(~exists().where(_players.c.user_id == bindparam("user_id"), _players.c.name_key == bindparam("name_key"))),
)
