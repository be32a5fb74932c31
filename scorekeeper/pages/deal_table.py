"""The lines of the deal-by-deal table, each deal's sentences and figures ready for templates/matches/_table.html."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..i18n import gettext
from .addresses import address_of


@dataclass(frozen=True)
class DealRow:
    """One line of the deal-by-deal table."""

    number: int
    dealer: str
    summary: str
    #: Each side's figures in the deal, in Pocha its bid and tricks ("2/1"); none in Tute.
    details: list[str]
    scores: tuple[int, ...]
    running: tuple[int, ...]
    winner: str | None

    @property
    def dealt(self) -> str:
        """Return who dealt, as a sentence."""
        return gettext("%(name)s dealt", name=self.dealer)

    @property
    def won_by(self) -> str | None:
        """Return who won the deal, as a sentence, if anyone did."""
        return None if self.winner is None else gettext("won by %(names)s", names=self.winner)

    @property
    def edit_label(self) -> str:
        """Return the label of the deal's edit button."""
        return gettext("Edit deal %(number)s", number=self.number)


@dataclass(frozen=True)
class DealCell:
    """One side's cell of a deal: its name, its figures in the deal (bid/tricks, or none), its score as
    shown and its running total."""

    side: str
    detail: str | None
    score: str
    running: int


@dataclass(frozen=True)
class DealLine:
    """One deal of the table: its number, the address and label of its edit form (none where the
    table is read-only), who dealt, what happened, who won and each side's cell."""

    number: int
    edit: str | None
    edit_label: str
    dealt: str
    summary: str
    won: str | None
    cells: list[DealCell]


def deal_rows(
    rows: Sequence[DealRow], side_names: Sequence[str], match_id: int, signed: bool, editable: bool
) -> list[DealLine]:
    """Return the table's lines: each deal's number (and edit form's address), its summary, and each
    side's details, score (signed where a deal can lose points) and running total."""
    # Each sentence is looked up once for the whole table, then filled in line by line.
    dealt, won_by, edit_label = gettext("%(name)s dealt"), gettext("won by %(names)s"), gettext("Edit deal %(number)s")
    edit_address = address_of("matches.edit_deal", "number", match_id=match_id) if editable else None
    lines = []
    for row in rows:
        details = row.details
        cells = [
            DealCell(
                side_names[index],
                details[index] if details else None,
                f"{score:+d}" if signed else str(score),
                row.running[index],
            )
            for index, score in enumerate(row.scores)
        ]
        lines.append(
            DealLine(
                number=row.number,
                edit=edit_address(row.number) if edit_address else None,
                edit_label=edit_label % {"number": row.number},
                dealt=dealt % {"name": row.dealer},
                summary=row.summary,
                won=won_by % {"names": row.winner} if row.winner else None,
                cells=cells,
            )
        )
    return lines
