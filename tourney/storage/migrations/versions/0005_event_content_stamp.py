"""event content stamp: a random number that changes with any write to the event's rows

``event.content_stamp`` is set afresh (a random 64-bit number, so a restored backup
or a rebuilt database never meets an old value by counting up to it) by triggers
whenever a row the event's published pages are made of is inserted, changed or
deleted: its entries, rounds, seats and matches, and the versions and places of
its matches when changed or deleted. (A version and its places are written before
the version becomes current, which changes the match row; a version's deals never
change.) ``tourney publish`` reuses an event's pages without reading its rows while
the stamp, the event row and its players' names are those of the last publish.

Triggers, not the services, keep the stamp, so that every writer (bulk imports, a
merge moving places, an edit by hand in the database) changes it: row triggers on
SQLite, statement triggers over the changed rows on PostgreSQL (one update of the
event row per statement, not per row).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 21:00:00
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0005'
down_revision: Union[str, Sequence[str], None] = '0004'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

# table -> the event id of one of its rows, "r" (SQL)
EVENT_OF = {
    "entry": "r.event_id",
    "round": "r.event_id",
    "match": "r.event_id",
    "seat": '(SELECT x.event_id FROM "round" x WHERE x.id = r.round_id)',
    "matchversion": '(SELECT x.event_id FROM "match" x WHERE x.id = r.match_id)',
    "matchplace": ('(SELECT x.event_id FROM "match" x JOIN matchversion v ON v.match_id = x.id'
                   ' WHERE v.id = r.version_id)'),
}
# which writes change the stamp (a new version's rows: see the docstring)
OPERATIONS = {table: ("insert", "update", "delete") for table in EVENT_OF}
OPERATIONS["matchversion"] = OPERATIONS["matchplace"] = ("update", "delete")
SQLITE_RANDOM = "random()"
PG_RANDOM = "floor(random() * 9.0e18)::bigint"


def _names() -> list[tuple[str, str]]:
    return [(table, operation) for table, ops in OPERATIONS.items() for operation in ops]


def upgrade() -> None:
    with op.batch_alter_table('event', schema=None) as batch_op:
        batch_op.add_column(sa.Column('content_stamp', sa.BigInteger(), nullable=True))
    bind = op.get_bind()
    if bind.dialect.name == "postgresql":
        _postgresql(op.execute)
    else:
        _sqlite(op.execute)


def _sqlite(execute) -> None:
    execute(f'UPDATE "event" SET content_stamp = {SQLITE_RANDOM}')
    execute(f'CREATE TRIGGER stamp_event_insert AFTER INSERT ON "event" '
            f'WHEN NEW.content_stamp IS NULL BEGIN UPDATE "event" SET content_stamp = '
            f'{SQLITE_RANDOM} WHERE id = NEW.id; END')
    for table, operation in _names():
        rows = {"insert": ["NEW"], "update": ["NEW", "OLD"], "delete": ["OLD"]}[operation]
        events = ", ".join(EVENT_OF[table].replace("r.", f"{row}.") for row in rows)
        execute(f'CREATE TRIGGER stamp_{table}_{operation} AFTER {operation.upper()} '
                f'ON "{table}" BEGIN UPDATE "event" SET content_stamp = {SQLITE_RANDOM} '
                f'WHERE id IN ({events}); END')


def _postgresql(execute) -> None:
    execute(f'UPDATE "event" SET content_stamp = {PG_RANDOM}')
    for table, operation in [("event", "insert"), *_names()]:
        transition = {"insert": ["new_rows"], "update": ["new_rows", "old_rows"],
                      "delete": ["old_rows"]}[operation]
        referencing = " ".join(f"{'NEW' if t == 'new_rows' else 'OLD'} TABLE AS {t}"
                               for t in transition)
        events = " UNION ".join(f"SELECT {EVENT_OF.get(table, 'r.id')} FROM {t} r"
                                for t in transition)
        only_new = " AND content_stamp IS NULL" if table == "event" else ""
        name = f"stamp_{table}_{operation}"
        execute(f'CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN '
                f'UPDATE "event" SET content_stamp = {PG_RANDOM} WHERE id IN ({events}){only_new}; '
                f'RETURN NULL; END $$')
        execute(f'CREATE TRIGGER {name} AFTER {operation.upper()} ON "{table}" '
                f'REFERENCING {referencing} FOR EACH STATEMENT EXECUTE FUNCTION {name}()')


def downgrade() -> None:
    bind = op.get_bind()
    postgres = bind.dialect.name == "postgresql"
    for table, operation in [("event", "insert"), *_names()]:
        name = f"stamp_{table}_{operation}"
        op.execute(f'DROP TRIGGER IF EXISTS {name}' + (f' ON "{table}"' if postgres else ""))
        if postgres:
            op.execute(f'DROP FUNCTION IF EXISTS {name}()')
    with op.batch_alter_table('event', schema=None) as batch_op:
        batch_op.drop_column('content_stamp')
