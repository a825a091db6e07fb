"""event.content_stamp (migration 0005): triggers give it a new random value on
every write to the rows an event's published pages are made of, on each backend,
whatever writes them (here raw SQL, as a bulk import or an edit by hand would)."""
from __future__ import annotations

import pytest
from conftest import insert_two_players_and_events, trigger_names
from sqlalchemy import text

from tourney.storage.db import open_engine

WRITES = [
    "INSERT INTO entry (event_id, player_id, first_round, created_at) VALUES "
    "(1, 1, 1, '2024-01-01'), (1, 2, 1, '2024-01-01')",
    "UPDATE entry SET withdrawn_after = 1 WHERE player_id = 2",
    "INSERT INTO round (event_id, number, repeated_pairs, seated_at) "
    "VALUES (1, 1, 0, '2024-01-01')",
    "UPDATE round SET repeated_pairs = 1",
    'INSERT INTO seat (round_id, player_id, "table", seat) VALUES (1, 1, \'1\', 0), (1, 2, \'1\', 1)',
    "UPDATE seat SET seat = 1 - seat",
    'INSERT INTO match (event_id, round_number, "table") VALUES (1, 1, \'1\')',
    # a version and its places are written before it becomes current ...
    None,
    "UPDATE match SET current_version_id = 1",  # ... which changes the match row
    "UPDATE matchplace SET place = 3 - place",  # a merge moves places: a change
    "UPDATE matchversion SET superseded_at = '2024-01-02'",
    "DELETE FROM matchplace WHERE player_id = 2",
    "DELETE FROM seat WHERE player_id = 2",
    "DELETE FROM entry WHERE player_id = 2",
]
NEW_VERSION = [
    "INSERT INTO matchversion (match_id, version, content_sha256, imported_by, imported_at, "
    "deals, verified_moves, ranking_json) VALUES (1, 1, 'x', 'me', '2024-01-01', 1, 1, '[]')",
    "INSERT INTO matchplace (version_id, player_id, seat, place, total, match_points) "
    "VALUES (1, 1, 0, 1, 1, 1), (1, 2, 1, 2, 0, 0)",
]


def stamps(engine) -> dict[str, int | None]:
    with engine.begin() as connection:
        return dict(connection.execute(text(
            "SELECT slug, content_stamp FROM event ORDER BY id")).all())


def test_every_write_to_an_events_rows_gives_it_a_new_stamp(db_url):
    engine = open_engine(db_url)
    with engine.begin() as connection:
        insert_two_players_and_events(connection)
    before = stamps(engine)
    assert None not in before.values()  # a new event has one
    for sql in WRITES:
        with engine.begin() as connection:
            for each in [sql] if sql else NEW_VERSION:
                connection.execute(text(each))
        after = stamps(engine)
        if sql is not None:
            assert after["x"] != before["x"], sql
        assert after["other"] == before["other"], sql  # another event's stays
        before = after
    with engine.begin() as connection:  # reading changes nothing
        connection.execute(text("SELECT * FROM entry")).all()
    assert stamps(engine) == before
    engine.dispose()


@pytest.mark.parametrize("table", ["entry", "round", "seat", "match", "matchplace"])
def test_the_triggers_are_there(db_url, table):
    """A later migration that rebuilds one of these tables (SQLite's batch mode
    copies a table) must make its triggers again: this fails if it does not."""
    names = trigger_names(db_url, table)
    names = {name for name in names if name.startswith("stamp_")}  # a round's: 0013's
    expected = {f"stamp_{table}_{op}" for op in ("update", "delete")}
    if table != "matchplace":
        expected.add(f"stamp_{table}_insert")
    assert names == expected
