"""Find a shared live view's link preview by its link's salt

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-06 22:00:00.000000

"""
from alembic import op


# revision identifiers, used by Alembic.
revision = '0022'
down_revision = '0021'
branch_labels = None
depends_on = None


def upgrade():
    op.create_index('ix_matches_share_salt', 'matches', ['share_salt'], unique=True)


def downgrade():
    op.drop_index('ix_matches_share_salt', table_name='matches')
