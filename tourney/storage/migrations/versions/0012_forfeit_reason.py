"""forfeit reason: the arbiter's reason for a forfeit, stored with it

Until now the reason was kept only in the forfeit's audit row. The upgrade copies
it from there: a table's last ``result.forfeit`` row is the one of its forfeit
still standing (a table is forfeited again only after its forfeit is taken back).
A forfeit without such a row, or whose row gives no reason, keeps none.

Revision ID: 0012_forfeit_reason
Revises: 0011_serve_limits
Create Date: 2026-12-06 08:00:00
"""
import json
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0012_forfeit_reason'
down_revision: Union[str, Sequence[str], None] = '0011_serve_limits'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

# the tables as this revision knows them (not the models, which move on)
AUDIT = sa.table("auditlog", sa.column("id", sa.Integer), sa.column("event_id", sa.Integer),
                 sa.column("action", sa.String), sa.column("after_json", sa.Text))
FORFEIT = sa.table("forfeit", sa.column("event_id", sa.Integer),
                   sa.column("round_number", sa.Integer), sa.column("table", sa.String),
                   sa.column("reason", sa.Text))


def upgrade() -> None:
    with op.batch_alter_table('forfeit', schema=None) as batch_op:
        batch_op.add_column(sa.Column('reason', sa.Text(), nullable=True))
    bind = op.get_bind()
    reasons: dict[tuple[int, int, str], str | None] = {}
    for event_id, after in bind.execute(
            sa.select(AUDIT.c.event_id, AUDIT.c.after_json)
            .where(AUDIT.c.action == "result.forfeit").order_by(AUDIT.c.id)):
        try:
            said = json.loads(after or "{}")
            key = (event_id, int(said["round"]), str(said["table"]))
        except (ValueError, KeyError, TypeError):
            continue  # not a row this revision wrote: no reason to copy
        reason = said.get("reason")
        reasons[key] = (" ".join(reason.split()) or None) if isinstance(reason, str) else None
    for (event_id, number, table), reason in reasons.items():
        if reason:
            bind.execute(FORFEIT.update().where(
                FORFEIT.c.event_id == event_id, FORFEIT.c.round_number == number,
                FORFEIT.c.table == table).values(reason=reason))


def downgrade() -> None:
    with op.batch_alter_table('forfeit', schema=None) as batch_op:
        batch_op.drop_column('reason')
