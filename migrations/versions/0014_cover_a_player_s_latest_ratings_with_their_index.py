"""Cover a player's latest ratings with their index, so that the player page and the leaderboards
read each rating from the index alone

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-03 21:40:00.000000

"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("player_ratings", schema=None) as batch_op:
        batch_op.drop_index("ix_player_ratings_player_id_game_rated_at")
        batch_op.create_index(
            "ix_player_ratings_player_id_game_rated_at_ordinal",
            ["player_id", "game", "rated_at", "match_id", "ordinal"],
            unique=False,
        )


def downgrade():
    with op.batch_alter_table("player_ratings", schema=None) as batch_op:
        batch_op.drop_index("ix_player_ratings_player_id_game_rated_at_ordinal")
        batch_op.create_index(
            "ix_player_ratings_player_id_game_rated_at", ["player_id", "game", "rated_at", "match_id"], unique=False
        )
