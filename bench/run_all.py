"""Run every benchmark in bench/ and collect their tables in bench/RESULTS.md.

Each benchmark runs as its own process, one after the other, on SQLite, and again
on PostgreSQL where the script can (``bench_import.py --db-url``,
``bench_ratings.py --postgres``), each time on a scratch database of its own that
is created on the server and dropped afterwards. Their printed markdown (tables
and notes) goes into ``bench/RESULTS.md`` under the machine's description
(platform, CPU, cores, memory, Python, date, load); plain-text output (the seating
benchmark's) is kept as a code block. A script that is missing, fails or runs past
its time limit is noted in the file with the end of its error output, and the
others still run. Figures are those of this one run: where a benchmark has a peer
or a floor (engines against OpenSpiel and py-draughts, the importer against
parse + validate + a bare insert, the rating engine against a bare
openskill loop), its ratio was measured in the same run, on the same machine.

Usage:  python bench/run_all.py [--quick] [--pg URL | --no-pg] [--only NAME,...]
                                [--set NAME=ARGS ...] [--out FILE] [--timeout SECONDS]

First ``bench/machine_speed.py`` times fixed pure-Python workloads (CPU seconds) for
the Machine section, beside the same workload's figure on the machine of earlier
results: absolute figures (the import's rows/s) move with the machine. At the end
the "Issue 19 targets" table (figure, measured, target, met) is printed and put at
the top of RESULTS.md. It is built from the JSON figures the benchmarks write in
``bench/out/`` (``bench/figures.py``): each is deleted before its script runs, so
only this run's figures count, and a target whose benchmark did not run (or ran in
a configuration that does not measure it) is a row saying so.

The benchmarks (NAME) and their arguments in a full run (``--quick``: each
script's ``--quick``), with the time each takes on the 2-core machine of
2026-12-01 when it is quiet (estimated from earlier runs; that machine runs the
fixed workload about 2.5x as long as the machine of 2026-11-29):

- engines (defaults), ~1.5 min; validate (``--repeats 7``: 7 interleaved runs of
  each command after a warm-up), ~1.5 min;
- import (10k, 100k and 1M rows on SQLite), ~7.5 min with the season files cached
  in bench/out/import_cache (generating them once: ~5 min more); ``import-pg``:
  10k and 100k rows only, ~1 min (the PostgreSQL target is the write path, COPY,
  and its rate; 1M rows there took another 4-8 min);
- seating (defaults), ~0.5 min; repeats (defaults: 3 seeds, 12-64 players), ~6 min;
  table-sizes (``--seeds 5``), ~0.5 min;
- ratings (defaults, with ``--postgres``), ~1.5 min; backtest (``--quick``), ~0.2 min;
- publish (``--sizes 1000,10000 --incremental-only``), ~5 min: the targets'
  figures (a full publish with the default processes, then one more round) at
  both sizes; the one-process, N-process and replay timings of the whole site
  (``--set 'publish=--sizes 1000,10000'``) would add ~10 min;
- serve (``--tables 100``, SQLite and PostgreSQL), ~2 min (200 tables: ~4);
- swiss (``--rounds-at 1000=3``: 20, 50, 100, 300 and 1,000 players, 8/8/8/3/1 seeds,
  9 rounds, 3 at 1,000 players, against bbpPairings found through ``BBP_PAIRINGS``;
  skipped with a note without it), ~2 min with bbpPairings' 1,000-player pairings
  in its cache (``BBP_CACHE``, default bench/out/bbp_cache; see bench_swiss.py),
  ~7 min more the first time (bbpPairings takes ~2 min of CPU a round there);
- startup (``--repeats 7``: 7 runs of each command), ~1 min;
- the machine speed reference, ~0.2 min.

In all about 30 min with bbpPairings' cache filled, about 37 the first time. The
estimates take the 2026-11-29 machine's times x2.5 (CPU time under load; on a quiet
machine the factor is likely smaller), so they are more likely high than low; the
least sure is repeats' (555 s measured only on a loaded machine).
``--set`` replaces one benchmark's arguments (a smaller configuration when the full
one would take too long, or the fuller one); the command line is written at the
top of RESULTS.md.

``--pg`` names a PostgreSQL server (a URL to an existing database there, used to
create and drop the scratch databases); by default the local server is tried as
the test suite does (127.0.0.1:5432, user postgres or root) and the PostgreSQL
runs are skipped with a note when none answers.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import re
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / "RESULTS.md"
OUT = HERE / "out"
PG_CANDIDATES = (
    "postgresql+psycopg://postgres@127.0.0.1:5432/postgres",
    "postgresql+psycopg://root@127.0.0.1:5432/postgres",
    "postgresql+psycopg://postgres@127.0.0.1:5432/test",
    "postgresql+psycopg://root@127.0.0.1:5432/test",
)


@dataclass
class Bench:
    """One benchmark run: a script and its arguments, full and quick."""

    name: str
    title: str
    script: str
    full: list[str]
    quick: list[str]
    # "db-url": run a second time with --db-url URL, the server's URL (bench_import
    # creates its own scratch database there); "postgres": the one run gets
    # --postgres URL of an empty scratch database made here, and reports SQLite and
    # PostgreSQL together; None: SQLite only.
    pg: str | None = None
    pg_full: list[str] = field(default_factory=list)
    pg_quick: list[str] = field(default_factory=list)
    # the figures file it writes in bench/out/ (see bench/figures.py), read for the
    # issue 19 summary; its PostgreSQL run (pg="db-url") writes NAME_pg.json
    figures: str | None = None


BENCHES = [
    Bench("engines", "Engines: validate and replay against OpenSpiel and py-draughts",
          "bench_engines.py", [], ["--quick"]),
    Bench("validate", "tourney validate against OpenSpiel reading the same CSV (whole process)",
          "bench_validate.py", ["--repeats", "7"], ["--quick"], figures="bench_validate"),
    Bench("import", "Result import against its floor (parse + validate + bare insert)",
          "bench_import.py", [], ["--quick"], pg="db-url",
          pg_full=["--sizes", "10000,100000"], pg_quick=["--sizes", "10000"],
          figures="bench_import"),
    Bench("seating", "Seating methods against the random baseline",
          "bench_seating.py", [], ["--quick"]),
    Bench("repeats", "Seating: repeated pairs at tables of 4, 12-64 players, every event length",
          "bench_repeats.py", [], ["--quick"], figures="bench_repeats"),
    Bench("table-sizes", "Table sizes shared out by balanced seating (random baseline)",
          "bench_table_sizes.py", ["--seeds", "5"], ["--quick"]),
    Bench("ratings", "Ratings: engine against a bare openskill loop; recompute and refresh",
          "bench_ratings.py", [], ["--quick"], pg="postgres"),
    Bench("backtest", "Ratings back-test (quick configuration)",
          "backtest_ratings.py", ["--quick"], ["--quick"]),
    Bench("publish", "Publishing the site: 1,000 and 10,000 players (incremental)",
          "bench_publish.py", ["--sizes", "1000,10000", "--incremental-only"], ["--quick"],
          figures="bench_publish"),
    Bench("series", "Series standings: 10,000 players over 40 events (target: under 2 s)",
          "bench_series.py", ["--repeats", "1"], ["--quick"], pg="db-url",
          pg_full=["--repeats", "1"], pg_quick=["--quick"]),
    Bench("serve", "tourney serve: every table of a round sends its result at once",
          "bench_serve.py", ["--tables", "100"], ["--quick"], pg="postgres"),
    # bbpPairings (bench-only, built from source) is found through BBP_PAIRINGS.
    Bench("swiss", "Swiss pairing against bbpPairings (FIDE Dutch)",
          "bench_swiss.py", ["--rounds-at", "1000=3"], ["--quick"], figures="bench_swiss"),
    Bench("startup", "Start-up: commands against importing click (target: --version within 2x)",
          "bench_startup.py", ["--repeats", "7"], ["--quick"]),
]


# ------------------------------------------------------------------ the machine

def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def cpu_model() -> str:
    for line in _read("/proc/cpuinfo").splitlines():
        if line.lower().startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine()


def memory_gb() -> str:
    match = re.search(r"MemTotal:\s+(\d+) kB", _read("/proc/meminfo"))
    return f"{int(match.group(1)) / 1024 / 1024:.1f} GB" if match else "unknown"


def load() -> str:
    try:
        return " / ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def git_commit() -> str:
    try:
        done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                              capture_output=True, text=True, timeout=10)
        dirty = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT,
                               capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    if done.returncode != 0:
        return "unknown"
    return done.stdout.strip() + (" (with uncommitted changes)" if dirty.stdout.strip() else "")


def package_version(name: str) -> str:
    from importlib import metadata

    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "not installed"


def machine_lines(started: dt.datetime, load_before: str) -> list[str]:
    return [
        f"- date: {started:%Y-%m-%d %H:%M} UTC",
        f"- platform: {platform.platform()}",
        f"- CPU: {cpu_model()}, {os.cpu_count()} logical cores",
        f"- memory: {memory_gb()}",
        f"- Python: {platform.python_implementation()} {platform.python_version()}; "
        f"SQLAlchemy {package_version('SQLAlchemy')}, openskill {package_version('openskill')}, "
        f"psycopg {package_version('psycopg')}; SQLite {__import__('sqlite3').sqlite_version}",
        f"- tourney commit: {git_commit()}",
        f"- load average (1/5/15 min) at the start: {load_before}; at the end: {load()}",
    ]


# The peer of bench_validate.py (OpenSpiel reading and replaying the 20,000-deal file,
# median CPU time) on the machine of earlier results: a second speed reference.
EARLIER_OPENSPIEL = (0.922, "the quiet machine of 2026-12-01 19:59 UTC (RESULTS.md then)")


def machine_speed(quick: bool, timeout: float) -> tuple[dict | None, Outcome]:
    """bench/machine_speed.py's figures (fixed CPU workloads), None if it failed;
    and the outcome of its run."""
    (OUT / "machine_speed.json").unlink(missing_ok=True)
    argv = [str((HERE / "machine_speed.py").relative_to(ROOT))] + (["--quick"] if quick else [])
    outcome = run_script("Machine speed reference", argv, timeout)
    if outcome.status != "ok":
        print(tail(outcome.errors), file=sys.stderr)
        return None, outcome
    return read_figures("machine_speed"), outcome


def speed_lines(speed: dict | None, validate: dict | None) -> list[str]:
    """The Machine section's speed reference: fixed workloads, this machine's CPU
    seconds beside those of the machine of earlier results where known."""
    if speed is None:
        return ["- speed reference: bench/machine_speed.py failed (see its error output)"]
    skill = speed["openskill"]
    lines = [
        f"- speed reference (`bench/machine_speed.py`, CPU s, best of runs): openskill's "
        f"bare rating loop over {skill['matches']:,} matches {skill['seconds']:.2f} s, "
        f"against {skill['earlier_seconds']:.2f} s on the machine of the earlier results "
        f"({skill['earlier_source']}): this machine takes x{skill['slower_than_earlier']:.2f} "
        f"that time; a pure-Python workload {speed['pure_python_s']:.3f} s (no earlier "
        "figure: for later runs to compare with)",
    ]
    peer = ((validate or {}).get("medians") or {}).get("openspiel")
    if peer and validate.get("deals") == VALIDATE_DEALS:
        before, where = EARLIER_OPENSPIEL
        lines.append(
            f"- OpenSpiel reading and replaying the {VALIDATE_DEALS:,}-deal file "
            f"(bench_validate.py's peer, median CPU): {peer['cpu']:.3f} s, against "
            f"{before:.3f} s on {where}: x{peer['cpu'] / before:.2f}")
    return lines


# ------------------------------------------------------------------ PostgreSQL

def find_pg(given: str | None) -> tuple[str | None, str]:
    """A reachable server URL, or None and why not."""
    try:
        from sqlalchemy import create_engine, text
    except ImportError as err:
        return None, str(err)
    errors = []
    for url in ([given] if given else PG_CANDIDATES):
        try:
            engine = create_engine(url, isolation_level="AUTOCOMMIT")
            with engine.connect() as connection:
                version = connection.execute(text("SHOW server_version")).scalar()
            engine.dispose()
            return url, f"PostgreSQL {version}"
        except Exception as err:  # noqa: BLE001 - any failure: try the next one
            errors.append(f"{url.split('@')[-1]}: {str(err).splitlines()[0]}")
    return None, "; ".join(errors)


class ScratchDatabase:
    """A database created on the server for one run and dropped afterwards."""

    def __init__(self, server_url: str, name: str):
        from sqlalchemy import create_engine
        from sqlalchemy.engine import make_url

        self.name = name
        self.admin = create_engine(server_url, isolation_level="AUTOCOMMIT")
        self.url = make_url(server_url).set(database=name).render_as_string(
            hide_password=False)

    def __enter__(self) -> str:
        from sqlalchemy import text

        with self.admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)'))
            connection.execute(text(f'CREATE DATABASE "{self.name}"'))
        return self.url

    def __exit__(self, *exc) -> None:
        from sqlalchemy import text

        with self.admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)'))
        self.admin.dispose()


# ------------------------------------------------------------------ issue 19's targets

@dataclass
class TargetRow:
    """One figure of issue 19's targets: what was measured against the target."""

    figure: str
    measured: str
    target: str
    met: str  # "yes", "no", or "-" (not measured in this run's configuration)


