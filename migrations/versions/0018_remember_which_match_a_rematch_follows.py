"""Remember which match a rematch follows, so that a second Rematch goes to the match made by the first

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-06 06:00:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade():
    # A plain column, added in place on both databases (SQLite adds a nullable column without a
    # rebuild): no foreign key, since a rematch outlives the match it follows, whose id is never
    # handed out again.
    op.add_column("matches", sa.Column("rematch_of", sa.Integer(), nullable=True))
    op.create_index("ix_matches_rematch_of", "matches", ["rematch_of"], unique=False)


def downgrade():
    op.drop_index("ix_matches_rematch_of", table_name="matches")
    with op.batch_alter_table("matches", schema=None, table_kwargs={"sqlite_autoincrement": True}) as batch_op:
        batch_op.drop_column("rematch_of")
