"""The deal-by-deal table's rows, a card per deal or a score sheet's row, written in Python (see `deal_rows`)
inside templates/matches/_table.html."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

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
    #: What a score sheet's row says beside the deal's number (a Pocha deal's cards and trump), if anything.
    label: str = ""

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


def edit_links(match_id: int, editable: bool) -> Callable[[int, str, str], str] | None:
    """Return what writes a deal's edit link (its number, class and text), or None where deals are not edited."""
    if not editable:
        return None
    address, label = address_of("matches.edit_deal", "number", match_id=match_id), gettext("Edit deal %(number)s")
    return lambda number, kind, text: (
        f'<a class="{kind}" href="{address(number)}" aria-label="{escape(label % {"number": number})}">{text}</a>'
    )


def deal_rows(
    rows: Sequence[DealRow], side_names: Sequence[str], match_id: int, signed: bool, editable: bool
) -> Markup:
    """Return the table's rows: each deal's number (and edit button), its summary, and each side's
    details, score (signed where a deal can lose points) and running total.

    Written here rather than in templates/matches/_table.html, whose frame (caption and head)
    holds them: a long match has a few hundred cells, and in Jinja each cell's lookups and
    escapes cost enough to hold the scoreboard over its budget (docs/performance.md).
    """
    # Each sentence is looked up once for the whole table, then filled in row by row.
    running_title = escape(gettext("Running total"))
    dealt, won_by = gettext("%(name)s dealt"), gettext("won by %(names)s")
    # What every row or cell repeats is written once; a cell then only adds its own figures.
    cell_starts = [f'\n      <td role="cell" class="num" data-side="{escape(name)}">\n        ' for name in side_names]
    running_start = f'</span><br>\n        <small class="running" title="{running_title}">'
    cell_end = "</small>\n      </td>"
    edit_link = edit_links(match_id, editable)
    parts: list[str] = []
    append = parts.append
    for row in rows:
        edit = "<br>" + edit_link(row.number, "button small edit", "✎") if edit_link is not None else ""
        won = f"<br><small>{escape(won_by % {'names': row.winner})}</small>" if row.winner else ""
        append(
            f'<tr role="row">\n      <th scope="row" role="rowheader" class="deal-number">{row.number}{edit}</th>\n'
            f'      <td role="cell" class="summary"><small>{escape(dealt % {"name": row.dealer})}</small><br>'
            f"{escape(row.summary)}{won}</td>"
        )
        details, running = row.details, row.running
        for index, score in enumerate(row.scores):
            # A detail is figures alone ("bid/tricks", formatted from whole numbers): nothing to escape.
            detail = f"<small>{details[index]}</small><br>\n        " if details else ""
            shown = f"{score:+d}" if signed else score
            append(f'{cell_starts[index]}{detail}<span class="score">{shown}{running_start}{running[index]}{cell_end}')
        append("\n    </tr>\n    ")
    return Markup("".join(parts))


def sheet_rows(rows: Sequence[DealRow], match_id: int, editable: bool) -> Markup:
    """Return a score sheet's rows: each deal's number (its edit link where `editable`) and label, then for
    each player their figures of the deal over their running total, marked where the deal cost them points.

    Written here for the reason `deal_rows` is: a long Pocha match of eight is some three hundred cells.
    """
    edit_link = edit_links(match_id, editable)
    parts: list[str] = []
    append = parts.append
    for row in rows:
        number = edit_link(row.number, "sheet-edit", str(row.number)) if edit_link is not None else str(row.number)
        label = f"<small>{escape(row.label)}</small>" if row.label else ""
        append(f'<tr>\n      <th scope="row" class="deal-number">{number}{label}</th>')
        details = row.details
        for index, (score, running) in enumerate(zip(row.scores, row.running)):
            # A detail is figures alone ("bid/tricks", formatted from whole numbers): nothing to escape.
            detail = f"<small>{details[index]}</small>" if details else ""
            lost = ' class="lost"' if score < 0 else ""
            append(f'\n      <td{lost}>{detail}<span class="running">{running}</span></td>')
        append("\n    </tr>\n    ")
    return Markup("".join(parts))
