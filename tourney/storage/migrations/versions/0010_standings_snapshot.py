"""standings snapshots: an event's standings kept by the commands that change them,
read (while still valid) by a series' standings

Revision ID: 0010_standings_snapshot
Revises: 0009_series
Create Date: 2026-12-05 21:00:00
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0010_standings_snapshot'
down_revision: Union[str, Sequence[str], None] = '0009_series'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table('standingssnapshot',
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('key', sa.String(length=64), nullable=False),
    sa.Column('rows_json', sa.Text(), nullable=False),
    sa.ForeignKeyConstraint(['event_id'], ['event.id'],
                            name=op.f('fk_standingssnapshot_event_id_event')),
    sa.PrimaryKeyConstraint('event_id', name=op.f('pk_standingssnapshot'))
    )


def downgrade() -> None:
    op.drop_table('standingssnapshot')
