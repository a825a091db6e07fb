"""A national league on one machine (issue 34): every organizer's command as the
league grows, on SQLite and PostgreSQL.

A league of N players: N/50 small events of 100 players (each player in two; two
rounds played, dated before the big event) and a big event holding everyone (two
rounds). The commands that are not measured run in this process: the small
events are created, entered, seated and played by the library, all events of a
step in one transaction (the rows the CLI commands an event stored; a 32,000-player
league builds in minutes), the rest by click's test runner. The measured ones run as
processes of their own, each timed (wall seconds and CPU seconds, user + system of
the command and its children) with its peak RSS (``wait4``), as in
``bench_seating_scale.py``:

- ``player import`` of the N players; ``event enter big --all``; ``round seat big``
  for rounds 1 and 2; ``result import`` of round 1 of the big event;
- one new match: one table's rows of round 2 imported (rated after every rated
  match); the floor: the same file imported again (nothing changes: the
  command's own fixed cost);
- a correction of that newest match (``--replace`` of another play of its table)
  and of round 1's table 1 (every match of round 1 and the new ones come after it);
  these four ``--repeats`` times (tables 1, 2, ... as new matches; the corrections
  to the other play and back in turn), the median kept;
- ``standings big --json``, ``rating show --variant spardame``, ``rating history``;
- ``publish --out site`` in full, again after one more result, and again with
  nothing changed (``--no-replays`` unless ``--replays``).

The growth exponent between two sizes is log(t2 / t1) / log(n2 / n1) (of time and
of peak RSS), between consecutive sizes and from each size to the last. PostgreSQL
runs on a scratch database per size (createdb / dropdb on 127.0.0.1, or
``--pg-host``). Every league of a database is kept until the end: with
``--publish-repeats R`` the full publish runs R times on each, the sizes in turn
(8k, 16k, 32k, 8k, 16k, 32k, ...: a change in the machine's load falls on all sizes
alike), each into a new folder, the median shown and each run's CPU seconds (the
runs after the first see the league with the one more result of ``publish after
one result``). The 1-minute load average as each measured command starts is shown
per size.

Usage:  python bench/bench_league.py [--sizes 500,2000,8000,16000,32000]
            [--db sqlite|postgresql|both] [--quick] [--replays] [--repeats R]
            [--publish-repeats R] [--keep DIR]
Prints markdown and writes bench/out/bench_league.md and bench/out/bench_league.json.
"""
from __future__ import annotations

import argparse
import csv
import datetime as dt
import io
import os
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

from bench_seating_scale import compile_project, exponent, run_measured
from click.testing import CliRunner
from figures import write_figures

from tourney.app.events import create_event, enter_players, get_event
from tourney.app.rounds import seat_next_round, simulate_round
from tourney.cli.main import cli
from tourney.engines import get_game
from tourney.records.csv_format import write_records
from tourney.storage.db import dispose_engines, open_engine, reading, resolve_url, transaction

OUT = Path(__file__).resolve().parent / "out" / "bench_league.md"
BIG = "big"
VARIANT = "spardame"
# Two deals a match: simulating and replaying the league's records stays short; the
# commands' work per match does not depend on it.
TABLE_SIZES = "4"
SMALL_RULES = {"deals": "2"}
RULES = ["--variant", VARIANT, "--table-sizes", TABLE_SIZES, "--rule", "deals=2"]
SMALL_EVENT = 100
SMALL_ROUNDS = 2
FIRST_DAY = dt.date(2024, 1, 1)
BIG_DAY = dt.date(2026, 6, 1)

# (key, the row's label) in the order the commands run.
COMMANDS = [
    ("player_import", "player import (N players)"),
    ("enter_all", "event enter --all"),
    ("seat_1", "round seat, round 1"),
    ("import_round", "result import, round 1 (N/4 matches)"),
    ("seat_2", "round seat, round 2"),
    ("one_match", "result import, one new match"),
    ("floor", "result import, the same match again (floor)"),
    ("correct_last", "result import --replace, the newest match"),
    ("correct_early", "result import --replace, round 1 table 1"),
    ("standings", "standings --json"),
    ("rating_show", "rating show --variant"),
    ("rating_history", "rating history (one player)"),
    ("publish_full", "publish, full"),
    ("publish_one", "publish after one result"),
    ("publish_same", "publish, nothing changed"),
]


def player_name(i: int) -> str:
    return f"Player {i:05d}"


