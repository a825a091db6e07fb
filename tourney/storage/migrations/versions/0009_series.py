"""a season: series of events (their standings added up, best N, placing points),
players' handicaps in a series, and declared teams of an event or a series

Revision ID: 0009_series
Revises: 0008_arbiter
Create Date: 2026-12-05 14:24:55.108292
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0009_series'
down_revision: Union[str, Sequence[str], None] = '0008_arbiter'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table('series',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('slug', sa.String(length=100), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('best', sa.Integer(), nullable=True),
    sa.Column('min_events', sa.Integer(), nullable=False),
    sa.Column('scoring', sa.String(length=10), nullable=False),
    sa.Column('placing_json', sa.Text(), nullable=False),
    sa.Column('handicap', sa.Boolean(), nullable=False),
    sa.Column('seed', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_series')),
    sa.UniqueConstraint('slug', name=op.f('uq_series_slug'))
    )
    op.create_table('seriesevent',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('series_id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['event_id'], ['event.id'], name=op.f('fk_seriesevent_event_id_event')),
    sa.ForeignKeyConstraint(['series_id'], ['series.id'], name=op.f('fk_seriesevent_series_id_series')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_seriesevent')),
    sa.UniqueConstraint('series_id', 'event_id', name=op.f('uq_seriesevent_series_id_event_id'))
    )
    with op.batch_alter_table('seriesevent', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_seriesevent_event_id'), ['event_id'], unique=False)

    op.create_table('serieshandicap',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('series_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('value', sa.Float(), nullable=False),
    sa.Column('source', sa.String(length=10), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_serieshandicap_player_id_player')),
    sa.ForeignKeyConstraint(['series_id'], ['series.id'], name=op.f('fk_serieshandicap_series_id_series')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_serieshandicap')),
    sa.UniqueConstraint('series_id', 'player_id', name=op.f('uq_serieshandicap_series_id_player_id'))
    )
    with op.batch_alter_table('serieshandicap', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_serieshandicap_player_id'), ['player_id'], unique=False)

    op.create_table('team',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('series_id', sa.Integer(), nullable=True),
    sa.Column('event_id', sa.Integer(), nullable=True),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['event_id'], ['event.id'], name=op.f('fk_team_event_id_event')),
    sa.ForeignKeyConstraint(['series_id'], ['series.id'], name=op.f('fk_team_series_id_series')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_team'))
    )
    with op.batch_alter_table('team', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_team_event_id'), ['event_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_team_series_id'), ['series_id'], unique=False)

    op.create_table('teammember',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('team_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_teammember_player_id_player')),
    sa.ForeignKeyConstraint(['team_id'], ['team.id'], name=op.f('fk_teammember_team_id_team')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_teammember')),
    sa.UniqueConstraint('team_id', 'player_id', name=op.f('uq_teammember_team_id_player_id'))
    )
    with op.batch_alter_table('teammember', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_teammember_player_id'), ['player_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('teammember', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_teammember_player_id'))

    op.drop_table('teammember')
    with op.batch_alter_table('team', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_team_series_id'))
        batch_op.drop_index(batch_op.f('ix_team_event_id'))

    op.drop_table('team')
    with op.batch_alter_table('serieshandicap', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_serieshandicap_player_id'))

    op.drop_table('serieshandicap')
    with op.batch_alter_table('seriesevent', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_seriesevent_event_id'))

    op.drop_table('seriesevent')
    op.drop_table('series')