# Seating targets as issue 19 lists them; bench_repeats.py measures each field.
SEATING_ZERO = ((20, 5), (28, 7), (32, 8), (36, 9), (44, 11), (52, 13), (64, 16),
                (24, 6), (48, 11), (48, 12))
SEATING_TABU = {(20, 6): 6, (24, 7): 4, (36, 10): 8, (36, 11): 20, (48, 13): 7,
                (48, 14): 20, (48, 15): 42}
VALIDATE_DEALS = 20_000
IMPORT_ROWS = 1_000_000
PUBLISH_PLAYERS = 10_000
SWISS_RATIO_PLAYERS = 100
SWISS_ROUND_PLAYERS = 1000


def _yes(ok: bool) -> str:
    return "yes" if ok else "no"


def _missing(figure: str, target: str, why: str) -> TargetRow:
    return TargetRow(figure, f"not measured ({why})", target, "-")


def _why(figures: dict, name: str) -> str:
    """Why there are no figures ``name``: what ``figures["_why"]`` says (a failed
    run), else that its benchmark did not run."""
    script = name.removesuffix("_pg")
    return (figures.get("_why") or {}).get(name) or (
        f"{script}.py" + (" on PostgreSQL" if name.endswith("_pg") else "") + " not run")


def _at(sizes: list[dict], key: str, wanted: int) -> tuple[dict | None, str]:
    """The entry of ``sizes`` for ``wanted`` (by ``key``), else the largest, with a
    note; (None, why) when there is none."""
    if not sizes:
        return None, "no sizes"
    for entry in sizes:
        if entry.get(key) == wanted:
            return entry, ""
    largest = max(sizes, key=lambda e: e.get(key, 0))
    return largest, f"at {largest.get(key, 0):,}, not {wanted:,}"


