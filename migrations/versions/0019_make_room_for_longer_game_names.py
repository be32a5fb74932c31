"""Make room for longer game names: a game's name is the engine's, and games to come have longer ones

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-06 08:00:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None

#: The tables that name a game, and what a rebuilt one keeps on SQLite (see 0015: the ids of
#: matches leave the server and are never handed out again).
TABLES = {"matches": {"sqlite_autoincrement": True}, "player_results": {}, "player_ratings": {}, "player_summaries": {}}


def _resize(old, new):
    # PostgreSQL widens a varchar in place; SQLite, which keeps any length anyway, rebuilds the
    # table so that its declared type says the same as the models.
    for table, kwargs in TABLES.items():
        with op.batch_alter_table(table, schema=None, table_kwargs=kwargs) as batch_op:
            batch_op.alter_column(
                "game", existing_type=sa.String(length=old), type_=sa.String(length=new), existing_nullable=False
            )


def upgrade():
    _resize(10, 32)


def downgrade():
    _resize(32, 10)