class League:
    """One league's folder and database: the unmeasured commands in this process,
    the measured ones as processes."""

    def __init__(self, folder: str, db: str):
        self.folder, self.db = folder, db
        self.runner = CliRunner()
        self.figures: dict[str, tuple[float, float, float]] = {}
        self.loads: list[float] = []  # the 1-minute load average as each measurement starts

    @property
    def url(self) -> str:
        """The database's URL (a SQLite file's path made absolute)."""
        return resolve_url(self.db if "://" in self.db else os.path.join(self.folder, self.db))

    def run(self, *args: str) -> str:
        """A command in this process (not measured); its stdout. The database is
        named by its absolute URL: this process keeps its engines by URL, and a
        relative file name would reach another league's file."""
        cwd = os.getcwd()
        os.chdir(self.folder)
        try:
            result = self.runner.invoke(cli, ["--db", self.url, *args], prog_name="tourney")
        finally:
            os.chdir(cwd)
        if result.exit_code:
            raise SystemExit(f"tourney {' '.join(args)} failed ({result.exit_code}): "
                             f"{result.stderr[-2000:]} {result.exception!r}")
        return result.stdout

    def measure(self, key: str, *args: str) -> tuple[float, float, float]:
        dispose_engines()  # this process holds no connection while the measured one works
        self.loads.append(os.getloadavg()[0])
        self.figures[key] = run_measured(list(args), self.folder, db=self.db)
        return self.figures[key]

    def measure_median(self, key: str, runs: list[list[str]]) -> None:
        """Each command of ``runs`` measured in turn; the median time and the
        largest peak RSS."""
        dispose_engines()
        figures = []
        for args in runs:
            self.loads.append(os.getloadavg()[0])
            figures.append(run_measured(args, self.folder, db=self.db))
        self.figures[key] = (statistics.median(s for s, _, _ in figures),
                             max(m for _, m, _ in figures),
                             statistics.median(c for _, _, c in figures))

    def write(self, name: str, text: str) -> str:
        path = Path(self.folder, name)
        partial = path.with_suffix(".part")
        partial.write_text(text, encoding="utf-8")
        partial.replace(path)
        return name


def tables(records: str, wanted: set[str]) -> str:
    """The rows of ``records`` (a record CSV) whose table is in ``wanted``."""
    rows = list(csv.reader(io.StringIO(records)))
    column = rows[0].index("table")
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(
        [rows[0]] + [row for row in rows[1:] if row[column] in wanted])
    return out.getvalue()


