"""Keep the seasons an account names, and each finished result's running sums, which a season's table reads

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-06 21:30:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None

RUNNING = ("run_finished", "run_won", "run_shared", "run_points")


def upgrade():
    op.create_table(
        "seasons",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("starts_on", sa.Date(), nullable=False),
        sa.Column("ends_on", sa.Date(), nullable=False),
        sa.Column("win_points", sa.Integer(), nullable=False),
        sa.Column("shared_points", sa.Integer(), nullable=False),
        sa.Column("other_points", sa.Integer(), nullable=False),
        sa.Column("best_of", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_seasons_user_id_starts_on", "seasons", ["user_id", "starts_on"], unique=False)
    op.add_column("player_results", sa.Column("shared", sa.Boolean(), nullable=False, server_default=sa.false()))
    for name in RUNNING:
        op.add_column("player_results", sa.Column(name, sa.Integer(), nullable=False, server_default="0"))
    op.create_index(
        "ix_player_results_running",
        "player_results",
        ["player_id", "game", "status", "played_at", "match_id"],
        unique=False,
    )
    # Filled from the results, as `flask recompute` would: a win is shared when another side of
    # the match won too; a finished result's running sums count the player's finished results of
    # its game up to it, in the order they ended, then by match.
    op.execute(
        """
        UPDATE player_results SET shared = (
            SELECT count(DISTINCT other.side) > 1 FROM player_results AS other
            WHERE other.match_id = player_results.match_id AND other.won
        )
        WHERE won
        """
    )
    earlier = """
        FROM player_results AS earlier
        WHERE earlier.player_id = player_results.player_id AND earlier.game = player_results.game
          AND earlier.status = 'finished'
          AND (earlier.played_at < player_results.played_at
               OR (earlier.played_at = player_results.played_at AND earlier.match_id <= player_results.match_id))
    """
    op.execute(
        f"""
        UPDATE player_results SET
            run_finished = (SELECT count(*) {earlier}),
            run_won = (SELECT count(*) {earlier} AND earlier.won),
            run_shared = (SELECT count(*) {earlier} AND earlier.shared),
            run_points = (SELECT coalesce(sum(earlier.total), 0) {earlier})
        WHERE status = 'finished'
        """
    )


def downgrade():
    op.drop_index("ix_player_results_running", table_name="player_results")
    with op.batch_alter_table("player_results", schema=None) as batch_op:
        for name in reversed(RUNNING):
            batch_op.drop_column(name)
        batch_op.drop_column("shared")
    op.drop_index("ix_seasons_user_id_starts_on", table_name="seasons")
    op.drop_table("seasons")
