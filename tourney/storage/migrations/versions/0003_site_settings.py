"""site settings: the published site's title, organisation and address
(`tourney site set`)

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01 16:00:00
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0003'
down_revision: Union[str, Sequence[str], None] = '0002'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table('sitesetting',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('key', sa.String(length=40), nullable=False),
    sa.Column('value', sa.Text(), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_sitesetting')),
    sa.UniqueConstraint('key', name=op.f('uq_sitesetting_key'))
    )


def downgrade() -> None:
    op.drop_table('sitesetting')