def build_small_events(league: League, n: int) -> None:
    """N/50 events of 100 players, two rounds each, all rounds imported by one file
    a round. The events are created, entered, seated and played by the library in
    this process, all events of a step in one transaction (a CLI command an event
    cost a session, a schema check and a commit each: the build of 32,000 players,
    640 events, took hours on PostgreSQL); what is stored is the same as the
    commands store (``event create``/``enter``, ``round seat``, ``simulate
    --event --round`` with its default seed), each round imported by ``result
    import`` as before."""
    events = [f"club-{e:04d}" for e in range(max(1, n // 50))]
    engine = open_engine(league.url)
    try:
        with transaction(engine) as session:
            for e, slug in enumerate(events):
                created = create_event(session, slug, VARIANT, date=(
                    FIRST_DAY + dt.timedelta(days=e)).isoformat(), rules=SMALL_RULES,
                    table_sizes=TABLE_SIZES)
                enter_players(session, created,
                              [player_name((e * 50 + i) % n) for i in range(SMALL_EVENT)])
        game = get_game(VARIANT)
        for number in range(1, SMALL_ROUNDS + 1):
            with transaction(engine) as session:
                for slug in events:
                    seat_next_round(session, get_event(session, slug))
            with reading(engine) as session:
                records = [record for slug in events
                           for record in simulate_round(session, slug, number)]
            played = io.StringIO()
            write_records(played, records, game_for=lambda record: game)
            league.run("result", "import",
                       league.write(f"small-{number}.csv", played.getvalue()))
    finally:
        dispose_engines()


def publish_args(out: str, replays: bool) -> list[str]:
    return ["publish", "--out", out] + ([] if replays else ["--no-replays"])


def one_league(league: League, n: int, replays: bool, repeats: int) -> dict:
    """Build a league of ``n`` players and measure each command on it once (the
    one-result commands ``repeats`` times)."""
    league.write("players.csv", "name,club\n" + "".join(
        f"{player_name(i)},Club {i % 50}\n" for i in range(n)))
    league.measure("player_import", "player", "import", "players.csv")
    start = time.perf_counter()
    build_small_events(league, n)
    small_events = time.perf_counter() - start
    league.run("event", "create", BIG, *RULES, "--date", BIG_DAY.isoformat(), "--seed", "1")
    league.measure("enter_all", "event", "enter", BIG, "--all")
    league.measure("seat_1", "round", "seat", BIG)
    round_1 = league.run("simulate", "--event", BIG, "--round", "1", "--seed", "1")
    # Another play of round 1's table 1: the early correction.
    other_1 = league.run("simulate", "--event", BIG, "--round", "1", "--seed", "2")
    league.write("big-1.csv", round_1)
    league.write("early.csv", tables(round_1, {"1"}))
    league.write("fix-early.csv", tables(other_1, {"1"}))
    league.measure("import_round", "result", "import", "big-1.csv")
    league.measure("seat_2", "round", "seat", BIG)
    round_2 = league.run("simulate", "--event", BIG, "--round", "2", "--seed", "1")
    other_2 = league.run("simulate", "--event", BIG, "--round", "2", "--seed", "2")
    # The one-result commands, each `repeats` times (the median is kept): tables 1,
    # 2, ... of round 2 one after the other as new matches; the last of them
    # imported again (the floor); then it and round 1's table 1 corrected, each to
    # another play and back in turn.
    for table in range(1, repeats + 2):
        league.write(f"new-{table}.csv", tables(round_2, {str(table)}))
    newest = f"new-{repeats}.csv"
    league.write("fix-last.csv", tables(other_2, {str(repeats)}))
    league.measure_median("one_match", [["result", "import", f"new-{table}.csv"]
                                        for table in range(1, repeats + 1)])
    league.measure_median("floor", [["result", "import", newest]] * repeats)
    for key, fixed, stored in (("correct_last", "fix-last.csv", newest),
                               ("correct_early", "fix-early.csv", "early.csv")):
        league.measure_median(key, [["result", "import", "--replace",
                                     (fixed, stored)[turn % 2]] for turn in range(repeats)])
    league.measure("standings", "standings", BIG, "--json")
    league.measure("rating_show", "rating", "show", "--variant", VARIANT)
    league.measure("rating_history", "rating", "history", player_name(0))
    publish = publish_args("site", replays)
    league.measure("publish_full", *publish)
    league.run("result", "import", f"new-{repeats + 1}.csv")
    league.measure("publish_one", *publish)
    league.measure("publish_same", *publish)
    return {"players": n, "events": max(1, n // 50) + 1, "commands": league.figures,
            "small_events_seconds": small_events}


def pg_database(host: str, n: int, stack: ExitStack) -> str:
    """A new scratch database on ``host``, dropped when ``stack`` closes; its URL."""
    name = f"bench_league_{os.getpid()}_{n}"
    subprocess.run(["createdb", "-h", host, name], check=True)
    stack.callback(subprocess.run, ["dropdb", "-h", host, "--if-exists", name], check=True)
    return f"postgresql+psycopg://{host}:5432/{name}"


def repeat_full_publish(leagues: list[tuple[League, dict]], runs: int, replays: bool) -> None:
    """``publish`` in full ``runs - 1`` more times on every league, the sizes in turn
    (8k, 16k, 32k, 8k, 16k, 32k, ...: a change in the machine's load falls on every
    size alike), each into a new folder; the median of all runs is the figure kept,
    each run's figures beside it."""
    for row in (row for _, row in leagues):
        row["publish_full_runs"] = [row["commands"]["publish_full"]]
    for run in range(1, runs):
        for league, row in leagues:
            row["publish_full_runs"].append(
                league.measure("publish_full", *publish_args(f"site-full-{run}", replays)))
    for league, row in leagues:
        done = row["publish_full_runs"]
        row["commands"]["publish_full"] = (statistics.median(s for s, _, _ in done),
                                           max(m for _, m, _ in done),
                                           statistics.median(c for _, _, c in done))
        row["load"] = (min(league.loads), max(league.loads))


def table(db: str, rows: list[dict]) -> str:
    """Wall seconds, CPU seconds and peak MB per command and size, and the growth
    exponents of each between consecutive sizes and from each size to the last."""
    sizes = [r["players"] for r in rows]
    last = len(rows) - 1
    pairs = list(zip(range(last), range(1, last + 1))) + [(a, last) for a in range(last - 1)]
    head = ("| command | " + " | ".join(f"{n:,}: wall s / CPU s / MB" for n in sizes)
            + "".join(f" | exponent {sizes[a]:,}->{sizes[b]:,}: wall / CPU / MB"
                      for a, b in pairs) + " |")
    lines = [f"#### {db}", "", head, "|---" + "|---:" * (len(sizes) + len(pairs)) + "|"]
    for key, label in COMMANDS:
        cells = [r["commands"][key] for r in rows]
        line = f"| {label} | " + " | ".join(f"{s:.2f} / {c:.2f} / {m:.0f}" for s, m, c in cells)
        for a, b in pairs:
            line += " | " + " / ".join(
                f"{exponent(cells[a][i], cells[b][i], sizes[a], sizes[b]):.2f}"
                for i in (0, 2, 1))
        lines.append(line + " |")
    lines.append("")
    for r in rows:
        c = r["commands"]

        def to_floor(key: str) -> str:
            return (f"{c[key][0] / c['floor'][0]:.2f}x wall, "
                    f"{c[key][2] / c['floor'][2]:.2f}x CPU")

        lines.append(f"- {r['players']:,} players ({r['events']} events, built and "
                     f"measured in {r['build_seconds']:.0f} s, the small events built in "
                     f"{r.get('small_events_seconds', 0):.0f} s): against the floor, one new match "
                     f"{to_floor('one_match')}; the newest match corrected "
                     f"{to_floor('correct_last')}; round 1 table 1 corrected "
                     f"{to_floor('correct_early')}. Publish after one result / full: "
                     f"{c['publish_one'][0] / c['publish_full'][0]:.2f} wall, "
                     f"{c['publish_one'][2] / c['publish_full'][2]:.2f} CPU")
        runs = r.get("publish_full_runs", [])
        if len(runs) > 1:
            cpu = [c for _, _, c in runs]
            lines.append(f"  - publish in full, {len(runs)} runs (CPU s): "
                         + ", ".join(f"{c:.2f}" for c in cpu)
                         + f"; median {statistics.median(cpu):.2f}, spread (max - min) / "
                         f"median {(max(cpu) - min(cpu)) / statistics.median(cpu):.0%}")
        if "load" in r:
            lines.append(f"  - load average (1 min) as its commands started: "
                         f"{r['load'][0]:.1f}-{r['load'][1]:.1f}")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=None,
                        help="comma-separated player counts (default 500,2000,8000,16000,32000)")
    parser.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--quick", action="store_true", help="500 and 1,000 players")
    parser.add_argument("--replays", action="store_true", help="publish the deal replays too")
    parser.add_argument("--repeats", type=int, default=3,
                        help="runs of each one-result command (the median is shown)")
    parser.add_argument("--publish-repeats", type=int, default=1,
                        help="runs of the full publish on each league, the sizes in turn "
                             "(the median is shown, and each run)")
    parser.add_argument("--pg-host", default="127.0.0.1")
    parser.add_argument("--keep", default=None, help="build the SQLite leagues under DIR and keep them")
    opts = parser.parse_args()
    sizes = [int(s) for s in (opts.sizes or ("500,1000" if opts.quick
                                              else "500,2000,8000,16000,32000")).split(",")]
    databases = ["sqlite", "postgresql"] if opts.db == "both" else [opts.db]
    compile_project()
    results: dict[str, list[dict]] = {}
    for db in databases:
        # Every league of this database is kept until its full publish has been
        # repeated on all of them in turn.
        with ExitStack() as stack:
            leagues = []
            for n in sizes:
                folder = (tempfile.mkdtemp(prefix=f"league{n}-{db}-", dir=opts.keep)
                          if opts.keep else
                          stack.enter_context(tempfile.TemporaryDirectory(prefix=f"league{n}")))
                start = time.perf_counter()
                league = League(folder, "league.db" if db == "sqlite"
                                else pg_database(opts.pg_host, n, stack))
                row = one_league(league, n, opts.replays, opts.repeats)
                row["build_seconds"] = time.perf_counter() - start
                leagues.append((league, row))
                print(f"{db} {n}: " + ", ".join(f"{k} {s:.2f}s/{c:.2f}s CPU/{m:.0f}MB"
                                                 for k, (s, m, c) in row["commands"].items()),
                      flush=True)
            repeat_full_publish(leagues, opts.publish_repeats, opts.replays)
            results[db] = [row for _, row in leagues]
            print(table(db, results[db]), flush=True)
    text = "\n".join(table(db, rows) for db, rows in results.items())
    print(text)
    OUT.parent.mkdir(exist_ok=True)
    partial = OUT.with_suffix(".md.part")
    partial.write_text(text, encoding="utf-8")
    partial.replace(OUT)
    write_figures("bench_league", {"leagues": results, "publish_replays": opts.replays,
                                   "repeats": opts.repeats,
                                   "publish_repeats": opts.publish_repeats})


if __name__ == "__main__":
    sys.exit(main())
