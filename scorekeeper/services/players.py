"""Players: adding, renaming and archiving them, and finding (or adding) those who sit down to a match."""

from __future__ import annotations

from collections.abc import Sequence

from flask_babel import gettext as _
from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from ..errors import Conflict, InvalidInput, NotFound
from ..extensions import db
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
