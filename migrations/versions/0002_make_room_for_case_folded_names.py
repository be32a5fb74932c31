"""Make room for case-folded names

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29 19:51:34.940391

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.alter_column(
            "name_key", existing_type=sa.VARCHAR(length=40), type_=sa.String(length=160), existing_nullable=False
        )

    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.alter_column(
            "username_key", existing_type=sa.VARCHAR(length=40), type_=sa.String(length=160), existing_nullable=False
        )


def downgrade():
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.alter_column(
            "username_key", existing_type=sa.String(length=160), type_=sa.VARCHAR(length=40), existing_nullable=False
        )

    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.alter_column(
            "name_key", existing_type=sa.String(length=160), type_=sa.VARCHAR(length=40), existing_nullable=False
        )
