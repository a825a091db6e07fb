"""Databases that are not tourney's, missing ones, bad URLs and silent servers.

- Another program's SQLite file given as --db is never modified, by any
  command: no tables added, its journal mode left as it was.
- A mistyped --db does not create a database: read and writing commands name the
  path and the command that creates one (`tourney db init`); only `db init`,
  `player add`, `player import` and `event create` create one.
- Read commands open the database read-only: they leave the file's bytes and its
  journal mode alone, so they also work where the file cannot be written.
- Every bad URL or file gets one line naming it, exit 1 or 2, no traceback.
- A PostgreSQL server that accepts the connection and never answers: the
  command gives up after the connect timeout (default 10 s, `?connect_timeout=S`)
  with one line saying so.
"""
from __future__ import annotations

import hashlib
import socket
import sqlite3
import time
from contextlib import closing

import pytest

from tourney.storage import db as storage_db

READ_COMMANDS = [
    ("player", "list"), ("event", "list"), ("event", "show", "cup"), ("standings", "cup"),
    ("rating", "show"), ("log",), ("result", "export", "cup"), ("round", "show", "cup", "1"),
]
WRITE_COMMANDS = [
    ("event", "enter", "cup", "Anna"), ("round", "seat", "cup"),
    ("player", "rename", "Anna", "Anne"), ("rating", "recompute"),
]
CREATING_COMMANDS = [("player", "add", "Anna"), ("event", "create", "cup", "--variant", "kortrad"),
                     ("db", "init")]


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(params=["delete", "wal"])
def foreign(tmp_path, request):
    """Another application's SQLite file (one table), closed, in its own folder:
    with a rollback journal, or in WAL mode (as many applications keep theirs)."""
    path = tmp_path / "other-app" / "other-app.sqlite"
    path.parent.mkdir()
    with closing(sqlite3.connect(path)) as connection:
        connection.execute(f"PRAGMA journal_mode={request.param}")
        connection.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        connection.execute("INSERT INTO notes (body) VALUES ('keep me')")
        connection.commit()
    assert [p.name for p in path.parent.iterdir()] == [path.name]
    return path


