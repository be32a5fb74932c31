"""The body of the deal-by-deal table, written in Python rather than in the template.

A long match has a few hundred cells; in Jinja each cell's lookups and escapes cost several
times what they cost here, and the table was most of a scoreboard's time. The template keeps
the table's frame (caption and head) and asks for its rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from markupsafe import Markup, escape

from ..i18n import gettext
from .addresses import address_of

if TYPE_CHECKING:
    from .boards import DealRow


def deal_rows(rows: Sequence[DealRow], side_names: Sequence[str], match_id: int, pocha: bool,
              editable: bool) -> Markup:
    """Return the table's rows: each deal's number (and edit button), its summary, and each side's
    details, score and running total."""
    # Each sentence is looked up once for the whole table, then filled in row by row.
    running_title = Markup(gettext("Running total"))  # as the template's _() gave it
    dealt, won_by, edit_label = gettext("%(name)s dealt"), gettext("won by %(names)s"), gettext("Edit deal %(number)s")
    # What every row or cell repeats is written once; a cell then only adds its own figures.
    cell_starts = [f'\n      <td role="cell" class="num" data-side="{escape(name)}">\n        '
                   for name in side_names]
    running_start = f'</span><br>\n        <small class="running" title="{running_title}">'
    cell_end = "</small>\n      </td>"
    edit_address = address_of("matches.edit_deal", "number", match_id=match_id) if editable else str
    parts: list[str] = []
    append = parts.append
    for row in rows:
        edit = (f'<br><a class="button small edit" href="{edit_address(row.number)}" '
                f'aria-label="{escape(edit_label % {"number": row.number})}">✎</a>') if editable else ""
        won = f"<br><small>{escape(won_by % {'names': row.winner})}</small>" if row.winner else ""
        append(f'<tr role="row">\n      <th scope="row" role="rowheader" class="deal-number">{row.number}{edit}</th>\n'
               f'      <td role="cell" class="summary"><small>{escape(dealt % {"name": row.dealer})}</small><br>'
               f'{escape(row.summary)}{won}</td>')
        details, running = row.details, row.running
        for index, score in enumerate(row.scores):
            # A detail is figures alone ("bid/tricks", formatted from whole numbers): nothing to escape.
            detail = f"<small>{details[index]}</small><br>\n        " if details else ""
            shown = f"{score:+d}" if pocha else score
            append(f'{cell_starts[index]}{detail}<span class="score">{shown}{running_start}{running[index]}{cell_end}')
        append("\n    </tr>\n    ")
    return Markup("".join(parts))
