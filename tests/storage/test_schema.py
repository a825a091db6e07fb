"""Schema versions through Alembic: new databases, old ones, upgrades, status."""
import os
import shutil
import subprocess
import sys
import textwrap
import threading
import time

import pytest
from sqlalchemy import inspect, text
from sqlmodel import SQLModel, select

from tourney.errors import TourneyError
from tourney.storage import schema
from tourney.storage.db import DatabaseBusy, open_engine, sqlite_file, transaction
from tourney.storage.models import Player


def tables_of(url):
    with open_engine(url).connect() as connection:
        return set(inspect(connection).get_table_names())


def test_linear_history_read_without_alembic_matches_alembic():
    assert schema.history_revisions()[0] == schema.FIRST_REVISION
    assert schema.head_revision() == schema.script_directory().get_current_head()
    assert [s.revision for s in schema.script_directory().walk_revisions()][::-1] \
        == schema.history_revisions()


def test_an_empty_database_is_set_up_on_first_use(empty_db_url):
    engine = open_engine(empty_db_url)
    assert schema.schema_status(engine).state == "empty"
    schema.ensure_schema(engine)
    status = schema.schema_status(engine)
    assert status.state == "current" and status.revision == schema.head_revision()
    assert set(SQLModel.metadata.tables) <= tables_of(empty_db_url)
    schema.ensure_schema(engine)  # a second time changes nothing
    assert schema.schema_status(engine).state == "current"


def test_the_models_and_the_migrations_agree(empty_db_url):
    """An autogenerate diff after upgrading to head is empty on every backend."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    engine = open_engine(empty_db_url)
    schema.upgrade(engine)
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, SQLModel.metadata) == []


def test_data_written_at_the_first_revision_survives_the_upgrade(empty_db_url, backend, run_cli):
    engine = open_engine(empty_db_url)
    before, after = schema.upgrade(engine, schema.FIRST_REVISION)
    assert (before, after) == (None, schema.FIRST_REVISION)
    with engine.begin() as connection:  # raw SQL: the tables as 0001 made them
        connection.execute(text(
            "INSERT INTO player (name, club, created_at) VALUES "
            "('Åsa Öberg', 'Vasa', '2024-03-02 10:00:00'), ('Bo', NULL, '2024-03-02 10:00:00')"))
        connection.execute(text(
            "INSERT INTO event (slug, name, variant, rules_json, table_min, table_max, "
            "table_preferred, seating, seed, tiebreaks_json, created_at) VALUES "
            "('club-1', 'Club', 'kortrad', '{}', 2, 2, 2, 'swiss', 0, '[]', '2024-03-02 10:00:00')"))
    status = run_cli(empty_db_url, "db", "status", "--json", exit_code=None)
    if schema.head_revision() == schema.FIRST_REVISION:
        assert status.exit_code == 0 and status.json["state"] == "current"
    else:
        assert status.exit_code == 1 and status.json["state"] == "outdated"
    upgraded = run_cli(empty_db_url, "db", "upgrade")
    assert "schema" in upgraded.stderr
    listing = run_cli(empty_db_url, "player", "list", "--json",
                      env={"LC_ALL": "sv_SE.UTF-8"}).json  # Å after Z
    assert [(p["name"], p["club"]) for p in listing] == [("Bo", None), ("Åsa Öberg", "Vasa")]
    assert run_cli(empty_db_url, "event", "list", "--json").json[0]["slug"] == "club-1"
    # an event from before the points setting was scored by place, and keeps that
    shown = run_cli(empty_db_url, "event", "show", "club-1", "--json").json
    assert (shown["points"], shown["bye_points"]) == ("place", None)
    text_status = run_cli(empty_db_url, "db", "status").stdout
    assert "up to date" in text_status and schema.head_revision() in text_status


@pytest.fixture
def second_revision(tmp_path, monkeypatch):
    """A copy of the migrations with a revision 9999 after head that adds a table,
    standing in for the next release's migration."""
    copy = tmp_path / "migrations"
    shutil.copytree(schema.MIGRATIONS_DIR, copy,
                    ignore=shutil.ignore_patterns("__pycache__"))
    head = schema.head_revision()
    (copy / "versions" / "9999_next.py").write_text(textwrap.dedent(f'''
        """next release: a new table"""
        from alembic import op
        import sqlalchemy as sa

        revision = "9999"
        down_revision = {head!r}
        branch_labels = None
        depends_on = None


        def upgrade():
            op.create_table("note", sa.Column("id", sa.Integer(), primary_key=True),
                            sa.Column("text", sa.Text(), nullable=False))


        def downgrade():
            op.drop_table("note")
        '''))
    return head, lambda: monkeypatch.setattr(schema, "MIGRATIONS_DIR", copy)


