"""players' evening: each entered player's private link (revocable), check-in and
paid flags per entry, the event's check-in / sign-up / fee settings, sign-up
requests, and the log of e-mails sent (`tourney notify`)

Revision ID: 0007_players
Revises: 0006
Create Date: 2026-12-05 12:49:30.340768
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0007_players'
down_revision: Union[str, Sequence[str], None] = '0006'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table('entrystatus',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('checked_in_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('paid_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['event_id'], ['event.id'], name=op.f('fk_entrystatus_event_id_event')),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_entrystatus_player_id_player')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_entrystatus')),
    sa.UniqueConstraint('event_id', 'player_id', name=op.f('uq_entrystatus_event_id_player_id'))
    )
    op.create_table('eventoptions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('checkin', sa.Boolean(), nullable=False),
    sa.Column('signup', sa.String(length=10), nullable=False),
    sa.Column('fee', sa.Float(), nullable=True),
    sa.ForeignKeyConstraint(['event_id'], ['event.id'], name=op.f('fk_eventoptions_event_id_event')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_eventoptions')),
    sa.UniqueConstraint('event_id', name=op.f('uq_eventoptions_event_id'))
    )
    op.create_table('notification',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('round_number', sa.Integer(), nullable=False),
    sa.Column('what', sa.String(length=20), nullable=False),
    sa.Column('address', sa.String(length=320), nullable=False),
    sa.Column('message_id', sa.String(length=300), nullable=False),
    sa.Column('sent_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('status', sa.String(length=10), nullable=False),
    sa.Column('error', sa.String(length=500), nullable=True),
    sa.ForeignKeyConstraint(['event_id'], ['event.id'], name=op.f('fk_notification_event_id_event')),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_notification_player_id_player')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_notification'))
    )
    with op.batch_alter_table('notification', schema=None) as batch_op:
        batch_op.create_index('ix_notification_key', ['event_id', 'round_number', 'what', 'player_id'], unique=False)

    op.create_table('playerlink',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('token', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['event_id'], ['event.id'], name=op.f('fk_playerlink_event_id_event')),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_playerlink_player_id_player')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_playerlink')),
    sa.UniqueConstraint('token', name=op.f('uq_playerlink_token'))
    )
    with op.batch_alter_table('playerlink', schema=None) as batch_op:
        batch_op.create_index('ix_playerlink_event_player', ['event_id', 'player_id'], unique=False)

    op.create_table('signuprequest',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('club', sa.String(length=200), nullable=True),
    sa.Column('email', sa.String(length=320), nullable=True),
    sa.Column('status', sa.String(length=10), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('decided_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['event_id'], ['event.id'], name=op.f('fk_signuprequest_event_id_event')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_signuprequest'))
    )
    with op.batch_alter_table('signuprequest', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_signuprequest_event_id'), ['event_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('signuprequest', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_signuprequest_event_id'))

    op.drop_table('signuprequest')
    with op.batch_alter_table('playerlink', schema=None) as batch_op:
        batch_op.drop_index('ix_playerlink_event_player')

    op.drop_table('playerlink')
    with op.batch_alter_table('notification', schema=None) as batch_op:
        batch_op.drop_index('ix_notification_key')

    op.drop_table('notification')
    op.drop_table('eventoptions')
    op.drop_table('entrystatus')
