"""Let the phones at the table enter deals through a match's entry link, and say which deals came that way

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01 03:40:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "entry_links",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("key_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("stopped_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_entry_links_match_id_matches"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_entry_links")),
        sa.UniqueConstraint("key_hash", name=op.f("uq_entry_links_key_hash")),
    )
    with op.batch_alter_table("entry_links", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_entry_links_match_id"), ["match_id"], unique=False)
    with op.batch_alter_table("deals", schema=None) as batch_op:
        batch_op.add_column(sa.Column("entry_link_id", sa.Integer(), nullable=True))
        batch_op.create_foreign_key(
            batch_op.f("fk_deals_entry_link_id_entry_links"),
            "entry_links",
            ["entry_link_id"],
            ["id"],
            ondelete="SET NULL",
        )


def downgrade():
    with op.batch_alter_table("deals", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_deals_entry_link_id_entry_links"), type_="foreignkey")
        batch_op.drop_column("entry_link_id")
    with op.batch_alter_table("entry_links", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_entry_links_match_id"))
    op.drop_table("entry_links")
