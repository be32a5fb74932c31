"""Name each season once in its account: a key of each season's name, unique in the account, with twins told apart

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-07 18:00:00.000000

"""

import unicodedata

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None

#: What a rebuilt seasons table keeps on SQLite (see 0015).
NEVER_REUSED = {"sqlite_autoincrement": True}
#: The longest name a season is typed with.
LONGEST_NAME = 40


def name_key(name):
    """The name as the app tells names apart: spaces folded, case and composition ignored."""
    return unicodedata.normalize("NFC", " ".join(name.split()).casefold())


def name_apart(name, number):
    """The name told apart from a twin's by a number ("Liga (2)"), cut to the longest name, as the app does."""
    suffix = f" ({number})"
    return name[: LONGEST_NAME - len(suffix)].rstrip() + suffix


def upgrade():
    op.add_column("seasons", sa.Column("name_key", sa.String(length=160), nullable=True))
    seasons = sa.table(
        "seasons",
        sa.column("id", sa.Integer),
        sa.column("user_id", sa.Integer),
        sa.column("name", sa.String),
        sa.column("name_key", sa.String),
    )
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(seasons.c.id, seasons.c.user_id, seasons.c.name).order_by(seasons.c.user_id, seasons.c.id)
    ).all()
    # Two phones could name a season alike at the same moment: every season is kept, the first of a
    # name under it and each later twin told apart by the first number that no season of the account
    # has (a name named later included).
    taken = {}
    for _id, user_id, name in rows:
        taken.setdefault(user_id, set()).add(name_key(name))
    seen = {}
    for season_id, user_id, name in rows:
        key = name_key(name)
        if key in seen.setdefault(user_id, set()):
            number = 2
            while name_key(name_apart(name, number)) in taken[user_id]:
                number += 1
            name = name_apart(name, number)
            key = name_key(name)
            taken[user_id].add(key)
        seen[user_id].add(key)
        connection.execute(seasons.update().where(seasons.c.id == season_id).values(name=name, name_key=key))
    # Rebuilt on SQLite to make the column NOT NULL: it keeps its AUTOINCREMENT only when told.
    with op.batch_alter_table("seasons", table_kwargs=NEVER_REUSED) as batch_op:
        batch_op.alter_column("name_key", existing_type=sa.String(length=160), nullable=False)
    op.create_index("ix_seasons_user_id_name_key", "seasons", ["user_id", "name_key"], unique=True)


def downgrade():
    # The twins keep the names that told them apart.
    op.drop_index("ix_seasons_user_id_name_key", table_name="seasons")
    with op.batch_alter_table("seasons", table_kwargs=NEVER_REUSED) as batch_op:
        batch_op.drop_column("name_key")