def _validate_rows(figures: dict) -> list[TargetRow]:
    data = figures.get("bench_validate")
    rows = []
    for key, label, goal in (("jobs1", "--jobs 1", 0.5), ("jobs2", "--jobs 2", 0.9)):
        figure = f"validate {VALIDATE_DEALS:,} spardame deals, {label}: speed vs OpenSpiel (wall)"
        target = f">= {goal}"
        speed = ((data or {}).get("speed") or {}).get(key)
        if data is None:
            rows.append(_missing(figure, target, _why(figures, "bench_validate")))
        elif speed is None:
            rows.append(_missing(figure, target, "; ".join(data.get("notes") or [])
                                 or "no OpenSpiel"))
        else:
            measured = f"{speed:.2f}"
            if data.get("deals") != VALIDATE_DEALS:
                measured += f" (at {data.get('deals'):,} deals)"
            rows.append(TargetRow(figure, measured, target, _yes(speed >= goal)
                                  if data.get("deals") == VALIDATE_DEALS else "-"))
    return rows


def _import_rows(figures: dict) -> list[TargetRow]:
    rows = []
    data = figures.get("bench_import")
    entry, note = _at((data or {}).get("sizes") or [], "rows", IMPORT_ROWS)
    exact = entry is not None and not note
    factor = ((figures.get("machine_speed") or {}).get("openskill") or {}).get(
        "slower_than_earlier")
    for figure, target, goal, text in (
            ("import on SQLite, 1M rows: rows/s", ">= 25,000", 25_000,
             lambda e: f"{e['rows_per_s']:,.0f}" + (
                 f" (x{factor:.2f} = {e['rows_per_s'] * factor:,.0f} at the speed of the "
                 "machine of the earlier results, by the speed reference)" if factor else "")),
            ("import on SQLite, 1M rows: import/floor (wall)", ">= 0.75", 0.75,
             lambda e: f"{e['import_over_floor']:.2f} (CPU {e['import_over_floor_cpu']:.2f})"
             + (f"; --jobs 1: {e['one_process_rows_per_s']:,.0f} rows/s, "
                f"{e['one_process_over_floor']:.2f} of the floor"
                if "one_process_rows_per_s" in e else ""))):
        if entry is None:
            rows.append(_missing(figure, target, _why(figures, "bench_import") if data is None else note))
            continue
        value = entry["rows_per_s"] if goal > 1 else entry["import_over_floor"]
        measured = text(entry) + (f" ({note})" if note else "")
        rows.append(TargetRow(figure, measured, target, _yes(value >= goal) if exact else "-"))
    pg = figures.get("bench_import_pg")
    figure = "import on PostgreSQL: rows/s, write path"
    target = "COPY (or a path as fast)"
    pg_entry = max((pg or {}).get("sizes") or [{}], key=lambda e: e.get("rows", 0))
    if not pg_entry:
        rows.append(_missing(figure, target, _why(figures, "bench_import_pg")))
    else:
        copies = pg_entry.get("copy_statements", 0)
        measured = (f"{pg_entry['rows_per_s']:,.0f} at {pg_entry['rows']:,} rows; "
                    + (f"COPY ({copies} statements)" if copies else "no COPY")
                    + f"; import/floor {pg_entry['import_over_floor']:.2f}")
        same = next((e for e in (data or {}).get("sizes") or []
                     if e.get("rows") == pg_entry["rows"]), None)
        if same:
            measured += f"; {pg_entry['rows_per_s'] / same['rows_per_s']:.2f}x SQLite's"
        rows.append(TargetRow(figure, measured, target,
                              _yes(bool(copies) or bool(same and pg_entry["rows_per_s"]
                                                        >= same["rows_per_s"]))))
    return rows


