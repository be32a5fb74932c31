"""Give a shared live view a link preview of its own, found by its key

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-06 22:00:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade():
    # Links shared before keep working, without a preview: a new link has one. A column and an
    # index, both added in place (a constraint would rebuild the table on SQLite).
    op.add_column("matches", sa.Column("share_preview", sa.String(length=32), nullable=True))
    op.create_index("ix_matches_share_preview", "matches", ["share_preview"], unique=True)


def downgrade():
    op.drop_index("ix_matches_share_preview", table_name="matches")
    # On SQLite the table is rebuilt without the column, keeping its AUTOINCREMENT (see 0015).
    with op.batch_alter_table("matches", table_kwargs={"sqlite_autoincrement": True}) as batch_op:
        batch_op.drop_column("share_preview")