def test_a_foreign_database_is_never_modified(foreign, run_cli):
    """Its bytes, its journal mode and its folder: no -wal or -shm file is left
    beside it either, by a read command or a refused write."""
    before = digest(foreign)
    journal = foreign.read_bytes()[18:20]  # the header's journal mode
    for command in READ_COMMANDS + WRITE_COMMANDS + CREATING_COMMANDS + [("db", "upgrade")]:
        result = run_cli(str(foreign), *command, exit_code=2)  # the wrong --db: usage
        assert result.stderr.startswith(f"Error: {foreign} is not a tourney database"), (
            command, result.stderr)
        assert len(result.stderr.splitlines()) == 1
        assert [p.name for p in foreign.parent.iterdir()] == [foreign.name], command
    status = run_cli(str(foreign), "db", "status", "--json", exit_code=2).json
    assert status["state"] == "foreign"
    assert [p.name for p in foreign.parent.iterdir()] == [foreign.name]
    assert digest(foreign) == before
    assert foreign.read_bytes()[18:20] == journal
    with closing(sqlite3.connect(foreign)) as connection:
        assert [r[0] for r in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")] == ["notes"]


def test_a_mistyped_db_creates_nothing(tmp_path, run_cli):
    missing = tmp_path / "tourny.db"
    for command in READ_COMMANDS + WRITE_COMMANDS:
        result = run_cli(str(missing), *command, exit_code=2)
        assert result.stderr == (f"Error: no database at {missing}: `tourney db init` (or the "
                                 "first `player add`, `player import` or `event create`) "
                                 "creates one; check --db or TOURNEY_DB, or the current folder\n")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", CREATING_COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_creating_commands_create_the_database(tmp_path, run_cli, command):
    path = tmp_path / "new.db"
    run_cli(str(path), *command)
    assert run_cli(str(path), "db", "status", "--json").json["state"] == "current"
    run_cli(str(path), "db", "init")  # again: nothing to do, still exit 0


def test_read_commands_open_read_only(tmp_path, run_cli):
    """Reads leave the file alone: no WAL switch, same bytes; a write through the
    read engine is refused by SQLite itself."""
    path = tmp_path / "league.db"
    run_cli(str(path), "player", "add", "Anna")
    run_cli(str(path), "event", "create", "cup", "--variant", "kortrad")
    storage_db.dispose_engines()  # no connection of ours left open
    with sqlite3.connect(path) as connection:  # as a backup tool might leave it
        connection.execute("PRAGMA journal_mode=DELETE")
    before = digest(path)
    for command in READ_COMMANDS[:5]:
        run_cli(str(path), *command)
    assert digest(path) == before
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    engine = storage_db.open_engine(f"sqlite:///{path}", read_only=True)
    with pytest.raises(Exception, match="readonly|read-only|query_only"):
        with engine.begin() as connection:
            connection.exec_driver_sql("DELETE FROM player")


def test_read_commands_work_where_the_folder_cannot_be_written(tmp_path, run_cli):
    """A league database (WAL mode, as tourney leaves it) in a folder that cannot be
    written, a read-only share or an archive: SQLite cannot make the -wal and -shm
    files it reads a WAL database through. Read commands read it all the same, and
    leave the folder as it was; a writing command is refused, saying why (exit 2:
    the database given cannot take a change there)."""
    league = tmp_path / "league"
    league.mkdir()
    path = league / "tourney.db"
    run_cli(str(path), "player", "add", "Anna", "Bo")
    storage_db.dispose_engines()
    assert path.read_bytes()[18:20] == b"\x02\x02"  # the header's WAL mode
    assert sorted(p.name for p in league.iterdir()) == ["tourney.db"]
    before = digest(path)
    # The folder read-only; and, since root writes in any folder, a folder where
    # the -wal file would go: SQLite cannot make it, as in a read-only folder.
    (league / "tourney.db-wal").mkdir()
    league.chmod(0o555)
    try:
        listed = run_cli(str(path), "player", "list", "--json").json
        assert [p["name"] for p in listed] == ["Anna", "Bo"]
        assert run_cli(str(path), "db", "status", "--json").json["state"] == "current"
        refused = run_cli(str(path), "player", "add", "Cilla", exit_code=2).stderr
        assert refused == (f"Error: cannot open the database {path}: unable to open database "
                           "file; a change needs SQLite's -wal and -shm files beside it, in "
                           f"{league}, which cannot be written (reading works)\n")
        storage_db.dispose_engines()
        assert sorted(p.name for p in league.iterdir()) == ["tourney.db", "tourney.db-wal"]
    finally:
        league.chmod(0o755)
    assert digest(path) == before


@pytest.mark.parametrize("url, code", [
    ("postgresql+psycopg://u@host:notaport/db", 2),
    ("postgres://nobody@127.0.0.1/db", 2),
    ("nosuchdialect://x", 2),
])
def test_bad_urls_are_one_line(run_cli, url, code):
    result = run_cli(url, "player", "list", exit_code=code)
    assert result.stderr.startswith("Error: ") and len(result.stderr.splitlines()) == 1
    assert url.split("://")[0] in result.stderr


def test_bad_files_are_one_line(tmp_path, run_cli):
    csv_file = tmp_path / "players.csv"
    csv_file.write_text("name,club\nAnna,Vasa\n")
    before = digest(csv_file)
    for command in (("player", "list"), ("player", "add", "Bo")):
        result = run_cli(str(csv_file), *command, exit_code=2)  # not a database: usage
        assert result.stderr == (f"Error: cannot open the database {csv_file}: "
                                 "file is not a database\n")
    assert digest(csv_file) == before
    result = run_cli(str(tmp_path), "player", "list", exit_code=2)
    assert result.stderr == f"Error: --db {tmp_path} is a folder, not a database file\n"


@pytest.fixture
def silent_server():
    """A listener on 127.0.0.1 that accepts connections (the kernel's backlog) and
    never answers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    try:
        yield server.getsockname()[1]
    finally:
        server.close()


def test_a_silent_server_times_out(silent_server, run_cli):
    url = f"postgresql+psycopg://nobody@127.0.0.1:{silent_server}/league?connect_timeout=1"
    started = time.monotonic()
    result = run_cli(url, "player", "list", exit_code=1)
    assert time.monotonic() - started < 8
    line = result.stderr.strip()
    assert "\n" not in line
    assert line.startswith(f"Error: cannot open the database postgresql+psycopg://nobody@"
                           f"127.0.0.1:{silent_server}/league")
    assert "no answer within 1 s" in line and "?connect_timeout=SECONDS" in line


def test_the_default_connect_timeout_applies(silent_server, run_cli, monkeypatch):
    assert storage_db.PG_CONNECT_TIMEOUT == 10
    monkeypatch.setattr(storage_db, "PG_CONNECT_TIMEOUT", 1)  # the default, made short
    storage_db.dispose_engines()
    url = f"postgresql+psycopg://nobody@127.0.0.1:{silent_server}/league"
    started = time.monotonic()
    result = run_cli(url, "player", "list", exit_code=1)
    assert time.monotonic() - started < 8
    assert "no answer within 1 s" in result.stderr
