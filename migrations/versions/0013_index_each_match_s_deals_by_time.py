"""Index each match's deals by time, so that a match's last deal and deal count are read from the index alone

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-02 15:00:00.000000

"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("deals", schema=None) as batch_op:
        batch_op.create_index("ix_deals_match_id_created_at", ["match_id", "created_at"], unique=False)


def downgrade():
    with op.batch_alter_table("deals", schema=None) as batch_op:
        batch_op.drop_index("ix_deals_match_id_created_at")