def _publish_rows(figures: dict) -> list[TargetRow]:
    data = figures.get("bench_publish")
    entry, note = _at((data or {}).get("sizes") or [], "players", PUBLISH_PLAYERS)
    rows = []
    figure = "publish after one more round / full publish, 10k players"
    if entry is None:
        rows.append(_missing(figure, "<= 0.15", _why(figures, "bench_publish") if data is None else note))
    else:
        ratio = entry["incremental_ratio"]
        measured = (f"{ratio:.3f} ({entry['again']:.1f} s / {entry['auto_full']:.1f} s; "
                    f"{entry.get('again_rendered', 0):,} of {entry.get('again_pages', 0):,} "
                    "pages rendered)" + (f" ({note})" if note else ""))
        rows.append(TargetRow(figure, measured, "<= 0.15",
                              _yes(ratio <= 0.15) if not note else "-"))
    figure = "full publish uses every core (default processes)"
    if entry is None:
        rows.append(_missing(figure, "every core", _why(figures, "bench_publish") if data is None else note))
    else:
        cpus = data.get("cpus") or data.get("cpu_count") or 1
        jobs = entry.get("auto_jobs", 1)
        rows.append(TargetRow(figure, f"{jobs} processes on {cpus} cores",
                              f"{cpus} processes", _yes(jobs >= cpus)))
    return rows


