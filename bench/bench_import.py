"""Speed and memory of `tourney result import` on season files, against a floor.

A simulated *season* is a series of club events of the cheap variant ``kortrad``
(tables of 4, 20 deals a match by the event's ``deals`` rule, 200 players, 10
rounds: 10,000 deal rows per event) drawn from one pool of 2,000 players, set up
through the service layer (players registered, events created, players entered,
every round seated with ``seat_next_round``), and a record CSV of the results of
every seated table (event and variant columns filled, one match's rows together,
as ``tourney result export`` writes them). Sizes: 10k, 100k and 1M deal rows
(``--quick``: 10k and 100k), i.e. 1, 10 and 100 events.

The records come from :func:`tourney.simulation.simulate_match`: a pool of bot-played
kortrad matches is simulated once per season, and each seated table gets one of
them with its seated players' names put in (the deals do not depend on the names,
so every match stays valid). Playing a million deals with bots would take an
hour; the engines replay the pool's deals on import exactly as they would fresh
ones. Season files and a SQLite database holding the seated season (no results)
are cached in ``bench/out/import_cache/`` by size, seed and generator version.

Measured per size, each in a child process of its own (so ``ru_maxrss`` is that
measurement's peak):

- **import**: :func:`tourney.app.results.import_results` in one
  :func:`~tourney.storage.db.transaction`, as ``tourney result import FILE`` runs
  it, into a copy of the seated database: rows/s and peak RSS. It includes the
  ratings refresh the importer triggers (timed on its own, "ratings s"). Twice:
  as the command runs by default (a big file checked in parts by one process per
  core while the importing process stores the matches) and with ``--jobs 1`` (one
  process). CPU and peak RSS count the checking processes too.
- **floor**, two parts in the same run: (1) parse and validate the same file
  alone, ``RecordReader`` + ``RecordChecker.check_stream`` with the events' rules
  (the checks ``tourney validate`` makes); (2) a bare insert of the same deal
  rows (the CSV fields as tuples, the version id a counter) into a table with
  the ``deal`` table's columns and indexes, in one transaction, read in batches
  of 10,000 rows with only the inserts and the commit timed, by the fastest
  path the backend has, the one the importer writes by: on SQLite an
  ``executemany`` of INSERTs of 90 rows each, on PostgreSQL ``COPY``. The
  floor time is the sum; ratio = floor time / import time (= import rows/s over
  floor rows/s). Targets (issue 19): 0.75 or better, at least 25,000 rows/s on
  SQLite at 1M rows, and peak memory flat as the file grows.

Times are wall clock; CPU times (the child's user + system) are shown too, since
other processes on a shared machine inflate wall times. On PostgreSQL the server's
work is in another process, so there only the wall time means anything.

``--db-url`` measures on another database instead of a fresh SQLite file:
a ``postgresql+psycopg://...`` URL names a server (and a maintenance database
to connect to); a scratch database ``tourney_bench_import_<pid>`` is created on
it for each size (the seated season copied in from the cached SQLite file) and
dropped afterwards. ``--profile`` imports the largest file once more under
cProfile (after the timed run) and writes the top functions to
``bench/out/import_profile.txt``.

Usage:  python bench/bench_import.py [--quick] [--sizes 10000,100000] [--db-url URL]
                                     [--seed N] [--profile]
Prints a markdown table and writes it to ``bench/out/bench_import.md``
(``bench_import_pg.md`` with a PostgreSQL URL), and its figures to
``bench/out/bench_import.json`` (``bench_import_pg.json``) for ``bench/run_all.py``;
on PostgreSQL they count the import's COPY statements (its write path).
"""
from __future__ import annotations

import argparse
import csv
import datetime as dt
import json
import math
import os
import platform
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from figures import write_figures

HERE = Path(__file__).resolve().parent
OUT = HERE / "out"
CACHE = OUT / "import_cache"

GENERATOR_VERSION = 1  # bump when the season files change shape
VARIANT = "kortrad"
TABLE_SIZE = 4
DEALS_PER_MATCH = 20
EVENT_PLAYERS = 200
ROUNDS_PER_EVENT = 10
PLAYER_POOL = 2000
POOL_MATCHES = 150  # simulated matches the season's tables draw from
RULES = {"deals": str(DEALS_PER_MATCH)}
ROWS_PER_ROUND = EVENT_PLAYERS // TABLE_SIZE * DEALS_PER_MATCH
FLOOR_BATCH = 10_000

