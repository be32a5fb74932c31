"""Keep derived player results and ratings for the statistics

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-29 20:59:55.232130

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "player_ratings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=10), nullable=False),
        sa.Column("rated_at", sa.DateTime(), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("ordinal", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_player_ratings_match_id_matches"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_player_ratings_player_id_players"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_player_ratings_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_ratings")),
        sa.UniqueConstraint("match_id", "player_id", name=op.f("uq_player_ratings_match_id_player_id")),
    )
    with op.batch_alter_table("player_ratings", schema=None) as batch_op:
        batch_op.create_index("ix_player_ratings_player_id_game", ["player_id", "game"], unique=False)
        batch_op.create_index(batch_op.f("ix_player_ratings_user_id"), ["user_id"], unique=False)

    op.create_table(
        "player_results",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=10), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("side", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("played_at", sa.DateTime(), nullable=False),
        sa.Column("deals", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("juegos", sa.Integer(), nullable=True),
        sa.Column("cantes_20", sa.Integer(), nullable=False),
        sa.Column("cantes_40", sa.Integer(), nullable=False),
        sa.Column("tutes", sa.Integer(), nullable=False),
        sa.Column("last_tricks", sa.Integer(), nullable=False),
        sa.Column("exact_bids", sa.Integer(), nullable=False),
        sa.Column("over_bids", sa.Integer(), nullable=False),
        sa.Column("under_bids", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_player_results_match_id_matches"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_player_results_player_id_players"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_player_results_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_results")),
        sa.UniqueConstraint("match_id", "seat", name=op.f("uq_player_results_match_id_seat")),
    )
    with op.batch_alter_table("player_results", schema=None) as batch_op:
        batch_op.create_index("ix_player_results_player_id_game", ["player_id", "game"], unique=False)
        batch_op.create_index("ix_player_results_user_id_game", ["user_id", "game"], unique=False)


def downgrade():
    with op.batch_alter_table("player_results", schema=None) as batch_op:
        batch_op.drop_index("ix_player_results_user_id_game")
        batch_op.drop_index("ix_player_results_player_id_game")

    op.drop_table("player_results")
    with op.batch_alter_table("player_ratings", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_player_ratings_user_id"))
        batch_op.drop_index("ix_player_ratings_player_id_game")

    op.drop_table("player_ratings")