def _swiss_rows(figures: dict) -> list[TargetRow]:
    data = figures.get("bench_swiss")
    target = "equal or better on all"
    if data is None:
        return [_missing("Swiss vs bbpPairings: quality measures", target, _why(figures, "bench_swiss")),
                _missing(f"Swiss time / bbpPairings' (CPU), {SWISS_RATIO_PLAYERS} players",
                         "<= 2", _why(figures, "bench_swiss")),
                _missing(f"Swiss s/round (wall), {SWISS_ROUND_PLAYERS:,} players", "<= 1 s",
                         _why(figures, "bench_swiss"))]
    rows = []
    sizes = data.get("sizes") or []
    measures = data.get("measures") or []
    if not data.get("peer"):
        rows.append(_missing("Swiss vs bbpPairings: quality measures", target,
                             data.get("peer_note") or "no bbpPairings"))
    for entry in sizes if data.get("peer") else []:
        ours, peer = entry["ours"]["values"], entry["bbp"]["values"]
        worse = [m for m in measures if ours[m] > peer[m]]
        measured = f"{len(measures) - len(worse)} of {len(measures)} equal or better"
        if worse:
            measured += "; worse: " + ", ".join(f"{m} {_num(ours[m])} vs {_num(peer[m])}"
                                                 for m in worse)
        if entry.get("own_event_worse"):
            measured += "; own event worse beyond chance on " + ", ".join(
                entry["own_event_worse"])
        rows.append(TargetRow(
            f"Swiss vs bbpPairings, {entry['players']:,} players ({entry['seeds']} seeds x "
            f"{entry['rounds']} rounds, same state): quality measures",
            measured, f"{target} {len(measures)}", _yes(not worse)))
    figure = f"Swiss time / bbpPairings' (CPU), {SWISS_RATIO_PLAYERS} players"
    entry = next((e for e in sizes if e["players"] == SWISS_RATIO_PLAYERS), None)
    if entry is None or not data.get("peer"):
        rows.append(_missing(figure, "<= 2", f"no {SWISS_RATIO_PLAYERS}-player run"
                             if entry is None else "no bbpPairings"))
    else:
        measured = (f"{entry['cpu_ratio']:.2f} ({entry['ours']['cpu']:.4f} s vs "
                    f"{entry['bbp']['cpu']:.4f} s; wall {entry['wall_ratio']:.2f})")
        if entry.get("peer_cached"):
            measured += " (bbpPairings' times from the cache)"
        rows.append(TargetRow(figure, measured, "<= 2", _yes(entry["cpu_ratio"] <= 2)))
    figure = f"Swiss s/round (wall), {SWISS_ROUND_PLAYERS:,} players"
    entry = next((e for e in sizes if e["players"] == SWISS_ROUND_PLAYERS), None)
    if entry is None:
        rows.append(_missing(figure, "<= 1 s", f"no {SWISS_ROUND_PLAYERS:,}-player run"))
    else:
        ours = entry["ours"]
        wall = ours["wall"]
        measured = f"{wall:.3f} s (CPU {ours['cpu']:.3f} s)"
        if "slowest_wall" in ours:
            measured += f"; slowest round {ours['slowest_wall']:.3f} s"
        measured += f"; mean of {entry['rounds']} rounds x {entry['seeds']} seed(s)"
        rows.append(TargetRow(figure, measured, "<= 1 s", _yes(wall <= 1.0)))
    return rows


