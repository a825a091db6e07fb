"""What one result's import reads on a built league, in process (issue 34).

Imports a record file (one match, say) into a SQLite league that ``bench_league.py
--keep DIR`` left, as a dry run (nothing is written, so the league stays as it is)
``--repeats`` times after one warm-up, and prints the median and least CPU
milliseconds of an import (start-up and imports excluded: what a ``tourney serve``
submission pays) with the statements sent and the rows fetched by one import.
Run it with each checkout's python to compare two versions on the same league.

Usage:  python bench/import_reads.py LEAGUE_DIR/league.db FILE [--repeats 15]
"""
from __future__ import annotations

import argparse
import statistics
import time

from sqlalchemy import event as sa_event
from sqlalchemy.engine.cursor import CursorResult

from tourney.cli.results import import_summary
from tourney.records.checked import ImportOptions
from tourney.storage.db import open_engine, transaction
from tourney.tournament.results import import_results


def count_reads(engine) -> dict[str, int]:
    """Statements sent on ``engine`` and rows fetched by any result, counted into
    the returned dict (the fetches of a CursorResult: every row passes one)."""
    counted = {"statements": 0, "rows": 0}

    def statement(*_args) -> None:
        counted["statements"] += 1

    sa_event.listen(engine, "before_cursor_execute", statement)
    for name in ("_fetchiter_impl", "_fetchall_impl", "_fetchmany_impl"):
        def fetch_many(self, *args, _fetch=getattr(CursorResult, name), **kwargs):
            rows = list(_fetch(self, *args, **kwargs))
            counted["rows"] += len(rows)
            return rows
        setattr(CursorResult, name, fetch_many)
    fetch_one = CursorResult._fetchone_impl

    def fetch_counted(self, *args, **kwargs):
        row = fetch_one(self, *args, **kwargs)
        counted["rows"] += row is not None
        return row
    CursorResult._fetchone_impl = fetch_counted
    return counted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("database")
    parser.add_argument("file")
    parser.add_argument("--repeats", type=int, default=15)
    opts = parser.parse_args()
    engine = open_engine(f"sqlite:///{opts.database}")
    counted = count_reads(engine)
    times = []
    for turn in range(opts.repeats + 1):
        counted.update(statements=0, rows=0)
        start = time.process_time()
        with transaction(engine) as session:
            report = import_results(session, opts.file, ImportOptions(jobs=1, dry_run=True))
        if turn:  # the first imports the engines' modules
            times.append(time.process_time() - start)
    print(f"{import_summary(report)}: {statistics.median(times) * 1000:.1f} ms CPU median "
          f"({min(times) * 1000:.1f} least) of {opts.repeats}; one import sent "
          f"{counted['statements']} statements and fetched {counted['rows']} rows")


if __name__ == "__main__":
    main()