def test_an_older_database_is_refused_until_upgraded(db_url, second_revision, run_cli):
    old, next_release = second_revision
    run_cli(db_url, "player", "add", "Anna")  # created at today's head
    next_release()  # one more migration from now on
    refused = run_cli(db_url, "player", "list", exit_code=1)
    assert (f"this database is at schema {old}, before this tourney's 9999; back it up, "
            "then upgrade it (`tourney db upgrade`)") in refused.stderr
    status = run_cli(db_url, "db", "status", "--json", exit_code=1).json
    assert status["state"] == "outdated" and status["pending"] == ["9999"]
    assert status["revision"] == old and status["head"] == "9999"
    upgraded = run_cli(db_url, "db", "upgrade")
    assert f"from schema {old} to 9999" in upgraded.stderr
    assert "note" in tables_of(db_url)
    logged = run_cli(db_url, "log", "--action", "db", "--json").json
    assert [(r["action"], r["subject"]) for r in logged] == [("db.upgrade", f"schema {old} -> 9999")]
    assert run_cli(db_url, "player", "list", "--json").json[0]["name"] == "Anna"
    assert "already at schema 9999" in run_cli(db_url, "db", "upgrade").stderr


def test_tables_without_a_version_are_refused_then_adopted(empty_db_url, run_cli):
    engine = open_engine(empty_db_url)
    # what a pre-migration build did: the first revision's tables, no version table
    schema.upgrade(engine, schema.FIRST_REVISION)
    with engine.begin() as connection:
        connection.execute(text("DROP TABLE alembic_version"))
        connection.execute(text("INSERT INTO player (name, created_at) "
                                "VALUES ('Anna', '2024-03-02 10:00:00')"))
    refused = run_cli(empty_db_url, "player", "list", exit_code=1)
    assert ("tourney tables but no schema version; upgrade it (`tourney db upgrade`)"
            in refused.stderr)
    assert run_cli(empty_db_url, "db", "status", "--json", exit_code=1).json["state"] == "unversioned"
    run_cli(empty_db_url, "db", "upgrade")
    assert run_cli(empty_db_url, "player", "list", "--json").json[0]["name"] == "Anna"


def test_unversioned_tables_that_differ_are_not_adopted(empty_db_url, run_cli):
    engine = open_engine(empty_db_url)
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE player (id INTEGER PRIMARY KEY, nick TEXT)"))
    refused = run_cli(empty_db_url, "db", "upgrade", exit_code=1)
    assert "cannot be upgraded" in refused.stderr and "player" in refused.stderr
    assert "alembic_version" not in tables_of(empty_db_url)


def test_a_revision_from_a_newer_tourney_is_refused(db_url, run_cli):
    engine = open_engine(db_url)
    schema.ensure_schema(engine)
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '7777'"))
    with pytest.raises(TourneyError, match="schema 7777, which this tourney"):
        schema.ensure_schema(engine)
    assert run_cli(db_url, "db", "upgrade", exit_code=1).stderr.startswith("Error: ")


def test_db_upgrade_refuses_a_missing_file_and_sets_up_an_empty_database(empty_db_url,
                                                                         run_cli):
    """A mistyped --db is no new league: a SQLite file that is not there is refused
    (exit 2, naming `db init`) and not created; an empty database (PostgreSQL's,
    made on purpose) gets every table."""
    path = sqlite_file(empty_db_url)
    if path is not None:
        refused = run_cli(empty_db_url, "db", "upgrade", exit_code=2)
        assert f"no database at {path}: `tourney db init`" in refused.stderr
        assert not os.path.exists(path)
        refused = run_cli(empty_db_url, "db", "upgrade", "--json", exit_code=2)
        assert refused.json["exit_code"] == 2 and "no database at" in refused.json["error"]
        assert not os.path.exists(path)
        run_cli(empty_db_url, "db", "init")
        result = run_cli(empty_db_url, "db", "upgrade")
        assert f"already at schema {schema.head_revision()}" in result.stderr
    else:
        result = run_cli(empty_db_url, "db", "upgrade")
        assert f"upgraded from schema none to {schema.head_revision()}" in result.stderr
    assert run_cli(empty_db_url, "db", "status", "--json").json["state"] == "current"


def test_db_status_of_an_empty_database_changes_nothing(empty_db_url, run_cli):
    # No SQLite file at all: "missing" (exit 2, as for every command, creating
    # nothing); an empty PostgreSQL database: "empty".
    missing = empty_db_url.startswith("sqlite")
    status = run_cli(empty_db_url, "db", "status", "--json", exit_code=2 if missing else 0).json
    assert status["state"] == ("missing" if missing else "empty") and status["revision"] is None
    assert status["pending"] == schema.history_revisions()
    assert tables_of(empty_db_url) == set()


def test_an_unreachable_database_is_one_line(tmp_path, run_cli):
    result = run_cli(f"sqlite:///{tmp_path}/missing/dir/x.db", "player", "list", exit_code=2)
    assert result.stderr.startswith(f"Error: no database at {tmp_path}/missing/dir/x.db")
    assert len(result.stderr.splitlines()) == 1