FULL_SIZES = (10_000, 100_000, 1_000_000)
QUICK_SIZES = (10_000, 100_000)


# ============================================================== the season files

def season_shape(rows: int) -> list[int]:
    """Rounds per event for a season of about ``rows`` deal rows (whole rounds)."""
    rounds = max(1, math.ceil(rows / ROWS_PER_ROUND))
    shape = []
    while rounds > 0:
        shape.append(min(ROUNDS_PER_EVENT, rounds))
        rounds -= shape[-1]
    return shape


def cache_paths(rows: int, seed: int) -> tuple[Path, Path]:
    from tourney.storage.schema import head_revision

    stem = f"season-{rows}-s{seed}-g{GENERATOR_VERSION}-{head_revision()}"
    return CACHE / f"{stem}.csv", CACHE / f"{stem}.db"


def _pool_matches(seed: int) -> list[list[list[str | int]]]:
    """Bot-played kortrad matches as row templates: per deal the CSV fields from
    ``deal`` on, with the players and dealer as seat indexes."""
    from tourney.engines import get_game
    from tourney.records.csv_format import format_row
    from tourney.simulation import simulate_match

    game = get_game(VARIANT)
    options = game.resolve_options(RULES)
    rng = random.Random(seed)
    placeholders = [f"\x00seat{i}" for i in range(TABLE_SIZE)]
    pool = []
    for _ in range(POOL_MATCHES):
        records = simulate_match(game, options, placeholders, rng, deals=DEALS_PER_MATCH)
        rows = []
        for record in records:
            fields = format_row(record, canonical_token=game.canonical_token,
                                format_score=lambda s: game.format_score(game.parse_score(s)))
            seats = [placeholders.index(p) for p in record.players]
            dealer = placeholders.index(record.dealer) if record.dealer else -1
            rows.append([fields["deal"], seats, dealer, fields["hands"], fields["stock"],
                         fields["passes"], fields["play"], fields["scores"]])
        pool.append(rows)
    return pool


def generate_season(rows: int, seed: int, csv_path: Path, db_path: Path) -> dict:
    """Seat a season through the service layer and write its result file."""
    from tourney.records.csv_format import COLUMNS
    from tourney.storage.db import dispose_engines, open_engine, transaction
    from tourney.storage.schema import ensure_schema
    from tourney.tournament.events import create_event, enter_players
    from tourney.tournament.players import add_players
    from tourney.tournament.rounds import seat_next_round

    CACHE.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    rng = random.Random(seed)
    pool = _pool_matches(seed)
    simulated = time.perf_counter() - started
    tmp_db = db_path.with_suffix(".db.part")
    tmp_csv = csv_path.with_suffix(".csv.part")
    for path in (tmp_db, Path(f"{tmp_db}-wal"), Path(f"{tmp_db}-shm")):
        path.unlink(missing_ok=True)
    url = f"sqlite:///{tmp_db}"
    engine = open_engine(url)
    ensure_schema(engine)
    names = [f"Spelare {i:04d}" for i in range(1, PLAYER_POOL + 1)]
    with transaction(engine) as session:
        add_players(session, names)
    written = 0
    shape = season_shape(rows)
    with open(tmp_csv, "w", encoding="utf-8", newline="") as stream:
        writer = csv.writer(stream, lineterminator="\n")
        writer.writerow(COLUMNS)
        for number, rounds in enumerate(shape, 1):
            slug = f"liga-{number:03d}"
            with transaction(engine) as session:
                event = create_event(
                    session, slug, VARIANT, name=f"Ligakväll {number}",
                    date=dt.date(2024, 1, 1) + dt.timedelta(days=7 * (number - 1)),
                    rules=RULES, table_sizes=str(TABLE_SIZE), rounds=rounds,
                    seating="random", seed=seed * 1000 + number)
                enter_players(session, event, rng.sample(names, EVENT_PLAYERS))
                seatings = [seat_next_round(session, event, force=True) for _ in range(rounds)]
            for seating in seatings:
                for table in seating.tables:
                    seats = table.seats
                    for deal, players, dealer, hands, stock, passes, play, scores in (
                            pool[rng.randrange(len(pool))]):
                        writer.writerow([
                            slug, VARIANT, seating.number, table.table, deal,
                            ";".join([seats[i] for i in players]),
                            seats[dealer] if dealer >= 0 else "",
                            hands, stock, passes, play, scores])
                        written += 1
    dispose_engines()  # the last connection closing checkpoints the WAL into the file
    os.replace(tmp_csv, csv_path)
    os.replace(tmp_db, db_path)
    return {"rows": written, "events": len(shape), "simulated_s": simulated,
            "total_s": time.perf_counter() - started}


