"""rating pool history stamp: a random number that changes when a pool's history rows
are deleted or changed

``ratingpool.history_stamp`` is set afresh (a random 64-bit number, as the event's
stamp of migration 0005) by triggers whenever a row of the pool's rating history is
deleted or updated: a correction, a merge or a recomputation rewinds the history and
rates again, and SQLite may give the rows written again the ids the deleted ones had.
Rows appended (a new result rated after every rated one) leave it as it was: they
have ids above every earlier row's. ``tourney publish`` knows the history only grew
since its last publish (and which players it rated since: the rows after the highest
id it saw) while the stamp is the one it had, without an aggregate over every row.

Row triggers on SQLite, statement triggers over the changed rows on PostgreSQL (one
update of the pool rows per statement).

Revision ID: 0015_history_stamp
Revises: 0014_checkins_undone
Create Date: 2026-12-06 13:40:00
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0015_history_stamp'
down_revision: Union[str, Sequence[str], None] = '0014_checkins_undone'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

SQLITE_RANDOM = "random()"
PG_RANDOM = "floor(random() * 9.0e18)::bigint"
OPERATIONS = ("update", "delete")


def upgrade() -> None:
    # plain ADD COLUMN (a batch copy of the table would drop triggers on it)
    op.add_column('ratingpool', sa.Column('history_stamp', sa.BigInteger(), nullable=True))
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f'UPDATE ratingpool SET history_stamp = {PG_RANDOM}')
        for operation in OPERATIONS:
            transition = {"update": ["new_rows", "old_rows"], "delete": ["old_rows"]}[operation]
            referencing = " ".join(f"{'NEW' if t == 'new_rows' else 'OLD'} TABLE AS {t}"
                                   for t in transition)
            pools = " UNION ".join(f"SELECT r.pool_id FROM {t} r" for t in transition)
            name = f"history_stamp_{operation}"
            op.execute(f'CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN '
                       f'UPDATE ratingpool SET history_stamp = {PG_RANDOM} '
                       f'WHERE id IN ({pools}); RETURN NULL; END $$')
            op.execute(f'CREATE TRIGGER {name} AFTER {operation.upper()} ON ratinghistory '
                       f'REFERENCING {referencing} FOR EACH STATEMENT EXECUTE FUNCTION {name}()')
    else:
        op.execute(f'UPDATE ratingpool SET history_stamp = {SQLITE_RANDOM}')
        op.execute('CREATE TRIGGER history_stamp_update AFTER UPDATE ON ratinghistory BEGIN '
                   f'UPDATE ratingpool SET history_stamp = {SQLITE_RANDOM} '
                   'WHERE id IN (NEW.pool_id, OLD.pool_id); END')
        op.execute('CREATE TRIGGER history_stamp_delete AFTER DELETE ON ratinghistory BEGIN '
                   f'UPDATE ratingpool SET history_stamp = {SQLITE_RANDOM} '
                   'WHERE id = OLD.pool_id; END')


def downgrade() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    for operation in OPERATIONS:
        name = f"history_stamp_{operation}"
        op.execute(f'DROP TRIGGER IF EXISTS {name}' + (' ON ratinghistory' if postgres else ""))
        if postgres:
            op.execute(f'DROP FUNCTION IF EXISTS {name}()')
    op.drop_column('ratingpool', 'history_stamp')
