"""A player's rivals and partners as their page lists them: who, their record in words, and the
address of the two's head to head."""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import gettext

from ..figures.pairs import Rival, Rivals
from .addresses import address_of


@dataclass(frozen=True)
class RivalLine:
    """One line of a player's rivals and partners."""

    title: str
    name: str
    record: str
    href: str


def rival_lines(rivals: Rivals, player_id: int, player_name: str) -> list[RivalLine]:
    """Return the lines of the player's nemesis, favourite victim and best and worst partners, those they have."""
    against = address_of("statistics.head_to_head", "b", a=player_id)

    def line(title: str, rival: Rival, record: str) -> RivalLine:
        return RivalLine(title, rival.name, record, against(rival.player_id))

    lines = []
    if found := rivals.nemesis:
        record = gettext("beat %(name)s in %(won)s of %(of)s", name=player_name, won=found.won, of=found.of)
        lines.append(line(gettext("Nemesis"), found, record))
    if found := rivals.victim:
        record = gettext("lost to %(name)s in %(won)s of %(of)s", name=player_name, won=found.won, of=found.of)
        lines.append(line(gettext("Favourite victim"), found, record))
    partners = ((gettext("Best partner"), rivals.best_partner), (gettext("Worst partner"), rivals.worst_partner))
    for title, partner in partners:
        if partner:
            record = gettext("won %(won)s of %(of)s together", won=partner.won, of=partner.of)
            lines.append(line(title, partner, record))
    return lines
