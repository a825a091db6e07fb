"""Shared fixtures: a database on every backend, and running the CLI against it.

``db_url`` is parametrised over ``sqlite`` (a fresh file per test) and
``postgres`` (127.0.0.1:5432, trust auth, role ``postgres`` or ``root``; override
with ``TOURNEY_TEST_PG=postgresql+psycopg://user@host:port/maintenance-db``). The
test session creates one PostgreSQL database of its own, ``tourney_test_<pid>_<n>``,
drops it at the end, and empties it between tests (rows deleted, ids restarted),
so each test starts from a database at the current schema with no data, or, for
``empty_db_url``, with no tables at all.

If the PostgreSQL server cannot be reached the postgres tests fail with a message
saying so, unless ``TOURNEY_SKIP_PG=1`` is set, which leaves them out.

``tourney(*args)`` runs the CLI in-process with ``--db`` added::

    def test_something(tourney):
        tourney("player", "add", "Anna")
        assert tourney("player", "list", "--json").json[0]["name"] == "Anna"
        tourney("event", "show", "nope", exit_code=2)

``run_cli(db_url, *args)`` (a fixture too) is the same for a database URL of the test's choice.
"""
from __future__ import annotations

import functools
import itertools
import json
import os
import shutil
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import settings
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from tourney.storage.db import dispose_engines, open_engine, resolve_url

# Property tests draw the same examples on every run: a red suite is one anyone can
# replay, not a draw of the day. TOURNEY_FUZZ=explore draws new examples on each run,
# for hunting bugs (what it finds becomes a plain test beside the code it broke).
settings.register_profile("repeatable", derandomize=True, database=None)
settings.register_profile("explore", derandomize=False, database=None)
settings.load_profile(os.environ.get("TOURNEY_FUZZ", "repeatable"))

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

SKIP_PG = os.environ.get("TOURNEY_SKIP_PG") == "1"
BACKENDS = ["sqlite"] if SKIP_PG else ["sqlite", "postgres"]
PG_CANDIDATES = (
    [os.environ["TOURNEY_TEST_PG"]] if os.environ.get("TOURNEY_TEST_PG") else [
        "postgresql+psycopg://postgres@127.0.0.1:5432/test",
        "postgresql+psycopg://root@127.0.0.1:5432/test",
        "postgresql+psycopg://postgres@127.0.0.1:5432/postgres",
        "postgresql+psycopg://root@127.0.0.1:5432/postgres",
    ])
_names = itertools.count(1)


# ----------------------------------------------------------------- the order

# The suite's longest tests (node id prefixes), longest first, run before the others:
# under xdist (``--dist worksteal``, pyproject's addopts) the short tests then fill
# in at the end, instead of one long test running alone while the other workers
# idle. A module with module-scoped fixtures is listed whole, so that it is not
# split. Ranked by `pytest --durations`; a stale entry only loses its head start.
LONG_FIRST = (
    "tests/reports/test_layout_a11y.py",
    "tests/test_docs_run.py::test_the_pages_shell_examples_run_as_written",
    "tests/web/test_serve_example.py",
    "tests/storage/test_concurrency.py::test_sqlite_second_writer_busy",
    "tests/pairing/test_seating.py::test_balanced_finds_no_repeats_in_roomy_fields",
    "tests/reports/test_browser.py",
    "tests/hardening/test_memory_bounds.py::test_a_file_of_garbage_rows_stops_at_the_match_limit",
    "tests/hardening/test_crash_safety.py",
    "tests/cli/test_startup.py::test_a_publish_after_one_result_loads_no_seating_or_event_modules",
)


def _head_start(item) -> int:
    """The item's place in LONG_FIRST, or len(LONG_FIRST) for every other test."""
    return next((place for place, prefix in enumerate(LONG_FIRST)
                 if item.nodeid.startswith(prefix)), len(LONG_FIRST))


def pytest_collection_modifyitems(items):
    items.sort(key=_head_start)  # stable: the rest keep pytest's order


# ----------------------------------------------------------------- PostgreSQL

def _reachable_pg() -> tuple[str | None, str]:
    errors = []
    for url in PG_CANDIDATES:
        engine = create_engine(url, isolation_level="AUTOCOMMIT")
        try:
            with engine.connect() as connection:
                connection.execute(text("SELECT 1"))
            return url, ""
        except Exception as err:  # any failure: try the next candidate
            errors.append(f"{make_url(url).render_as_string(hide_password=True)}: "
                          f"{str(err).splitlines()[0]}")
        finally:
            engine.dispose()
    return None, "; ".join(errors)


