"""round.content_stamp (migration 0013): triggers give a round a new random value on
every write to the rows its pages are made of (its seats, matches, their versions and
places, its forfeits), and only that round's; the event's stamp (0005) changes as
before. Downgrading removes the column and the triggers, upgrading gives every round a
stamp again, on SQLite and PostgreSQL."""
from __future__ import annotations

import pytest
from alembic import command
from conftest import insert_two_players_and_events, trigger_names
from sqlalchemy import inspect, text

from tourney.storage import schema
from tourney.storage.db import open_engine

BEFORE = "0012_forfeit_reason"
# (write, the rounds whose stamp it changes); the event's stamp changes with each
WRITES = [
    ('INSERT INTO seat (round_id, player_id, "table", seat) VALUES '
     "(1, 1, '1', 0), (1, 2, '1', 1), (2, 1, '1', 0), (2, 2, '1', 1)", {1, 2}),
    ("UPDATE seat SET seat = 1 - seat WHERE round_id = 2", {2}),
    ('INSERT INTO match (event_id, round_number, "table") VALUES (1, 1, \'1\')', {1}),
    ('INSERT INTO match (event_id, round_number, "table") VALUES (1, 2, \'1\')', {2}),
    # a version and its places are written before it becomes current ...
    ("INSERT INTO matchversion (match_id, version, content_sha256, imported_by, imported_at, "
     "deals, verified_moves, ranking_json) VALUES (2, 1, 'x', 'me', '2024-01-01', 1, 1, '[]')",
     set()),
    ("INSERT INTO matchplace (version_id, player_id, seat, place, total, match_points) "
     "VALUES (1, 1, 0, 1, 1, 1), (1, 2, 1, 2, 0, 0)", set()),
    ("UPDATE match SET current_version_id = 1 WHERE id = 2", {2}),  # ... then this
    ("UPDATE matchplace SET place = 3 - place", {2}),  # a merge moves places
    ("UPDATE matchversion SET superseded_at = '2024-01-02'", {2}),
    ("INSERT INTO forfeit (event_id, round_number, \"table\", player_id, created_at) "
     "VALUES (1, 1, '1', 1, '2024-01-01')", {1}),
    ("UPDATE forfeit SET reason = 'late'", {1}),
    ("DELETE FROM forfeit", {1}),
    ("DELETE FROM matchplace WHERE player_id = 2", {2}),
    ("DELETE FROM seat WHERE round_id = 1 AND player_id = 2", {1}),
    ("UPDATE match SET round_number = 1, \"table\" = '2' WHERE id = 2", {1, 2}),  # moved
]


def _stamps(engine, table: str) -> dict[int, int | None]:
    with engine.begin() as connection:
        return dict(connection.execute(text(
            f'SELECT id, content_stamp FROM "{table}" ORDER BY id')).all())


def _league(engine) -> None:
    with engine.begin() as connection:
        insert_two_players_and_events(connection)
        # rounds 1 and 2 of x (ids 1, 2), round 1 of the other (id 3)
        connection.execute(text("INSERT INTO round (event_id, number, repeated_pairs, seated_at) "
                                "VALUES (1, 1, 0, '2024-01-01'), (1, 2, 0, '2024-01-01'), "
                                "(2, 1, 0, '2024-01-01')"))


def test_every_write_to_a_rounds_rows_gives_that_round_a_new_stamp(db_url):
    engine = open_engine(db_url)
    _league(engine)
    rounds, events = _stamps(engine, "round"), _stamps(engine, "event")
    assert None not in rounds.values() and len(set(rounds.values())) == 3  # each its own
    for sql, changed in WRITES:
        with engine.begin() as connection:
            connection.execute(text(sql))
        now, events_now = _stamps(engine, "round"), _stamps(engine, "event")
        assert {r for r in rounds if now[r] != rounds[r]} == changed, sql
        assert events_now[2] == events[2], sql  # the other event's stays
        if changed:
            assert events_now[1] != events[1], sql  # the event's changes as before
        rounds, events = now, events_now
    with engine.begin() as connection:  # the round's own row: read by publish, no stamp
        connection.execute(text("UPDATE round SET repeated_pairs = 2 WHERE id = 1"))
    assert _stamps(engine, "round") == rounds
    assert _stamps(engine, "event")[1] != events[1]  # but the event's (0005)
    engine.dispose()


def _columns(url: str) -> set[str]:
    with open_engine(url).connect() as connection:
        return {c["name"] for c in inspect(connection).get_columns("round")}


def test_the_migration_goes_down_and_up_again(db_url, run_cli):
    engine = open_engine(db_url)
    _league(engine)
    with engine.begin() as connection:
        command.downgrade(schema.alembic_config(connection), BEFORE)
    assert "content_stamp" not in _columns(db_url)
    events = _stamps(engine, "event")
    with engine.begin() as connection:  # 0005's triggers stand as they were
        connection.execute(text("UPDATE round SET repeated_pairs = 1 WHERE id = 1"))
        connection.execute(text('INSERT INTO seat (round_id, player_id, "table", seat) '
                                "VALUES (3, 1, '1', 0)"))
    after = _stamps(engine, "event")
    assert after[1] != events[1] and after[2] != events[2]
    assert run_cli(db_url, "db", "status", "--json", exit_code=1).json["state"] == "outdated"

    upgraded = run_cli(db_url, "db", "upgrade")
    assert f"from schema {BEFORE} to {schema.head_revision()}" in upgraded.stderr
    stamps = _stamps(engine, "round")
    assert None not in stamps.values() and len(set(stamps.values())) == 3
    with engine.begin() as connection:
        connection.execute(text("DELETE FROM seat WHERE round_id = 3"))
    now = _stamps(engine, "round")
    assert now[3] != stamps[3] and now[1] == stamps[1]
    engine.dispose()


@pytest.mark.parametrize("table", ["round", "seat", "match", "matchversion", "matchplace",
                                   "forfeit"])
def test_the_triggers_are_there(db_url, table):
    """A later migration that rebuilds one of these tables (SQLite's batch mode
    copies a table) must make its triggers again: this fails if it does not."""
    names = trigger_names(db_url, table)
    operations = {"round": ["insert"], "matchversion": ["update", "delete"],
                  "matchplace": ["update", "delete"]}.get(table, ["insert", "update", "delete"])
    assert {name for name in names if name.startswith("round_stamp_")} == {
        f"round_stamp_{table}_{op}" for op in operations}
