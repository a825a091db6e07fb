"""tourney.db alone holds what the commands wrote, and `tourney db backup` copies it.

SQLite in WAL mode keeps a writer's changes in ``tourney.db-wal`` until a
checkpoint copies them into the database file: an organizer who copied or mailed
just ``tourney.db`` after a club evening lost the evening. A command that wrote
checkpoints when it ends; a read command opens nothing it could write with.
"""
from __future__ import annotations

import json
import shutil
import sqlite3

from conftest import run_cli

from tourney.errors import UsageError
from tourney.storage import db as storage


def names_in(path) -> list[str]:
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return sorted(row[0] for row in connection.execute("SELECT name FROM player"))
    finally:
        connection.close()


def test_the_database_file_alone_holds_a_write_commands_changes(tmp_path):
    db = tmp_path / "tourney.db"
    run_cli(str(db), "player", "add", "Anna", "Bo")
    run_cli(str(db), "event", "create", "club-1", "--variant", "kortrad")
    copy = tmp_path / "mailed"
    copy.mkdir()
    shutil.copyfile(db, copy / "tourney.db")  # the file only, not tourney.db-wal
    assert names_in(copy / "tourney.db") == ["Anna", "Bo"]
    connection = sqlite3.connect(f"file:{copy / 'tourney.db'}?mode=ro", uri=True)
    assert connection.execute("SELECT slug FROM event").fetchall() == [("club-1",)]
    connection.close()
    wal = tmp_path / "tourney.db-wal"
    assert not wal.exists() or wal.stat().st_size == 0


def test_a_read_command_opens_no_writing_connection(tmp_path):
    db = tmp_path / "tourney.db"
    run_cli(str(db), "player", "add", "Anna")
    storage.dispose_engines()
    run_cli(str(db), "player", "list", "--json")
    run_cli(str(db), "db", "backup", tmp_path / "copy.db")
    url = storage.resolve_url(str(db))
    assert (url, False) not in storage._ENGINES  # nothing to checkpoint with
    assert not storage._WRITTEN


def test_db_backup_copies_everything_into_one_file(tmp_path):
    db = tmp_path / "tourney.db"
    run_cli(str(db), "player", "add", "Anna", "Bo")
    out = tmp_path / "backups" / "league.db"  # a folder made for it: as the guide says
    result = run_cli(str(db), "--json", "db", "backup", out)
    report = json.loads(result.stdout)
    assert report["action"] == "db.backup" and report["changed"] is True
    assert report["details"]["file"] == str(out)
    assert report["details"]["bytes"] == out.stat().st_size
    assert "copied to" in report["summary"]
    assert sorted(p.name for p in out.parent.iterdir()) == ["league.db"]  # no -wal, no temp
    assert names_in(out) == ["Anna", "Bo"]
    # the copy is a tourney database of its own
    listed = run_cli(str(out), "player", "list", "--json").json
    assert [p["name"] for p in listed] == ["Anna", "Bo"]


def test_db_backup_refuses_an_existing_file_unless_yes(tmp_path):
    db = tmp_path / "tourney.db"
    run_cli(str(db), "player", "add", "Anna")
    out = tmp_path / "players.csv"
    out.write_text("name\nsomeone\n")
    result = run_cli(str(db), "db", "backup", out, exit_code=2)
    assert f"'{out}' exists already" in result.stderr
    assert "--yes" in result.stderr
    assert out.read_text() == "name\nsomeone\n"
    run_cli(str(db), "db", "backup", out, "--yes")
    assert names_in(out) == ["Anna"]


def test_db_backup_never_writes_over_the_database(tmp_path):
    db = tmp_path / "tourney.db"
    run_cli(str(db), "player", "add", "Anna")
    before = db.read_bytes()
    for target in (db, tmp_path / "tourney.db-wal"):
        result = run_cli(str(db), "db", "backup", target, "--yes", exit_code=2)
        assert "is the database" in result.stderr
    assert db.read_bytes() == before


def test_db_backup_of_a_missing_database_creates_nothing(tmp_path):
    result = run_cli(str(tmp_path / "nope.db"), "db", "backup", tmp_path / "b.db",
                     exit_code=2)
    assert "no database at" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_db_backup_of_a_server_database_says_pg_dump():
    from sqlalchemy import create_engine

    from tourney.app.database import backup_database

    engine = create_engine("postgresql+psycopg://nobody@127.0.0.1:1/league")
    try:
        backup_database(engine, "league.db")
    except UsageError as err:
        assert "pg_dump" in str(err)
    else:
        raise AssertionError("a PostgreSQL database was not refused")
