"""Keep a short note on each match, and group the matches into game nights

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01 03:40:00.000000

`matches.note` is a fact (typed by the owner) and `note_key` its case-folded form for the
history's search; `users.night_gap_hours` is the account's option. `matches.night_id` is
derived (the id of the first match of the match's night): it is filled by the app's first
start after this upgrade, as every derived figure is (`recompute`).
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("night_gap_hours", sa.Integer(), nullable=False, server_default="4"))
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.add_column(sa.Column("note", sa.String(length=200), nullable=True))
        batch_op.add_column(sa.Column("note_key", sa.String(length=800), nullable=True))
        batch_op.add_column(sa.Column("night_id", sa.Integer(), nullable=True))
        batch_op.create_index("ix_matches_user_id_night_id", ["user_id", "night_id"], unique=False)


def downgrade():
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_index("ix_matches_user_id_night_id")
        batch_op.drop_column("night_id")
        batch_op.drop_column("note_key")
        batch_op.drop_column("note")
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("night_gap_hours")
