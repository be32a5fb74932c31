"""Count the finished matches two players met in on opposite sides, for each player's rivals

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-06 14:00:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column("player_pairs", sa.Column("met", sa.Integer(), nullable=False, server_default="0"))
    # Filled from the players' results, as `flask recompute` would: the finished matches each pair
    # played on opposite sides.
    op.execute(
        """
        UPDATE player_pairs SET met = (
            SELECT count(*) FROM player_results AS first
            JOIN player_results AS second ON second.match_id = first.match_id
            WHERE first.player_id = player_pairs.first_id AND second.player_id = player_pairs.second_id
              AND first.side <> second.side AND first.status = 'finished'
        )
        """
    )


def downgrade():
    with op.batch_alter_table("player_pairs", schema=None) as batch_op:
        batch_op.drop_column("met")
