"""One table's result sent to `tourney serve`, in process: time and SQL statements.

Usage:  python bench/bench_submission.py [--tables N] [--db-url URL] [--profile]

An event of N tables of 4 (svarta-maja, 3 deals a match, score sheets) is seated
in a scratch SQLite file (or the database ``--db-url`` names: an empty one), and
each table's result is handed to :func:`tourney.app.tables.submit` as the server
hands a POST's body to it (auto-accept, one transaction each, one after the
other), then each is sent again (a second phone of the table: "unchanged").
Measured per submission: wall ms (median and mean), CPU ms of this process
(median; SQLite works in it, so on a busy machine the steadier figure) and the SQL
statements the transaction ran (counted on the engine, BEGIN and COMMIT included).
``--profile`` runs the first sends under cProfile and prints the top functions.

Issue 29's load target (100 tables x 2 phones at once, p99 < 1 s) rests on
this cost: bench/bench_serve.py measures the server itself.
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import tempfile
import time
from pathlib import Path

from bench_serve import seat_event  # the same seated event as the server's load
from sqlalchemy import event as sa_event

from tourney.app import tables
from tourney.storage.db import open_engine, transaction
from tourney.tournament import table_links


def send_all(engine, work: list[tuple[str, str]], expected: str, statements: list[int]
             ) -> tuple[list[float], list[float], list[int]]:
    """Each (token, body) submitted in a transaction of its own: wall ms, CPU ms
    (this process's: SQLite works in it) and statements, each."""
    times, cpu, counts = [], [], []
    for token, body in work:
        before = statements[0]
        started, started_cpu = time.perf_counter(), time.process_time()
        with transaction(engine) as session:  # as the server's POST handler runs it
            link = table_links.link_by_token(session, token, lock=True)
            verdict = tables.submit(session, link, body, auto_accept=True, locked=True)
        times.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
        counts.append(statements[0] - before)
        assert verdict.outcome == expected, verdict.to_json()
    return times, cpu, counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--db-url")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tourney-bench-submission-") as folder:
        db_url = args.db_url or f"sqlite:///{Path(folder) / 'bench.db'}"
        work = seat_event(db_url, "bench", args.tables, 0)
        engine = open_engine(db_url)
        statements = [0]

        @sa_event.listens_for(engine, "before_cursor_execute")
        def count(*_args) -> None:
            statements[0] += 1

        @sa_event.listens_for(engine, "begin")
        def count_begin(*_args) -> None:
            statements[0] += 1

        @sa_event.listens_for(engine, "commit")
        def count_commit(*_args) -> None:
            statements[0] += 1

        profiler = cProfile.Profile() if args.profile else None
        if profiler is not None:
            profiler.enable()
        stored = send_all(engine, work, "stored", statements)
        if profiler is not None:
            profiler.disable()
        unchanged = send_all(engine, work, "unchanged", statements)
    print(f"{args.tables} tables, {engine.dialect.name}")
    print("| send | wall ms median | wall ms mean | CPU ms median | statements median "
          "| statements max |")
    print("|---|---:|---:|---:|---:|---:|")
    for what, (times, cpu, counts) in (("first (stored)", stored),
                                       ("again (unchanged)", unchanged)):
        print(f"| {what} | {statistics.median(times):.2f} | {statistics.fmean(times):.2f} "
              f"| {statistics.median(cpu):.2f} | {statistics.median(counts):.0f} "
              f"| {max(counts)} |")
    if profiler is not None:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(30)


if __name__ == "__main__":
    main()
