"""The years at the table as kept (`YearReview`): read in one step, worked out and stored when stale.

Kept so that a year is read whole once rather than at each look (`figures.years` reads the
year's every result and deal), as `services.kept` keeps figures.
"""

from __future__ import annotations

from datetime import UTC, datetime, tzinfo
from typing import Any

from ..figures.years import WHOLE_TABLE, work_out_year
from ..models import User
from .kept import kept_documents

#: What `YearReview.figure` names a year at the table.
YEAR = "year"


def year_review(user: User, year: int, zone: tzinfo, player_id: int = WHOLE_TABLE) -> dict[str, Any]:
    """Return the year at the table of the account (or of one of its players), its days in `zone`:
    as kept, or worked out again (and kept) if a change made it stale.

    A year to come is worked out at each look and not kept (it has nothing yet, and each change
    would make it stale), nor is a year with nothing played.
    """
    if year > datetime.now(UTC).year + 1:
        return work_out_year(user, year, zone, player_id)
    key = {"user_id": user.id, "year": year, "zone": str(zone), "player_id": player_id, "figure": YEAR}
    (review,) = kept_documents(
        [key],
        lambda _keys: [work_out_year(user, year, zone, player_id)],
        lambda review: bool(review["matches"] or review["nights"]),
    )
    return review
