"""What the limits and logouts shared through the database cost (`tourney serve
--workers N`), against the same in one process's memory (the baseline, same run).

Usage:  python bench/bench_shared_limits.py [--postgres URL] [--calls N]

Measured per call, in this process (no HTTP), on a scratch SQLite file and, with
``--postgres URL``, a scratch database on that server (dropped after):

- ``organizer cookie``: ``Sessions.get`` of a logged-in organizer's cookie (the
  one read a request of the organizer makes with ``--workers N``; a visitor's
  cookie and a table's link read nothing, so they are not measured);
- ``wrong guess, one address``: ``FailureLimit.fail`` of one address again and
  again (the row locked, read and rewritten);
- ``wrong guess, new addresses``: ``FailureLimit.fail`` of a new address each
  time (an insert and the prune of the table).

Each row gives microseconds per call for memory and the database, and their ratio.
A wrong guess is answered after ``failure_delay`` (0.2 s) whatever it costs.
"""
from __future__ import annotations

import argparse
import contextlib
import tempfile
import time
from pathlib import Path

from bench_serve import scratch_postgres

from tourney.storage.db import dispose_engines, open_engine
from tourney.storage.schema import ensure_schema
from tourney.web.security import (
    DatabaseFailures,
    DatabaseRevocations,
    FailureLimit,
    MemoryFailures,
    Sessions,
)


def per_call(work, calls: int) -> float:
    """Microseconds per call of ``work(i)`` (the best of three rounds)."""
    best = float("inf")
    for _ in range(3):
        began = time.perf_counter()
        for i in range(calls):
            work(i)
        best = min(best, time.perf_counter() - began)
    return best / calls * 1e6


def measure(label: str, db_url: str, calls: int) -> list[str]:
    engine = open_engine(db_url)
    ensure_schema(engine)
    rows = []
    memory = Sessions("secret")
    shared = Sessions("secret", revoked=DatabaseRevocations(engine))
    sid, _ = shared.start()
    gone, _ = shared.start()
    shared.drop(gone)  # one logout remembered
    cases = [
        ("organizer cookie", lambda i: memory.get(sid), lambda i: shared.get(sid), calls),
    ]
    stores = {"memory": MemoryFailures(), "database": DatabaseFailures(engine, "link")}
    limits = {kind: FailureLimit(20, 60, store=store) for kind, store in stores.items()}
    cases += [
        ("wrong guess, one address", lambda i: limits["memory"].fail("10.0.0.1"),
         lambda i: limits["database"].fail("10.0.0.1"), calls // 4),
        ("wrong guess, new addresses", lambda i: limits["memory"].fail(f"m{i}.{time.time()}"),
         lambda i: limits["database"].fail(f"d{i}.{time.time()}"), calls // 4),
    ]
    for name, in_memory, in_database, count in cases:
        base = per_call(in_memory, count)
        shared_cost = per_call(in_database, count)
        rows.append(f"| {label} | {name} | {count} | {base:.1f} | {shared_cost:.1f} | "
                    f"{shared_cost / base:.0f} |")
    engine.dispose()
    dispose_engines()
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", metavar="URL")
    parser.add_argument("--calls", type=int, default=2000)
    args = parser.parse_args(argv)
    calls = max(4, min(args.calls, 100_000))
    rows = ["| database | call | calls | memory µs | database µs | database/memory |",
            "|---|---|---:|---:|---:|---:|"]
    with tempfile.TemporaryDirectory() as tmp:
        rows += measure("SQLite", f"sqlite:///{Path(tmp) / 'limits.db'}", calls)
    if args.postgres:
        with scratch_postgres(args.postgres) as url:
            rows += measure("PostgreSQL", url, calls)
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        raise SystemExit(main())
