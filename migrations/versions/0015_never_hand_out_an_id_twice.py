"""Never hand out an id twice on SQLite: accounts, sign-ins, API tokens, players, matches and entry links

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-06 03:00:00.000000

"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

#: The tables whose ids a session, a link, a token or an address holds.
TABLES = ("users", "sign_ins", "api_tokens", "players", "matches", "entry_links")


def upgrade():
    # Without AUTOINCREMENT, SQLite gives a new row the highest id in use plus one, so the id of
    # the latest match, once deleted, went to the next match made, whoever's it was, and a phone
    # that had joined the deleted match reached it. A table gets AUTOINCREMENT only when it is
    # made, so each is rebuilt with its rows (their ids kept; SQLite then hands out ids above the
    # highest copied). PostgreSQL's sequences never hand out an id twice. A later migration that
    # rebuilds one of these tables on SQLite must pass the same table_kwargs, or the rebuilt table
    # loses it (tests/app/test_factory.py checks every table after the last migration).
    if op.get_bind().dialect.name != "sqlite":
        return
    for table in TABLES:
        with op.batch_alter_table(table, recreate="always", table_kwargs={"sqlite_autoincrement": True}):
            pass


def downgrade():
    if op.get_bind().dialect.name != "sqlite":
        return
    for table in reversed(TABLES):
        with op.batch_alter_table(table, recreate="always"):
            pass