def _num(value: float) -> str:
    return f"{value:g}"


def _seating_rows(figures: dict) -> list[TargetRow]:
    data = figures.get("bench_repeats")
    measured = {(t["players"], t["rounds"]): t for t in (data or {}).get("targets") or []}
    rows = []
    for n, r in sorted(set(SEATING_ZERO) | set(SEATING_TABU)):
        goal = SEATING_TABU.get((n, r), 0)
        target = (f"<= {goal} (tabu 150 s)" if (n, r) in SEATING_TABU
                  else "0 (zero-repeat schedule known)")
        figure = f"seating {n} x {r} rounds at 4: repeats, open-ended / --rounds"
        entry = measured.get((n, r))
        if data is None:
            rows.append(_missing(figure, target, _why(figures, "bench_repeats")))
        elif entry is None or entry.get("open_ended") is None \
                or entry.get("with_rounds") is None:
            rows.append(_missing(figure, target, "field not in this run"))
        else:
            a, b = entry["open_ended"], entry["with_rounds"]
            rows.append(TargetRow(figure, f"{a} / {b}", target, _yes(a <= goal and b <= goal)))
    return rows


def issue19_targets(figures: dict[str, dict]) -> list[TargetRow]:
    """Every figure of issue 19's targets from the benchmarks' JSON figures
    (``bench/out/<name>.json`` by name without ``.json``); a figure whose benchmark
    did not run, or ran in a configuration that does not measure it, is a row that
    says so (met: "-")."""
    return (_validate_rows(figures) + _import_rows(figures) + _publish_rows(figures)
            + _swiss_rows(figures) + _seating_rows(figures))


def targets_markdown(rows: list[TargetRow]) -> list[str]:
    met = sum(r.met == "yes" for r in rows)
    missed = sum(r.met == "no" for r in rows)
    unmeasured = sum(r.met == "-" for r in rows)
    return [
        "| figure | measured | target | met |",
        "|---|---|---|---|",
        *[f"| {r.figure} | {r.measured} | {r.target} | {r.met} |" for r in rows],
        "",
        f"{met} of {len(rows)} met, {missed} not met, {unmeasured} not measured in this run.",
    ]


def read_figures(name: str) -> dict | None:
    path = OUT / f"{name}.json"
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


# ------------------------------------------------------------------ running one

