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
parse + validate + a bare ``executemany``, the rating engine against a bare
openskill loop), its ratio was measured in the same run, on the same machine.

Usage:  python bench/run_all.py [--quick] [--pg URL | --no-pg] [--only NAME,...]
                                [--set NAME=ARGS ...] [--out FILE] [--timeout SECONDS]

The benchmarks (NAME) and their arguments in a full run (``--quick``: each
script's ``--quick``): engines (defaults), validate (defaults), import (10k, 100k and 1M rows, on
SQLite and on PostgreSQL: ``import-pg``), seating (defaults), repeats (defaults),
table-sizes (defaults), ratings
(defaults, with ``--postgres``), backtest (``--quick``), publish (``--sizes
1000,10000``), serve (defaults), swiss (defaults: 20 to 1,000 players against bbpPairings, found
through the ``BBP_PAIRINGS`` environment variable; skipped with a note without
it), startup (defaults: 15 runs of each command). ``--set`` replaces one
benchmark's arguments (a smaller configuration when the full one would take too
long); the command line is written at the top of RESULTS.md.

``--pg`` names a PostgreSQL server (a URL to an existing database there, used to
create and drop the scratch databases); by default the local server is tried as
the test suite does (127.0.0.1:5432, user postgres or root) and the PostgreSQL
runs are skipped with a note when none answers.
"""
from __future__ import annotations

import argparse
import datetime as dt
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


BENCHES = [
    Bench("engines", "Engines: validate and replay against OpenSpiel and py-draughts",
          "bench_engines.py", [], ["--quick"]),
    Bench("validate", "tourney validate against OpenSpiel reading the same CSV (whole process)",
          "bench_validate.py", [], ["--quick"]),
    Bench("import", "Result import against its floor (parse + validate + bare executemany)",
          "bench_import.py", [], ["--quick"], pg="db-url",
          pg_full=[], pg_quick=["--sizes", "10000"]),
    Bench("seating", "Seating methods against the random baseline",
          "bench_seating.py", [], ["--quick"]),
    Bench("repeats", "Seating: repeated pairs at tables of 4, 12-64 players, every event length",
          "bench_repeats.py", [], ["--quick"]),
    Bench("table-sizes", "Table sizes shared out by balanced seating (random baseline)",
          "bench_table_sizes.py", [], ["--quick"]),
    Bench("ratings", "Ratings: engine against a bare openskill loop; recompute and refresh",
          "bench_ratings.py", [], ["--quick"], pg="postgres"),
    Bench("backtest", "Ratings back-test (quick configuration)",
          "backtest_ratings.py", ["--quick"], ["--quick"]),
    Bench("publish", "Publishing the site: 1,000 and 10,000 players",
          "bench_publish.py", ["--sizes", "1000,10000"], ["--quick"]),
    Bench("serve", "tourney serve: every table of a round sends its result at once",
          "bench_serve.py", [], ["--quick"], pg="postgres"),
    # bbpPairings (bench-only, built from source) is found through BBP_PAIRINGS.
    Bench("swiss", "Swiss pairing against bbpPairings (FIDE Dutch)",
          "bench_swiss.py", [], ["--quick"]),
    Bench("startup", "Start-up: commands against importing click (target: --version within 2x)",
          "bench_startup.py", [], ["--quick"]),
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

    sections: list[str] = []
    summary: list[tuple[str, str, str, str]] = []
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
            sections.append(render(outcome))

    total = time.perf_counter() - started
    lines = [
        "# Benchmark results",
        "",
        "Written by `python bench/run_all.py"
        + "".join(" " + shlex.quote(a) for a in (argv if argv is not None else sys.argv[1:]))
        + "` in one run; every ratio below was measured in that same run, on this machine.",
        "The figures depend on the machine and on what else ran on it (see the load).",
        "",
        "## Machine",
        "",
        *machine_lines(started_at, load_before),
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
