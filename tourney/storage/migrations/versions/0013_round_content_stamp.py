"""round content stamp: a random number that changes with any write to a round's rows

``round.content_stamp`` is set afresh (a random 64-bit number, as the event's stamp of
migration 0005) by triggers whenever a row a round's pages are made of is inserted,
changed or deleted: its seats, its matches (by event and round number), the versions
and places of its matches when changed or deleted (a new version's rows are written
before the version becomes current, which changes the match row), and its forfeits.
``tourney publish`` keeps what it worked out of a round (its keys' parts, in the site's
manifest) and does not read the round's rows again while the stamp is the one it had.
The round row itself is read on every publish, so its own columns need no trigger.

Row triggers on SQLite, statement triggers over the changed rows on PostgreSQL (one
update of the round rows per statement). On SQLite the event's trigger on a round's
update (0005's ``stamp_round_update``) is made again to pass over an update of the
round's stamp alone, which the new triggers make on every seat written: the event's
stamp has changed already with the seat (its own trigger), and each seat of a round
seated would otherwise update the event's row twice.

Revision ID: 0013_round_stamp
Revises: 0012_forfeit_reason
Create Date: 2026-12-06 11:00:00
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0013_round_stamp'
down_revision: Union[str, Sequence[str], None] = '0012_forfeit_reason'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

# table -> the condition on a round (its columns prefixed by {R}) that it holds a row
# {r} of the table (SQL)
ROUND_OF = {
    "seat": "{R}id = {r}.round_id",
    "match": "{R}event_id = {r}.event_id AND {R}number = {r}.round_number",
    "matchversion": ('({R}event_id, {R}number) IN (SELECT m.event_id, m.round_number '
                     'FROM "match" m WHERE m.id = {r}.match_id)'),
    "matchplace": ('({R}event_id, {R}number) IN (SELECT m.event_id, m.round_number '
                   'FROM "match" m JOIN matchversion v ON v.match_id = m.id '
                   'WHERE v.id = {r}.version_id)'),
    "forfeit": "{R}event_id = {r}.event_id AND {R}number = {r}.round_number",
}
# which writes change the stamp (a new version's rows: see the docstring)
OPERATIONS = {table: ("insert", "update", "delete") for table in ROUND_OF}
OPERATIONS["matchversion"] = OPERATIONS["matchplace"] = ("update", "delete")
SQLITE_RANDOM = "random()"
PG_RANDOM = "floor(random() * 9.0e18)::bigint"
# 0005's trigger of the event's stamp on a round's update, as it made it (SQLite)
EVENT_ON_ROUND = ('CREATE TRIGGER stamp_round_update AFTER UPDATE ON "round" {when}BEGIN '
                  f'UPDATE "event" SET content_stamp = {SQLITE_RANDOM} '
                  'WHERE id IN (NEW.event_id, OLD.event_id); END')


def _names() -> list[tuple[str, str]]:
    return [(table, operation) for table, ops in OPERATIONS.items() for operation in ops]


def upgrade() -> None:
    # plain ADD COLUMN (a batch copy of the table would drop 0005's triggers on it)
    op.add_column('round', sa.Column('content_stamp', sa.BigInteger(), nullable=True))
    if op.get_bind().dialect.name == "postgresql":
        _postgresql(op.execute)
    else:
        _sqlite(op.execute)


def _sqlite(execute) -> None:
    execute('DROP TRIGGER stamp_round_update')
    execute(EVENT_ON_ROUND.format(when="WHEN NEW.content_stamp IS OLD.content_stamp "))
    execute(f'UPDATE "round" SET content_stamp = {SQLITE_RANDOM}')
    execute(f'CREATE TRIGGER round_stamp_round_insert AFTER INSERT ON "round" '
            f'WHEN NEW.content_stamp IS NULL BEGIN UPDATE "round" SET content_stamp = '
            f'{SQLITE_RANDOM} WHERE id = NEW.id; END')
    for table, operation in _names():
        rows = {"insert": ["NEW"], "update": ["NEW", "OLD"], "delete": ["OLD"]}[operation]
        where = " OR ".join(f"({ROUND_OF[table].format(R='', r=row)})" for row in rows)
        execute(f'CREATE TRIGGER round_stamp_{table}_{operation} AFTER {operation.upper()} '
                f'ON "{table}" BEGIN UPDATE "round" SET content_stamp = {SQLITE_RANDOM} '
                f'WHERE {where}; END')


def _postgresql(execute) -> None:
    execute(f'UPDATE "round" SET content_stamp = {PG_RANDOM}')
    for table, operation in [("round", "insert"), *_names()]:
        transition = {"insert": ["new_rows"], "update": ["new_rows", "old_rows"],
                      "delete": ["old_rows"]}[operation]
        referencing = " ".join(f"{'NEW' if t == 'new_rows' else 'OLD'} TABLE AS {t}"
                               for t in transition)
        if table == "round":
            where = "id IN (SELECT r.id FROM new_rows r) AND content_stamp IS NULL"
        else:
            where = "id IN (" + " UNION ".join(
                f'SELECT x.id FROM "round" x, {t} r WHERE {ROUND_OF[table].format(R="x.", r="r")}'
                for t in transition) + ")"
        name = f"round_stamp_{table}_{operation}"
        execute(f'CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN '
                f'UPDATE "round" SET content_stamp = {PG_RANDOM} WHERE {where}; '
                f'RETURN NULL; END $$')
        execute(f'CREATE TRIGGER {name} AFTER {operation.upper()} ON "{table}" '
                f'REFERENCING {referencing} FOR EACH STATEMENT EXECUTE FUNCTION {name}()')


def downgrade() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    for table, operation in [("round", "insert"), *_names()]:
        name = f"round_stamp_{table}_{operation}"
        op.execute(f'DROP TRIGGER IF EXISTS {name}' + (f' ON "{table}"' if postgres else ""))
        if postgres:
            op.execute(f'DROP FUNCTION IF EXISTS {name}()')
    if not postgres:
        op.execute('DROP TRIGGER stamp_round_update')
        op.execute(EVENT_ON_ROUND.format(when=""))
    op.drop_column('round', 'content_stamp')