@pytest.fixture(scope="session")
def pg_database():
    """The URL of this test session's own PostgreSQL database."""
    admin_url, why = _reachable_pg()
    if admin_url is None:
        pytest.fail("PostgreSQL is not reachable for the postgres tests "
                    f"({why}); start it, or set TOURNEY_SKIP_PG=1 to leave them out",
                    pytrace=False)
    name = f"tourney_test_{os.getpid()}_{next(_names)}"
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(admin_url).set(database=name).render_as_string(hide_password=False)
    try:
        yield url
    finally:
        dispose_engines()
        _dispose_cleaners()
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


_cleaners: dict[str, object] = {}


def _empty_pg(url: str, drop_tables: bool) -> bool:
    """Delete every row (restarting ids) or, with ``drop_tables``, every table.
    One statement batch on a kept connection pool: this runs before every test.
    True when the tables were kept, emptied, at the current schema."""
    from sqlmodel import SQLModel

    import tourney.storage.models  # noqa: F401

    engine = _cleaners.get(url)
    if engine is None:
        engine = _cleaners[url] = create_engine(url)
    ordered = [t.name for t in reversed(SQLModel.metadata.sorted_tables)]
    with engine.begin() as connection:
        present = set(connection.execute(text(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")).scalars())
        # a test that migrated past this tourney's head (a next release's revision)
        # leaves a schema the next test must not inherit
        at_head = ("alembic_version" in present and connection.execute(text(
            "SELECT version_num FROM alembic_version")).scalars().all() == [_head_revision()])
        if drop_tables or not at_head or not set(ordered) <= present:
            if present:
                connection.execute(text("DROP SCHEMA public CASCADE; CREATE SCHEMA public"))
            return False
        connection.execute(text("".join(f'DELETE FROM "{name}";' for name in ordered)))
        connection.execute(text("".join(
            f"SELECT setval(pg_get_serial_sequence('\"{name}\"', 'id'), 1, false);"
            for name in ordered if "id" in SQLModel.metadata.tables[name].columns)))
    return True


@functools.cache
def _head_revision() -> str:
    from tourney.storage import schema

    return schema.head_revision()


def _dispose_cleaners() -> None:
    while _cleaners:
        _cleaners.popitem()[1].dispose()


# ----------------------------------------------------------------- the browser

# Debian's Chromium as every browser test launches it (Playwright cannot download
# its own here): no sandbox (the tests run as root), no background network chatter.
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


@contextmanager
def launched_chromium():
    """A headless Chromium, closed on the way out."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                             headless=True)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium for a test module (the module skips without Playwright)."""
    with launched_chromium() as launched:
        yield launched


# ----------------------------------------------------------------- the fixtures

@pytest.fixture(params=BACKENDS)
def backend(request):
    return request.param


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory):
    """A SQLite database at the current schema, copied for each test (quicker than
    running the migrations for every test)."""
    from tourney.storage.db import open_engine
    from tourney.storage.schema import ensure_schema

    path = tmp_path_factory.mktemp("template") / "tourney.db"
    engine = open_engine(f"sqlite:///{path}")
    ensure_schema(engine)
    with engine.connect() as connection:
        connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    engine.dispose()
    return path


def _fresh_url(request, backend: str, tmp_path, drop_tables: bool) -> str:
    """A database with no data: at the current schema, or with no tables at all
    (``drop_tables``). Commands other than the creating ones (`db init`, `player
    add`, ...) refuse a missing database, so the ordinary fixture has the schema."""
    dispose_engines()  # earlier tests' pools: no open files, no locks on what is deleted
    if backend == "sqlite":
        path = tmp_path / "tourney.db"
        if not drop_tables:
            shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        return f"sqlite:///{path}"
    url = request.getfixturevalue("pg_database")
    # emptied at the current schema, the database needs no check of its schema
    if not _empty_pg(url, drop_tables) and not drop_tables:
        from tourney.storage.db import open_engine
        from tourney.storage.schema import ensure_schema

        ensure_schema(open_engine(url))
    return url


@pytest.fixture
def db_url(request, backend, tmp_path):
    """A database URL with no data at the current schema: a new SQLite file, or the
    session's PostgreSQL database emptied."""
    return _fresh_url(request, backend, tmp_path, drop_tables=False)


# ----------------------------------------------------------------- built once, restored

_snapshots: dict[tuple[str, str], object] = {}


def from_snapshot(db_url: str, key, build):
    """Put into this test's new database (``db_url``, at the current schema, empty)
    what ``build(db_url)`` makes: built by the first test that asks (per backend, per
    test process), then copied for the others. Returns what ``build`` returned (the
    first time; a value kept with the copy). For the many tests that start from
    the same few events: building them through the CLI is most of those tests' time.

    SQLite: the file's bytes. PostgreSQL: every table's rows, inserted again with
    triggers off (they already hold what the triggers wrote), and the id sequences
    moved past them."""
    backend = make_url(resolve_url(db_url)).get_backend_name()
    kept = _snapshots.get((key, backend))
    if kept is None:
        built = build(db_url)
        dispose_engines()  # SQLite: the last connection closed checkpoints the log
        _snapshots[(key, backend)] = (_take_snapshot(backend, db_url), built)
    else:
        stored, built = kept
        dispose_engines()
        if backend == "sqlite":
            path = Path(make_url(resolve_url(db_url)).database)
            for extra in ("-wal", "-shm", "-journal"):
                Path(f"{path}{extra}").unlink(missing_ok=True)
            path.write_bytes(stored)
        else:
            _restore_pg(db_url, stored)
    # as the building commands left it: their engine's pool holding a connection
    # (with SQLite's -wal and -shm files beside the database)
    with open_engine(db_url).connect():
        pass
    return built


def holds_nothing(db_url: str) -> bool:
    """Whether the database is at the current schema with no player and no event yet
    (a snapshot can be copied over it without losing what the test made before). A
    database not made yet is left so (its first command makes it), and one without
    the tables is not copied over."""
    url = make_url(resolve_url(db_url))  # as the command line reads it (a plain path)
    if url.get_backend_name() == "sqlite" and not Path(url.database or "").is_file():
        return False
    from sqlalchemy.exc import DBAPIError

    try:
        with open_engine(db_url).connect() as connection:
            return not connection.execute(text(
                "SELECT EXISTS (SELECT 1 FROM player) OR EXISTS (SELECT 1 FROM event)"
            )).scalar()
    except DBAPIError:  # no such table
        return False


def _take_snapshot(backend: str, db_url: str):
    if backend == "sqlite":
        path = Path(make_url(resolve_url(db_url)).database)
        assert not Path(f"{path}-wal").exists() or not Path(f"{path}-wal").stat().st_size
        return path.read_bytes()
    from sqlmodel import SQLModel

    engine = create_engine(db_url)
    try:
        with engine.connect() as connection:
            return [(table, [dict(row._mapping) for row in connection.execute(table.select())])
                    for table in SQLModel.metadata.sorted_tables]
    finally:
        engine.dispose()


def _restore_pg(db_url: str, tables) -> None:
    engine = create_engine(db_url)
    try:
        with engine.begin() as connection:
            connection.execute(text("SET LOCAL session_replication_role = replica"))
            for table, rows in tables:
                if rows:
                    connection.execute(table.insert(), rows)
            for table, rows in tables:
                if "id" in table.columns and rows:
                    connection.execute(text(
                        f"SELECT setval(pg_get_serial_sequence('\"{table.name}\"', 'id'), "
                        f"{max(row['id'] for row in rows)})"))
    finally:
        engine.dispose()


@pytest.fixture
def empty_db_url(request, backend, tmp_path):
    """A database URL without any table (for schema and migration tests): no SQLite
    file at all, or an empty PostgreSQL database."""
    return _fresh_url(request, backend, tmp_path, drop_tables=True)


# ----------------------------------------------------------------- the CLI

@dataclass
class CliRun:
    exit_code: int
    stdout: str
    stderr: str

    @property
    def json(self):
        return json.loads(self.stdout)


def run_cli(db_url: str | None, *args: str, input: str | None = None,
            exit_code: int | None = 0, env: dict | None = None) -> CliRun:
    """Run ``tourney ARGS --db DB_URL`` in-process. Asserts the exit code (unless
    ``exit_code=None``); an exception other than the CLI's own exit is re-raised,
    since a traceback is a bug."""
    from tourney.cli.main import cli

    argv = [str(a) for a in args] + (["--db", db_url] if db_url else [])
    result = CliRunner().invoke(cli, argv, input=input, env=env, catch_exceptions=True)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    run = CliRun(result.exit_code, result.stdout, result.stderr)
    if exit_code is not None:
        assert result.exit_code == exit_code, (
            f"tourney {' '.join(argv)}: exit {result.exit_code}, expected {exit_code}\n"
            f"stdout: {result.stdout}\nstderr: {result.stderr}")
    return run


def insert_two_players_and_events(connection) -> None:
    """Players a and b (ids 1, 2) and the events x and other (ids 1, 2), written
    straight in SQL (the stamp tests: rows as any writer makes them)."""
    connection.execute(text("INSERT INTO player (name, created_at) VALUES "
                            "('a', '2024-01-01'), ('b', '2024-01-01')"))
    for slug in ("x", "other"):
        connection.execute(text(
            "INSERT INTO event (slug, name, variant, rules_json, table_min, table_max, "
            "table_preferred, seating, seed, tiebreaks_json, created_at, points) VALUES "
            f"('{slug}', 'X', 'kortrad', '{{}}', 2, 2, 2, 'swiss', 0, '[]', "
            "'2024-01-01', 'share')"))


def trigger_names(db_url: str, table: str) -> set[str]:
    """The names of the triggers on ``table`` (SQLite, or PostgreSQL's own ones)."""
    from tourney.storage.db import open_engine

    engine = open_engine(db_url)
    with engine.begin() as connection:
        if engine.dialect.name == "sqlite":
            names = set(connection.execute(text(
                "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = :t"),
                {"t": table}).scalars())
        else:
            names = set(connection.execute(text(
                "SELECT tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
                "WHERE c.relname = :t AND NOT t.tgisinternal"), {"t": table}).scalars())
    engine.dispose()
    return names


def stored_match(session, event_id: int, round_number: int, table: str):
    """A match stored straight in the database (no record file) with an empty
    version 1 as its current version: ``(match, version)``; flushed, not committed."""
    from tourney.storage.models import Match, MatchVersion

    match = Match(event_id=event_id, round_number=round_number, table=table)
    session.add(match)
    session.flush()
    version = MatchVersion(match_id=match.id, version=1, content_sha256="0" * 64)
    session.add(version)
    session.flush()
    match.current_version_id = version.id
    session.add(match)
    return match, version


@pytest.fixture(name="run_cli")
def run_cli_fixture():
    """:func:`run_cli` itself, for tests that pick their database URL."""
    return run_cli


def cli_on_url(db_url: str):
    """``run(*args, input=None, exit_code=0)``: :func:`run_cli` bound to ``db_url``."""
    def run(*args, **kwargs) -> CliRun:
        return run_cli(db_url, *args, **kwargs)
    run.db_url = db_url  # for helpers that start from a snapshot (from_snapshot)
    return run


def seat_example_cup(tourney, sizes: str = "3-5") -> None:
    """The example script's event (examples/example-event.sh): its 14 players in the
    spardame event ``example-cup`` (3 rounds of 3-deal matches, seed 2026), round 1
    seated. ``tourney``: the CLI on a database (the ``tourney`` fixture, :func:`cli_on_url`)."""
    tourney("player", "import", str(EXAMPLES / "players.csv"))
    tourney("event", "create", "example-cup", "--variant", "spardame", "--table-sizes", sizes,
            "--rounds", "3", "--seed", "2026", "--rule", "deals=3")
    tourney("event", "enter", "example-cup", "--all")
    tourney("round", "seat", "example-cup")


def play_cup_round_one(tourney, tmp_path, names, *extra: str):
    """Players ``names`` and the event ``cup`` (spardame, 3 rounds of 2-deal matches,
    tables of 4; ``extra``: more ``event create`` options), round 1 seated and its
    matches played by bots into ``tmp_path/round1.csv``: (the seating's JSON, the file)."""
    import random

    from tourney.engines import get_game
    from tourney.records.csv_format import write_records
    from tourney.simulation import simulate_match

    tourney("player", "add", *names)
    tourney("event", "create", "cup", "--variant", "spardame", "--rounds", "3",
            "--table-sizes", "4", "--rule", "deals=2", *extra)
    tourney("event", "enter", "cup", "--all")
    seating = tourney("round", "seat", "cup", "--json").json
    game = get_game("spardame")
    options = game.resolve_options({"deals": "2"})
    records = []
    for table in seating["tables"]:
        records += simulate_match(game, options, table["seats"], random.Random(1),
                                  event="cup", table=table["table"], deals=2)
    path = tmp_path / "round1.csv"
    with open(path, "w", encoding="utf-8", newline="") as stream:
        write_records(stream, records, game_for=lambda record: game)
    return seating, path


@pytest.fixture
def tourney(db_url):
    """``tourney(*args, input=None, exit_code=0)``: the CLI on this test's database."""
    return cli_on_url(db_url)
