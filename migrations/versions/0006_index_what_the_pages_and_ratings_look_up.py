"""Index what the pages and the ratings look up, and give every finished match its end

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-29 22:50:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.create_index("ix_matches_user_id_status_created_at", ["user_id", "status", "created_at"], unique=False)
        batch_op.create_index(
            "ix_matches_user_id_game_status_ended_at", ["user_id", "game", "status", "ended_at"], unique=False
        )
    with op.batch_alter_table("player_ratings", schema=None) as batch_op:
        batch_op.drop_index("ix_player_ratings_player_id_game")
        batch_op.create_index(
            "ix_player_ratings_player_id_game_rated_at", ["player_id", "game", "rated_at", "match_id"], unique=False
        )
        batch_op.create_index(
            "ix_player_ratings_user_id_game_rated_at", ["user_id", "game", "rated_at", "match_id"], unique=False
        )
    with op.batch_alter_table("idempotency_keys", schema=None) as batch_op:
        batch_op.create_index("ix_idempotency_keys_user_id_created_at", ["user_id", "created_at"], unique=False)
    # Ratings follow the order matches ended in, so a finished match needs an end
    # (an import could leave it out).
    op.execute(sa.text("UPDATE matches SET ended_at = updated_at WHERE status = 'finished' AND ended_at IS NULL"))


def downgrade():
    with op.batch_alter_table("idempotency_keys", schema=None) as batch_op:
        batch_op.drop_index("ix_idempotency_keys_user_id_created_at")
    with op.batch_alter_table("player_ratings", schema=None) as batch_op:
        batch_op.drop_index("ix_player_ratings_user_id_game_rated_at")
        batch_op.drop_index("ix_player_ratings_player_id_game_rated_at")
        batch_op.create_index("ix_player_ratings_player_id_game", ["player_id", "game"], unique=False)
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_index("ix_matches_user_id_game_status_ended_at")
        batch_op.drop_index("ix_matches_user_id_status_created_at")