def ensure_season(rows: int, seed: int) -> tuple[Path, Path, int, bool]:
    """The cached season of ``rows`` rows (made now if missing): paths, rows, made."""
    csv_path, db_path = cache_paths(rows, seed)
    made = False
    if not (csv_path.exists() and db_path.exists()):
        info = generate_season(rows, seed, csv_path, db_path)
        print(f"  generated {csv_path.name}: {info['rows']:,} rows, {info['events']} events "
              f"in {info['total_s']:.1f} s (bot pool {info['simulated_s']:.1f} s)",
              file=sys.stderr, flush=True)
        made = True
    with open(csv_path, "rb") as stream:
        count = sum(1 for _ in stream) - 1
    return csv_path, db_path, count, made


# ============================================================== child processes

def _usage() -> dict:
    """CPU time of this process and of its ended children (the checking processes of
    an import with --jobs), and the peak RSS of the biggest of them."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"cpu": usage.ru_utime + usage.ru_stime + children.ru_utime + children.ru_stime,
            "maxrss_mb": max(usage.ru_maxrss, children.ru_maxrss) / 1024}


def child_import(url: str, path: str, profile: str | None, jobs: int | None) -> dict:
    import tourney.ratings.service as rating_service
    from tourney.app.results import ImportOptions, import_results
    from tourney.storage.db import open_engine, transaction
    from tourney.storage.schema import ensure_schema

    engine = open_engine(url)
    ensure_schema(engine)
    rating_time = [0.0]
    refresh = rating_service.refresh_after_results

    def timed_refresh(session, variant, **kwargs):
        started = time.perf_counter()
        try:
            return refresh(session, variant, **kwargs)
        finally:
            rating_time[0] += time.perf_counter() - started

    # the import use case looks the hook up at call time, so the timing wrapper is used
    rating_service.refresh_after_results = timed_refresh
    copies = [0]  # COPY statements the import issued (PostgreSQL: its write path)
    if url.startswith("postgresql"):
        import psycopg

        copy = psycopg.Cursor.copy

        def counted_copy(self, *args, **kwargs):
            copies[0] += 1
            return copy(self, *args, **kwargs)

        psycopg.Cursor.copy = counted_copy
    before = _usage()
    started = time.perf_counter()
    profiler = None
    if profile:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    with transaction(engine) as session:
        report = import_results(session, path, ImportOptions(imported_by="bench", jobs=jobs))
    if profiler is not None:
        profiler.disable()
        import io
        import pstats

        text = io.StringIO()
        stats = pstats.Stats(profiler, stream=text)
        stats.sort_stats("cumulative").print_stats(40)
        stats.sort_stats("tottime").print_stats(30)
        Path(profile).write_text(text.getvalue(), encoding="utf-8")
    wall = time.perf_counter() - started
    after = _usage()
    return {"wall": wall, "cpu": after["cpu"] - before["cpu"], "base_mb": before["maxrss_mb"],
            "peak_mb": after["maxrss_mb"], "ratings_s": rating_time[0],
            "added": report.added, "deals": report.deals, "errors": report.error_count,
            "copy_statements": copies[0]}


def child_validate(path: str) -> dict:
    from tourney.records.csv_format import open_records
    from tourney.records.validation import DealCheck, RecordChecker

    before = _usage()
    started = time.perf_counter()
    stream, reader = open_records(path, errors="yield")
    checker = RecordChecker(rules=RULES)
    deals = matches = invalid = 0
    with stream:
        for item in checker.check_stream(reader):
            if isinstance(item, DealCheck):
                deals += 1
            else:
                matches += 1
            invalid += not item.valid
    wall = time.perf_counter() - started
    after = _usage()
    return {"wall": wall, "cpu": after["cpu"] - before["cpu"], "base_mb": before["maxrss_mb"],
            "peak_mb": after["maxrss_mb"], "deals": deals, "matches": matches,
            "invalid": invalid}


FLOOR_COLUMNS = ("version_id", "number", "players", "dealer", "hands", "stock", "passes",
                 "play", "scores", "claimed_scores", "verified")


# Rows of one floor INSERT on SQLite (11 columns: 990 parameters, under SQLite's
# oldest limit of 999), as the importer writes them (tourney.storage.bulk).
FLOOR_ROWS_PER_STATEMENT = 90


def child_insert(url: str, path: str) -> dict:
    """The file's deal rows into a copy of the deal table by the backend's fastest bare
    path: on SQLite an executemany of INSERTs of 90 rows each, on PostgreSQL COPY
    (the ways the importer writes; a floor written more slowly than the import
    writes would not be a floor)."""
    from itertools import chain

    from tourney.storage.db import open_engine

    engine = open_engine(url)
    sqlite = engine.dialect.name == "sqlite"
    raw = engine.raw_connection()
    cursor = raw.cursor()
    key = "INTEGER PRIMARY KEY" if sqlite else "SERIAL PRIMARY KEY"
    cursor.execute("DROP TABLE IF EXISTS floor_deal")
    cursor.execute(
        f"CREATE TABLE floor_deal (id {key}, version_id INTEGER NOT NULL, "
        "number INTEGER NOT NULL, players TEXT NOT NULL, dealer VARCHAR(200), "
        "hands TEXT NOT NULL, stock TEXT NOT NULL, passes TEXT NOT NULL, "
        "play TEXT NOT NULL, scores TEXT NOT NULL, claimed_scores BOOLEAN NOT NULL, "
        "verified VARCHAR(10) NOT NULL, UNIQUE (version_id, number))")  # as deal's (0006)
    raw.commit()
    marks = "(" + ", ".join(["?"] * len(FLOOR_COLUMNS)) + ")"
    statement = f"INSERT INTO floor_deal ({', '.join(FLOOR_COLUMNS)}) VALUES "
    per = FLOOR_ROWS_PER_STATEMENT
    many, one = statement + ", ".join([marks] * per), statement + marks
    copy_sql = f"COPY floor_deal ({', '.join(FLOOR_COLUMNS)}) FROM STDIN"
    before = _usage()
    timed_wall = timed_cpu = 0.0
    rows = 0
    if sqlite:
        cursor.execute("BEGIN")
    with open(path, encoding="utf-8", newline="") as stream:
        reader = csv.reader(stream)
        columns = next(reader)
        at = {name: index for index, name in enumerate(columns)}
        version, last_key, batch = 0, None, []

        def flush():
            nonlocal timed_wall, timed_cpu
            wall, cpu = time.perf_counter(), time.process_time()
            if sqlite:
                whole = len(batch) - len(batch) % per
                cursor.executemany(many, [tuple(chain.from_iterable(batch[i:i + per]))
                                          for i in range(0, whole, per)])
                if whole < len(batch):
                    cursor.executemany(one, batch[whole:])
            else:
                with cursor.copy(copy_sql) as copy:
                    for row in batch:
                        copy.write_row(row)
            timed_wall += time.perf_counter() - wall
            timed_cpu += time.process_time() - cpu
            batch.clear()

        for row in reader:
            key = (row[at["event"]], row[at["round"]], row[at["table"]])
            if key != last_key:
                version, last_key = version + 1, key
            batch.append((version, int(row[at["deal"]]), row[at["players"]],
                          row[at["dealer"]] or None, row[at["hands"]], row[at["stock"]],
                          row[at["passes"]], row[at["play"]], row[at["scores"]], True,
                          "moves"))
            rows += 1
            if len(batch) >= FLOOR_BATCH:
                flush()
        if batch:
            flush()
    wall, cpu = time.perf_counter(), time.process_time()
    raw.commit()
    timed_wall += time.perf_counter() - wall
    timed_cpu += time.process_time() - cpu
    stored = cursor.execute("SELECT count(*) FROM floor_deal") if sqlite else None
    if sqlite:
        stored = stored.fetchone()[0]
    else:
        cursor.execute("SELECT count(*) FROM floor_deal")
        stored = cursor.fetchone()[0]
    cursor.execute("DROP TABLE floor_deal")
    raw.commit()
    raw.close()
    after = _usage()
    return {"wall": timed_wall, "cpu": timed_cpu, "base_mb": before["maxrss_mb"],
            "peak_mb": after["maxrss_mb"], "rows": rows, "stored": stored}


def run_child(kind: str, *args: str) -> dict:
    """Run one measurement in a fresh interpreter; its JSON result."""
    command = [sys.executable, str(Path(__file__).resolve()), "--child", kind, *args]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{kind} child failed (exit {done.returncode}):\n"
                           f"{done.stderr[-4000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


# ============================================================== databases per size

class SqliteTarget:
    """A copy of the seated season in a SQLite file of a temporary folder."""

    name = "SQLite"

    def __init__(self, url: str | None = None):
        self.given = url
        self.folder = Path(tempfile.mkdtemp(prefix="bench-import-", dir=OUT))

    def prepare(self, template: Path) -> tuple[str, str]:
        if self.given:
            path = Path(self.given.split("///", 1)[1] if "://" in self.given else self.given)
        else:
            path = self.folder / "import.db"
        for extra in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
            extra.unlink(missing_ok=True)
        shutil.copyfile(template, path)
        floor = self.folder / "floor.db"
        for extra in (floor, Path(f"{floor}-wal"), Path(f"{floor}-shm")):
            extra.unlink(missing_ok=True)
        return f"sqlite:///{path}", f"sqlite:///{floor}"

    def finish(self) -> None:
        pass

    def close(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


class PostgresTarget:
    """A scratch database on a PostgreSQL server, the seated season copied in."""

    name = "PostgreSQL"
    COPIED = ("player", "event", "entry", "round", "seat")

    def __init__(self, url: str):
        from sqlalchemy import create_engine
        from sqlalchemy.engine import make_url

        self.admin_url = make_url(url)
        self.scratch = f"tourney_bench_import_{os.getpid()}"
        self.url = self.admin_url.set(database=self.scratch).render_as_string(
            hide_password=False)
        self.admin = create_engine(self.admin_url, isolation_level="AUTOCOMMIT")

    def _drop(self) -> None:
        from sqlalchemy import text

        from tourney.storage.db import dispose_engines

        dispose_engines()
        with self.admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{self.scratch}" WITH (FORCE)'))

    def prepare(self, template: Path) -> tuple[str, str]:
        from sqlalchemy import MetaData, create_engine, insert, select, text

        from tourney.storage.db import dispose_engines, open_engine
        from tourney.storage.schema import ensure_schema

        self._drop()
        with self.admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{self.scratch}"'))
        target = open_engine(self.url)
        ensure_schema(target)
        source = create_engine(f"sqlite:///{template}")
        meta = MetaData()
        meta.reflect(bind=target, only=list(self.COPIED))
        with source.connect() as reading, target.begin() as writing:
            for name in self.COPIED:
                table = meta.tables[name]
                rows = reading.execute(select(text("*")).select_from(text(f'"{name}"')))
                keys = list(rows.keys())
                while True:
                    chunk = rows.fetchmany(5000)
                    if not chunk:
                        break
                    writing.execute(insert(table), [dict(zip(keys, r)) for r in chunk])
                writing.execute(text(
                    f"SELECT setval(pg_get_serial_sequence('\"{name}\"', 'id'), "
                    f"(SELECT coalesce(max(id), 0) + 1 FROM \"{name}\"), false)"))
        source.dispose()
        dispose_engines()
        return self.url, self.url

    def finish(self) -> None:
        self._drop()

    def close(self) -> None:
        self._drop()
        self.admin.dispose()


# ============================================================== the benchmark

def measure(target, rows: int, seed: int, profile: Path | None) -> dict:
    csv_path, db_path, count, _ = ensure_season(rows, seed)
    imports = {}
    for jobs in (None, 1):  # every core (the default), then one process
        import_url, floor_url = target.prepare(db_path)
        try:
            imported = run_child("import", "--file", str(csv_path), "--db-url", import_url,
                                 *(["--jobs", str(jobs)] if jobs else []))
            if imported["errors"] or imported["deals"] != count:
                raise RuntimeError(f"import of {csv_path.name}: {imported}")
            imports[jobs] = imported
        finally:
            target.finish()
    import_url, floor_url = target.prepare(db_path)
    try:
        checked = run_child("validate", "--file", str(csv_path))
        if checked["invalid"] or checked["deals"] != count:
            raise RuntimeError(f"validation of {csv_path.name}: {checked}")
        inserted = run_child("insert", "--file", str(csv_path), "--db-url", floor_url)
        if inserted["stored"] != count:
            raise RuntimeError(f"floor insert of {csv_path.name}: {inserted}")
    finally:
        target.finish()
    if profile is not None:  # a second import under cProfile (slower): not the one timed
        import_url, _ = target.prepare(db_path)
        try:
            run_child("import", "--file", str(csv_path), "--db-url", import_url,
                      "--profile-out", str(profile))
        finally:
            target.finish()
        print(f"  profile written to {profile}", file=sys.stderr, flush=True)
    return {"rows": count, "file_mb": csv_path.stat().st_size / 1e6, "import": imports[None],
            "import_one": imports[1], "validate": checked, "insert": inserted}


def report_lines(results: list[dict], target_name: str, seed: int, started: float) -> list[str]:
    lines = [
        f"## Result import on {target_name}",
        "",
        f"Season files of `{VARIANT}` events (tables of {TABLE_SIZE}, {DEALS_PER_MATCH} "
        f"deals a match, {EVENT_PLAYERS} players x {ROUNDS_PER_EVENT} rounds = "
        f"{ROWS_PER_ROUND * ROUNDS_PER_EVENT:,} rows an event; {PLAYER_POOL:,}-player "
        f"pool; seed {seed}). Each measurement in a child process of its own.",
        "",
        "| rows | file MB | processes | import s | import rows/s | of which ratings s "
        "| import CPU s | peak RSS MB (growth) | floor s (validate + insert) | floor rows/s "
        "| import/floor | import/floor (CPU) | validate peak MB |",
        "|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        val, ins = r["validate"], r["insert"]
        floor = val["wall"] + ins["wall"]
        floor_cpu = val["cpu"] + ins["cpu"]
        for imp, processes in ((r["import"], f"every core ({os.cpu_count()}) + 1"),
                               (r["import_one"], "1 (`--jobs 1`)")):
            lines.append(
                f"| {r['rows']:,} | {r['file_mb']:.1f} | {processes} | {imp['wall']:.1f} "
                f"| {r['rows'] / imp['wall']:,.0f} | {imp['ratings_s']:.1f} | {imp['cpu']:.1f} "
                f"| {imp['peak_mb']:.0f} (+{imp['peak_mb'] - imp['base_mb']:.0f}) "
                f"| {floor:.1f} ({val['wall']:.1f} + {ins['wall']:.1f}) "
                f"| {r['rows'] / floor:,.0f} | {floor / imp['wall']:.2f} "
                f"| {floor_cpu / imp['cpu']:.2f} | {val['peak_mb']:.0f} |")
    lines += [
        "",
        "- import: `import_results` in one transaction, as `tourney result import FILE` "
        "runs it, into the seated season (no results yet); includes the ratings refresh "
        "it triggers (\"of which ratings s\"). By default a big file is checked in parts "
        "by one process per core while the importing process stores the matches "
        "(`--jobs`); `--jobs 1` checks it in the importing process. CPU counts every "
        "process. Peak RSS: the biggest process's `ru_maxrss`; "
        "growth: over its peak just before the import began (the interpreter with "
        f"tourney loaded, about {results[0]['import']['base_mb']:.0f} MB).",
        "- floor: parse + validate the same file (`RecordReader` + "
        "`RecordChecker.check_stream`) plus a bare insert of the same deal rows "
        "(tuples, one transaction) into a table with the `deal` table's columns and "
        "indexes, by the backend's fastest path (SQLite: INSERTs of 90 rows; "
        "PostgreSQL: COPY), the importer's. import/floor = floor time / import time; targets: >= 0.75, and >= "
        "25,000 import rows/s on SQLite at 1M rows.",
        "- times are wall clock; CPU: the child's user + system time"
        + (" (the client only: the server's work is not in it, so the CPU ratio "
           "means little here)." if target_name != "SQLite" else
           " (everything SQLite does is in it; on a shared, busy machine the CPU "
           "ratio is the steadier figure)."),
        f"- total run time {time.perf_counter() - started:.0f} s.",
    ]
    return lines


def figures(results: list[dict], target_name: str) -> dict:
    """The table's figures for bench/out/bench_import[_pg].json (see bench/figures.py)."""
    sizes = []
    for r in results:
        imp, val, ins = r["import"], r["validate"], r["insert"]
        floor, floor_cpu = val["wall"] + ins["wall"], val["cpu"] + ins["cpu"]
        sizes.append({
            "rows": r["rows"], "import_s": imp["wall"], "import_cpu_s": imp["cpu"],
            "rows_per_s": r["rows"] / imp["wall"], "floor_s": floor, "floor_cpu_s": floor_cpu,
            "floor_rows_per_s": r["rows"] / floor, "import_over_floor": floor / imp["wall"],
            "import_over_floor_cpu": floor_cpu / imp["cpu"], "peak_mb": imp["peak_mb"],
            "copy_statements": imp.get("copy_statements", 0),
            # the same import in one process (--jobs 1)
            "one_process_s": r["import_one"]["wall"],
            "one_process_rows_per_s": r["rows"] / r["import_one"]["wall"],
            "one_process_over_floor": floor / r["import_one"]["wall"]})
    return {"backend": target_name, "sizes": sizes}


