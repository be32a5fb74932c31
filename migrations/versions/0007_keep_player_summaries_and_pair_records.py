"""Keep each player's summary per game and each pair's record, for the player page, the all-time leaderboard and
head-to-head

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-29 23:00:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade():
    # Filled from the players' results when the app starts (schema.fill_missing_figures).
    op.create_table(
        "player_summaries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=10), nullable=False),
        sa.Column("played", sa.Integer(), nullable=False),
        sa.Column("won", sa.Integer(), nullable=False),
        sa.Column("abandoned", sa.Integer(), nullable=False),
        sa.Column("unfinished", sa.Integer(), nullable=False),
        sa.Column("finished", sa.Integer(), nullable=False),
        sa.Column("deals", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("juegos", sa.Integer(), nullable=False),
        sa.Column("cantes_20", sa.Integer(), nullable=False),
        sa.Column("cantes_40", sa.Integer(), nullable=False),
        sa.Column("tutes", sa.Integer(), nullable=False),
        sa.Column("last_tricks", sa.Integer(), nullable=False),
        sa.Column("exact_bids", sa.Integer(), nullable=False),
        sa.Column("over_bids", sa.Integer(), nullable=False),
        sa.Column("under_bids", sa.Integer(), nullable=False),
        sa.Column("best_total", sa.Integer(), nullable=True),
        sa.Column("best_match_id", sa.Integer(), nullable=True),
        sa.Column("worst_total", sa.Integer(), nullable=True),
        sa.Column("worst_match_id", sa.Integer(), nullable=True),
        sa.Column("current_streak", sa.Integer(), nullable=False),
        sa.Column("longest_streak", sa.Integer(), nullable=False),
        sa.Column("recent", sa.String(length=10), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_player_summaries_player_id_players"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_player_summaries_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_summaries")),
        sa.UniqueConstraint("player_id", "game", name=op.f("uq_player_summaries_player_id_game")),
    )
    with op.batch_alter_table("player_summaries", schema=None) as batch_op:
        batch_op.create_index("ix_player_summaries_user_id_game", ["user_id", "game"], unique=False)
    op.create_table(
        "player_pairs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("first_id", sa.Integer(), nullable=False),
        sa.Column("second_id", sa.Integer(), nullable=False),
        sa.Column("shared", sa.Integer(), nullable=False),
        sa.Column("first_wins", sa.Integer(), nullable=False),
        sa.Column("second_wins", sa.Integer(), nullable=False),
        sa.Column("together", sa.Integer(), nullable=False),
        sa.Column("together_won", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["first_id"], ["players.id"], name=op.f("fk_player_pairs_first_id_players"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["second_id"], ["players.id"], name=op.f("fk_player_pairs_second_id_players"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_player_pairs_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_pairs")),
        sa.UniqueConstraint("first_id", "second_id", name=op.f("uq_player_pairs_first_id_second_id")),
    )
    with op.batch_alter_table("player_pairs", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_player_pairs_second_id"), ["second_id"], unique=False)
        batch_op.create_index("ix_player_pairs_user_id", ["user_id"], unique=False)
    with op.batch_alter_table("player_results", schema=None) as batch_op:
        batch_op.create_index(
            "ix_player_results_player_id_played_at", ["player_id", "played_at", "match_id"], unique=False
        )


def downgrade():
    with op.batch_alter_table("player_results", schema=None) as batch_op:
        batch_op.drop_index("ix_player_results_player_id_played_at")
    with op.batch_alter_table("player_pairs", schema=None) as batch_op:
        batch_op.drop_index("ix_player_pairs_user_id")
        batch_op.drop_index(batch_op.f("ix_player_pairs_second_id"))
    op.drop_table("player_pairs")
    with op.batch_alter_table("player_summaries", schema=None) as batch_op:
        batch_op.drop_index("ix_player_summaries_user_id_game")
    op.drop_table("player_summaries")