@dataclass
class Outcome:
    title: str
    command: str
    seconds: float
    status: str  # "ok", "skipped: ...", "failed: ..."
    output: str = ""
    errors: str = ""


NOISE = re.compile(r"^(written to |\s*written to |profile written)", re.IGNORECASE)


def run_script(title: str, argv: list[str], timeout: float) -> Outcome:
    command = "python " + " ".join(shlex.quote(a) for a in argv)
    shown = re.sub(r"//([^:@/]+)(:[^@/]*)?@", r"//\1@", command)  # no passwords in the file
    print(f"== {title}\n   {shown}", file=sys.stderr, flush=True)
    started = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, *argv], cwd=ROOT, capture_output=True,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired as err:
        seconds = time.perf_counter() - started
        output = err.stdout.decode() if isinstance(err.stdout, bytes) else (err.stdout or "")
        return Outcome(title, shown, seconds, f"failed: stopped after {timeout:.0f} s", output)
    seconds = time.perf_counter() - started
    status = "ok" if done.returncode == 0 else f"failed: exit {done.returncode}"
    print(f"   {status} in {seconds:.0f} s", file=sys.stderr, flush=True)
    return Outcome(title, shown, seconds, status, done.stdout, done.stderr)


def as_markdown(output: str) -> str:
    """A script's printed report, fit to sit under a section of RESULTS.md:
    headings two levels down, "written to" lines dropped; plain-text output
    (no markdown table in it) kept verbatim in a code block."""
    lines = [line for line in output.rstrip().splitlines() if not NOISE.match(line)]
    if not any(re.match(r"^\|[-: |]+\|$", line.strip()) for line in lines):
        return "```\n" + "\n".join(lines).strip("\n") + "\n```"
    shifted = []
    for line in lines:
        if re.match(r"^#{1,4} ", line):
            line = "##" + line
        shifted.append(line)
    return "\n".join(shifted).strip("\n")


def tail(text: str, lines: int = 15) -> str:
    kept = [line for line in text.rstrip().splitlines() if line.strip()][-lines:]
    return "\n".join(kept)


