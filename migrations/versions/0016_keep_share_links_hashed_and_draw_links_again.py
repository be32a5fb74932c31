"""Keep share links hashed, as entry links are, and the salts from which the owner's phones draw both links again

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-06 04:00:00.000000

"""

import hashlib

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None

#: What a rebuilt matches table keeps on SQLite (see 0015).
NEVER_REUSED = {"sqlite_autoincrement": True}


def upgrade():
    with op.batch_alter_table("entry_links", schema=None) as batch_op:
        batch_op.add_column(sa.Column("salt", sa.String(length=32), nullable=True))
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.add_column(sa.Column("share_key_hash", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("share_salt", sa.String(length=32), nullable=True))
    # The links already handed out keep opening the live view: each is kept as its hash from now on
    # (without a salt: the owner's scoreboard cannot show such a link again, only make a new one).
    matches = sa.table(
        "matches",
        sa.column("id", sa.Integer),
        sa.column("share_token", sa.String),
        sa.column("share_key_hash", sa.String),
    )
    connection = op.get_bind()
    shared = connection.execute(
        sa.select(matches.c.id, matches.c.share_token).where(matches.c.share_token.is_not(None))
    ).all()
    for match_id, token in shared:
        connection.execute(
            matches.update()
            .where(matches.c.id == match_id)
            .values(share_key_hash=hashlib.sha256(token.encode()).hexdigest())
        )
    # Rebuilt on SQLite: it keeps its AUTOINCREMENT only when told (as every rebuild of these tables must).
    with op.batch_alter_table("matches", schema=None, table_kwargs=NEVER_REUSED) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_matches_share_token"), type_="unique")
        batch_op.drop_column("share_token")
        batch_op.create_unique_constraint(batch_op.f("uq_matches_share_key_hash"), ["share_key_hash"])


def downgrade():
    # The secrets themselves are not kept: the live views shared before the downgrade stop.
    with op.batch_alter_table("matches", schema=None, table_kwargs=NEVER_REUSED) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_matches_share_key_hash"), type_="unique")
        batch_op.add_column(sa.Column("share_token", sa.String(length=64), nullable=True))
        batch_op.create_unique_constraint(batch_op.f("uq_matches_share_token"), ["share_token"])
        batch_op.drop_column("share_salt")
        batch_op.drop_column("share_key_hash")
    with op.batch_alter_table("entry_links", schema=None) as batch_op:
        batch_op.drop_column("salt")
