"""event points: the match-points system and a bye's worth per event

``event.points`` is "share" (the share of the table's other players finished
ahead of) or "place" (n-1 points for first at a table of n). Events stored before
this revision were scored by place, and their stored match points say so: they get
"place"; new events default to "share" (set by the application).
``event.bye_points`` is what a bye is worth; NULL means a win's worth.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01 15:10:00
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0004'
down_revision: Union[str, Sequence[str], None] = '0003'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('event', schema=None) as batch_op:
        batch_op.add_column(sa.Column('points', sa.String(length=10), nullable=False,
                                      server_default='place'))
        batch_op.add_column(sa.Column('bye_points', sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('event', schema=None) as batch_op:
        batch_op.drop_column('bye_points')
        batch_op.drop_column('points')