def machine_line() -> str:
    return (f"Machine: {platform.platform()}, {platform.processor() or platform.machine()}, "
            f"{os.cpu_count()} CPUs; Python {platform.python_version()}.")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="Sizes 10k and 100k only.")
    parser.add_argument("--sizes", help="Comma-separated row counts (default 10000,100000,"
                                        "1000000; --quick: 10000,100000).")
    parser.add_argument("--db-url", help="Measure on this database instead of a fresh "
                                         "SQLite file (see the module docstring).")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true",
                        help="Profile the largest import (bench/out/import_profile.txt).")
    parser.add_argument("--out", type=Path, help="The markdown file written.")
    # internal: one measurement in a child process
    parser.add_argument("--child", choices=["import", "validate", "insert"],
                        help=argparse.SUPPRESS)
    parser.add_argument("--file", help=argparse.SUPPRESS)
    parser.add_argument("--profile-out", help=argparse.SUPPRESS)
    parser.add_argument("--jobs", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.child:
        if args.child == "import":
            result = child_import(args.db_url, args.file, args.profile_out, args.jobs)
        elif args.child == "validate":
            result = child_validate(args.file)
        else:
            result = child_insert(args.db_url, args.file)
        print(json.dumps(result))
        return 0

    started = time.perf_counter()
    if args.sizes:
        sizes = [int(s.replace("_", "")) for s in args.sizes.split(",") if s.strip()]
    else:
        sizes = list(QUICK_SIZES if args.quick else FULL_SIZES)
    OUT.mkdir(parents=True, exist_ok=True)
    postgres = bool(args.db_url) and args.db_url.startswith("postgresql")
    target = PostgresTarget(args.db_url) if postgres else SqliteTarget(args.db_url)
    out = args.out or OUT / ("bench_import_pg.md" if postgres else "bench_import.md")
    results = []
    try:
        for size in sizes:
            profile = OUT / "import_profile.txt" if args.profile and size == max(sizes) else None
            print(f"{target.name}: {size:,} rows ...", file=sys.stderr, flush=True)
            result = measure(target, size, args.seed, profile)
            imp, one = result["import"], result["import_one"]
            print(f"  import {imp['wall']:.1f} s ({result['rows'] / imp['wall']:,.0f} rows/s, "
                  f"ratings {imp['ratings_s']:.1f} s), peak {imp['peak_mb']:.0f} MB; "
                  f"--jobs 1: {one['wall']:.1f} s ({result['rows'] / one['wall']:,.0f} rows/s); validate "
                  f"{result['validate']['wall']:.1f} s, insert {result['insert']['wall']:.1f} s",
                  file=sys.stderr, flush=True)
            results.append(result)
    finally:
        target.close()
    lines = [f"# bench_import ({target.name})", "", machine_line(), ""]
    lines += report_lines(results, target.name, args.seed, started)
    text = "\n".join(lines) + "\n"
    out.write_text(text, encoding="utf-8")
    print(text)
    print(f"written to {out}", file=sys.stderr)
    write_figures("bench_import_pg" if postgres else "bench_import", figures(results, target.name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
