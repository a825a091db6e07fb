"""serve limits: the wrong guesses per client address and the logged-out organizer
cookies, shared by every process of `tourney serve --workers N`

Revision ID: 0011_serve_limits
Revises: 0010_standings_snapshot
Create Date: 2026-12-06 05:30:00
"""
from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0011_serve_limits'
down_revision: Union[str, Sequence[str], None] = '0010_standings_snapshot'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table('servefailure',
    sa.Column('scope', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
    sa.Column('key', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
    sa.Column('times', sa.Text(), nullable=False),
    sa.Column('last_at', sa.Float(), nullable=False),
    sa.PrimaryKeyConstraint('scope', 'key', name=op.f('pk_servefailure'))
    )
    op.create_index(op.f('ix_servefailure_last_at'), 'servefailure', ['last_at'], unique=False)
    op.create_table('revokedsession',
    sa.Column('nonce', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('expires_at', sa.BigInteger(), nullable=False),
    sa.PrimaryKeyConstraint('nonce', name=op.f('pk_revokedsession'))
    )
    op.create_index(op.f('ix_revokedsession_expires_at'), 'revokedsession', ['expires_at'],
                    unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_revokedsession_expires_at'), table_name='revokedsession')
    op.drop_table('revokedsession')
    op.drop_index(op.f('ix_servefailure_last_at'), table_name='servefailure')
    op.drop_table('servefailure')