def test_a_database_in_a_missing_folder_says_the_folder_is_missing(tmp_path, run_cli):
    # no command can create it there: `db init` is not suggested, the folder is named
    path = f"{tmp_path}/missing/dir/x.db"
    for command in (["player", "list"], ["db", "init"], ["player", "add", "Bo"]):
        result = run_cli(path, *command, exit_code=2)
        assert result.stderr == (f"Error: no database at {path}: the folder "
                                 f"{tmp_path}/missing/dir does not exist; check --db or "
                                 "TOURNEY_DB\n")
    status = run_cli(path, "db", "status", exit_code=2)
    assert f"state: no such file, nor its folder {tmp_path}/missing/dir" in status.stdout
    assert not (tmp_path / "missing").exists()
    bad = run_cli("nosuchdialect://x", "player", "list", exit_code=2)
    assert bad.stderr.startswith("Error: ")


# ----------------------------------------------------------------- SQLite settings

def test_sqlite_settings(tmp_path):
    engine = open_engine(f"sqlite:///{tmp_path}/s.db")
    with engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() == 30000


def test_sqlite_ddl_is_transactional(tmp_path):
    """A failed migration leaves no half-made tables (BEGIN is ours, not the driver's)."""
    engine = open_engine(f"sqlite:///{tmp_path}/t.db")
    with pytest.raises(RuntimeError):
        with transaction(engine) as session:
            session.connection().exec_driver_sql("CREATE TABLE half (x)")
            raise RuntimeError("fails half-way")
    assert "half" not in tables_of(f"sqlite:///{tmp_path}/t.db")


class WriteLock:
    """Another connection holding SQLite's write lock until released (at most 30 s)."""

    def __init__(self, path, hold_for=30.0):
        self.path, self.hold_for = str(path), hold_for
        self.started, self.release = threading.Event(), threading.Event()
        self.thread = threading.Thread(target=self._hold)

    def _hold(self):
        import sqlite3

        connection = sqlite3.connect(self.path, isolation_level=None)
        connection.execute("BEGIN IMMEDIATE")
        self.started.set()
        self.release.wait(self.hold_for)
        connection.execute("COMMIT")
        connection.close()

    def __enter__(self):
        self.thread.start()
        self.started.wait()
        return self

    def __exit__(self, *exc):
        self.release.set()
        self.thread.join()


def test_a_second_writer_waits_for_the_first(tmp_path, run_cli):
    path = tmp_path / "w.db"
    url = f"sqlite:///{path}?timeout=10"
    run_cli(url, "player", "add", "Anna")
    with WriteLock(path, hold_for=0.5):
        began = time.monotonic()
        run_cli(url, "player", "add", "Bo")
        waited = time.monotonic() - began
    assert waited >= 0.3
    assert [p["name"] for p in run_cli(url, "player", "list", "--json").json] == ["Anna", "Bo"]


def test_a_busy_database_fails_with_a_message_not_a_traceback(tmp_path, run_cli):
    path = tmp_path / "b.db"
    run_cli(f"sqlite:///{path}", "player", "add", "Anna")
    with WriteLock(path):
        result = subprocess.run(
            [sys.executable, "-c", "from tourney.cli.main import main; main()",
             "player", "add", "Bo", "--db", f"sqlite:///{path}?timeout=0.3"],
            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1, result.stderr
    assert result.stderr.startswith("Error: database is busy"), result.stderr
    assert "Traceback" not in result.stderr
    assert [p["name"] for p in run_cli(f"sqlite:///{path}", "player", "list", "--json").json] == ["Anna"]


def test_transaction_turns_locked_into_database_busy(tmp_path):
    url = f"sqlite:///{tmp_path}/c.db?timeout=0.1"
    schema.ensure_schema(open_engine(url))
    with WriteLock(tmp_path / "c.db"):
        with pytest.raises(DatabaseBusy, match="database is busy"):
            with transaction(open_engine(url)) as session:
                session.add(Player(name="Bo"))


# ----------------------------------------------------------------- racing commands

def test_a_constraint_violation_is_a_conflicting_change(db_url):
    from tourney.storage.db import ConflictingChange

    engine = open_engine(db_url)
    schema.ensure_schema(engine)
    with pytest.raises(ConflictingChange, match="refused the change"):
        with transaction(engine) as session:
            session.add(Player(name="Anna"))
            session.add(Player(name="Anna"))
    with transaction(engine) as session:
        assert session.exec(select(Player)).all() == []


def test_two_organizers_seating_at_once(db_url, run_cli):
    from tourney.tournament.events import get_event
    from tourney.tournament.rounds import seat_next_round

    for args in (["player", "add", "A", "B", "C", "D"],
                 ["event", "create", "cup", "--variant", "kortrad", "--table-sizes", "2"],
                 ["event", "enter", "cup", "--all"]):
        run_cli(db_url, *args)
    engine = open_engine(db_url)
    barrier = threading.Barrier(2)
    outcomes = []

    def seat():
        barrier.wait()
        try:
            with transaction(engine) as session:
                outcomes.append(seat_next_round(session, get_event(session, "cup")).number)
        except TourneyError as err:
            outcomes.append(str(err))

    threads = [threading.Thread(target=seat) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # what --force would do is data beside the words (tourney.errors.SettingWay)
    assert sorted(outcomes, key=str) == [1, "round 1 of cup has no result yet for tables 1, 2; "
                                            "import them first"]
