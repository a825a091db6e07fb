"""check-ins undone: an entry's check-ins taken back, kept

``entrystatus.checked_in_at`` holds the latest check-in alone: a check-in taken back
(``event checkin --undo``) after a round was seated and given again made the player
read as "checked in after the seating" of a round they were checked in for. The
check-ins taken back are kept beside it (JSON, ``[[from, until], ...]`` in ISO 8601
UTC). An older database has none kept: its rows start with none.

Revision ID: 0014_checkins_undone
Revises: 0013_round_stamp
Create Date: 2026-12-06 14:00:00
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0014_checkins_undone'
down_revision: Union[str, Sequence[str], None] = '0013_round_stamp'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('entrystatus', schema=None) as batch_op:
        batch_op.add_column(sa.Column('checkins_undone', sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('entrystatus', schema=None) as batch_op:
        batch_op.drop_column('checkins_undone')