# ------------------------------------------------------------------ all of them

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="Every benchmark's --quick run.")
    parser.add_argument("--pg", metavar="URL", help="The PostgreSQL server (see above).")
    parser.add_argument("--no-pg", action="store_true", help="SQLite only.")
    parser.add_argument("--only", help="Comma-separated names: "
                        + ", ".join(b.name for b in BENCHES))
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--timeout", type=float, default=3600,
                        help="Seconds one benchmark may run (default 3600).")
    parser.add_argument("--set", metavar="NAME=ARGS", action="append", default=[],
                        help="Run benchmark NAME with these arguments instead (NAME-pg: its "
                             "PostgreSQL run), e.g. --set 'publish=--sizes 1000,3000'; "
                             "repeatable.")
    args = parser.parse_args(argv)
    overrides: dict[str, list[str]] = {}
    for item in args.set:
        name, _, rest = item.partition("=")
        overrides[name.strip()] = shlex.split(rest)

    started_at = dt.datetime.now(dt.timezone.utc)
    started = time.perf_counter()
    load_before = load()
    wanted = set(args.only.split(",")) if args.only else None
    names = {b.name for b in BENCHES}
    unknown = ((wanted or set()) | {n.removesuffix("-pg") for n in overrides}) - names
    if unknown:
        parser.error(f"unknown benchmark(s): {', '.join(sorted(unknown))}")
    pg_url, pg_note = (None, "not asked for (--no-pg)") if args.no_pg else find_pg(args.pg)
    print(f"PostgreSQL: {pg_note if pg_url else 'skipped: ' + pg_note}", file=sys.stderr)

    speed, speed_run = machine_speed(args.quick, args.timeout)
    sections: list[str] = []
    summary: list[tuple[str, str, str, str]] = [
        ("machine speed", "-", speed_run.status, f"{speed_run.seconds:.0f} s")]
    figures: dict[str, dict] = {"machine_speed": speed} if speed else {}
    for bench in BENCHES:
        if wanted and bench.name not in wanted:
            continue
        script = HERE / bench.script
        extra = overrides.get(bench.name, bench.quick if args.quick else bench.full)
        rel = str(script.relative_to(ROOT))
        runs: list[tuple[str, list[str], str | None]] = []
        if bench.pg == "postgres":
            # one run does both: the script adds its PostgreSQL part to the SQLite one
            runs.append(("SQLite + PostgreSQL" if pg_url else "SQLite", extra,
                         "postgres" if pg_url else None))
        else:
            runs.append(("SQLite", extra, None))
            if bench.pg == "db-url":
                runs.append(("PostgreSQL", overrides.get(
                    f"{bench.name}-pg",
                    (bench.pg_quick if args.quick else bench.pg_full) or extra), "db-url"))
        for backend, arguments, pg_kind in runs:
            title = bench.title + (" — PostgreSQL" if pg_kind == "db-url" else "")
            figures_name = (bench.figures + ("_pg" if pg_kind == "db-url" else "")
                            if bench.figures else None)
            if figures_name:  # only this run's figures count
                (OUT / f"{figures_name}.json").unlink(missing_ok=True)
            if not script.exists():
                outcome = Outcome(title, f"python {rel}", 0.0,
                                  f"skipped: {rel} does not exist (yet)")
            elif pg_kind == "db-url" and pg_url is None:
                outcome = Outcome(title, f"python {rel} {' '.join(arguments)} --db-url URL",
                                  0.0, f"skipped: no PostgreSQL server ({pg_note})")
            elif pg_kind == "postgres":
                with ScratchDatabase(pg_url, f"tourney_bench_{bench.name}_{os.getpid()}") as url:
                    outcome = run_script(title, [rel, *arguments, "--postgres", url],
                                         args.timeout)
            elif pg_kind == "db-url":
                outcome = run_script(title, [rel, *arguments, "--db-url", pg_url], args.timeout)
            else:
                outcome = run_script(title, [rel, *arguments], args.timeout)
            summary.append((bench.name, backend, outcome.status, f"{outcome.seconds:.0f} s"))
            if figures_name:
                found = read_figures(figures_name) if outcome.status == "ok" else None
                if found is not None:
                    figures[figures_name] = found
                else:
                    figures.setdefault("_why", {})[figures_name] = (
                        f"{bench.script} {outcome.status}" if outcome.status != "ok"
                        else f"{bench.script} wrote no {figures_name}.json")
            sections.append(render(outcome))

    total = time.perf_counter() - started
    targets = targets_markdown(issue19_targets(figures))
    lines = [
        "# Benchmark results",
        "",
        "Written by `python bench/run_all.py"
        + "".join(" " + shlex.quote(a) for a in (argv if argv is not None else sys.argv[1:]))
        + "` in one run; every ratio below was measured in that same run, on this machine.",
        "The figures depend on the machine and on what else ran on it (see the load).",
        "",
        "## Issue 19 targets",
        "",
        "From the figures the benchmarks wrote in this run (`bench/out/*.json`); "
        "\"-\": not measured by this run's configuration (see the benchmark's section).",
        "",
        *targets,
        "",
        "## Machine",
        "",
        *machine_lines(started_at, load_before),
        *speed_lines(speed, figures.get("bench_validate")),
        f"- PostgreSQL: {pg_note if pg_url else 'not used: ' + pg_note}",
        f"- total run time: {total / 60:.1f} min",
        "",
        "## Summary",
        "",
        "| benchmark | database | status | time |",
        "|---|---|---|---:|",
        *[f"| {name} | {backend} | {status} | {seconds} |"
          for name, backend, status, seconds in summary],
        "",
        *sections,
    ]
    text = "\n".join(lines).rstrip() + "\n"
    args.out.write_text(text, encoding="utf-8")
    print("Issue 19 targets\n")
    print("\n".join(targets))
    print(f"written to {args.out}", file=sys.stderr)
    return 0


def render(outcome: Outcome) -> str:
    parts = [f"## {outcome.title}", "", f"`{outcome.command}`", ""]
    if outcome.status.startswith("skipped"):
        parts.append(f"Skipped: {outcome.status.split(': ', 1)[1]}.")
        return "\n".join(parts) + "\n"
    parts.append(f"Ran {outcome.seconds:.0f} s; {outcome.status}.")
    parts.append("")
    if outcome.output.strip():
        parts.append(as_markdown(outcome.output))
    if outcome.status != "ok":
        parts += ["", "The end of its error output:", "", "```",
                  tail(outcome.errors) or "(nothing)", "```"]
    return "\n".join(parts) + "\n"


if __name__ == "__main__":
    sys.exit(main())
