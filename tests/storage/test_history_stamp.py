"""ratingpool.history_stamp (migration 0015): triggers give a pool a new random value
whenever a row of its rating history is deleted or changed (a correction, a merge or a
recomputation rewinds the history; SQLite may give the rows written again the deleted
rows' ids), and leave it when rows are appended; only that pool's. Downgrading removes
the column and the triggers, upgrading gives every pool a stamp again, on SQLite and
PostgreSQL."""
from __future__ import annotations

from alembic import command
from conftest import insert_two_players_and_events, trigger_names
from sqlalchemy import inspect, text

from tourney.storage import schema
from tourney.storage.db import open_engine

BEFORE = "0014_checkins_undone"
ROW = ("INSERT INTO ratinghistory (pool_id, sequence, match_id, version_id, player_id, place, "
       "mu_before, sigma_before, mu_after, sigma_after, rated_at) VALUES ")
# (write, the pools whose stamp it changes)
WRITES = [
    (ROW + "(1, 1, 1, 1, 1, 1, 25, 8, 27, 7, '2024-01-01'), "
     "(1, 1, 1, 1, 2, 2, 25, 8, 23, 7, '2024-01-01')", set()),
    # appended: no stamp changes
    (ROW + "(2, 1, 1, 1, 1, 1, 25, 8, 26, 7, '2024-01-01')", set()),
    ("UPDATE ratinghistory SET place = 3 - place WHERE pool_id = 1", {1}),
    ("UPDATE ratinghistory SET pool_id = 1 WHERE pool_id = 2", {1, 2}),  # moved
    ("DELETE FROM ratinghistory WHERE player_id = 2", {1}),
    # the id just freed, given again on SQLite
    (ROW + "(1, 2, 1, 1, 2, 2, 25, 8, 23, 7, '2024-01-01')", set()),
    ("DELETE FROM ratinghistory", {1}),
]


def _stamps(engine) -> dict[int, int | None]:
    with engine.begin() as connection:
        return dict(connection.execute(text(
            "SELECT id, history_stamp FROM ratingpool ORDER BY id")).all())


def _league(engine) -> None:
    """Two pools (ids 1, 2) and a match with a version (id 1) of players a and b."""
    with engine.begin() as connection:
        insert_two_players_and_events(connection)
        connection.execute(text("INSERT INTO ratingpool (variant, model, params_json, "
                                "provisional_matches) VALUES ('kortrad', 'PlackettLuce', "
                                "'{}', 5), ('spardame', 'PlackettLuce', '{}', 5)"))
        connection.execute(text('INSERT INTO match (event_id, round_number, "table") '
                                "VALUES (1, 1, '1')"))
        connection.execute(text(
            "INSERT INTO matchversion (match_id, version, content_sha256, imported_by, "
            "imported_at, deals, verified_moves, ranking_json) VALUES "
            "(1, 1, 'x', 'me', '2024-01-01', 1, 1, '[]')"))


def test_a_deleted_or_changed_history_row_gives_its_pool_a_new_stamp(db_url):
    engine = open_engine(db_url)
    _league(engine)
    stamps = _stamps(engine)
    for sql, changed in WRITES:
        with engine.begin() as connection:
            connection.execute(text(sql))
        now = _stamps(engine)
        assert {p for p in stamps if now[p] != stamps[p]} == changed, sql
        stamps = now
    engine.dispose()


def test_the_migration_goes_down_and_up_again(db_url, run_cli):
    engine = open_engine(db_url)
    _league(engine)
    with engine.begin() as connection:
        command.downgrade(schema.alembic_config(connection), BEFORE)
    with engine.connect() as connection:
        assert "history_stamp" not in {c["name"] for c in
                                       inspect(connection).get_columns("ratingpool")}
    assert trigger_names(db_url, "ratinghistory") == set()
    with engine.begin() as connection:  # the history is written as before
        connection.execute(text(WRITES[0][0]))
        connection.execute(text("DELETE FROM ratinghistory"))
    assert run_cli(db_url, "db", "status", "--json", exit_code=1).json["state"] == "outdated"

    run_cli(db_url, "db", "upgrade")
    stamps = _stamps(engine)
    assert None not in stamps.values() and len(set(stamps.values())) == 2
    with engine.begin() as connection:
        connection.execute(text(WRITES[1][0]))
        connection.execute(text("DELETE FROM ratinghistory"))
    now = _stamps(engine)
    assert now[2] != stamps[2] and now[1] == stamps[1]
    engine.dispose()


def test_the_triggers_are_there(db_url):
    """A later migration that rebuilds the history's table (SQLite's batch mode copies
    a table) must make its triggers again: this fails if it does not."""
    assert trigger_names(db_url, "ratinghistory") == {"history_stamp_update",
                                                      "history_stamp_delete"}
