"""drop indexes that a unique constraint's index already serves

``deal.version_id``, ``matchplace.version_id``, ``matchversion.match_id``,
``match.event_id`` and ``tablelink.event_id`` each had an index of their own, though each is the first
column of a unique constraint whose index serves the same lookups. Every insert
paid for the second index: a season's import writes a million deal rows.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02 01:00:00
"""
from typing import Sequence, Union

from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0006'
down_revision: Union[str, Sequence[str], None] = '0005'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

# (table, column) of each index dropped; the index is named ix_<table>_<column>
DROPPED = (("deal", "version_id"), ("matchplace", "version_id"),
           ("matchversion", "match_id"), ("match", "event_id"), ("tablelink", "event_id"))


def upgrade() -> None:
    for table, column in DROPPED:
        op.drop_index(f"ix_{table}_{column}", table_name=table)


def downgrade() -> None:
    for table, column in DROPPED:
        op.create_index(f"ix_{table}_{column}", table, [column], unique=False)
