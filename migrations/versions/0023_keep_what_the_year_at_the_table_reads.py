"""Keep what the year at the table reads: each win's comeback, and the years as last worked out

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-07 02:00:00.000000

"""

import json

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None


def _deficits(result):
    """Each side's most points behind the side ahead after any deal, from a cached result (as
    `MatchResult.deficits` gives them today; written out here so that this step never changes)."""
    totals = [0] * len(result["sides"])
    worst = [0] * len(totals)
    for deal in result["deals"]:
        totals = [total + score for total, score in zip(totals, deal["scores"])]
        for side, total in enumerate(totals):
            worst[side] = max(worst[side], max(totals) - total)
    return worst


def upgrade():
    op.create_table(
        "year_reviews",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("year", sa.Integer(), nullable=False),
        sa.Column("zone", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("stale", sa.Integer(), nullable=False),
        sa.Column("review", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("user_id", "year", "zone", "player_id"),
    )
    op.add_column("player_results", sa.Column("comeback", sa.Integer(), nullable=False, server_default="0"))
    # Filled from each finished match's cached result, as `flask recompute` would: a won result
    # keeps the deficit its side turned into the win.
    connection = op.get_bind()
    won = connection.execute(
        sa.text(
            "SELECT player_results.id, player_results.side, matches.result FROM player_results"
            " JOIN matches ON matches.id = player_results.match_id"
            " WHERE player_results.won AND matches.result IS NOT NULL"
        )
    )
    comebacks = []
    for result_id, side, result in won:
        result = json.loads(result) if isinstance(result, str) else result
        # Won on the running totals only: a match to juegos is won on juegos (`MatchResult.comeback`).
        won_on_totals = result["juegos"] is None and result["totals"][side] == max(result["totals"])
        deficit = _deficits(result)[side] if won_on_totals else 0
        if deficit:
            comebacks.append({"id": result_id, "comeback": deficit})
    if comebacks:
        connection.execute(sa.text("UPDATE player_results SET comeback = :comeback WHERE id = :id"), comebacks)


def downgrade():
    with op.batch_alter_table("player_results") as batch_op:
        batch_op.drop_column("comeback")
    op.drop_table("year_reviews")
