"""Keep the standings of seasons that are over beside the years at the table

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-07 12:40:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("year_reviews") as batch_op:
        batch_op.add_column(sa.Column("figure", sa.String(length=64), nullable=False, server_default="year"))
        batch_op.drop_constraint(batch_op.f("uq_year_reviews_user_id_year_zone_player_id"), type_="unique")
        batch_op.create_unique_constraint(
            batch_op.f("uq_year_reviews_user_id_year_zone_player_id_figure"),
            ["user_id", "year", "zone", "player_id", "figure"],
        )


def downgrade():
    # Only the years at the table had rows before: the standings kept since are figures to work out again.
    op.execute("DELETE FROM year_reviews WHERE figure <> 'year'")
    with op.batch_alter_table("year_reviews") as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_year_reviews_user_id_year_zone_player_id_figure"), type_="unique")
        batch_op.create_unique_constraint(
            batch_op.f("uq_year_reviews_user_id_year_zone_player_id"), ["user_id", "year", "zone", "player_id"]
        )
        batch_op.drop_column("figure")
