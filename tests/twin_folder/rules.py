"""The twin folder's engine: Tute for two again, under the same name."""

from typing import Final

from scorekeeper.games.tute.rules import TUTE2

GAMES: Final = (TUTE2,)
