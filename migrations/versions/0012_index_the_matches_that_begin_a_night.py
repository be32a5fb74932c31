"""Index the matches that begin a game night, so that the nights are counted and paged without the others

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-01 12:00:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.create_index(
            "ix_matches_user_id_nights",
            ["user_id", "created_at", "id", "night_id"],
            unique=False,
            sqlite_where=sa.text("night_id = id"),
            postgresql_where=sa.text("night_id = id"),
        )


def downgrade():
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_index(
            "ix_matches_user_id_nights",
            sqlite_where=sa.text("night_id = id"),
            postgresql_where=sa.text("night_id = id"),
        )
