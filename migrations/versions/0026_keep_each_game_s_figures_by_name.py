"""Keep each game's figures by name: a player's counts per match and their sums in one column of names
and counts, in place of a column for each count of each game

Revision ID: 0026
Revises: 0025
Create Date: 2026-12-08 02:00:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0026"
down_revision = "0025"
branch_labels = None
depends_on = None

TABLES = ("player_results", "player_summaries")
#: The counts each game kept in a column of its own until now, by the games that kept them.
COUNTS = {
    ("tute2", "tute3", "tute4", "subastado"): ("cantes_20", "cantes_40", "tutes", "last_tricks"),
    ("pocha",): ("exact_bids", "over_bids", "under_bids"),
}
COLUMNS = tuple(name for names in COUNTS.values() for name in names)


def upgrade():
    object_of = "json_build_object" if op.get_bind().dialect.name == "postgresql" else "json_object"
    for table in TABLES:
        op.add_column(table, sa.Column("tallies", sa.JSON(), nullable=False, server_default="{}"))
        for games, names in COUNTS.items():
            pairs = ", ".join(f"'{name}', {name}" for name in names)
            listed = ", ".join(f"'{game}'" for game in games)
            op.execute(f"UPDATE {table} SET tallies = {object_of}({pairs}) WHERE game IN ({listed})")
        with op.batch_alter_table(table, schema=None) as batch_op:
            for name in COLUMNS:
                batch_op.drop_column(name)


def downgrade():
    connection = op.get_bind()
    for table in TABLES:
        with op.batch_alter_table(table, schema=None) as batch_op:
            for name in COLUMNS:
                batch_op.add_column(sa.Column(name, sa.Integer(), nullable=False, server_default="0"))
        rows = sa.table(table, sa.column("id"), sa.column("tallies", sa.JSON()), *(sa.column(n) for n in COLUMNS))
        for row_id, counts in connection.execute(sa.select(rows.c.id, rows.c.tallies)).all():
            known = {name: int(count) for name, count in (counts or {}).items() if name in COLUMNS}
            if known:
                connection.execute(rows.update().where(rows.c.id == row_id).values(**known))
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_column("tallies")
