"""the arbiter's hand: seating constraints (kept apart, fixed tables), absences,
forfeits, point adjustments, and the round clock (round.started_at, ends_at)

Forfeits and adjustments change an event's standings, so they change its content
stamp (migration 0005) as its matches do: triggers like 0005's, on both backends.

Revision ID: 0008_arbiter
Revises: 0007_players
Create Date: 2026-12-08 10:00:00
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0008_arbiter'
down_revision: Union[str, Sequence[str], None] = '0007_players'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

STAMPED = ("forfeit", "adjustment")  # tables whose writes change the event's stamp
OPERATIONS = ("insert", "update", "delete")
SQLITE_RANDOM = "random()"
PG_RANDOM = "floor(random() * 9.0e18)::bigint"


def upgrade() -> None:
    op.create_table('seatingrule',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=10), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=True),
    sa.Column('other_id', sa.Integer(), nullable=True),
    sa.Column('table_number', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['event_id'], ['event.id'], name=op.f('fk_seatingrule_event_id_event')),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_seatingrule_player_id_player')),
    sa.ForeignKeyConstraint(['other_id'], ['player.id'], name=op.f('fk_seatingrule_other_id_player')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_seatingrule'))
    )
    with op.batch_alter_table('seatingrule', schema=None) as batch_op:
        batch_op.create_index('ix_seatingrule_event', ['event_id'], unique=False)

    op.create_table('absence',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('round_number', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['event_id'], ['event.id'], name=op.f('fk_absence_event_id_event')),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_absence_player_id_player')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_absence')),
    sa.UniqueConstraint('event_id', 'round_number', 'player_id',
                        name=op.f('uq_absence_event_id_round_number_player_id'))
    )
    op.create_table('forfeit',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('round_number', sa.Integer(), nullable=False),
    sa.Column('table', sa.String(length=20), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['event_id'], ['event.id'], name=op.f('fk_forfeit_event_id_event')),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_forfeit_player_id_player')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_forfeit')),
    sa.UniqueConstraint('event_id', 'round_number', 'player_id',
                        name=op.f('uq_forfeit_event_id_round_number_player_id'))
    )
    with op.batch_alter_table('forfeit', schema=None) as batch_op:
        batch_op.create_index('ix_forfeit_table', ['event_id', 'round_number', 'table'],
                              unique=False)

    op.create_table('adjustment',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('round_number', sa.Integer(), nullable=True),
    sa.Column('points', sa.Float(), nullable=False),
    sa.Column('reason', sa.Text(), nullable=False),
    sa.Column('actor', sa.String(length=100), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['event_id'], ['event.id'], name=op.f('fk_adjustment_event_id_event')),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_adjustment_player_id_player')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_adjustment'))
    )
    with op.batch_alter_table('adjustment', schema=None) as batch_op:
        batch_op.create_index('ix_adjustment_event', ['event_id'], unique=False)

    # plain ADD COLUMN (no batch copy of the table, which would drop 0005's triggers)
    op.add_column('round', sa.Column('started_at', sa.DateTime(timezone=True), nullable=True))
    op.add_column('round', sa.Column('ends_at', sa.DateTime(timezone=True), nullable=True))

    if op.get_bind().dialect.name == "postgresql":
        _postgresql_triggers(op.execute)
    else:
        _sqlite_triggers(op.execute)


def _sqlite_triggers(execute) -> None:
    for table in STAMPED:
        for operation in OPERATIONS:
            rows = {"insert": ["NEW"], "update": ["NEW", "OLD"], "delete": ["OLD"]}[operation]
            events = ", ".join(f"{row}.event_id" for row in rows)
            execute(f'CREATE TRIGGER stamp_{table}_{operation} AFTER {operation.upper()} '
                    f'ON "{table}" BEGIN UPDATE "event" SET content_stamp = {SQLITE_RANDOM} '
                    f'WHERE id IN ({events}); END')


def _postgresql_triggers(execute) -> None:
    for table in STAMPED:
        for operation in OPERATIONS:
            transition = {"insert": ["new_rows"], "update": ["new_rows", "old_rows"],
                          "delete": ["old_rows"]}[operation]
            referencing = " ".join(f"{'NEW' if t == 'new_rows' else 'OLD'} TABLE AS {t}"
                                   for t in transition)
            events = " UNION ".join(f"SELECT r.event_id FROM {t} r" for t in transition)
            name = f"stamp_{table}_{operation}"
            execute(f'CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN '
                    f'UPDATE "event" SET content_stamp = {PG_RANDOM} WHERE id IN ({events}); '
                    f'RETURN NULL; END $$')
            execute(f'CREATE TRIGGER {name} AFTER {operation.upper()} ON "{table}" '
                    f'REFERENCING {referencing} FOR EACH STATEMENT EXECUTE FUNCTION {name}()')


def downgrade() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    for table in STAMPED:
        for operation in OPERATIONS:
            name = f"stamp_{table}_{operation}"
            op.execute(f'DROP TRIGGER IF EXISTS {name}' + (f' ON "{table}"' if postgres else ""))
            if postgres:
                op.execute(f'DROP FUNCTION IF EXISTS {name}()')
    op.drop_column('round', 'ends_at')
    op.drop_column('round', 'started_at')
    with op.batch_alter_table('adjustment', schema=None) as batch_op:
        batch_op.drop_index('ix_adjustment_event')
    op.drop_table('adjustment')
    with op.batch_alter_table('forfeit', schema=None) as batch_op:
        batch_op.drop_index('ix_forfeit_table')
    op.drop_table('forfeit')
    op.drop_table('absence')
    with op.batch_alter_table('seatingrule', schema=None) as batch_op:
        batch_op.drop_index('ix_seatingrule_event')
    op.drop_table('seatingrule')
