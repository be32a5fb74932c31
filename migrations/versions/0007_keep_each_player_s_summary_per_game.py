"""Keep each player's summary per game, for the player page and the all-time leaderboard

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-29 23:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade():
    # Filled from the players' results when the app starts (schema.fill_missing_figures).
    op.create_table('player_summaries',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('game', sa.String(length=10), nullable=False),
    sa.Column('played', sa.Integer(), nullable=False),
    sa.Column('won', sa.Integer(), nullable=False),
    sa.Column('abandoned', sa.Integer(), nullable=False),
    sa.Column('unfinished', sa.Integer(), nullable=False),
    sa.Column('finished', sa.Integer(), nullable=False),
    sa.Column('deals', sa.Integer(), nullable=False),
    sa.Column('points', sa.Integer(), nullable=False),
    sa.Column('juegos', sa.Integer(), nullable=False),
    sa.Column('cantes_20', sa.Integer(), nullable=False),
    sa.Column('cantes_40', sa.Integer(), nullable=False),
    sa.Column('tutes', sa.Integer(), nullable=False),
    sa.Column('last_tricks', sa.Integer(), nullable=False),
    sa.Column('exact_bids', sa.Integer(), nullable=False),
    sa.Column('over_bids', sa.Integer(), nullable=False),
    sa.Column('under_bids', sa.Integer(), nullable=False),
    sa.Column('best_total', sa.Integer(), nullable=True),
    sa.Column('best_match_id', sa.Integer(), nullable=True),
    sa.Column('worst_total', sa.Integer(), nullable=True),
    sa.Column('worst_match_id', sa.Integer(), nullable=True),
    sa.Column('current_streak', sa.Integer(), nullable=False),
    sa.Column('longest_streak', sa.Integer(), nullable=False),
    sa.Column('recent', sa.String(length=10), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_player_summaries_player_id_players'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_player_summaries_user_id_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_player_summaries')),
    sa.UniqueConstraint('player_id', 'game', name=op.f('uq_player_summaries_player_id_game'))
    )
    with op.batch_alter_table('player_summaries', schema=None) as batch_op:
        batch_op.create_index('ix_player_summaries_user_id_game', ['user_id', 'game'], unique=False)


def downgrade():
    with op.batch_alter_table('player_summaries', schema=None) as batch_op:
        batch_op.drop_index('ix_player_summaries_user_id_game')
    op.drop_table('player_summaries')
