"""A full disk during an import: one line, no SQL, no bound parameters.

SQLite's ``max_page_count`` makes the database "full" after a few pages, which
is what a full disk looks like to the importer (SQLITE_FULL). The message must
be one line, must not carry the statement or its parameters (player names,
hands), and the database must be as before. A file that cannot be written
(the rejects file's folder is full or gone) is one line too.
"""
from __future__ import annotations

import errno
import hashlib
import sqlite3

from conftest import cli_on_url
from event_setup import seated_round_file
from sqlalchemy import event

from tourney.storage.db import dispose_engines, open_engine

VARIANT = "kortrad"
NAMES = ["Anna Hemlig", "Bo Hemlig", "Cilla Hemlig", "Dag Hemlig"]


def checkpoint(db) -> int:
    """Close our connections, fold the WAL into the file; its page count."""
    dispose_engines()
    with sqlite3.connect(db) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return connection.execute("PRAGMA page_count").fetchone()[0]


def test_full_database_is_one_line(tmp_path):
    db = tmp_path / "league.db"
    url = f"sqlite:///{db}"
    run = cli_on_url(url)
    path = seated_round_file(run, tmp_path / "cup.csv", "cup", VARIANT, NAMES, deals=40)
    checkpoint(db)
    with sqlite3.connect(db) as connection:  # free pages (migrations drop indexes) are room
        connection.execute("VACUUM")
    pages = checkpoint(db)
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    engine = open_engine(url)

    @event.listens_for(engine, "connect")
    def _little_room(dbapi_connection, _record):
        dbapi_connection.execute(f"PRAGMA max_page_count={pages + 2}")

    result = run("result", "import", path, exit_code=1)
    event.remove(engine, "connect", _little_room)
    engine.dispose()
    assert result.stderr == ("Error: the database failed: database or disk is full; "
                             "the command's changes were rolled back\n")
    assert "Hemlig" not in result.stderr and "INSERT" not in result.stderr
    checkpoint(db)
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before
    assert "added: 1" in run("result", "import", path).stderr  # room again: it imports


def test_unwritable_output_is_one_line(tmp_path, run_cli, monkeypatch):
    url = f"sqlite:///{tmp_path / 'league.db'}"
    run_cli(url, "player", "add", "Anna")
    run_cli(url, "event", "create", "cup", "--variant", "kortrad")

    import tourney.files as files

    real_replace = files.os.replace

    def disk_full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", str(tmp_path / "out.csv"))

    monkeypatch.setattr(files.os, "replace", disk_full)
    result = run_cli(url, "result", "export", "cup", "--out", tmp_path / "out.csv", exit_code=1)
    monkeypatch.setattr(files.os, "replace", real_replace)
    assert result.stderr == (f"Error: {tmp_path / 'out.csv'}: No space left on device; "
                             "nothing was changed\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["league.db", "league.db-shm",
                                                          "league.db-wal"]
