"""Make room for the notes that earlier versions stored: their length was counted before their Unicode was composed

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-06 05:00:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None

#: What a rebuilt matches table keeps on SQLite (see 0015).
NEVER_REUSED = {"sqlite_autoincrement": True}


def upgrade():
    # A note is at most 200 characters once composed (NFC); before, 200 were counted before
    # composing, which can make a text up to three times longer, and SQLite kept such notes. Their
    # export must import anywhere, PostgreSQL included: room for 600, and three times that for the
    # case-folded search key.
    with op.batch_alter_table("matches", schema=None, table_kwargs=NEVER_REUSED) as batch_op:
        batch_op.alter_column(
            "note", existing_type=sa.String(length=200), type_=sa.String(length=600), existing_nullable=True
        )
        batch_op.alter_column(
            "note_key", existing_type=sa.String(length=800), type_=sa.String(length=1800), existing_nullable=True
        )


def downgrade():
    with op.batch_alter_table("matches", schema=None, table_kwargs=NEVER_REUSED) as batch_op:
        batch_op.alter_column(
            "note_key", existing_type=sa.String(length=1800), type_=sa.String(length=800), existing_nullable=True
        )
        batch_op.alter_column(
            "note", existing_type=sa.String(length=600), type_=sa.String(length=200), existing_nullable=True
        )
